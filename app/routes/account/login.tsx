import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, Link, redirect, useSearchParams } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/login'
import { getDb } from '#app/db/database.server.ts'
import { signInMessages } from '#app/auth/sign-in.server.ts'
import {
	accountRedirect,
	accountSessionCookie,
	attemptAccountSignIn,
	createAccountSession,
	deleteAccountSession,
	getAccountSessionToken,
	getInstitution,
} from '#app/accounts/institution-accounts.server.ts'
import { clientIp } from '#app/utils/origin.server.ts'
import { recordAudit } from '#app/audit/audit-trail.server.ts'
import { ErrorSummary, Field, Honeypot, isHoneypotFilled, PageTitle, TOO_MANY_TRIES } from '#app/components/forms.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { actionHeaders } from '#app/utils/action-headers.ts'

// No `handle.hydrate`: the page ships no JavaScript, and the form posts and answers as plain HTML.

const loginSchema = z.object({
	name: z.string({ error: 'الرجاء كتابة اسم المستخدم أو البريد الإلكتروني' }).max(254, 'اسم المستخدم أو البريد الإلكتروني أطول من المسموح'),
	password: z.string({ error: 'الرجاء كتابة كلمة المرور' }).max(1024, 'كلمة المرور أطول من المسموح'),
	redirectTo: z.string().optional(),
})

export async function loader({ request }: Route.LoaderArgs) {
	if (await getInstitution(request)) {
		throw redirect(accountRedirect(new URL(request.url).searchParams.get('redirectTo')))
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
		: await attemptAccountSignIn(db, { name: submission.value.name, password: submission.value.password, ip: clientIp(request) })

	if (!outcome.ok) {
		const limited = outcome.reason === 'limited'
		await recordAudit(db, { actorName: submission.value.name.trim(), action: 'account.sign-in-failed', request, data: { reason: outcome.reason } })
		const message = limited ? signInMessages.limited(outcome.retryAfter) : signInMessages.invalid
		return data(
			{ result: submission.reply({ formErrors: [message], hideFields: ['password'] }), limited },
			{ status: limited ? 429 : 400, headers: limited ? { 'Retry-After': String(outcome.retryAfter) } : undefined },
		)
	}

	// A new session id at every sign-in; any account session this browser had before is ended.
	const previous = getAccountSessionToken(request)
	if (previous) await deleteAccountSession(db, previous)
	const session = await createAccountSession(db, outcome.account.id)
	await recordAudit(db, { actorName: outcome.account.name, action: 'account.sign-in', request, data: { accountId: outcome.account.id } })
	return redirect(accountRedirect(submission.value.redirectTo), {
		headers: { 'Set-Cookie': accountSessionCookie(session.token, session.expiresAt) },
	})
}

export default function AccountLogin({ actionData }: Route.ComponentProps) {
	const [searchParams] = useSearchParams()
	const [form, fields] = useForm<z.input<typeof loginSchema>>({ id: 'account-login', lastResult: actionData?.result, constraint: undefined })
	const summary = [
		...(form.errors ?? []).map((message) => ({ message })),
		...(fields.name.errors ?? []).map((message) => ({ message, fieldId: fields.name.id })),
		...(fields.password.errors ?? []).map((message) => ({ message, fieldId: fields.password.id })),
	]
	const failed = actionData?.result.status === 'error' && summary.length > 0
	return (
		<>
			<PageTitle title="دخول المؤسسات" error={failed} />
			<PageHeader
				title="دخول المؤسسات"
				description="دخول المؤسسات والجمعيات المسجلة لمتابعة تسجيلها وطلبات دعم الجمعيات."
				lead={
					<>
						هذه الصفحة للمؤسسات المسجلة لدى المؤسسة، لمتابعة تسجيلها وطلبات دعم الجمعيات. موظفو المؤسسة يدخلون من{' '}
						<Link to="/login" className="link">
							بوابة الموظفين
						</Link>
						.
					</>
				}
			/>
			<div className="mx-auto max-w-md space-y-6 px-4 py-10">
				{failed ? <ErrorSummary items={summary} title={actionData.limited ? TOO_MANY_TRIES : undefined} autoFocus /> : null}
				<Form method="post" {...getFormProps(form)} noValidate className="space-y-5 rounded-xl border border-stone-200 bg-white p-6 shadow-sm">
					<input type="hidden" name="redirectTo" value={searchParams.get('redirectTo') ?? ''} />
					<Honeypot />
					<Field
						label="اسم المستخدم أو البريد الإلكتروني"
						errors={fields.name.errors}
						inputProps={{ ...getInputProps(fields.name, { type: 'text' }), autoComplete: 'username', dir: 'ltr', spellCheck: false, autoCapitalize: 'none' }}
					/>
					<Field label="كلمة المرور" errors={fields.password.errors} inputProps={{ ...getInputProps(fields.password, { type: 'password' }), autoComplete: 'current-password', dir: 'ltr' }} />
					<button type="submit" className="btn-primary w-full">
						تسجيل الدخول
					</button>
				</Form>
				<p className="text-center">
					<Link to="/apply/institution-registration" className="link">
						لم تسجل مؤسستك بعد؟ سجّل الآن
					</Link>
				</p>
			</div>
		</>
	)
}
