import { data, redirect } from 'react-router'
import type { Route } from './+types/login-code'
import { getDb } from '#app/db/database.server.ts'
import { accountRedirect, accountSessionCookie, createAccountSession, deleteAccountSession, findInstitutionAccount, getAccountSessionToken } from '#app/accounts/institution-accounts.server.ts'
import { recordAudit } from '#app/audit/audit-trail.server.ts'
import { isHoneypotFilled, PageTitle } from '#app/components/forms.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { actionHeaders } from '#app/utils/action-headers.ts'
import { maskedLocalMobile } from '#app/verify/case-verification.server.ts'
import { checkCode, codeProblem, hasLiveCode, sendCode, sendProblem, codesGoToLog } from '#app/verify/codes.server.ts'
import { CodeForm } from '#app/verify/code-form.tsx'
import { pendingAccount, setPendingAccount } from '#app/verify/remembered.server.ts'

// An institution that asked for a code at sign-in: its password was right (the signed cookie says
// so, for 10 minutes); the code sent to its mobile opens the session (docs/security.md#verified-mobile).

export const headers = actionHeaders

async function pending(request: Request) {
	const db = await getDb()
	const id = await pendingAccount(db, request)
	const account = id === null ? undefined : await findInstitutionAccount(db, id)
	if (!account || !account.active) throw redirect('/account/login')
	return { db, account }
}

export async function loader({ request }: Route.LoaderArgs) {
	const { db, account } = await pending(request)
	return {
		mobile: maskedLocalMobile(account.mobile),
		sent: await hasLiveCode(db, 'account', String(account.id)),
		logged: codesGoToLog(),
		problem: new URL(request.url).searchParams.get('problem')?.slice(0, 300) ?? null,
	}
}

export async function action({ request }: Route.ActionArgs) {
	const { db, account } = await pending(request)
	const formData = await request.formData()
	if (isHoneypotFilled(formData)) return data({ error: null, sent: false }, { status: 400 })
	if (formData.get('intent') === 'send-code') {
		const sent = await sendCode(db, { purpose: 'account', subject: String(account.id), mobile: account.mobile, nationalId: '' })
		if (!sent.ok) return data({ error: sendProblem(sent), sent: false }, { status: sent.reason === 'not-sent' ? 503 : 429, headers: sent.reason === 'limited' ? sent.headers : undefined })
		return { error: null, sent: true }
	}
	const checked = await checkCode(db, 'account', String(account.id), String(formData.get('code') ?? ''))
	if (!checked.ok) {
		await recordAudit(db, { actorName: account.name, action: 'account.sign-in-failed', request, data: { accountId: account.id, code: checked.reason } })
		return data({ error: codeProblem(checked), sent: false }, { status: 400 })
	}
	// A new session id at every sign-in; any account session this browser had before is ended.
	const previous = getAccountSessionToken(request)
	if (previous) await deleteAccountSession(db, previous)
	const session = await createAccountSession(db, account.id)
	await recordAudit(db, { actorName: account.name, action: 'account.sign-in', request, data: { accountId: account.id, code: true } })
	const headers = new Headers()
	headers.append('Set-Cookie', accountSessionCookie(session.token, session.expiresAt))
	headers.append('Set-Cookie', await setPendingAccount(db, null))
	return redirect(accountRedirect(new URL(request.url).searchParams.get('redirectTo')), { headers })
}

export default function AccountLoginCode({ loaderData, actionData }: Route.ComponentProps) {
	const error = actionData?.error ?? loaderData.problem
	return (
		<>
			<PageTitle title="رمز التحقق - دخول المؤسسات" error={Boolean(error)} />
			<PageHeader title="رمز التحقق" lead="طلبت مؤسستك رمزاً يُرسل إلى جوال الحساب بعد كلمة المرور." />
			<div className="mx-auto max-w-2xl px-4 py-8">
				<CodeForm mobile={loaderData.mobile} sent={Boolean(actionData?.sent) || loaderData.sent} logged={loaderData.logged} error={error} />
			</div>
		</>
	)
}
