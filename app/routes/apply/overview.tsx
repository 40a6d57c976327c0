import { data as answer, Form, Link } from 'react-router'
import type { Route } from './+types/overview'
import { latestApplicantMessage } from '#app/cases/case-store.server.ts'
import { getCaseStaff, limitVisitor, loadApplication } from './+applicant.server.ts'
import { privateLink } from '#app/cases/tokens.server.ts'
import { AidScheduleBox, ApplicantMessage, PlannedVisit } from '#app/cases/applicant-message.tsx'
import { aidSchedules } from '#app/aid/monthly-aid.server.ts'
import { describeSchedule } from '#app/aid/describe.ts'
import { upcomingVisit } from '#app/cases/visits.server.ts'
import { statusInfo } from '#app/cases/case-statuses.ts'
import { canAnswerConsent, canOpenStep, CHECK_STEP, continueStep, CONSENT_STEP, findSection, isEditable, stepAccess, stepMap } from '#app/cases/journey.ts'
import { consentTitle } from '#app/privacy/consent-rules.ts'
import { isOffered } from '#app/forms/conditions.ts'
import { formatDate } from '#app/text/format.ts'
import { Field, PageTitle, SelectField } from '#app/components/forms.tsx'
import { flashContext, redirectWithFlash } from '#app/http/flash.server.ts'
import { accountNotice, giveIban, transferAccounts } from '#app/cases/payee-accounts.server.ts'
import { banks } from '#app/forms/options.ts'
import { CaseChangeError } from '#app/cases/refusals.ts'
import { publicLimits } from '#app/http/ip-limit.server.ts'
import { verificationOn } from '#app/verify/case-verification.server.ts'
import { lookupKeys } from './+lookup-keys.ts'
import { runningMonthlyAid } from '#app/cases/flags.server.ts'
import type { Database } from '#app/db/client.server.ts'
import type { CaseRow } from '#app/cases/case-store.server.ts'

export async function loader({ request, params, context }: Route.LoaderArgs) {
	const { db, row, definition, state, completed } = await loadApplication(request, params.token)
	const [message, visit, running, aids, account] = await Promise.all([latestApplicantMessage(db, row.id), upcomingVisit(db, row.id), runningAidOfOwner(db, row), aidSchedules(db, [row.id]), accountNotice(db, row.id)])
	const base = `/apply/r/${params.token}`
	const incomplete = row.submittedAt !== null && isEditable(row)
	const opens = (key: string) => stepAccess(definition, row, state, key).open
	return {
		created: context.get(flashContext)?.field === 'created' ? context.get(flashContext)!.message : null,
		// A transfer the bank returned: the family gives another IBAN here (finance confirms it).
		account,
		// The bank chosen with the IBAN now: the new IBAN's bank starts on it.
		bank: account ? ((await transferAccounts(db, [row.id])).get(row.id)?.bank ?? null) : null,
		ibanSaved: context.get(flashContext)?.field === 'iban' ? context.get(flashContext)!.message : null,
		// With codes on, the lookup opens the case again on a new link (app/routes/apply/status.tsx).
		lookupOpens: verificationOn(),
		organisation: definition.kind === 'association',
		link: privateLink(params.token),
		// Started from (or opening) an institution's account: the account leads back to it too.
		fromAccount: row.accountId !== null || (definition.createsAccount !== undefined && row.submittedAt !== null),
		title: definition.title,
		reference: row.reference,
		editable: isEditable(row),
		submitted: row.submittedAt ? formatDate(row.submittedAt) : null,
		status: row.submittedAt ? { ...statusInfo(row.status), id: row.status } : null,
		visit,
		// Staff's latest message, unless it is the visit's own (said once, above it).
		message: message?.note && message.note !== visit ? message.note : null,
		// The approved aid's schedule: paid, left, next, or held with the reason they were told.
		aids: aids.map(describeSchedule),
		incomplete,
		runningAid: running?.reference ?? null,
		continueTo: `${base}/${continueStep(definition, row, state)}`,
		sections: [
			// The map of steps, the same the step pages count (stepMap), with the consent step among them
			// (until the case is sent: then it stays as sent). A bank or health step is on it before
			// consent, not reachable yet, and after a refusal, as not asked.
			...stepMap(definition, state.answers).flatMap((key) => {
				if (key === CONSENT_STEP) {
					if (!canAnswerConsent(row)) return []
					return [{ title: consentTitle(definition), to: `${base}/${key}`, done: completed.has(key), open: opens(key), asked: false, skipped: false }]
				}
				const section = findSection(definition, key)!
				const offered = isOffered(section, state.consent)
				return [
					{
						title: section.title,
						to: `${base}/${section.key}`,
						done: offered && completed.has(section.key),
						open: offered && opens(section.key),
						// Sent back as incomplete: the sections staff asked about are the ones to change.
						asked: offered && incomplete && canOpenStep(row, definition, section.key),
						skipped: state.consent === 'declined' && !offered,
					},
				]
			}),
			{ title: 'مراجعة البيانات والإرسال', to: `${base}/${CHECK_STEP}`, done: false, open: opens(CHECK_STEP), asked: false, skipped: false },
		],
	}
}

/** The family's new IBAN after the bank returned a transfer: the only form of this page; it works without JavaScript. */
export async function action({ request, params }: Route.ActionArgs) {
	const { db, row } = await loadApplication(request, params.token)
	await limitVisitor(request, publicLimits.save)
	const form = await request.formData()
	const typed = String(form.get('iban') ?? '').slice(0, 60)
	const bank = form.has('bank') ? String(form.get('bank')).slice(0, 40) : undefined
	try {
		await giveIban(db, row.id, typed, (await getCaseStaff(request))?.id ?? null, bank)
	} catch (error) {
		if (!(error instanceof CaseChangeError)) throw error
		// Refused: the page shows what was typed and chosen, with why.
		return answer({ ibanError: error.message, typed, bank: bank ?? null }, { status: 400 })
	}
	return redirectWithFlash(`/apply/r/${params.token}`, { tone: 'success', message: 'استلمنا رقم الآيبان الجديد، ونحوّل الدعم إليه بعد أن يتأكد منه مسؤول مالي.', field: 'iban' })
}

/**
 * A monthly aid still being paid on another case of this ID in this programme, told only once this
 * case's mobile is proven and is that case's mobile too (docs/product.md#one-open-application-per-programme).
 */
async function runningAidOfOwner(db: Database, row: CaseRow) {
	if (!row.mobile || !row.mobileVerifiedAt) return undefined
	return (await runningMonthlyAid(db, row)).find((other) => other.mobile === row.mobile)
}

export default function Overview({ loaderData: data, actionData }: Route.ComponentProps) {
	return (
		<div className="mx-auto max-w-2xl space-y-6 px-4 py-8">
			<PageTitle title={data.title} />
			<h1 className="text-2xl font-bold text-brand-900">{data.title}</h1>

			<div className={`rounded-xl border-2 p-5 ${data.created ? 'border-brand-600 bg-brand-50' : 'border-stone-200 bg-white'}`}>
				{data.created ? (
					<p role="status" className="text-lg font-bold text-brand-900">
						{data.created}
					</p>
				) : null}
				<p className="mt-1">
					رقم الطلب:{' '}
					<strong className="text-xl tracking-wider" dir="ltr">
						{data.reference}
					</strong>
				</p>
				<p className="mt-3 font-semibold">
					{data.fromAccount ? (
						<>
							رابط الطلب الخاص. يمكنك أيضاً العودة إلى الطلب في أي وقت من{' '}
							<Link to="/account" className="link">
								حساب المؤسسة
							</Link>
							، وكل فتح منه يعطي الطلب رابطاً جديداً ويوقف الرابط السابق:
						</>
					) : data.lookupOpens ? (
						`رابط طلبك الخاص — احتفظ به لتعود إلى طلبك مباشرة، وإن فقدته فافتح طلبك من «الاستعلام عن طلب» ${lookupKeys(data.organisation)}:`
					) : (
						'رابط طلبك الخاص — احتفظ به، فهو الطريقة الوحيدة لإكمال الطلب أو تعديله:'
					)}
				</p>
				<p className="mt-1 break-all rounded-lg bg-white p-3 font-mono text-sm" dir="ltr">
					{data.link}
				</p>
				<p className="mt-2 text-sm text-stone-700">لا تشارك هذا الرابط مع أحد.</p>
			</div>

			{data.runningAid ? (
				<p role="note" className="rounded-xl border-s-4 border-gold-500 bg-gold-100 p-4 font-semibold text-gold-700">
					لك دعم شهري ما زال يُصرف في هذا البرنامج على طلبك السابق رقم <bdi dir="ltr">{data.runningAid}</bdi>. يمكنك إكمال هذا الطلب، وتدرسه المؤسسة مع مراعاة ذلك الدعم.
				</p>
			) : null}

			{data.status ? (
				<div className="rounded-xl border border-stone-200 bg-white p-5">
					<p>
						حالة الطلب: <span className={`rounded-full px-3 py-1 text-sm font-bold ${data.status.badge}`}>{data.status.name}</span>
					</p>
					<p className="mt-2 text-sm text-stone-700">أُرسل في {data.submitted}</p>
					<p className="mt-2">{data.status.next}</p>
					<PlannedVisit visit={data.visit} />
					<ApplicantMessage message={data.message} />
					<AidScheduleBox aids={data.aids} />
				</div>
			) : null}

			{data.account ? (
				<section aria-labelledby="new-iban" className="rounded-xl border-2 border-gold-500 bg-white p-5">
					<h2 id="new-iban" className="text-lg font-bold text-brand-900">
						{data.account.waiting ? 'الآيبان الجديد' : 'أعاد البنك التحويل: أرسل آيباناً آخر'}
					</h2>
					{data.account.bounced ? <p className="mt-2">أعاد البنك التحويل الذي صرفناه لك. السبب: {data.account.bounced}</p> : null}
					{data.ibanSaved ? (
						<p role="status" className="mt-2 font-semibold text-brand-900">
							{data.ibanSaved}
						</p>
					) : data.account.waiting ? (
						<p className="mt-2">استلمنا رقم الآيبان الجديد، ونحوّل الدعم إليه بعد أن يتأكد منه مسؤول مالي.</p>
					) : null}
					<Form method="post" className="mt-3 space-y-3">
						<SelectField label="البنك الذي فيه الحساب" options={banks} selectProps={{ id: 'bank', name: 'bank', required: true, defaultValue: actionData?.bank ?? data.bank ?? banks[0]!.value }} />
						<Field
							label="رقم الآيبان لحساب آخر باسمك"
							hint="يبدأ بـ SA ويتبعه 22 رقماً، كما في كشف حسابك أو تطبيق البنك."
							errors={actionData?.ibanError ? [actionData.ibanError] : undefined}
							inputProps={{ id: 'iban', name: 'iban', dir: 'ltr', inputMode: 'text', autoComplete: 'off', maxLength: 40, required: true, defaultValue: actionData?.typed ?? 'SA' }}
						/>
						<button type="submit" className="btn-primary">
							إرسال الآيبان
						</button>
					</Form>
				</section>
			) : null}

			{data.editable ? (
				<>
					<ol className="divide-y divide-stone-200 rounded-xl border border-stone-200 bg-white">
						{data.sections.map((section, index) => (
							<li key={section.to} className="flex min-h-14 items-center justify-between gap-3 px-4 py-2">
								{section.open ? (
									<Link to={section.to} className="link">
										{index + 1}. {section.title}
									</Link>
								) : (
									<span className="text-stone-600">
										{index + 1}. {section.title}
									</span>
								)}
								<span
									className={`shrink-0 rounded-full px-3 py-1 text-xs font-bold ${section.asked ? 'bg-orange-100 text-orange-900' : section.done ? 'bg-brand-100 text-brand-900' : section.open ? 'bg-sky-100 text-sky-900' : 'bg-stone-100 text-stone-700'}`}
								>
									{section.asked
										? 'مطلوب تعديله'
										: section.skipped
											? 'لا يُطلب دون موافقتك'
											: data.incomplete && section.done
												? 'لا يحتاج تعديلاً'
												: section.done
													? 'مكتمل'
													: section.open
														? 'لم يكتمل'
														: 'لا يمكن البدء بعد'}
								</span>
							</li>
						))}
					</ol>
					<Link to={data.continueTo} className="btn-primary">
						{data.incomplete ? 'تعديل المطلوب' : 'متابعة الطلب'}
					</Link>
				</>
			) : null}
		</div>
	)
}
