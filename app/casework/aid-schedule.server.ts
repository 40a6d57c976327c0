// An approved aid over time (app/routes/admin/case-aid.tsx, docs/product.md#monthly-aid-over-time):
// finance or the committee suspend, stop or resume what is left, or confirm or decline a resumption
// another asked for; the committee sets the re-study date. The applicant is told once, after the change.
import { z } from 'zod'
import type { Database } from '#app/db/client.server.ts'
import type { PublicUser } from '#app/domain/staff-users.server.ts'
import type { CaseRow } from '#app/cases/case-store.server.ts'
import type { AuditSink } from '#app/audit/audit-trail.server.ts'
import { CaseChangeError } from '#app/cases/status-changes.server.ts'
import { listReasons } from '#app/cases/reasons.server.ts'
import { areaRoles, hasRole } from '#app/db/roles.ts'
import { AidFourEyesError, aidSchedules, changeAid, setRestudy } from '#app/aid/monthly-aid.server.ts'
import { aidActions, aidStateLabels, type AidAction } from '#app/aid/monthly-aid.ts'
import { done, refused, type Outcome } from './outcome.ts'
import { tellApplicants } from './tell.server.ts'

/** The reason list's last choice: a reason typed instead. */
export const OTHER_REASON = 'other'

const typedText = z.unknown().transform((value) => String(value ?? ''))

/** The schedule's forms: the action (`intent`), the aid (`decision`), and the reason or re-study date as typed. */
export const aidActionSchema = z.object({
	intent: typedText,
	decision: z.unknown().transform((value) => Number(value ?? null)),
	reason: typedText,
	reasonId: typedText,
	restudyOn: typedText,
})

export type AidActionInput = z.input<typeof aidActionSchema>

const doneMessages: Record<AidAction, string> = {
	suspend: 'أُوقف الدعم مؤقتاً وأُبلغ المتقدم',
	stop: 'أُوقف الدعم نهائياً وأُبلغ المتقدم',
	resume: 'طُلب استئناف الدعم: يؤكده عضو آخر من لجنة الصرف أو مسؤول مالي آخر',
	confirm: 'استُؤنف الدعم وأُبلغ المتقدم',
	decline: 'رُفض طلب الاستئناف، وبقي الدعم موقوفاً',
}

/** Runs one action on one aid of the case; refusals are said on the aid's own form (`aid-<decision>`). */
export async function runAidAction(context: { db: Database; row: CaseRow; user: PublicUser; audit: AuditSink }, input: AidActionInput): Promise<Outcome> {
	const { db, row, user, audit } = context
	const { intent, decision: decisionId, ...typed } = aidActionSchema.parse(input)
	const refuse = (message: string, status = 409) => refused(`aid-${decisionId}`, { '': [message] }, status, typed)
	const back = `/admin/cases/${row.reference}/aid`
	const schedules = await aidSchedules(db, [row.id])
	if (!schedules.some((aid) => aid.decisionId === decisionId)) return refuse('لا دعم معتمد بهذا الرقم لهذا الطلب', 404)
	try {
		if (intent === 'restudy') {
			if (!hasRole(user, ...areaRoles.decisions)) return refuse('موعد إعادة الدراسة تحدده لجنة الصرف', 403)
			await setRestudy(db, decisionId, typed.restudyOn.trim() || null, user)
			audit.note({ data: { decision: decisionId, restudyOn: typed.restudyOn || null } })
			return done(back, { tone: 'success', message: 'حُفظ موعد إعادة الدراسة' })
		}
		if (!(aidActions as readonly string[]).includes(intent)) return refuse('الطلب غير صالح', 400)
		const action = intent as AidAction
		let reason = typed.reason.trim()
		if ((action === 'suspend' || action === 'stop') && typed.reasonId !== OTHER_REASON) {
			const chosen = (await listReasons(db, 'aid-hold')).find((item) => String(item.id) === typed.reasonId)
			reason = chosen?.label ?? ''
		}
		const change = await changeAid(db, decisionId, { action, reason }, user)
		// Once committed, the family reads it on their link and the lookup, and by SMS (and e-mail).
		if (change.told) await tellApplicants(db, [{ kind: 'status', caseId: row.id, to: row.status, message: change.told, messageOnly: true }], user)
		audit.note({ data: { decision: decisionId, from: aidStateLabels[change.from], to: aidStateLabels[change.to], months: change.months.length, inBatch: change.inBatch.length, reason } })
		return done(back, { tone: 'success', message: doneMessages[action] })
	} catch (error) {
		if (!(error instanceof CaseChangeError)) throw error
		// Money dated in a closed month (a restart's commitments): recorded though refused, as on every money screen.
		audit.refusal(error)
		if (error instanceof AidFourEyesError) {
			audit.note({ data: { decision: decisionId, refused: 'resume-four-eyes' } })
			return refuse(error.message, 403)
		}
		return refuse(error.message)
	}
}
