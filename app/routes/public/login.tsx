import { Link, redirect } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/login'
import { attemptSignIn } from '#app/auth/sign-in.server.ts'
import { getUser, safeRedirect } from '#app/auth/session.server.ts'
import { afterPassword } from '#app/routes/public/+staff-sign-in.server.ts'
import { normaliseEmail } from '#app/domain/staff-users.server.ts'
import { PageHeader } from '#app/components/page-header.tsx'
import { actionHeaders } from '#app/utils/action-headers.ts'
import { signInAction, signInSchema } from '#app/routes/+sign-in.server.ts'
import { SignInPage } from '#app/routes/+sign-in.tsx'

// Staff sign in by e-mail; a right password leads on to the two-step code (+staff-sign-in.server.ts).

const schema = signInSchema(
	'email',
	z.email({ error: (issue) => (issue.input === undefined ? 'الرجاء كتابة البريد الإلكتروني' : 'صيغة البريد الإلكتروني غير صحيحة') }),
)

export async function loader({ request }: Route.LoaderArgs) {
	if (await getUser(request)) throw redirect(safeRedirect(new URL(request.url).searchParams.get('redirectTo')))
	return null
}

/** A refusal for too many tries says when to come back (Retry-After), on the page as in the answer. */
export const headers = actionHeaders

export async function action({ request }: Route.ActionArgs) {
	return signInAction(request, {
		nameField: 'email',
		schema,
		attempt: async (db, typed) => {
			const outcome = await attemptSignIn(db, { email: typed.name, password: typed.password, ip: typed.ip })
			return outcome.ok ? { ok: true, who: outcome.user } : outcome
		},
		failedAction: 'auth.sign-in-failed',
		auditName: normaliseEmail,
		signedIn: (db, user, redirectTo) => afterPassword(db, request, user, redirectTo),
	})
}

export default function Login({ actionData }: Route.ComponentProps) {
	return (
		<SignInPage
			id="login"
			title="دخول الموظفين"
			nameField="email"
			nameLabel="البريد الإلكتروني"
			nameType="email"
			reply={actionData}
			header={
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
			}
		/>
	)
}
