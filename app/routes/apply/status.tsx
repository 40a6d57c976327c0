import { getCollectionProps, getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, redirect } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/status'
import { getDb } from '#app/db/database.server.ts'
import { latestApplicantMessage, lookupCases, rotateResumeToken } from '#app/cases/case-store.server.ts'
import { privateLink } from '#app/cases/tokens.server.ts'
import { addressCheck, countHits, publicLimits, type IpLimited } from '#app/http/ip-limit.server.ts'
import { AidScheduleBox, ApplicantMessage, PlannedVisit } from '#app/cases/applicant-message.tsx'
import { aidSchedules } from '#app/aid/monthly-aid.server.ts'
import { describeSchedule } from '#app/aid/describe.ts'
import { upcomingVisit } from '#app/cases/visits.server.ts'
import { statusInfo } from '#app/cases/case-statuses.ts'
import { licenceNumberField, nationalIdField, nationalIdMessages, nationalIdProblem, saudiMobileField } from '#app/domain/validators.ts'
import { applicationDefinitions, findDefinition } from '#app/forms/registry.ts'
import { getNotifier } from '#app/notify/notifier.server.ts'
import { formatDate } from '#app/text/format.ts'
import { ChoiceGroup, ErrorSummary, Field, Honeypot, isHoneypotFilled, PageTitle, TOO_MANY_TRIES, useSubmitCount, validationTiming } from '#app/components/forms.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { actionHeaders } from '#app/utils/action-headers.ts'
import { maskedLocalMobile, proveMobile, verificationOn } from '#app/verify/case-verification.server.ts'
import { redirectWithFlash } from '#app/http/flash.server.ts'
import { checkCode, codeComesBy, codeProblem, lookupSubject, sendCode, sendProblem, codesGoToLog } from '#app/verify/codes.server.ts'
import { clientIp } from '#app/utils/origin.server.ts'
import { claimProvenDraft } from '#app/runner/draft-limits.ts'
import { CodeForm } from '#app/verify/code-form.tsx'
import { provenLookup, proveLookup, rememberCase } from '#app/verify/remembered.server.ts'

const common = {
	mobile: saudiMobileField(),
	intent: z.enum(['lookup', 'send-link', 'open', 'send-code', 'check-code']).default('lookup'),
	code: z.string().max(20).optional(),
	reference: z.string().optional(),
}

/** A person looks up by national ID; an association or institution by its licence or permit number. */
const lookupSchema = z.preprocess(
	// A person unless said otherwise (the choice is ticked on the page; an old bookmark posts none).
	(values) => ({ who: 'person', ...(values as object) }),
	z.discriminatedUnion('who', [
		// The checksum is left to the lookup: staff may have accepted an ID that fails it (see the action).
		z.object({ who: z.literal('person'), nationalId: nationalIdField({ allowChecksumFailure: true }), ...common }),
		z.object({ who: z.literal('organisation'), nationalId: licenceNumberField(), ...common }),
	]),
)

const organisationTypes = applicationDefinitions.filter((definition) => definition.kind === 'association').map((definition) => definition.type)
const personTypes = applicationDefinitions.filter((definition) => definition.kind === 'individual').map((definition) => definition.type)

/** The lookup's second step: the code sent to the mobile typed. */
interface CodeStep {
	mobile: string
	sent: boolean
	logged: boolean
	error: string | null
	/** The ID typed fails the checksum: said whether or not a case has it (staff may have accepted one). */
	mistyped: boolean
	/** Past the SMS budgets: when the code comes at the latest. */
	comesBy: string | null
}

/** A refusal for too many tries says when to come back (Retry-After), on the page as in the answer. */
export const headers = actionHeaders

export async function action({ request }: Route.ActionArgs) {
	const formData = await request.formData()
	const submission = parseWithZod(formData, { schema: lookupSchema })
	const db = await getDb()
	// Said in the form, as the sign-in page does: what they typed stays, and they learn when to retry.
	const refuse = (limited: IpLimited) => data({ result: submission.reply({ formErrors: [limited.message] }), cases: null, sent: null, limited: true }, { status: 429, headers: limited.headers })
	// Per address only a ceiling (many families share one); guessing is stopped per number and per mobile.
	const ceiling = await countHits(db, [addressCheck(request, publicLimits.lookup)])
	if (ceiling) return refuse(ceiling)
	if (submission.status !== 'success' || isHoneypotFilled(formData)) {
		return data({ result: submission.reply(), cases: null, sent: null }, { status: 400 })
	}
	const { who, nationalId, mobile, intent, reference, code } = submission.value
	// Every post that names an ID and a mobile counts against both, whatever it asks (a code, a check,
	// a link): guessing either half through any of them runs into the same limits.
	const guessed = await countHits(db, [
		{ rule: publicLimits.lookupPerId, key: nationalId, reason: 'استعلامات كثيرة بهذا الرقم في الساعة الأخيرة.' },
		{ rule: publicLimits.lookupPerMobile, key: mobile, reason: 'استعلامات كثيرة برقم الجوال هذا في الساعة الأخيرة.' },
	])
	if (guessed) return refuse(guessed)
	const rows = await lookupCases(db, nationalId, mobile, who === 'person' ? personTypes : organisationTypes)
	// An ID that fails the checksum finds the cases staff accepted it on; otherwise it was mistyped.
	// With codes on, the page says so either way (beside the code's step): it must not tell whether one exists.
	const mistyped = who === 'person' && nationalIdProblem(nationalId) === 'checksum'
	if (!rows.length && mistyped && !verificationOn()) {
		return data({ result: submission.reply({ fieldErrors: { nationalId: [nationalIdMessages.checksum] } }), cases: null, sent: null }, { status: 400 })
	}
	// Nothing about a case before a code sent to its mobile proves who asks (docs/security.md#verified-mobile).
	let proof: string | undefined
	if (verificationOn()) {
		const subject = await lookupSubject(db, nationalId, mobile)
		if (!(await provenLookup(db, request, subject))) {
			const ask = (extra: { error?: string; sent?: boolean; comesBy?: string }, status = 200, headers?: Record<string, string>) =>
				data(
					{
						result: submission.reply(),
						cases: null,
						sent: null,
						code: { mobile: maskedLocalMobile(mobile), sent: extra.sent ?? true, logged: codesGoToLog(), error: extra.error ?? null, mistyped, comesBy: extra.comesBy ?? null } satisfies CodeStep,
					},
					{ status, headers },
				)
			if (intent === 'check-code') {
				const checked = await checkCode(db, 'lookup', subject, code ?? '')
				if (!checked.ok) return ask({ error: codeProblem(checked) }, 400)
				proof = await proveLookup(db, subject)
			} else if (intent === 'lookup' || intent === 'send-code') {
				// Texted only when a case matches; otherwise a stand-in code nobody receives is kept, counted
				// and refused as a real one, and the SMS never holds the answer up: the page says, answers and
				// takes the same either way, so it tells no stranger whether a case matches.
				const sent = await sendCode(db, { purpose: 'lookup', subject, mobile, nationalId, address: clientIp(request) }, new Date(), rows.length ? 'background' : 'none')
				if (!sent.ok && (sent.reason !== 'too-soon' || intent === 'send-code'))
					return ask({ error: sendProblem(sent), sent: sent.reason === 'too-soon' }, sent.reason === 'not-sent' ? 503 : 429, sent.reason === 'limited' ? sent.headers : undefined)
				return ask(sent.ok && sent.by ? { comesBy: `${codeComesBy(sent.by)}، إن كان لدينا طلب بهذه البيانات. إن لم يصلك حتى ذلك الوقت فاطلب رمزاً جديداً.` } : {})
			} else return ask({ error: 'انتهت مدة التحقق. اطلب رمزاً جديداً.', sent: false }, 400)
		}
	}
	let sent: { reference: string; ok: boolean } | null = null
	if (intent === 'send-link') {
		const row = rows.find((candidate) => candidate.reference === reference && candidate.email)
		if (row) {
			const definition = findDefinition(row.type)
			const ok = await rotateResumeToken(db, row, (token) => getNotifier().sendResumeLink({ to: row.email, reference: row.reference, formTitle: definition?.title ?? '', link: privateLink(token) }))
			sent = { reference: row.reference, ok }
		}
	}
	// Only once a code proved the mobile: without codes, the ID and mobile alone would hand over the case.
	if (intent === 'open' && verificationOn()) {
		// Proven here: the case opens on this browser through a new link (the one before stops working).
		const row = rows.find((candidate) => candidate.reference === reference)
		if (row) {
			// The code just typed went to this case's mobile: a case from before codes has it proven now, and
			// a draft nobody proved becomes its applicant's here as on its own verify page.
			const definition = findDefinition(row.type)
			if ((await proveMobile(db, row)) && definition && (await claimProvenDraft(db, definition, row)) === 'duplicate') return redirect(`/apply/${row.type}/new?duplicate=1`)
			let opened = ''
			await rotateResumeToken(
				db,
				row,
				async (token) => {
					opened = token
					return true
				},
				undefined,
				'browser',
			)
			const headers = new Headers()
			headers.append('Set-Cookie', await rememberCase(db, request, row.id))
			return redirectWithFlash(`/apply/r/${opened}`, { tone: 'success', message: 'فُتح طلبك على هذا الجهاز برابط جديد، والرابط السابق لم يعد يعمل.', field: 'created' }, headers)
		}
	}
	const cases = await Promise.all(
		rows.map(async (row) => {
			const [message, visit, aids] = await Promise.all([latestApplicantMessage(db, row.id), upcomingVisit(db, row.id), aidSchedules(db, [row.id])])
			const status = row.submittedAt
				? statusInfo(row.status)
				: { name: 'لم يُرسل بعد', badge: 'bg-stone-100 text-stone-800', next: verificationOn() ? 'اضغط «إكمال الطلب» لتكمله ثم ترسله.' : 'أكمل الطلب من رابطه الخاص ثم أرسله.' }
			return {
				reference: row.reference,
				name: row.applicantName,
				form: findDefinition(row.type)?.title ?? row.type,
				submitted: row.submittedAt ? formatDate(row.submittedAt) : null,
				status,
				visit,
				// Staff's latest message, unless it is the visit's own (said once, above it).
				message: message?.note && message.note !== visit ? message.note : null,
				aids: aids.map(describeSchedule),
				canSendLink: Boolean(row.email) && getNotifier().emails,
				canOpen: verificationOn(),
				maskedEmail: row.email ? maskEmail(row.email) : null,
			}
		}),
	)
	const found = { result: submission.reply(), cases, sent, code: null as CodeStep | null }
	return proof ? data(found, { headers: { 'Set-Cookie': proof } }) : found
}

/**
 * Enough for the applicant to recognise their address, not enough to learn it: «f•••@e•••.org».
 * Whoever knows a national ID and a mobile sees it.
 */
function maskEmail(email: string): string {
	const at = email.lastIndexOf('@')
	const domain = email.slice(at + 1)
	const dot = domain.lastIndexOf('.')
	const suffix = dot > 0 ? domain.slice(dot) : ''
	return `${email.charAt(0)}•••@${domain.charAt(0)}•••${suffix}`
}

export default function Status({ actionData }: Route.ComponentProps) {
	const [form, fields] = useForm<{ who: 'person' | 'organisation'; nationalId: string; mobile: string; intent: string; reference?: string }>({
		id: 'lookup',
		lastResult: actionData?.result,
		...validationTiming,
		defaultValue: { who: 'person' },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: lookupSchema }),
	})
	const who = getCollectionProps(fields.who, { type: 'radio', options: ['person', 'organisation'] })
	const [submitCount, countSubmit] = useSubmitCount()
	const summary = [
		...(form.errors ?? []).map((message) => ({ message })),
		...(fields.who.errors ?? []).map((message) => ({ message, fieldId: `${fields.who.id}-person` })),
		...(fields.nationalId.errors ?? []).map((message) => ({ message, fieldId: fields.nationalId.id })),
		...(fields.mobile.errors ?? []).map((message) => ({ message, fieldId: fields.mobile.id })),
	]
	const failed = submitCount > 0 || actionData?.result.status === 'error'
	const cases = actionData?.cases
	const codeStep = actionData && 'code' in actionData ? actionData.code : null
	// What was typed, sent again with each later form (the code, «send my link», «open»).
	const typed = { who: fields.who.value ?? 'person', nationalId: fields.nationalId.value ?? '', mobile: fields.mobile.value ?? '' }
	// First on the page; once a code is asked for or cases are shown, they come first (a phone's screen
	// shows the answer, not the form again) and the form follows for another lookup.
	const lookupForm = (
		<Form method="post" {...getFormProps(form)} onSubmitCapture={countSubmit} noValidate className="space-y-5 rounded-xl border border-stone-200 bg-white p-5">
			<Honeypot />
			<ChoiceGroup
				legend="من قدّم الطلب؟"
				errors={fields.who.errors}
				errorId={fields.who.errorId}
				choices={[
					{ props: who[0]!, label: 'فرد أو أسرة: برقم الهوية أو الإقامة' },
					{ props: who[1]!, label: 'جمعية أو مؤسسة: برقم الترخيص أو التصريح' },
				]}
			/>
			<Field
				label="رقم الهوية أو رقم الترخيص"
				hint="رقم هويتك إن كنت فرداً، أو رقم ترخيص الجمعية أو تصريح المؤسسة"
				errors={fields.nationalId.errors}
				inputProps={{ ...getInputProps(fields.nationalId, { type: 'text' }), inputMode: 'numeric', dir: 'ltr', autoComplete: 'off' }}
			/>
			<Field
				label="رقم الجوال"
				hint="جوال المتقدم، أو جوال ممثل الجمعية أو مستخدم المؤسسة"
				errors={fields.mobile.errors}
				inputProps={{ ...getInputProps(fields.mobile, { type: 'tel' }), inputMode: 'numeric', dir: 'ltr', autoComplete: 'tel' }}
			/>
			<button type="submit" name="intent" value="lookup" className="btn-primary">
				استعلام
			</button>
		</Form>
	)
	return (
		<>
			<PageTitle title="الاستعلام عن طلب" error={failed && summary.length > 0} />
			<PageHeader title="الاستعلام عن طلب" lead="اكتب الرقم ورقم الجوال اللذين قُدّم بهما الطلب." crumbs={[{ to: '/apply', label: 'تقديم طلب' }]} />
			<div className="mx-auto max-w-2xl space-y-6 px-4 py-8">
				{failed ? <ErrorSummary key={submitCount} items={summary} title={actionData && 'limited' in actionData ? TOO_MANY_TRIES : undefined} /> : null}
				{codeStep || cases ? null : lookupForm}

				{codeStep ? (
					<section aria-labelledby="code-step" className="rounded-xl border border-stone-200 bg-white p-5">
						<h2 id="code-step" className="text-xl font-bold text-brand-900">
							تأكيد رقم الجوال
						</h2>
						<p className="mt-2 mb-4">
							إن كان لدينا طلب بهذه البيانات فقد أرسلنا رمز تحقق برسالة نصية إلى الجوال <span dir="ltr">{codeStep.mobile}</span>. لا تظهر حالة الطلب إلا بعد كتابة الرمز. إن لم يصلك خلال دقائق فتأكد من
							رقم الهوية أو الترخيص ومن رقم الجوال، ومن اختيار «فرد أو أسرة» أو «جمعية أو مؤسسة».
						</p>
						{codeStep.comesBy ? (
							<p role="status" className="mb-4 rounded-lg border-s-4 border-gold-500 bg-gold-100 p-3 font-semibold text-gold-700">
								{codeStep.comesBy}
							</p>
						) : null}
						{codeStep.mistyped ? <p className="mb-4 rounded-lg bg-amber-50 p-3 text-amber-950">{nationalIdMessages.checksum}</p> : null}
						<CodeForm mobile={codeStep.mobile} sent={codeStep.sent} logged={codeStep.logged} error={codeStep.error} hidden={typed} sendLabel="أرسل رمز التحقق" />
					</section>
				) : null}
				{cases ? (
					<section aria-labelledby="results" aria-live="polite">
						<h2 id="results" className="text-xl font-bold text-brand-900">
							النتائج
						</h2>
						{actionData?.sent ? (
							<p role="status" className={`mt-3 rounded-lg p-3 font-semibold ${actionData.sent.ok ? 'bg-brand-50 text-brand-900' : 'bg-red-50 text-red-900'}`}>
								{actionData.sent.ok
									? `أرسلنا رابطاً جديداً لطلب ${actionData.sent.reference} إلى بريدك الإلكتروني المسجل. الرابط السابق لم يعد يعمل.`
									: 'تعذر إرسال الرابط حالياً. حاول لاحقاً أو تواصل مع المؤسسة.'}
							</p>
						) : null}
						{cases.length === 0 ? (
							<p className="mt-3 rounded-lg bg-white p-4">لم نجد طلبات بهذه البيانات. تأكد من الرقم ورقم الجوال ومن اختيار «فرد» أو «جمعية».</p>
						) : (
							<ul className="mt-3 space-y-4">
								{cases.map((item) => (
									<li key={item.reference} className="rounded-xl border border-stone-200 bg-white p-4">
										<div className="flex flex-wrap items-center justify-between gap-2">
											<p className="font-bold">{item.form}</p>
											<span className={`rounded-full px-3 py-1 text-sm font-bold ${item.status.badge}`}>{item.status.name}</span>
										</div>
										<dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
											<dt className="text-stone-600">الاسم</dt>
											<dd>{item.name}</dd>
											<dt className="text-stone-600">رقم الطلب</dt>
											<dd dir="ltr" className="text-end font-semibold">
												{item.reference}
											</dd>
											<dt className="text-stone-600">تاريخ الإرسال</dt>
											<dd>{item.submitted ?? '—'}</dd>
										</dl>
										<p className="mt-2">{item.status.next}</p>
										<PlannedVisit visit={item.visit} />
										<ApplicantMessage message={item.message} />
										<AidScheduleBox aids={item.aids} />
										{item.canOpen ? (
											<Form method="post" className="mt-3">
												<input type="hidden" name="who" value={typed.who} />
												<input type="hidden" name="nationalId" value={typed.nationalId} />
												<input type="hidden" name="mobile" value={typed.mobile} />
												<input type="hidden" name="reference" value={item.reference} />
												<button type="submit" name="intent" value="open" className="btn-primary text-sm">
													{item.submitted ? 'فتح الطلب' : 'إكمال الطلب'}
												</button>
											</Form>
										) : null}
										{item.canSendLink ? (
											<Form method="post" className="mt-3">
												<input type="hidden" name="who" value={fields.who.value ?? 'person'} />
												<input type="hidden" name="nationalId" value={fields.nationalId.value ?? ''} />
												<input type="hidden" name="mobile" value={fields.mobile.value ?? ''} />
												<input type="hidden" name="reference" value={item.reference} />
												<button type="submit" name="intent" value="send-link" className="btn-secondary min-h-10 text-sm">
													أرسل رابط الطلب إلى بريدي ({item.maskedEmail})
												</button>
											</Form>
										) : null}
									</li>
								))}
							</ul>
						)}
					</section>
				) : null}
				{codeStep || cases ? (
					<section aria-labelledby="lookup-again" className="space-y-3">
						<h2 id="lookup-again" className="text-lg font-bold text-brand-900">
							استعلام ببيانات أخرى
						</h2>
						{lookupForm}
					</section>
				) : null}
			</div>
		</>
	)
}
