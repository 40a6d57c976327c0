import { data, Form, Link, redirect } from 'react-router'
import { Fragment } from 'react'
import type { Route } from './+types/check'
import { Totals } from '#app/forms/collection-rows.tsx'
import { notifyFoundation } from '#app/notify/outbox.server.ts'
import { IncompleteCaseError, listAttachments, NothingChangedError, submitCase } from '#app/cases/case-store.server.ts'
import { loadApplication, limitVisitor } from './+applicant.server.ts'
import { openAccountFor } from '#app/runner/institution.server.ts'
import { findSlot } from '#app/runner/files.server.ts'
import { dropPages, pagesPending, pagesSignature, scheduleDocuments } from '#app/cases/document-pages.server.ts'
import { AccountTakenError } from '#app/accounts/institution-accounts.server.ts'
import { publicLimits } from '#app/http/ip-limit.server.ts'
import { AnswerLines } from '#app/forms/answer-lines.tsx'
import { describeSection } from '#app/forms/describe.ts'
import { canChangeStep, CHECK_STEP, CONSENT_STEP, stepAccess } from '#app/cases/journey.ts'
import { askedSections, offeredSlots } from '#app/forms/conditions.ts'
import { asksConsent, consentTitle, sensitiveItems } from '#app/privacy/consent-rules.ts'
import { ErrorSummary, Honeypot, isHoneypotFilled, PageTitle } from '#app/components/forms.tsx'

export const handle = { hydrate: true }

const ACK_MISSING = 'الرجاء الإقرار بصحة البيانات قبل إرسال الطلب'
/** Another institution took the name since the step was saved: nothing is sent, everything typed is kept. */
const accountTaken = (taken: AccountTakenError['taken'], step: string) =>
	`${taken.userName && taken.email ? 'اسم المستخدم والبريد الإلكتروني صارا' : taken.userName ? 'اسم المستخدم صار' : 'البريد الإلكتروني صار'} لحساب مؤسسة أخرى، فلم يُرسل الطلب. غيّر${taken.userName && taken.email ? 'هما' : 'ه'} في خطوة «${step}» ثم أرسل الطلب؛ بقية بياناتك ومرفقاتك محفوظة.`

/** The check page again, with why the case was not sent and, when there is one, the step to change. */
const refused = (error: string, status: number, change: { to: string; label: string } | null = null) => data({ error, change }, { status })

async function openCheck(request: Request, token: string) {
	const application = await loadApplication(request, token)
	const base = `/apply/r/${token}`
	const access = stepAccess(application.definition, application.row, application.state, CHECK_STEP)
	if (!access.open) throw redirect(access.goTo ? `${base}/${access.goTo}` : base)
	return { ...application, base }
}

export async function loader({ params, request }: Route.LoaderArgs) {
	const { db, row, definition, state, base } = await openCheck(request, params.token)
	// Pages given a moment ago: their document is made before it is listed here (no slot made again).
	await scheduleDocuments(db, definition, row.id, [])
	const files = await listAttachments(db, row.id)
	return {
		title: definition.title,
		acknowledgement: definition.acknowledgement,
		base,
		// The consent answer, and where to change it while the case is not yet sent (docs/product.md#privacy-and-consent).
		consent: asksConsent(definition)
			? {
					title: consentTitle(definition),
					answer: row.consent === 'given' ? 'أوافق' : row.consent === 'declined' ? 'لا أوافق' : 'سُجّل قبل طلب الموافقة',
					detail: row.consent === 'declined' ? `لن تُجمع هذه البيانات ولن تُرسل مع طلبك: ${sensitiveItems(definition).join('، ')}.` : null,
					change: canChangeStep(row, definition, CONSENT_STEP) ? `${base}/${CONSENT_STEP}?return=${CHECK_STEP}` : null,
				}
			: null,
		sections: askedSections(definition, state.answers, state.consent).map((section) => ({
			key: section.key,
			title: section.title,
			// A case sent back as incomplete: only what staff asked about can be changed.
			change: canChangeStep(row, definition, section.key) ? `${base}/${section.key}?return=${CHECK_STEP}` : null,
			answers: describeSection(section, state.answers[section.key]),
			files: offeredSlots(section, state.consent).map((slot) => ({
				label: slot.label,
				names: files.filter((file) => file.slot === slot.slot).map((file) => file.originalName),
			})),
		})),
	}
}

export async function action({ params, request }: Route.ActionArgs) {
	const { db, row, definition, state, base } = await openCheck(request, params.token)
	await limitVisitor(request, publicLimits.save)
	const formData = await request.formData()
	if (isHoneypotFilled(formData)) throw data('طلب غير صالح', { status: 400 })
	if (formData.get('acknowledge') !== 'on') return refused(ACK_MISSING, 400)
	// A registration opens its account when first sent, in the same transaction: a user name or
	// e-mail taken meanwhile leaves the case unsent, and the applicant can change it here.
	const account = row.submittedAt === null ? definition.createsAccount : undefined
	// Every document made of its pages first: a photo sent a moment ago is cleaned now if its turn
	// has not come. A page that could not be read is the applicant's to remove or give again.
	await scheduleDocuments(db, definition, row.id)
	const pending = await pagesPending(db, row.id)
	const unreadable = pending.failed.map((slot) => findSlot(definition, slot)).find((found) => found !== undefined)
	if (unreadable) return refused(`تعذرت قراءة صورة في «${unreadable.slot.label}». احذفها أو أضفها من جديد ثم أرسل الطلب.`, 400, { to: `${base}/${unreadable.section.key}?return=${CHECK_STEP}#slot-${unreadable.slot.slot}`, label: `تعديل ${unreadable.slot.label}` })
	if (pending.processing) return refused('ما زالت بعض الصفحات قيد التجهيز. انتظر لحظات ثم أرسل الطلب.', 409)
	const pagesMade = await pagesSignature(db, row.id)
	try {
		await submitCase(db, definition, row, account ? (tx) => openAccountFor(tx, definition, row, state.answers) : undefined)
	} catch (error) {
		if (account && error instanceof AccountTakenError) {
			const step = definition.sections.find((section) => section.key === account.section)!
			return refused(accountTaken(error.taken, step.title), 409, { to: `${base}/${step.key}?return=${CHECK_STEP}`, label: `تغيير ${step.title}` })
		}
		if (error instanceof NothingChangedError)
			return refused('لم تعدّل بعد شيئاً مما طلبته المؤسسة. عدّل الأقسام أو المرفقات المطلوبة ثم أرسل الطلب.', 400)
		if (!(error instanceof IncompleteCaseError)) throw error
		return refused('بعض الخطوات لم تكتمل بعد. أكملها ثم أرسل الطلب.', 400)
	}
	// Sent: the documents are kept, their pages are not (made again first if a page changed meanwhile).
	if ((await pagesSignature(db, row.id)) !== pagesMade) await scheduleDocuments(db, definition, row.id)
	await dropPages(db, row.id)
	// The foundation hears of new applications; a corrected one shows in its list as new again.
	// By e-mail (NOTIFY_EMAIL, else its own address), kept with the case's messages; never fails the sending.
	if (row.submittedAt === null) await notifyFoundation(db, row.id)
	return redirect(`${base}/done`)
}

export default function Check({ loaderData, actionData }: Route.ComponentProps) {
	const error = actionData?.error
	return (
		<div className="mx-auto max-w-2xl px-4 py-6">
			<PageTitle title={`مراجعة البيانات - ${loaderData.title}`} error={Boolean(error)} />
			<Link to={`${loaderData.base}/${loaderData.sections.at(-1)!.key}`} className="link inline-flex min-h-11 items-center">
				<span aria-hidden="true">→</span>&nbsp;رجوع
			</Link>
			{error ? (
				<ErrorSummary
					items={[
						{
							message: error,
							fieldId: error === ACK_MISSING ? 'acknowledge' : undefined,
						},
					]}
				/>
			) : null}
			{actionData?.change ? (
				<p className="-mt-3 mb-6">
					<Link to={actionData.change.to} className="link">
						{actionData.change.label}
					</Link>
				</p>
			) : null}
			<h1 className="mt-2 text-2xl font-bold text-brand-900">راجع بياناتك قبل الإرسال</h1>
			<div className="mt-6 space-y-6">
				{loaderData.consent ? (
					<section aria-labelledby="check-consent" className="rounded-xl border border-stone-200 bg-white p-4">
						<div className="flex items-center justify-between gap-3">
							<h2 id="check-consent" className="text-lg font-bold">
								{loaderData.consent.title}
							</h2>
							{loaderData.consent.change ? (
								<Link to={loaderData.consent.change} className="link">
									تغيير<span className="sr-only"> {loaderData.consent.title}</span>
								</Link>
							) : null}
						</div>
						<p className="mt-3 font-semibold">{loaderData.consent.answer}</p>
						{loaderData.consent.detail ? <p className="mt-1 text-sm text-stone-700">{loaderData.consent.detail}</p> : null}
					</section>
				) : null}
				{loaderData.sections.map((section) => (
					<section key={section.key} aria-labelledby={`check-${section.key}`} className="rounded-xl border border-stone-200 bg-white p-4">
						<div className="flex items-center justify-between gap-3">
							<h2 id={`check-${section.key}`} className="text-lg font-bold">
								{section.title}
							</h2>
							{section.change ? (
								<Link to={section.change} className="link">
									تغيير<span className="sr-only"> {section.title}</span>
								</Link>
							) : null}
						</div>
						<dl className="mt-3 space-y-2 text-sm">
							{section.answers.map((item) =>
								item.kind === 'line' ? (
									<div key={item.line.label} className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)] gap-3 border-t border-stone-100 pt-2">
										<dt className="text-stone-600">{item.line.label}</dt>
										<dd className="font-semibold break-words">
											<bdi>{item.line.value || '—'}</bdi>
										</dd>
									</div>
								) : (
									<Fragment key={item.group.label}>
										{item.group.rows.map((row, index) => (
											<div key={index} className="border-t border-stone-100 pt-2">
												<dt className="font-bold text-brand-900">
													{item.group.itemLabel} {index + 1}
												</dt>
												<dd>
													<AnswerLines lines={row} />
												</dd>
											</div>
										))}
										{item.group.rows.length && item.group.totals.length ? (
											<div className="border-t border-stone-100 pt-2">
												<dt className="sr-only">المجاميع</dt>
												<dd>
													<Totals totals={item.group.totals} />
												</dd>
											</div>
										) : null}
									</Fragment>
								),
							)}
							{section.files.map((slot) => (
								<div key={slot.label} className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)] gap-3 border-t border-stone-100 pt-2">
									<dt className="text-stone-600">{slot.label}</dt>
									<dd className="font-semibold break-words">
										{slot.names.length
											? slot.names.map((name) => (
													<bdi key={name} className="block">
														{name}
													</bdi>
												))
											: '—'}
									</dd>
								</div>
							))}
						</dl>
					</section>
				))}
			</div>
			<Form method="post" className="mt-8 space-y-4 rounded-xl border-2 border-brand-600 bg-white p-4">
				<Honeypot />
				<div className="flex items-start gap-3">
					<input id="acknowledge" name="acknowledge" type="checkbox" className="mt-1 size-5 shrink-0 accent-brand-700" aria-invalid={error === ACK_MISSING ? true : undefined} />
					<label htmlFor="acknowledge" className="font-semibold">
						{loaderData.acknowledgement}
					</label>
				</div>
				<button type="submit" className="btn-primary w-full sm:w-auto">
					إرسال الطلب
				</button>
			</Form>
		</div>
	)
}
