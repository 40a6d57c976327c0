import { createContext, data, Link, redirect, useSearchParams } from 'react-router'
import type { Route } from './+types/two-step-setup'
import { getDb } from '#app/db/database.server.ts'
import { completeSignIn, requirePendingSession } from '#app/routes/public/+staff-sign-in.server.ts'
import { enableTwoStep, enrolmentView } from '#app/auth/totp.server.ts'
import { PageTitle } from '#app/components/forms.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { RecoveryCodes, TwoStepSetup, WRONG_SETUP_CODE } from '#app/components/two-step-fields.tsx'

// Setting up the authenticator app while signing in, for a role that requires it (docs/security.md
// #two-step-sign-in). The key travels in the form, as it already does in the QR code: the session
// between the two steps is what ties it to this user.

/** Set by a successful action: the page then shows its recovery codes, under the session the action started. */
const enrolled = createContext(false)

export async function loader({ request, context }: Route.LoaderArgs) {
	if (context.get(enrolled)) return null
	const { user } = await requirePendingSession(request)
	if (user.twoStep) throw redirect(`/login/two-step${new URL(request.url).search}`)
	return enrolmentView(user.email)
}

export async function action({ request, context }: Route.ActionArgs) {
	const { user } = await requirePendingSession(request)
	if (user.twoStep) throw redirect(`/login/two-step${new URL(request.url).search}`)
	const db = await getDb()
	const form = await request.formData()
	const secret = String(form.get('secret') ?? '')
	const codes = await enableTwoStep(db, user, secret, String(form.get('code') ?? ''))
	if (!codes) {
		const again = await enrolmentView(user.email, secret)
		return data({ ...again, error: { message: WRONG_SETUP_CODE }, codes: null, to: null }, { status: 400 })
	}
	const { cookie, to } = await completeSignIn(db, request, user, 'enrolment', form.get('redirectTo'))
	context.set(enrolled, true)
	return data({ codes, to, error: undefined, qr: null, secret: null, grouped: null }, { headers: { 'Set-Cookie': cookie } })
}

export default function TwoStepSetupPage({ loaderData, actionData }: Route.ComponentProps) {
	const [searchParams] = useSearchParams()
	const done = actionData?.codes
	const shown = actionData?.qr ? actionData : loaderData!
	return (
		<>
			<PageTitle title="إعداد التحقق بخطوتين" error={Boolean(actionData?.error)} />
			<PageHeader
				title="إعداد التحقق بخطوتين"
				description="إعداد تطبيق المصادقة لدخول الموظفين."
				lead="يطّلع حسابك على بيانات صحية وبنكية لمقدمي الطلبات، فيُطلب عند الدخول رمز من تطبيق على جوالك إضافة إلى كلمة المرور. يستغرق الإعداد دقيقة واحدة."
			/>
			<div className="mx-auto max-w-xl px-4 py-10">
				<div className="rounded-xl border border-stone-200 bg-white p-6 shadow-sm">
					{done ? (
						<RecoveryCodes codes={done}>
							<Link to={actionData.to ?? '/admin'} className="btn-primary w-full">
								حفظت الرموز، تابع إلى لوحة التحكم
							</Link>
						</RecoveryCodes>
					) : (
						<TwoStepSetup qr={shown.qr!} secret={shown.secret!} grouped={shown.grouped!} error={actionData?.error} redirectTo={searchParams.get('redirectTo') ?? ''} />
					)}
				</div>
			</div>
		</>
	)
}
