import { data, redirect } from 'react-router'
import type { Route } from './+types/verify'
import { flashContext, redirectWithFlash } from '#app/http/flash.server.ts'
import { publicLimits } from '#app/http/ip-limit.server.ts'
import { privateLink } from '#app/cases/tokens.server.ts'
import { FlashNotice, isHoneypotFilled, PageTitle } from '#app/components/forms.tsx'
import { getNotifier } from '#app/notify/notifier.server.ts'
import { codeComesBy, codeProblem, codeWaitingUntil, hasLiveCode, sendProblem, codesGoToLog } from '#app/verify/codes.server.ts'
import type { Database } from '#app/db/client.server.ts'
import { clientIp } from '#app/utils/origin.server.ts'
import { claimProvenDraft } from '#app/runner/draft-limits.ts'
import { CodeForm } from '#app/verify/code-form.tsx'
import { confirmCaseCode, maskedLocalMobile, sendCaseCode } from '#app/verify/case-verification.server.ts'
import { rememberCase } from '#app/verify/remembered.server.ts'
import { actionHeaders } from '#app/utils/action-headers.ts'
import { findLinkedCase, limitVisitor, mayOpen } from './+applicant.server.ts'

// A private link opened on a browser that has not proven the case's mobile: a code sent to it
// opens the case here, and the browser is remembered for it (docs/security.md#verified-mobile).

export const headers = actionHeaders

export async function loader({ request, params, context }: Route.LoaderArgs) {
	const { db, row, definition } = await findLinkedCase(params.token)
	if (await mayOpen(db, request, row)) throw redirect(`/apply/r/${params.token}`)
	return {
		title: definition.title,
		reference: row.reference,
		mobile: row.mobile ? maskedLocalMobile(row.mobile) : null,
		// Right after the first save: this is the family's own phone, not a new one.
		first: row.mobileVerifiedAt === null,
		sent: await hasLiveCode(db, 'case', row.id),
		comesBy: await comesBy(db, row.id),
		logged: codesGoToLog(),
		flash: context.get(flashContext),
	}
}

/** A code waiting for the SMS budget: when it comes at the latest, said on the page. */
async function comesBy(db: Database, caseId: string): Promise<string | null> {
	const by = await codeWaitingUntil(db, 'case', caseId)
	return by ? `${codeComesBy(by)}. إن لم يصلك حتى ذلك الوقت فاطلب رمزاً جديداً.` : null
}

export async function action({ request, params }: Route.ActionArgs) {
	const { db, row, definition } = await findLinkedCase(params.token)
	// Already open here (remembered, staff, codes off): nothing to send or check.
	if (await mayOpen(db, request, row)) return redirect(`/apply/r/${params.token}`)
	await limitVisitor(request, publicLimits.save)
	const formData = await request.formData()
	if (isHoneypotFilled(formData) || !row.mobile) return data({ error: null, sent: false }, { status: 400 })
	if (formData.get('intent') === 'send-code') {
		const sent = await sendCaseCode(db, row, clientIp(request))
		if (!sent.ok) return data({ error: sendProblem(sent), sent: false }, { status: sent.reason === 'not-sent' ? 503 : 429, headers: sent.reason === 'limited' ? sent.headers : undefined })
		return { error: null, sent: true }
	}
	const confirmed = await confirmCaseCode(db, row, String(formData.get('code') ?? ''))
	if (!confirmed.ok) return data({ error: codeProblem(confirmed), sent: false }, { status: 400 })
	const first = 'first' in confirmed && confirmed.first
	if (first && (await claimProvenDraft(db, definition, row)) === 'duplicate') return redirect(`/apply/${row.type}/new?duplicate=1`)
	// The link is issued once the mobile is proven: e-mailed now, not at the first save.
	const emailed = first && row.email && getNotifier().emails ? await getNotifier().sendResumeLink({ to: row.email, reference: row.reference, formTitle: definition.title, link: privateLink(params.token) }) : null
	const message = first
		? `تم تأكيد رقم جوالك.${emailed ? ' أرسلنا رابط طلبك الخاص إلى بريدك الإلكتروني.' : ''} أكمل طلبك، وافتحه لاحقاً من رابطه أو من «الاستعلام عن طلب».`
		: 'تم تأكيد رقم جوالك. يُفتح طلبك على هذا الجهاز دون رمز مدة 30 يوماً.'
	return redirectWithFlash(`/apply/r/${params.token}`, { tone: 'success', message, field: 'created' }, { 'Set-Cookie': await rememberCase(db, request, row.id) })
}

export default function Verify({ loaderData, actionData }: Route.ComponentProps) {
	const sent = Boolean(actionData?.sent) || (loaderData.sent && !actionData?.error) || Boolean(actionData?.error && loaderData.sent)
	return (
		<div className="mx-auto max-w-2xl px-4 py-8">
			<PageTitle title={`تأكيد رقم الجوال - ${loaderData.title}`} error={Boolean(actionData?.error)} />
			<h1 className="mb-4 text-2xl font-bold text-brand-900">تأكيد رقم الجوال</h1>
			{actionData ? null : <FlashNotice notice={loaderData.flash} />}
			<p className="mb-2">
				طلبك «{loaderData.title}» رقم <strong dir="ltr">{loaderData.reference}</strong>.
			</p>
			{loaderData.mobile ? (
				<>
					<p className="mb-6">
						{loaderData.first ? (
							<>
								أكّد رقم جوالك لتكمل طلبك: نرسل رمزاً من 6 أرقام برسالة نصية إلى جوالك <span dir="ltr">{loaderData.mobile}</span>. بعد التأكيد يُفتح طلبك على هذا الجهاز دون رمز مدة 30 يوماً.
							</>
						) : (
							<>
								لحماية بيانات طلبك لا يُفتح على جهاز جديد إلا برمز نرسله برسالة نصية إلى الجوال المسجل في الطلب <span dir="ltr">{loaderData.mobile}</span>. بعد التأكيد يُفتح على هذا الجهاز دون رمز مدة 30
								يوماً.
							</>
						)}
					</p>
					{loaderData.comesBy && !loaderData.flash ? (
						<p role="status" className="mb-6 rounded-lg border-s-4 border-gold-500 bg-gold-100 p-4 font-semibold text-gold-700">
							{loaderData.comesBy}
						</p>
					) : null}
					<CodeForm mobile={loaderData.mobile} sent={sent} logged={loaderData.logged} error={actionData?.error} />
					<p className="mt-8 text-sm text-stone-700">تغيّر رقم جوالك أو فقدته؟ تواصل مع المؤسسة: يتحقق الموظف من هويتك ويسجل رقمك الجديد، ثم تؤكده برمز يصلك عليه.</p>
				</>
			) : (
				<p>لا يوجد رقم جوال في هذا الطلب. تواصل مع المؤسسة لتسجيله.</p>
			)}
		</div>
	)
}
