// Each staff action on one case (the case view's forms, app/routes/admin/case.tsx): it runs the
// store's transaction, tells the applicant once (./tell.server.ts) and says what came of it
// (./outcome.ts). The route only parses the form with ./case-schemas.ts and answers with the outcome.
import type { z } from 'zod'
import type { Database } from '#app/db/client.server.ts'
import type { PublicUser } from '#app/domain/staff-users.server.ts'
import type { ApplicationDef } from '#app/forms/definition.ts'
import type { CaseRow } from '#app/cases/case-store.server.ts'
import { addApplicantMessage, addInternalNote, assignCases, CaseChangeError, changeStatus, restoreCase, softDeleteCase } from '#app/cases/status-changes.server.ts'
import { cancelVisit, scheduleVisit } from '#app/cases/visits.server.ts'
import { listCaseMessages, resendMessage } from '#app/notify/outbox.server.ts'
import { staffStatusName, Status } from '#app/cases/case-statuses.ts'
import { allowedTargets, type CaseKind } from '#app/cases/workflow.ts'
import { hasRole, type UserRole } from '#app/db/roles.ts'
import { notices } from '#app/http/flash.server.ts'
import type { AuditSink } from '#app/audit/audit-trail.server.ts'
import { decide, FourEyesError, type Decision } from '#app/aid/decisions.server.ts'
import { ApprovalRefused, type decisionFormSchema } from '#app/aid/approval.ts'
import { proposeAid } from '#app/aid/proposals.server.ts'
import { listReasons } from '#app/cases/reasons.server.ts'
import { formOf, STALE_STATUS_FORM, type CaseAction } from './case-schemas.ts'
import { done, refused, type Outcome } from './outcome.ts'
import { tellApplicants } from './tell.server.ts'

export interface CaseActionContext {
	db: Database
	row: CaseRow
	definition: ApplicationDef
	user: PublicUser
	audit: AuditSink
}

/** What a colleague's change did to the case, and what this member of staff may do with it now. */
function staleStatusMessage(kind: CaseKind, now: number, roles: readonly UserRole[]): string {
	const allowed = allowedTargets(kind, now, roles).map((status) => `«${staffStatusName(status)}»`)
	const what = `لم يُحفظ تغييرك: غيّر غيرك حالة الطلب إلى «${staffStatusName(now)}» بعد أن فتحت الصفحة.`
	return allowed.length ? `${what} يمكن نقله الآن إلى: ${allowed.join('، ')}.` : `${what} ولا يمكن تغيير حالته الآن.`
}

/** The decision as the committee's store takes it; a reason that is no longer on the list is said so. */
async function decisionOf(db: Database, value: z.infer<typeof decisionFormSchema>): Promise<Decision | string> {
	const note = value.note ?? ''
	if (value.outcome === 'approve') return { outcome: 'approve', aidKind: value.aidKind, amount: value.amount, months: value.months ?? null, fundId: value.fund, note }
	if (value.outcome === 'return') return { outcome: 'return', note }
	const reason = (await listReasons(db, 'decision-reject')).find((candidate) => candidate.id === value.reason)
	return reason ? { outcome: 'reject', reason: reason.label, note } : 'الرجاء اختيار سبب الرفض من القائمة'
}

/**
 * Runs one staff action on a case, `value` as parsed by `caseActionSchema` and `typed` as the form
 * sent it (given back with a refusal). A refusal of the store's (CaseChangeError) is an outcome;
 * anything else is thrown.
 */
export async function runCaseAction(context: CaseActionContext, value: CaseAction, typed: Record<string, unknown>): Promise<Outcome> {
	const { row, audit } = context
	if (row.deletedAt && value.intent !== 'restore') return refused(value.intent, { '': ['الطلب محذوف؛ استعده أولاً'] }, 409)
	// Retention destroyed the applicant's details: there is nobody to message, and the minimal record stays as it is.
	if (row.purgedAt && (value.intent === 'status' || value.intent === 'propose' || value.intent === 'message' || value.intent === 'decide' || value.intent === 'resend')) {
		return refused(formOf(typed), { '': ['أُتلفت بيانات هذا الطلب وفق مدة الاحتفاظ، فلا يمكن تغيير حالته أو تسجيل دعم عليه أو مراسلة مقدمه'] }, 409, typed)
	}
	try {
		return await run(context, value, typed)
	} catch (error) {
		if (!(error instanceof CaseChangeError)) throw error
		audit.refusal(error)
		// Four eyes: refused whatever roles the user holds, and recorded as a refused access (docs/security.md#audit-trail).
		if (error instanceof FourEyesError) {
			audit.note({ data: { refused: 'four-eyes' } })
			return refused(formOf(typed), { '': [error.message] }, 403, typed)
		}
		if (error instanceof ApprovalRefused) return refused(formOf(typed), error.issues, 400, typed)
		return refused(formOf(typed), { '': [error.message] }, 409, typed)
	}
}

async function run({ db, row, definition, user, audit }: CaseActionContext, value: CaseAction, typed: Record<string, unknown>): Promise<Outcome> {
	const base = `/admin/cases/${row.reference}`
	switch (value.intent) {
		case 'decide': {
			const decision = await decisionOf(db, value)
			if (typeof decision === 'string') return refused(formOf(typed), { reason: [decision] }, 400, typed)
			audit.note({ data: { outcome: value.outcome, from: row.status } })
			const decided = await decide(db, row.id, decision, user)
			if (decided.awaitingSecond) {
				audit.note({ data: { outcome: value.outcome, from: row.status, awaitingSecond: true } })
				return done(`${base}#decision`, { tone: 'success', message: 'سُجّل اعتمادك الأول، والطلب بانتظار اعتماد ثانٍ من عضو آخر في لجنة الصرف: لا يُصرف شيء قبله.' })
			}
			if (decided.message) await tellApplicants(db, [{ kind: 'status', caseId: decided.row.id, to: decided.to, message: decided.message, messageOnly: decided.messageOnly }], user)
			return done(`${base}#decision`, { tone: 'success', message: `تم تسجيل القرار: «${staffStatusName(decided.to)}»` })
		}
		case 'status': {
			if (value.from !== undefined && value.from !== row.status) return refused(STALE_STATUS_FORM, { '': [staleStatusMessage(definition.kind, row.status, user.roles)] }, 409, typed)
			const known = (items: string[], allowed: string[]) => items.filter((item) => allowed.includes(item))
			const reopened =
				value.to === Status.Incomplete
					? {
							sections: known(
								value.reopenSections,
								definition.sections.map((section) => section.key),
							),
							slots: known(
								value.reopenSlots,
								definition.sections.flatMap((section) => section.files ?? []).map((slot) => slot.slot),
							),
						}
					: undefined
			audit.note({ data: { from: row.status, to: value.to } })
			const { row: changed } = await changeStatus(db, row.id, { to: value.to, note: value.note, message: value.message, reopened }, user)
			await tellApplicants(db, [{ kind: 'status', caseId: changed.id, to: value.to, message: value.message }], user)
			return done(base, { tone: 'success', message: `تم تغيير الحالة إلى «${staffStatusName(value.to)}»` })
		}
		case 'assign':
			await assignCases(db, [row.id], value.officer === 'none' ? null : Number(value.officer), user)
			return done(base, notices.updated)
		case 'note':
			await addInternalNote(db, row.id, value.note, user)
			return done(base, notices.added)
		case 'message':
			await addApplicantMessage(db, row.id, value.message, user)
			await tellApplicants(db, [{ kind: 'status', caseId: row.id, to: row.status, message: value.message, messageOnly: true }], user)
			return done(base, { tone: 'success', message: 'تم إرسال الرسالة بنجاح' })
		case 'propose':
			// Money goes to the committee's queue, never straight to the ledger (app/aid/proposals.server.ts).
			audit.note({ data: { amount: value.amount, type: value.aidKind, from: row.status } })
			await proposeAid(db, row.id, { aidKind: value.aidKind, amount: value.amount, note: value.note ?? '' }, user)
			return done(`${base}#decision`, { tone: 'success', message: 'أُرسل اقتراح الدعم إلى لجنة الصرف، ولا يُصرف شيء قبل اعتمادها' })
		case 'visit': {
			const planned = await scheduleVisit(db, row.id, { visitOn: value.visitOn, visitAt: value.visitAt, visitorId: value.visitor }, user)
			await tellApplicants(db, [{ kind: 'visit', caseId: planned.row.id, visitOn: value.visitOn, visitAt: value.visitAt }], user)
			return done(`${base}#visits`, { tone: 'success', message: 'تم تحديد موعد الزيارة' })
		}
		case 'cancel-visit': {
			const cancelled = await cancelVisit(db, row.id, value.visitId, user)
			if (!cancelled) return refused('cancel-visit', { '': ['لم يعد هذا الموعد قائماً'] }, 409)
			await tellApplicants(db, [{ kind: 'status', caseId: cancelled.row.id, to: cancelled.row.status, message: cancelled.message, messageOnly: true }], user)
			return done(`${base}#visits`, { tone: 'success', message: 'تم إلغاء موعد الزيارة' })
		}
		case 'delete':
			await softDeleteCase(db, row.id, value.reason, user)
			return done(definition.kind === 'association' ? '/admin/associations' : '/admin/cases', notices.deleted)
		case 'resend': {
			// Only a message of this case, and one that could not be sent.
			const message = (await listCaseMessages(db, row.id)).find((candidate) => candidate.id === value.messageId)
			if (!message) return refused('resend', { '': ['الرسالة غير موجودة في هذا الطلب'] }, 404)
			if (message.status !== 'failed') return refused('resend', { '': [message.status === 'sent' ? 'أُرسلت هذه الرسالة من قبل' : 'هذه الرسالة قيد الإرسال'] }, 409)
			audit.note({ data: { message: message.id, event: message.event, channel: message.channel } })
			const copy = await resendMessage(db, message.id, user)
			return done(`${base}#sent-messages`, copy?.status === 'sent' ? { tone: 'success', message: 'أُعيد إرسال الرسالة' } : { tone: 'error', message: 'تعذّر إرسال الرسالة مرة أخرى، والسبب في قائمة «الرسائل» أدناه.' })
		}
		case 'restore':
			if (!hasRole(user, 'admin')) return { kind: 'forbidden', message: 'ليست لديك صلاحية استعادة الطلبات', status: 403 }
			await restoreCase(db, row.id, user)
			return done(base, { tone: 'success', message: 'تمت استعادة الطلب' })
	}
}
