import { describe, expect, test } from 'vitest'
import { userRoles } from '#app/db/roles.ts'
import { allowedTargets, canTransition, transitionRefusal, type Actor, type CaseKind } from './workflow.ts'

// The whole table, written out once more by hand: every (from, to, actor, kind) is asserted.
const staffMay: Record<CaseKind, Record<number, number[]>> = {
	individual: { 1: [2, 4, 5, 6], 2: [3], 3: [], 4: [2, 4, 5, 6], 5: [2, 4, 6], 6: [] },
	association: { 1: [2, 4, 5, 6], 2: [3], 3: [], 4: [], 5: [], 6: [] },
}
const applicantMay: Record<CaseKind, Record<number, number[]>> = {
	individual: { 1: [], 2: [], 3: [], 4: [1], 5: [], 6: [] },
	association: { 1: [], 2: [], 3: [], 4: [1], 5: [], 6: [] },
}
const statuses = [1, 2, 3, 4, 5, 6]
const actors: Actor[] = [...userRoles, 'applicant']

describe('the status workflow', () => {
	for (const kind of ['individual', 'association'] as const) {
		for (const actor of actors) {
			for (const from of statuses) {
				for (const to of statuses) {
					const expected = actor === 'applicant' ? applicantMay[kind][from]!.includes(to) : actor === 'content_editor' ? false : staffMay[kind][from]!.includes(to)
					test(`${kind}: ${actor} ${from} → ${to} is ${expected ? 'allowed' : 'refused'}`, () => {
						expect(canTransition(kind, from, to, actor)).toBe(expected)
						const refusal = transitionRefusal(kind, from, to, actor)
						if (expected) expect(refusal).toBeNull()
						else expect(refusal).toMatch(/[\u0600-\u06FF]/)
					})
				}
			}
		}
	}

	test('unknown statuses are refused with a message', () => {
		expect(canTransition('individual', 1, 9, 'admin')).toBe(false)
		expect(transitionRefusal('individual', 1, 9, 'admin')).toBe('الحالة المطلوبة غير معروفة')
		expect(canTransition('individual', 0, 2, 'admin')).toBe(false)
	})

	test('the refusal says what is allowed instead', () => {
		expect(transitionRefusal('individual', 1, 3, 'case_officer')).toBe('لا يمكن نقل الطلب من «جديد» إلى «تم تقديم الدعم». المسموح: «تمت الدراسة»، «غير مكتمل»، «تم إيقاف الدعم»، «مغلق»')
		expect(transitionRefusal('individual', 3, 2, 'admin')).toBe('لا يمكن تغيير حالة طلب في حالة «تم تقديم الدعم»')
		expect(transitionRefusal('individual', 2, 3, 'content_editor')).toBe('ليست لديك صلاحية تغيير حالة الطلبات')
	})

	test('allowedTargets lists the statuses in order', () => {
		expect(allowedTargets('individual', 5, 'case_officer')).toEqual([2, 4, 6])
		expect(allowedTargets('association', 4, 'admin')).toEqual([])
	})
})
