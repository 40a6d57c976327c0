import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/account'
import { getDb } from '#app/db/database.server.ts'
import { requireRole } from '#app/auth/user-context.server.ts'
import { deleteUserSessions, endOwnSession, getStaffSession, listSessions, rotateSession } from '#app/auth/session.server.ts'
import { passwordRefusal } from '#app/utils/common-passwords.server.ts'
import { passwordAgainProblem, signInLimits } from '#app/auth/sign-in.server.ts'
import { replaceRecoveryCodes, resetTwoStep, twoStepRoles, unusedRecoveryCodes } from '#app/auth/totp.server.ts'
import { passwordHint } from '#app/text/messages.ts'
import { noteAudit, recordAudit, audited } from '#app/audit/audit-trail.server.ts'
import type { AuditDetails } from '#app/audit/audit-log.server.ts'
import { userRoles, hasRole, rolesLabel } from '#app/db/roles.ts'
import { passwordRules } from '#app/domain/user-schema.ts'
import { passwordHashOf, setPassword } from '#app/domain/staff-users.server.ts'
import { countOf, recoveryCodes } from '#app/text/arabic-count.ts'
import { flashContext, redirectWithFlash } from '#app/http/flash.server.ts'
import { formatDateTime } from '#app/text/format.ts'
import { ErrorSummary, Field, FlashNotice, PageTitle, useSubmitCount, validationTiming } from '#app/components/forms.tsx'
import { RecoveryCodes } from '#app/components/two-step-fields.tsx'
import type { AdminHandle } from './layout.tsx'

// Every staff member's own account (docs/security.md#sessions): their password, their sessions on
// other devices, and two-step sign-in.

export const handle: AdminHandle = { breadcrumb: 'حسابي' }

// Each change of one's own account is recorded by the action itself (a password, a session ended).
export const middleware = [audited({ read: false, write: 'by-screen' })]

const everyone = userRoles

const passwordSchema = z
	.object({
		currentPassword: z.string({ error: 'الرجاء كتابة كلمة المرور الحالية' }),
		password: passwordRules,
		confirmPassword: z.string({ error: 'الرجاء تأكيد كلمة المرور' }),
	})
	.superRefine((value, ctx) => {
		if (value.password !== value.confirmPassword) ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'كلمتا المرور غير متطابقتين' })
		if (value.password === value.currentPassword) ctx.addIssue({ code: 'custom', path: ['password'], message: 'اختر كلمة مرور غير الحالية' })
	})


/** A browser's user agent in a few words staff recognise. */
function deviceOf(userAgent: string): string {
	const browser = /Edg\//.test(userAgent) ? 'Edge' : /Firefox\//.test(userAgent) ? 'Firefox' : /Chrom(e|ium)\//.test(userAgent) ? 'Chrome' : /Safari\//.test(userAgent) ? 'Safari' : 'متصفح آخر'
	const system = /Android/.test(userAgent)
		? 'Android'
		: /iPhone|iPad/.test(userAgent)
			? 'iOS'
			: /Windows/.test(userAgent)
				? 'Windows'
				: /Mac OS/.test(userAgent)
					? 'macOS'
					: /Linux/.test(userAgent)
						? 'Linux'
						: ''
	return system ? `${browser} على ${system}` : browser
}

export async function loader({ request, context }: Route.LoaderArgs) {
	const me = requireRole(context, everyone)
	const db = await getDb()
	const current = await getStaffSession(request)
	const [sessions, required, codesLeft] = await Promise.all([listSessions(db, me.id), twoStepRoles(db), me.twoStep ? unusedRecoveryCodes(db, me.id) : 0])
	return {
		me: { name: me.name, email: me.email, role: rolesLabel(me.roles), twoStep: me.twoStep, required: hasRole(me, ...required), codesLeft, mustChangePassword: me.mustChangePassword },
		notice: context.get(flashContext),
		sessions: sessions.map((session) => ({
			id: session.id,
			current: session.id === current?.id,
			device: deviceOf(session.userAgent),
			ip: session.ip,
			since: formatDateTime(session.createdAt),
			lastSeen: formatDateTime(session.lastSeenAt),
		})),
	}
}

/** Checks the current password, counting wrong ones against the sign-in limit of the user's e-mail. */
async function currentPasswordProblem(db: Awaited<ReturnType<typeof getDb>>, me: { id: number; email: string }, typed: string): Promise<string | null> {
	return passwordAgainProblem(db, signInLimits.email, me.email, typed, await passwordHashOf(db, me.id))
}

export async function action({ request, context }: Route.ActionArgs) {
	const me = requireRole(context, everyone)
	const db = await getDb()
	const current = await getStaffSession(request)
	const formData = await request.formData()
	const intent = formData.get('intent')
	noteAudit(context, { recorded: true })
	const audit = (action: Parameters<typeof recordAudit>[1]['action'], extra?: AuditDetails) => recordAudit(db, { actor: me, action, request, data: extra })

	switch (intent) {
		case 'password': {
			const submission = await parseWithZod(formData, {
				schema: passwordSchema.superRefine(async (value, ctx) => {
					const refusal = passwordRefusal(value.password, [me.email])
					if (refusal) ctx.addIssue({ code: 'custom', path: ['password'], message: refusal })
					const problem = await currentPasswordProblem(db, me, value.currentPassword)
					if (problem) ctx.addIssue({ code: 'custom', path: ['currentPassword'], message: problem })
				}),
				async: true,
			})
			if (submission.status !== 'success') {
				return data({ result: submission.reply({ hideFields: ['currentPassword', 'password', 'confirmPassword'] }), codes: null }, { status: 400 })
			}
			await setPassword(db, me.id, submission.value.password, { temporary: false })
			// Every other session ends; this one goes on under a new id.
			const ended = await deleteUserSessions(db, me.id, { except: current?.id })
			const cookie = await rotateSession(db, request, me.id)
			await audit('auth.password-changed', { sessionsEnded: ended })
			return redirectWithFlash('/admin/account', { tone: 'success', message: 'تم تغيير كلمة المرور، وأُنهيت جلساتك على الأجهزة الأخرى.' }, { 'Set-Cookie': cookie })
		}
		case 'end-session': {
			const id = String(formData.get('sessionId') ?? '')
			if (id === current?.id || !(await endOwnSession(db, me.id, id))) {
				return redirectWithFlash('/admin/account', { tone: 'error', message: 'هذه الجلسة انتهت من قبل أو ليست من جلساتك.' })
			}
			await audit('auth.session-ended', { count: 1 })
			return redirectWithFlash('/admin/account', { tone: 'success', message: 'تم إنهاء الجلسة.' })
		}
		case 'end-others': {
			const ended = await deleteUserSessions(db, me.id, { except: current?.id })
			await audit('auth.session-ended', { count: ended })
			return redirectWithFlash('/admin/account', { tone: 'success', message: ended ? 'تم إنهاء جلساتك الأخرى.' : 'لا توجد جلسات أخرى.' })
		}
		case 'new-codes':
		case 'disable-two-step': {
			const problem = await currentPasswordProblem(db, me, String(formData.get('currentPassword') ?? ''))
			if (problem) return redirectWithFlash('/admin/account', { tone: 'error', message: problem })
			if (!me.twoStep) return redirectWithFlash('/admin/account', { tone: 'error', message: 'التحقق بخطوتين غير مفعّل في حسابك.' })
			if (intent === 'new-codes') return data({ result: null, codes: await replaceRecoveryCodes(db, me.id) })
			if (hasRole(me, ...(await twoStepRoles(db)))) {
				return redirectWithFlash('/admin/account', { tone: 'error', message: 'التحقق بخطوتين إلزامي لصلاحيتك، فلا يمكن إلغاؤه. لتغيير الجوال اطلب من مدير النظام إعادة ضبطه.' })
			}
			await resetTwoStep(db, me.id)
			await audit('auth.two-step-reset', { userId: me.id })
			return redirectWithFlash('/admin/account', { tone: 'success', message: 'تم إلغاء التحقق بخطوتين.' })
		}
	}
	throw data('طلب غير صالح', { status: 400 })
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
	const { me, sessions, notice } = loaderData
	if (actionData?.codes) {
		return (
			<>
				<PageTitle title="رموز الاسترداد الجديدة" />
				<h1 className="text-2xl font-bold text-brand-900">رموز الاسترداد الجديدة</h1>
				<div className="mt-6 max-w-xl">
					<RecoveryCodes codes={actionData.codes}>
						<p>الرموز السابقة لم تعد تعمل.</p>
						<Link to="/admin/account" className="btn-primary">
							حفظت الرموز، عودة إلى حسابي
						</Link>
					</RecoveryCodes>
				</div>
			</>
		)
	}
	const others = sessions.filter((session) => !session.current).length
	return (
		<>
			<PageTitle title="حسابي" />
			<h1 className="text-2xl font-bold text-brand-900">حسابي</h1>
			<p className="mt-1 text-stone-700">
				{me.name} — <span dir="ltr">{me.email}</span> — {me.role}
			</p>
			<div className="mt-4">
				<FlashNotice notice={notice} />
				{me.mustChangePassword ? (
					<p role="alert" className="mb-6 rounded-lg border border-amber-300 bg-amber-50 p-4 font-semibold text-amber-950">
						كلمة مرورك الحالية وضعها غيرك، وهي لأول دخول فقط. اختر كلمة مرور جديدة لتتابع إلى لوحة التحكم.
					</p>
				) : null}
			</div>
			<div className="grid gap-6 lg:grid-cols-2">
				<PasswordForm result={actionData?.result ?? undefined} />
				<section aria-labelledby="two-step-heading" className="space-y-4 rounded-xl border border-stone-200 bg-white p-6">
					<h2 id="two-step-heading" className="text-lg font-bold text-brand-900">
						التحقق بخطوتين
					</h2>
					{me.twoStep ? (
						<>
							<p>مفعّل: يُطلب عند الدخول رمز من تطبيق المصادقة على جوالك. {me.codesLeft ? `بقي لديك ${countOf(me.codesLeft, recoveryCodes)}.` : 'لم يبقَ لديك أي رمز استرداد.'}</p>
							<Form method="post" className="space-y-3">
								<Field label="أكّد بكلمة مرورك الحالية" inputProps={{ name: 'currentPassword', type: 'password', autoComplete: 'current-password', dir: 'ltr', required: true, id: 'codes-password' }} />
								<div className="flex flex-wrap gap-2">
									<button type="submit" name="intent" value="new-codes" className="btn-secondary">
										رموز استرداد جديدة
									</button>
									{me.required ? null : (
										<button type="submit" name="intent" value="disable-two-step" className="btn-secondary">
											إلغاء التحقق بخطوتين
										</button>
									)}
								</div>
							</Form>
							{me.required ? <p className="text-sm text-stone-600">التحقق بخطوتين إلزامي لصلاحيتك. إن غيّرت جوالك فاطلب من مدير النظام إعادة ضبطه.</p> : null}
						</>
					) : (
						<>
							<p>غير مفعّل. يحمي حسابك إن عرف أحد كلمة مرورك: يُطلب معها رمز من جوالك.</p>
							<Link to="/admin/account/two-step" className="btn-primary">
								تفعيل التحقق بخطوتين
							</Link>
						</>
					)}
				</section>
			</div>
			<section aria-labelledby="sessions-heading" className="mt-6 rounded-xl border border-stone-200 bg-white p-6">
				<div className="flex flex-wrap items-center justify-between gap-3">
					<h2 id="sessions-heading" className="text-lg font-bold text-brand-900">
						الأجهزة التي دخلت منها
					</h2>
					{others ? (
						<Form method="post">
							<button type="submit" name="intent" value="end-others" className="btn-secondary">
								إنهاء الجلسات الأخرى
							</button>
						</Form>
					) : null}
				</div>
				<ul className="mt-4 divide-y divide-stone-200">
					{sessions.map((session) => (
						<li key={session.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
							<div>
								<p className="font-semibold">
									{session.device} {session.current ? <span className="rounded-full bg-brand-100 px-2 py-0.5 text-xs text-brand-900">هذا الجهاز</span> : null}
								</p>
								<p className="text-sm text-stone-600">
									منذ {session.since}، آخر استخدام {session.lastSeen}، العنوان <bdi dir="ltr">{session.ip}</bdi>
								</p>
							</div>
							{session.current ? null : (
								<Form method="post">
									<input type="hidden" name="sessionId" value={session.id} />
									<button type="submit" name="intent" value="end-session" className="btn-secondary min-h-9 px-3 py-1 text-sm">
										إنهاء<span className="sr-only"> جلسة {session.device}</span>
									</button>
								</Form>
							)}
						</li>
					))}
				</ul>
			</section>
		</>
	)
}

function PasswordForm({ result }: { result: SubmissionResult<string[]> | undefined }) {
	const [form, fields] = useForm<z.input<typeof passwordSchema>>({
		id: 'own-password',
		lastResult: result,
		...validationTiming,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: passwordSchema }),
	})
	const order = ['currentPassword', 'password', 'confirmPassword'] as const
	const summary = order.flatMap((key) => (fields[key].errors ?? []).map((message) => ({ message, fieldId: fields[key].id })))
	const [submitCount, countSubmit] = useSubmitCount()
	return (
		<section aria-labelledby="password-heading" className="rounded-xl border border-stone-200 bg-white p-6">
			<h2 id="password-heading" className="text-lg font-bold text-brand-900">
				تغيير كلمة المرور
			</h2>
			{(submitCount > 0 || result) && summary.length ? <ErrorSummary key={submitCount} items={summary} /> : null}
			<Form method="post" {...getFormProps(form)} onSubmitCapture={countSubmit} noValidate className="mt-4 space-y-4">
				<input type="hidden" name="intent" value="password" />
				<Field
					label="كلمة المرور الحالية"
					errors={fields.currentPassword.errors}
					inputProps={{ ...getInputProps(fields.currentPassword, { type: 'password' }), autoComplete: 'current-password', dir: 'ltr' }}
				/>
				<Field
					label="كلمة المرور الجديدة"
					hint={passwordHint}
					errors={fields.password.errors}
					inputProps={{ ...getInputProps(fields.password, { type: 'password' }), autoComplete: 'new-password', dir: 'ltr' }}
				/>
				<Field
					label="تأكيد كلمة المرور الجديدة"
					errors={fields.confirmPassword.errors}
					inputProps={{ ...getInputProps(fields.confirmPassword, { type: 'password' }), autoComplete: 'new-password', dir: 'ltr' }}
				/>
				<button type="submit" className="btn-primary">
					تغيير كلمة المرور
				</button>
			</Form>
		</section>
	)
}
