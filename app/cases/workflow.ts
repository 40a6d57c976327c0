// Who may move a case from which status to which: a table, read by the server before every change
// and by the case view to offer only what is allowed (docs/product.md#status-transitions).
import { areaRoles, hasRole, type UserRole } from '#app/db/roles.ts'
import type { ApplicationDef } from '#app/forms/definition.ts'
import { caseStatuses, Status, type CaseStatus } from '#app/cases/case-statuses.ts'

export type CaseKind = ApplicationDef['kind']
/** A staff member's roles (or one role), or the applicant sending their case again. */
export type Actor = UserRole | readonly UserRole[] | 'applicant'

/**
 * Who moves a case, and through which form: the case officer's status form, the committee's
 * decision (approve, reject, send back for more study), finance's payment, the applicant's resending.
 */
export type Stage = 'officer' | 'committee' | 'finance' | 'applicant'

const stageRoles = { officer: areaRoles.cases, committee: areaRoles.decisions, finance: areaRoles.payments } as const

interface Transition {
	kind: CaseKind
	from: readonly CaseStatus[]
	to: readonly CaseStatus[]
	by: Stage
}

export const transitions: readonly Transition[] = [
	// No money through this form: «تم تقديم الدعم» follows a payment or delivery (finance), and the
	// officer proposes aid to the committee instead (app/aid/proposals.server.ts).
	{ kind: 'individual', from: [Status.New, Status.Incomplete, Status.SupportStopped], to: [Status.Studied, Status.Incomplete, Status.SupportStopped, Status.Closed], by: 'officer' },
	{ kind: 'individual', from: [Status.Rejected], to: [Status.Closed], by: 'officer' },
	{ kind: 'association', from: [Status.New], to: [Status.Studied, Status.Incomplete, Status.SupportStopped, Status.Closed], by: 'officer' },
	{ kind: 'association', from: [Status.Rejected], to: [Status.Closed], by: 'officer' },
	// The committee approves, rejects, or sends the case back to «جديد» for more study.
	{ kind: 'individual', from: [Status.Studied], to: [Status.Approved, Status.Rejected, Status.New], by: 'committee' },
	{ kind: 'association', from: [Status.Studied], to: [Status.Approved, Status.Rejected, Status.New], by: 'committee' },
	// Finance records the first payment or delivery («تم تقديم الدعم»); a bounced one, the only one, reopens it.
	{ kind: 'individual', from: [Status.Approved], to: [Status.SupportProvided], by: 'finance' },
	{ kind: 'individual', from: [Status.SupportProvided], to: [Status.Approved], by: 'finance' },
	{ kind: 'association', from: [Status.Approved], to: [Status.SupportProvided], by: 'finance' },
	{ kind: 'association', from: [Status.SupportProvided], to: [Status.Approved], by: 'finance' },
	// The applicant fixes what staff asked for and sends the case again.
	{ kind: 'individual', from: [Status.Incomplete], to: [Status.New], by: 'applicant' },
	{ kind: 'association', from: [Status.Incomplete], to: [Status.New], by: 'applicant' },
]

function holds(actor: Actor, by: Stage): boolean {
	if (by === 'applicant' || actor === 'applicant') return actor === 'applicant' && by === 'applicant'
	return hasRole({ roles: typeof actor === 'string' ? [actor] : actor }, ...stageRoles[by])
}

const defaultStage = (actor: Actor): Stage => (actor === 'applicant' ? 'applicant' : 'officer')

/**
 * Whether `actor` may move a case of `kind` from `from` to `to` through `by`'s form (the officer's
 * status form unless said). Setting the same status again is no change, except «incomplete» again,
 * which asks the applicant for other corrections.
 */
export function canTransition(kind: CaseKind, from: number, to: number, actor: Actor, by: Stage = defaultStage(actor)): boolean {
	if (!holds(actor, by)) return false
	if (from === to && to !== Status.Incomplete) return false
	return transitions.some((t) => t.kind === kind && t.by === by && t.from.includes(from as CaseStatus) && t.to.includes(to as CaseStatus))
}

/** The statuses `actor` may set from `from` through `by`'s form, in order. */
export function allowedTargets(kind: CaseKind, from: number, actor: Actor, by: Stage = defaultStage(actor)): CaseStatus[] {
	return (Object.keys(caseStatuses).map(Number) as CaseStatus[]).filter((to) => canTransition(kind, from, to, actor, by))
}

/** Why a change is refused, in Arabic; null when it is allowed. */
export function transitionRefusal(kind: CaseKind, from: number, to: number, actor: Actor, by: Stage = defaultStage(actor)): string | null {
	if (canTransition(kind, from, to, actor, by)) return null
	const name = (status: number) => caseStatuses[status as CaseStatus]?.name ?? String(status)
	if (!holds(actor, by)) return by === 'committee' ? 'القرار على الطلبات لأعضاء لجنة الصرف' : 'ليست لديك صلاحية تغيير حالة الطلبات'
	if (!(to in caseStatuses)) return 'الحالة المطلوبة غير معروفة'
	if (from === to) return `الطلب في حالة «${name(from)}» أصلاً`
	const allowed = allowedTargets(kind, from, actor, by)
	return allowed.length
		? `لا يمكن نقل الطلب من «${name(from)}» إلى «${name(to)}». المسموح: ${allowed.map((status) => `«${name(status)}»`).join('، ')}`
		: `لا يمكن تغيير حالة طلب في حالة «${name(from)}»`
}
