import { data, Link, redirect } from 'react-router'
import type { Route } from './+types/account-two-step'
import { getDb } from '#app/db/database.server.ts'
import { requireRole } from '#app/auth/user-context.server.ts'
import { enableTwoStep, enrolmentView } from '#app/auth/totp.server.ts'
import { noteAudit, recordAudit, audited } from '#app/audit/audit-trail.server.ts'
import { userRoles } from '#app/db/roles.ts'
import { PageTitle } from '#app/components/forms.tsx'
import { RecoveryCodes, TwoStepSetup, WRONG_SETUP_CODE } from '#app/components/two-step-fields.tsx'
import type { AdminHandle } from './layout.tsx'

// Turning two-step sign-in on from one's own account (docs/security.md#two-step-sign-in).

export const handle: AdminHandle = { breadcrumb: () => [{ to: '/admin/account', label: 'حسابي' }, { label: 'تفعيل التحقق بخطوتين' }] }

export const middleware = [audited({ read: false, write: 'by-screen' })]

export async function loader({ context }: Route.LoaderArgs) {
	const me = requireRole(context, userRoles)
	if (me.twoStep) throw redirect('/admin/account')
	return enrolmentView(me.email)
}

export async function action({ request, context }: Route.ActionArgs) {
	const me = requireRole(context, userRoles)
	if (me.twoStep) throw redirect('/admin/account')
	noteAudit(context, { recorded: true })
	const db = await getDb()
	const form = await request.formData()
	const secret = String(form.get('secret') ?? '')
	const codes = await enableTwoStep(db, me, secret, String(form.get('code') ?? ''))
	if (!codes) {
		const again = await enrolmentView(me.email, secret)
		return data({ ...again, error: { message: WRONG_SETUP_CODE }, codes: null }, { status: 400 })
	}
	await recordAudit(db, { actor: me, action: 'auth.two-step-enabled', request })
	return { codes, error: undefined, qr: null, secret: null, grouped: null }
}

export default function AccountTwoStep({ loaderData, actionData }: Route.ComponentProps) {
	const shown = actionData?.qr ? actionData : loaderData
	return (
		<>
			<PageTitle title="تفعيل التحقق بخطوتين" error={Boolean(actionData?.error)} />
			<h1 className="text-2xl font-bold text-brand-900">تفعيل التحقق بخطوتين</h1>
			<div className="mt-6 max-w-xl rounded-xl border border-stone-200 bg-white p-6">
				{actionData?.codes ? (
					<RecoveryCodes codes={actionData.codes}>
						<Link to="/admin/account" className="btn-primary">
							حفظت الرموز، عودة إلى حسابي
						</Link>
					</RecoveryCodes>
				) : (
					<TwoStepSetup qr={shown.qr!} secret={shown.secret!} grouped={shown.grouped!} error={actionData?.error} />
				)}
			</div>
		</>
	)
}
