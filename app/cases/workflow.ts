// Who may move a case from which status to which: a table, read by the server before every change
// and by the case view to offer only what is allowed (docs/product.md#status-transitions).
import { areaRoles, type UserRole } from '#app/db/roles.ts'
import type { ApplicationDef } from '#app/forms/definition.ts'
import { caseStatuses, INCOMPLETE, type CaseStatus } from '#app/cases/case-statuses.ts'

export type CaseKind = ApplicationDef['kind']
/** A staff member's role, or the applicant sending their case again. */
export type Actor = UserRole | 'applicant'

interface Transition {
	kind: CaseKind
	from: readonly CaseStatus[]
	to: readonly CaseStatus[]
	by: 'staff' | 'applicant'
}

export const transitions: readonly Transition[] = [
	{ kind: 'individual', from: [1, 4, 5], to: [2, 4, 5, 6], by: 'staff' },
	{ kind: 'individual', from: [2], to: [3], by: 'staff' },
	{ kind: 'association', from: [1], to: [2, 4, 5, 6], by: 'staff' },
	{ kind: 'association', from: [2], to: [3], by: 'staff' },
	// The applicant fixes what staff asked for and sends the case again.
	{ kind: 'individual', from: [4], to: [1], by: 'applicant' },
	{ kind: 'association', from: [4], to: [1], by: 'applicant' },
]

function actorClass(actor: Actor): 'staff' | 'applicant' | null {
	if (actor === 'applicant') return 'applicant'
	return (areaRoles.cases as readonly UserRole[]).includes(actor) ? 'staff' : null
}

/**
 * Whether `actor` may move a case of `kind` from `from` to `to`. Setting the same status again is
 * no change, except «incomplete» again, which asks the applicant for other corrections.
 */
export function canTransition(kind: CaseKind, from: number, to: number, actor: Actor): boolean {
	const by = actorClass(actor)
	if (!by) return false
	if (from === to && to !== INCOMPLETE) return false
	return transitions.some((t) => t.kind === kind && t.by === by && t.from.includes(from as CaseStatus) && t.to.includes(to as CaseStatus))
}

/** The statuses `actor` may set from `from`, in order. */
export function allowedTargets(kind: CaseKind, from: number, actor: Actor): CaseStatus[] {
	return (Object.keys(caseStatuses).map(Number) as CaseStatus[]).filter((to) => canTransition(kind, from, to, actor))
}

/** Why a change is refused, in Arabic; null when it is allowed. */
export function transitionRefusal(kind: CaseKind, from: number, to: number, actor: Actor): string | null {
	if (canTransition(kind, from, to, actor)) return null
	const name = (status: number) => caseStatuses[status as CaseStatus]?.name ?? String(status)
	if (!actorClass(actor)) return 'ليست لديك صلاحية تغيير حالة الطلبات'
	if (!(to in caseStatuses)) return 'الحالة المطلوبة غير معروفة'
	if (from === to) return `الطلب في حالة «${name(from)}» أصلاً`
	const allowed = allowedTargets(kind, from, actor)
	return allowed.length
		? `لا يمكن نقل الطلب من «${name(from)}» إلى «${name(to)}». المسموح: ${allowed.map((status) => `«${name(status)}»`).join('، ')}`
		: `لا يمكن تغيير حالة طلب في حالة «${name(from)}»`
}
