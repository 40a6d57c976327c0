import { expect, test } from 'vitest'
import { aidActionRefusal, aidActions, aidAllowed, aidNext, aidStates, RESUMER_MAY_NOT_CONFIRM, type AidAction, type AidState } from './monthly-aid.ts'

// The monthly aid's states (app/aid/monthly-aid.ts), every state against every action.

const finance = { id: 1, roles: ['finance'] as const }
const member = { id: 2, roles: ['approver'] as const }
const officer = { id: 3, roles: ['case_officer'] as const }

/** What each state allows, written out again by hand: the table must say exactly this. */
const expected: Record<AidState, Partial<Record<AidAction, AidState>>> = {
	active: { suspend: 'suspended', stop: 'stopped' },
	suspended: { stop: 'stopped', resume: 'resuming' },
	resuming: { confirm: 'active', decline: 'suspended', stop: 'stopped' },
	stopped: { resume: 'restarting' },
	restarting: { confirm: 'active', decline: 'stopped' },
}

for (const state of aidStates)
	for (const action of aidActions) {
		const to = expected[state][action]
		test(`${state} × ${action}: ${to ?? 'refused'}`, () => {
			const refusal = aidActionRefusal(state, action, member, finance.id)
			if (to) {
				expect(refusal).toBeNull()
				expect(aidNext(state, action)).toBe(to)
			} else {
				expect(refusal).toMatch(/^لا يمكن «/)
				expect(aidNext(state, action)).toBe(state)
			}
			// Staff outside finance and the committee are refused whatever the state.
			expect(aidActionRefusal(state, action, officer, null)).toBe('إيقاف الدعم واستئنافه للجنة الصرف والمسؤولين الماليين')
		})
	}

test('whoever asked to resume does not confirm it; anyone else of finance or the committee does', () => {
	for (const state of ['resuming', 'restarting'] as const) {
		expect(aidActionRefusal(state, 'confirm', finance, finance.id)).toBe(RESUMER_MAY_NOT_CONFIRM)
		expect(aidActionRefusal(state, 'confirm', member, finance.id)).toBeNull()
		// Withdrawing one's own request is not resuming.
		expect(aidActionRefusal(state, 'decline', finance, finance.id)).toBeNull()
	}
})

test('a refusal names what the state allows', () => {
	expect(aidActionRefusal('stopped', 'suspend', finance, null)).toBe('لا يمكن «إيقاف مؤقت» لدعم حالته «موقوف نهائياً». المسموح: «طلب الاستئناف»')
	expect(aidAllowed('active')).toEqual(['suspend', 'stop'])
})
