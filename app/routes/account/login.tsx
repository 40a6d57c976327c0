import { Link, redirect } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/login'
import { accountRedirect, accountSessionCookie, attemptAccountSignIn, createAccountSession, deleteAccountSession, getAccountSessionToken, getInstitution } from '#app/accounts/institution-accounts.server.ts'
import { recordAudit } from '#app/audit/audit-trail.server.ts'
import { PageHeader } from '#app/components/page-header.tsx'
import { actionHeaders } from '#app/utils/action-headers.ts'
import { signInAction, signInSchema } from '#app/routes/+sign-in.server.ts'
import { SignInPage } from '#app/routes/+sign-in.tsx'
import { sendCode, sendProblem } from '#app/verify/codes.server.ts'
import { setPendingAccount } from '#app/verify/remembered.server.ts'

// Institutions sign in by user name or e-mail, into their account (/account).

const schema = signInSchema('name', z.string({ error: 'الرجاء كتابة اسم المستخدم أو البريد الإلكتروني' }).max(254, 'اسم المستخدم أو البريد الإلكتروني أطول من المسموح'))

export async function loader({ request }: Route.LoaderArgs) {
	if (await getInstitution(request)) throw redirect(accountRedirect(new URL(request.url).searchParams.get('redirectTo')))
	return null
}

/** A refusal for too many tries says when to come back (Retry-After), on the page as in the answer. */
export const headers = actionHeaders

export async function action({ request }: Route.ActionArgs) {
	return signInAction(request, {
		nameField: 'name',
		schema,
		attempt: async (db, typed) => {
			const outcome = await attemptAccountSignIn(db, typed)
			return outcome.ok ? { ok: true, who: outcome.account } : outcome
		},
		failedAction: 'account.sign-in-failed',
		auditName: (name) => name.trim(),
		signedIn: async (db, account, redirectTo) => {
			// A new session id at every sign-in; any account session this browser had before is ended.
			if (account.signInCode) {
				// The password was right; the code sent to the account's mobile comes next (docs/security.md#verified-mobile).
				const sent = await sendCode(db, { purpose: 'account', subject: String(account.id), mobile: account.mobile, nationalId: '' })
				const to = `/account/login/code?${new URLSearchParams({ redirectTo: accountRedirect(redirectTo), ...(sent.ok ? {} : { problem: sendProblem(sent) }) })}`
				return redirect(to, { headers: { 'Set-Cookie': await setPendingAccount(db, account.id) } })
			}
			const previous = getAccountSessionToken(request)
			if (previous) await deleteAccountSession(db, previous)
			const session = await createAccountSession(db, account.id)
			await recordAudit(db, { actorName: account.name, action: 'account.sign-in', request, data: { accountId: account.id } })
			return redirect(accountRedirect(redirectTo), { headers: { 'Set-Cookie': accountSessionCookie(session.token, session.expiresAt) } })
		},
	})
}

export default function AccountLogin({ actionData }: Route.ComponentProps) {
	return (
		<SignInPage
			id="account-login"
			title="دخول المؤسسات"
			nameField="name"
			nameLabel="اسم المستخدم أو البريد الإلكتروني"
			nameType="text"
			reply={actionData}
			header={
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
			}
		>
			<p className="text-center">
				<Link to="/apply/institution-registration" className="link">
					لم تسجل مؤسستك بعد؟ سجّل الآن
				</Link>
			</p>
		</SignInPage>
	)
}
