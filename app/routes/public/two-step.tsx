import { data, redirect, useSearchParams } from 'react-router'
import type { Route } from './+types/two-step'
import { getDb } from '#app/db/database.server.ts'
import { completeSignIn, requirePendingSession } from '#app/routes/public/+staff-sign-in.server.ts'
import { countWrongCode, twoStepLimited, spendRecoveryCode, verifyUserCode } from '#app/auth/totp.server.ts'
import { recordAudit } from '#app/audit/audit-trail.server.ts'
import { tryAgainAfter } from '#app/text/arabic-count.ts'
import { PageTitle } from '#app/components/forms.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { TwoStepCodeForm } from '#app/components/two-step-fields.tsx'
import { actionHeaders } from '#app/utils/action-headers.ts'

// The second step of a staff sign-in (docs/security.md#two-step-sign-in). No JavaScript.

export const WRONG_CODE = 'الرمز غير صحيح أو انتهى وقته. اكتب الرمز الظاهر الآن في التطبيق.'
export const WRONG_RECOVERY_CODE = 'رمز الاسترداد غير صحيح أو استُعمل من قبل. كل رمز يصلح مرة واحدة.'

export async function loader({ request }: Route.LoaderArgs) {
	const { user } = await requirePendingSession(request)
	if (!user.twoStep) throw redirect(`/login/two-step/setup${new URL(request.url).search}`)
	return null
}

/** A refusal for too many tries says when to come back (Retry-After), on the page as in the answer. */
export const headers = actionHeaders

export async function action({ request }: Route.ActionArgs) {
	const { user } = await requirePendingSession(request)
	const db = await getDb()
	const form = await request.formData()
	const recoveryCode = String(form.get('recoveryCode') ?? '').trim()
	const recovery = form.has('recoveryCode')
	const code = recovery ? recoveryCode : String(form.get('code') ?? '').trim()
	const field = recovery ? 'recovery-code' : undefined
	const limit = await twoStepLimited(db, user.id)
	if (limit.limited) {
		return data(
			{ error: { message: `محاولات كثيرة برموز خاطئة. ${tryAgainAfter(limit.retryAfter)}`, limited: true, field }, recovery },
			{ status: 429, headers: { 'Retry-After': String(limit.retryAfter) } },
		)
	}
	if (!code) return data({ error: { message: recovery ? 'الرجاء كتابة رمز الاسترداد' : 'الرجاء كتابة رمز التحقق', field }, recovery }, { status: 400 })
	const accepted = recovery ? await spendRecoveryCode(db, user.id, code) : await verifyUserCode(db, user, code)
	if (!accepted) {
		await countWrongCode(db, user.id)
		await recordAudit(db, { actor: user, action: 'auth.two-step-failed', request, data: { recovery } })
		return data({ error: { message: recovery ? WRONG_RECOVERY_CODE : WRONG_CODE, field }, recovery }, { status: 400 })
	}
	const { cookie, to } = await completeSignIn(db, request, user, recovery ? 'recovery-code' : 'code', form.get('redirectTo'))
	return redirect(to, { headers: { 'Set-Cookie': cookie } })
}

export default function TwoStep({ actionData }: Route.ComponentProps) {
	const [searchParams] = useSearchParams()
	return (
		<>
			<PageTitle title="التحقق بخطوتين" error={Boolean(actionData?.error)} />
			<PageHeader title="التحقق بخطوتين" description="الخطوة الثانية من دخول الموظفين." lead="افتح تطبيق المصادقة على جوالك واكتب الرمز الظاهر فيه لحسابك في عطاء." />
			<div className="mx-auto max-w-md px-4 py-10">
				<div className="rounded-xl border border-stone-200 bg-white p-6 shadow-sm">
					<TwoStepCodeForm error={actionData?.error} recovery={actionData?.recovery} redirectTo={searchParams.get('redirectTo') ?? ''} />
				</div>
			</div>
		</>
	)
}
