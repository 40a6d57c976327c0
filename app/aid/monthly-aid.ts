// An approved aid's remaining instalments over time (docs/product.md#monthly-aid-over-time): finance
// or the committee suspends them (held, not offered for a batch), stops them (cancelled), and asks to
// resume them; someone else confirms a resumption or a restart. A table, as the cases' own
// (app/cases/workflow.ts), read by the server before every change and by the screens to offer only
// what is allowed.
import { areaRoles, hasRole, type UserRole } from '#app/db/roles.ts'

export { aidActionLabels, aidActions, aidStateLabels, aidStates, instalmentsNoun, type AidAction, type AidState } from '#app/cases/aid.ts'
import { aidActionLabels, aidActions, aidStateLabels, type AidAction, type AidState } from '#app/cases/aid.ts'

/** From each state, what each action leads to; an action missing is refused. */
export const aidTransitions: Readonly<Record<AidState, Partial<Record<AidAction, AidState>>>> = {
	active: { suspend: 'suspended', stop: 'stopped' },
	suspended: { stop: 'stopped', resume: 'resuming' },
	resuming: { confirm: 'active', decline: 'suspended', stop: 'stopped' },
	stopped: { resume: 'restarting' },
	restarting: { confirm: 'active', decline: 'stopped' },
}

/** Finance or the committee (and an admin) hold and resume aid. */
export const aidHolderRoles = [...new Set<UserRole>([...areaRoles.payments, ...areaRoles.decisions])]

export const RESUMER_MAY_NOT_CONFIRM = 'لا يؤكد استئناف الدعم من طلبه: يؤكده عضو آخر من لجنة الصرف أو مسؤول مالي آخر.'

/** An action's reason is needed: why it is held or stopped (the applicant reads it), and why it resumes. */
export const needsReason = (action: AidAction) => action === 'suspend' || action === 'stop' || action === 'resume'

/**
 * Why `actor` may not take `action` on an aid in `state` (asked to resume by `requestedBy`), in
 * Arabic; null when allowed.
 */
export function aidActionRefusal(state: AidState, action: AidAction, actor: { id: number; roles: readonly UserRole[] }, requestedBy: number | null): string | null {
	if (!hasRole(actor, ...aidHolderRoles)) return 'إيقاف الدعم واستئنافه للجنة الصرف والمسؤولين الماليين'
	const to = aidTransitions[state][action]
	if (!to) {
		const allowed = aidAllowed(state)
		return `لا يمكن «${aidActionLabels[action]}» لدعم حالته «${aidStateLabels[state]}»${allowed.length ? `. المسموح: ${allowed.map((item) => `«${aidActionLabels[item]}»`).join('، ')}` : ''}`
	}
	if (action === 'confirm' && requestedBy === actor.id) return RESUMER_MAY_NOT_CONFIRM
	return null
}

/** The actions a state allows, in order. */
export const aidAllowed = (state: AidState): AidAction[] => aidActions.filter((action) => aidTransitions[state][action] !== undefined)

/** The state an action leads to (the caller checked it is allowed). */
export const aidNext = (state: AidState, action: AidAction): AidState => aidTransitions[state][action] ?? state
