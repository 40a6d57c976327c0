import { data, Form, Link } from 'react-router'
import type { Route } from './+types/index'
import { getDb } from '#app/db/database.server.ts'
import { accountCases, deleteAccountDraft, requireInstitution, setAccountSignInCode, type AccountCase } from '#app/accounts/institution-accounts.server.ts'
import { applicantStatus, StatusBadge } from '#app/accounts/status-badge.tsx'
import { getIntake } from '#app/cases/intake-state.server.ts'
import { OPEN_STATUSES, type CaseStatus } from '#app/cases/case-statuses.ts'
import { latestApplicantMessage } from '#app/cases/case-store.server.ts'
import { ApplicantMessage } from '#app/cases/applicant-message.tsx'
import { findDefinition } from '#app/forms/registry.ts'
import { flashContext, redirectWithFlash } from '#app/http/flash.server.ts'
import { formatDate } from '#app/text/format.ts'
import { Field, FlashNotice, PageTitle } from '#app/components/forms.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { recordAudit } from '#app/audit/audit-trail.server.ts'
import { maskedLocalMobile } from '#app/verify/case-verification.server.ts'

// No `handle.hydrate`: every control here is a link or a plain form.

/** The programme an institution applies to from its own area (docs/product.md#association-support). */
export const SUPPORT_TYPE = 'association-support'

function describeCase(row: AccountCase, message: string | null) {
	return {
		reference: row.reference,
		title: findDefinition(row.type)?.title ?? row.type,
		status: applicantStatus(row),
		draft: row.submittedAt === null,
		date: formatDate(row.submittedAt ?? row.createdAt),
		to: `/account/cases/${row.reference}`,
		// What staff asked for (e.g. when the case needs completing), as the private link shows it.
		message,
	}
}

export async function loader({ request, context }: Route.LoaderArgs) {
	const account = await requireInstitution(request)
	const db = await getDb()
	const rows = await accountCases(db, account.id)
	const messages = new Map(await Promise.all(rows.map(async (row) => [row.id, (await latestApplicantMessage(db, row.id))?.note ?? null] as const)))
	const describe = (row: AccountCase) => describeCase(row, messages.get(row.id) ?? null)
	const registration = rows.find((row) => row.id === account.registrationCaseId)
	const support = findDefinition(SUPPORT_TYPE)
	const intake = support ? await getIntake(db, support.type) : null
	return {
		name: account.name,
		signInCode: account.signInCode,
		mobile: maskedLocalMobile(account.mobile),
		notice: context.get(flashContext),
		registration: registration ? describe(registration) : null,
		requests: rows.filter((row) => row.id !== account.registrationCaseId).map(describe),
		start: support && intake ? { open: intake.state !== 'closed', notice: intake.state === 'paused' ? intake.pausedNotice : intake.state === 'closed' ? intake.closedNotice : null } : null,
		// One open support request at a time (the duplicate rule of app/cases/case-store.server.ts): while one is, a new one is not offered.
		openRequest: rows.find((row) => row.type === SUPPORT_TYPE && row.submittedAt !== null && OPEN_STATUSES.includes(row.status as CaseStatus))?.reference ?? null,
	}
}

/**
 * Deletes one of the account's unsent drafts, once confirmed (a ticked box: no script needed). A new
 * request is not made here: «طلب دعم جمعية جديد» opens the form's first step, and the case exists
 * once that step is saved (app/routes/apply/new.tsx).
 */
export async function action({ request }: Route.ActionArgs) {
	const account = await requireInstitution(request)
	const formData = await request.formData()
	if (formData.get('intent') === 'sign-in-code') {
		const on = formData.get('on') === 'on'
		const db = await getDb()
		const codeError = await setAccountSignInCode(db, account, on, String(formData.get('password') ?? ''))
		if (codeError) return data({ codeError, error: null, reference: null }, { status: 400 })
		await recordAudit(db, { actorName: account.name, action: 'account.sign-in-code', request, data: { accountId: account.id, on } })
		return redirectWithFlash('/account', { tone: 'success', message: on ? 'فُعّل رمز التحقق عند الدخول.' : 'أُوقف رمز التحقق عند الدخول.' })
	}
	if (formData.get('intent') !== 'delete-draft') throw data('طلب غير صالح', { status: 400 })
	const reference = String(formData.get('reference') ?? '')
	if (formData.get('confirm') !== 'on') return data({ codeError: null, error: 'لم يُحذف الطلب: الرجاء تأكيد الحذف بوضع علامة في المربع.', reference }, { status: 400 })
	const deleted = await deleteAccountDraft(await getDb(), account.id, reference)
	if (!deleted) return data({ codeError: null, error: 'لم يُحذف الطلب: لا يُحذف إلا طلب لم يُرسل بعد من طلبات مؤسستك.', reference }, { status: 409 })
	return redirectWithFlash('/account', { tone: 'success', message: `تم حذف الطلب ${reference} الذي لم يُرسل.` })
}

export default function Account({ loaderData: account, actionData }: Route.ComponentProps) {
	const registration = account.registration
	return (
		<>
			<PageTitle title="حساب المؤسسة" error={Boolean(actionData?.codeError ?? actionData?.error)} />
			<PageHeader title="حساب المؤسسة" lead={account.name} />
			<div className="mx-auto max-w-4xl space-y-8 px-4 py-8">
				<div className="flex flex-wrap items-center justify-between gap-3">
					<p className="text-sm text-stone-700">«عرض الطلب» يفتح الطلب برابط خاص جديد، ويتوقف أي رابط سابق حفظته له.</p>
					<Form method="post" action="/account/logout">
						<button type="submit" className="btn-secondary">
							تسجيل الخروج
						</button>
					</Form>
				</div>

				<section aria-labelledby="registration" className="rounded-xl border border-stone-200 bg-white p-5">
					<h2 id="registration" className="text-xl font-bold text-brand-900">
						تسجيل المؤسسة
					</h2>
					{registration ? (
						<>
							<dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
								<dt className="text-stone-600">رقم الطلب</dt>
								<dd dir="ltr" className="text-end font-semibold">
									{registration.reference}
								</dd>
								<dt className="text-stone-600">الحالة</dt>
								<dd>
									<StatusBadge status={registration.status} />
								</dd>
								<dt className="text-stone-600">{registration.draft ? 'تاريخ البدء' : 'تاريخ الإرسال'}</dt>
								<dd>{registration.date}</dd>
							</dl>
							<p className="mt-3">{registration.status.next}</p>
							<ApplicantMessage message={registration.message} />
							<p className="mt-3">
								<Link to={registration.to} className="link">
									{registration.draft ? 'متابعة التعبئة' : 'عرض الطلب'}
									<span className="sr-only"> {registration.reference}</span>
								</Link>
							</p>
						</>
					) : (
						<p className="mt-3 text-stone-700">لا يوجد طلب تسجيل مرتبط بهذا الحساب.</p>
					)}
				</section>

				<section aria-labelledby="requests" className="space-y-4">
					<div className="flex flex-wrap items-center justify-between gap-3">
						<h2 id="requests" className="text-xl font-bold text-brand-900">
							طلبات دعم الجمعيات
						</h2>
						{account.start?.open && !account.openRequest ? (
							<Link to={`/apply/${SUPPORT_TYPE}/new`} className="btn-primary">
								طلب دعم جمعية جديد
							</Link>
						) : null}
					</div>
					{account.start?.open && account.openRequest ? (
						<p className="rounded-lg bg-white p-4 text-stone-700">
							لمؤسستك طلب دعم مفتوح (<span dir="ltr">{account.openRequest}</span>) لم يُبتّ فيه بعد، ويمكنك تقديم طلب جديد بعد البتّ فيه.
						</p>
					) : null}
					<FlashNotice notice={account.notice} live className="" />
					{actionData?.error ? <FlashNotice notice={{ tone: 'error', message: actionData.error }} className="" /> : null}
					{account.start?.notice ? (
						<p role="status" className="rounded-lg border-s-4 border-gold-500 bg-gold-100 p-4 font-semibold text-gold-700">
							{account.start.notice}
						</p>
					) : null}
					{account.requests.length === 0 ? (
						<p className="rounded-lg bg-white p-4 text-stone-700">لم تقدم مؤسستك أي طلب دعم بعد.</p>
					) : (
						<ul className="space-y-3">
							{account.requests.map((item) => (
								<li key={item.reference} className="rounded-xl border border-stone-200 bg-white p-4">
									<div className="flex flex-wrap items-center justify-between gap-2">
										<p className="font-bold">{item.title}</p>
										<StatusBadge status={item.status} />
									</div>
									<dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
										<dt className="text-stone-600">رقم الطلب</dt>
										<dd dir="ltr" className="text-end font-semibold">
											{item.reference}
										</dd>
										<dt className="text-stone-600">{item.draft ? 'تاريخ البدء' : 'تاريخ الإرسال'}</dt>
										<dd>{item.date}</dd>
									</dl>
									<ApplicantMessage message={item.message} />
									<p className="mt-2">
										<Link to={item.to} className="link">
											{item.draft ? 'متابعة التعبئة' : 'عرض الطلب'}
											<span className="sr-only"> {item.reference}</span>
										</Link>
									</p>
									{item.draft ? (
										// Deleting asks to be confirmed first; a native disclosure needs no script.
										<details className="mt-2" open={actionData?.reference === item.reference}>
											<summary className="link inline-flex min-h-11 cursor-pointer items-center text-red-800">
												حذف الطلب<span className="sr-only"> {item.reference}</span>
											</summary>
											<Form method="post" className="mt-2 space-y-2 rounded-lg border border-red-200 bg-red-50 p-3 text-sm">
												<input type="hidden" name="intent" value="delete-draft" />
												<input type="hidden" name="reference" value={item.reference} />
												<p>لم يُرسل هذا الطلب بعد. بعد حذفه لا يظهر في حسابك ولا يعمل رابطه، ولا يمكن استعادته.</p>
												<label className="flex min-h-11 items-center gap-2">
													<input type="checkbox" name="confirm" required className="size-5" />
													أؤكد حذف الطلب {item.reference}
												</label>
												<button type="submit" className="btn min-h-11 bg-red-800 px-3 py-1 text-white hover:bg-red-900">
													حذف الطلب<span className="sr-only"> {item.reference}</span>
												</button>
											</Form>
										</details>
									) : null}
								</li>
							))}
						</ul>
					)}
				</section>

				<section aria-labelledby="sign-in-code" className="rounded-xl border border-stone-200 bg-white p-5">
					<h2 id="sign-in-code" className="text-xl font-bold text-brand-900">
						رمز التحقق عند الدخول
					</h2>
					<p className="mt-2">
						{account.signInCode
							? `مفعّل: بعد كلمة المرور نرسل رمزاً برسالة نصية إلى جوال الحساب ${account.mobile}، ولا يتم الدخول إلا به.`
							: `غير مفعّل. إن فعّلته طلبنا بعد كلمة المرور رمزاً نرسله برسالة نصية إلى جوال الحساب ${account.mobile}: من عرف كلمة المرور وحدها لا يدخل.`}
					</p>
					<Form method="post" className="mt-3">
						<input type="hidden" name="intent" value="sign-in-code" />
						<input type="hidden" name="on" value={account.signInCode ? 'off' : 'on'} />
						{account.signInCode ? (
							<Field
								label="كلمة المرور الحالية"
								hint="لا يُوقف الرمز إلا بكلمة مرور الحساب."
								errors={actionData?.codeError ? [actionData.codeError] : undefined}
								inputProps={{ id: 'sign-in-code-password', name: 'password', type: 'password', autoComplete: 'current-password', required: true }}
							/>
						) : null}
						<button type="submit" className={account.signInCode ? 'btn-secondary' : 'btn-primary'}>
							{account.signInCode ? 'إيقاف رمز التحقق عند الدخول' : 'تفعيل رمز التحقق عند الدخول'}
						</button>
					</Form>
				</section>
			</div>
		</>
	)
}
