import { describe, expect, test } from 'vitest'
import { userRoles } from '#app/db/roles.ts'
import { allowedTargets, canTransition, transitionRefusal, type Actor, type CaseKind, type Stage } from './workflow.ts'

// The whole table, written out once more by hand: every (from, to, actor, kind, form) is asserted.
type Table = Record<CaseKind, Record<number, number[]>>
// No money through the officer's form: 2 → 3 is finance's payment, after the committee's approval.
const officerMay: Table = {
	individual: { 1: [2, 4, 5, 6], 2: [], 3: [], 4: [2, 4, 5, 6], 5: [2, 4, 6], 6: [], 7: [], 8: [6] },
	association: { 1: [2, 4, 5, 6], 2: [], 3: [], 4: [], 5: [], 6: [], 7: [], 8: [6] },
}
const committeeMay: Table = {
	individual: { 1: [], 2: [1, 7, 8], 3: [], 4: [], 5: [], 6: [], 7: [], 8: [] },
	association: { 1: [], 2: [1, 7, 8], 3: [], 4: [], 5: [], 6: [], 7: [], 8: [] },
}
const nothing: Table = {
	individual: { 1: [], 2: [], 3: [], 4: [], 5: [], 6: [], 7: [], 8: [] },
	association: { 1: [], 2: [], 3: [], 4: [], 5: [], 6: [], 7: [], 8: [] },
}
const applicantMay: Table = {
	individual: { ...nothing.individual, 4: [1] },
	association: { ...nothing.association, 4: [1] },
}
/** Which roles may use each form. */
const mayUse: Record<Stage, readonly Actor[]> = { officer: ['admin', 'case_officer'], committee: ['admin', 'approver'], finance: ['admin', 'finance'], applicant: ['applicant'] }
const financeMay: Table = {
	individual: { ...nothing.individual, 3: [7], 7: [3] },
	association: { ...nothing.association, 3: [7], 7: [3] },
}
const tables: Record<Stage, Table> = { officer: officerMay, committee: committeeMay, finance: financeMay, applicant: applicantMay }
const statuses = [1, 2, 3, 4, 5, 6, 7, 8]
const actors: Actor[] = [...userRoles, 'applicant']

describe('the status workflow', () => {
	for (const kind of ['individual', 'association'] as const) {
		for (const by of Object.keys(tables) as Stage[]) {
			for (const actor of actors) {
				for (const from of statuses) {
					for (const to of statuses) {
						const expected = mayUse[by].includes(actor) && tables[by][kind][from]!.includes(to)
						test(`${kind}, ${by}'s form: ${actor} ${from} → ${to} is ${expected ? 'allowed' : 'refused'}`, () => {
							expect(canTransition(kind, from, to, actor, by)).toBe(expected)
							const refusal = transitionRefusal(kind, from, to, actor, by)
							if (expected) expect(refusal).toBeNull()
							else expect(refusal).toMatch(/[\u0600-\u06FF]/)
						})
					}
				}
			}
		}
	}

	test('without a form named, staff use the officer\'s and an applicant their own', () => {
		expect(canTransition('individual', 2, 7, 'admin')).toBe(false)
		expect(canTransition('individual', 2, 7, 'admin', 'committee')).toBe(true)
		expect(canTransition('individual', 4, 1, 'applicant')).toBe(true)
		expect(canTransition('individual', 1, 2, ['approver', 'case_officer'])).toBe(true)
		expect(canTransition('individual', 1, 2, ['approver', 'finance'])).toBe(false)
	})

	test('unknown statuses are refused with a message', () => {
		expect(canTransition('individual', 1, 9, 'admin')).toBe(false)
		expect(transitionRefusal('individual', 1, 9, 'admin')).toBe('الحالة المطلوبة غير معروفة')
		expect(canTransition('individual', 0, 2, 'admin')).toBe(false)
	})

	test('the refusal says what is allowed instead', () => {
		expect(transitionRefusal('individual', 1, 3, 'case_officer')).toBe('لا يمكن نقل الطلب من «جديد» إلى «تم تقديم الدعم». المسموح: «تمت الدراسة»، «غير مكتمل»، «تم إيقاف الدعم»، «مغلق»')
		expect(transitionRefusal('individual', 3, 2, 'admin')).toBe('لا يمكن تغيير حالة طلب في حالة «تم تقديم الدعم»')
		expect(transitionRefusal('individual', 2, 3, 'content_editor')).toBe('ليست لديك صلاحية تغيير حالة الطلبات')
		expect(transitionRefusal('individual', 2, 7, 'case_officer', 'committee')).toBe('القرار على الطلبات لأعضاء لجنة الصرف')
	})

	test('allowedTargets lists the statuses in order', () => {
		expect(allowedTargets('individual', 5, 'case_officer')).toEqual([2, 4, 6])
		expect(allowedTargets('association', 4, 'admin')).toEqual([])
	})
})
