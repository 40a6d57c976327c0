import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect, useSearchParams } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/login'
import { getDb } from '#app/db/database.server.ts'
import { attemptSignIn } from '#app/auth/sign-in.server.ts'
import { getUser, safeRedirect } from '#app/auth/session.server.ts'
import { afterPassword } from '#app/routes/public/+staff-sign-in.server.ts'
import { recordAudit } from '#app/audit/audit-trail.server.ts'
import { normaliseEmail } from '#app/domain/staff-users.server.ts'
import { clientIp } from '#app/utils/origin.server.ts'
import { tryAgainAfter } from '#app/text/arabic-count.ts'
import { ErrorSummary, Field, TOO_MANY_TRIES, Honeypot, isHoneypotFilled, PageTitle } from '#app/components/forms.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { actionHeaders } from '#app/utils/action-headers.ts'

// No `handle.hydrate`: the page ships no JavaScript. The form posts as plain HTML and the server checks
// it and answers with the messages and their summary (docs/decisions/001-stack.md).

export const SIGN_IN_FAILED = 'الرجاء التحقق من بيانات الدخول'

const loginSchema = z.object({
	email: z.email({
		error: (issue) => (issue.input === undefined ? 'الرجاء كتابة البريد الإلكتروني' : 'صيغة البريد الإلكتروني غير صحيحة'),
	}),
	password: z.string({ error: 'الرجاء كتابة كلمة المرور' }),
	redirectTo: z.string().optional(),
})

export async function loader({ request }: Route.LoaderArgs) {
	if (await getUser(request)) {
		throw redirect(safeRedirect(new URL(request.url).searchParams.get('redirectTo')))
	}
	return null
}

/** A refusal for too many tries says when to come back (Retry-After), on the page as in the answer. */
export const headers = actionHeaders

export async function action({ request }: Route.ActionArgs) {
	const formData = await request.formData()
	const submission = parseWithZod(formData, { schema: loginSchema })
	if (submission.status !== 'success') {
		return data({ result: submission.reply({ hideFields: ['password'] }), limited: false }, { status: 400 })
	}
	const db = await getDb()
	const outcome = isHoneypotFilled(formData)
		? ({ ok: false, reason: 'invalid' } as const)
		: await attemptSignIn(db, { ...submission.value, ip: clientIp(request) })

	if (!outcome.ok) {
		const limited = outcome.reason === 'limited'
		await recordAudit(db, { actorName: normaliseEmail(submission.value.email), action: 'auth.sign-in-failed', request, data: { reason: outcome.reason } })
		const message = limited
			? `محاولات دخول كثيرة. ${tryAgainAfter(outcome.retryAfter)}`
			: SIGN_IN_FAILED
		return data(
			{ result: submission.reply({ formErrors: [message], hideFields: ['password'] }), limited },
			{ status: limited ? 429 : 400, headers: limited ? { 'Retry-After': String(outcome.retryAfter) } : undefined },
		)
	}

	return afterPassword(db, request, outcome.user, submission.value.redirectTo)
}

export default function Login({ actionData }: Route.ComponentProps) {
	const [searchParams] = useSearchParams()
	const [form, fields] = useForm<z.input<typeof loginSchema>>({ id: 'login', lastResult: actionData?.result, constraint: undefined })
	const summary = [
		...(form.errors ?? []).map((message) => ({ message })),
		...(fields.email.errors ?? []).map((message) => ({ message, fieldId: fields.email.id })),
		...(fields.password.errors ?? []).map((message) => ({ message, fieldId: fields.password.id })),
	]
	// The server's answer to a refused form: the summary at the top, focused as the page loads (GOV.UK).
	const failed = actionData?.result.status === 'error' && summary.length > 0
	return (
		<>
			<PageTitle title="دخول الموظفين" error={failed} />
			<PageHeader
				title="دخول الموظفين"
				description="دخول موظفي المؤسسة إلى لوحة التحكم."
				lead={
					<>
						هذه الصفحة مخصصة لموظفي المؤسسة. لمتابعة طلب قدمته استخدم{' '}
						<Link to="/apply/status" className="link">
							صفحة الاستعلام عن طلب
						</Link>
						.
					</>
				}
			/>
			<div className="mx-auto max-w-md px-4 py-10">
				{failed ? <ErrorSummary items={summary} title={actionData.limited ? TOO_MANY_TRIES : undefined} autoFocus /> : null}
				<Form method="post" {...getFormProps(form)} noValidate className="space-y-5 rounded-xl border border-stone-200 bg-white p-6 shadow-sm">
					<input type="hidden" name="redirectTo" value={searchParams.get('redirectTo') ?? ''} />
					<Honeypot />
					<Field
						label="البريد الإلكتروني"
						errors={fields.email.errors}
						inputProps={{ ...getInputProps(fields.email, { type: 'email' }), autoComplete: 'username', dir: 'ltr', spellCheck: false }}
					/>
					<Field
						label="كلمة المرور"
						errors={fields.password.errors}
						inputProps={{ ...getInputProps(fields.password, { type: 'password' }), autoComplete: 'current-password', dir: 'ltr' }}
					/>
					<button type="submit" className="btn-primary w-full">
						تسجيل الدخول
					</button>
				</Form>
			</div>
		</>
	)
}
