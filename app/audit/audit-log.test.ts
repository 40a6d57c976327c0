import { expect, test } from 'vitest'
import { describeDetails } from './audit-log.server.ts'
import { staffStatusName } from '#app/cases/case-statuses.ts'

test('details read in Arabic: statuses and roles by name, yes and no, codes in words; a name the app does not know stays as stored', () => {
	expect(describeDetails({ intent: 'status', from: 4, to: 6 })).toBe('من: «غير مكتمل»، إلى: «مغلق»')
	expect(describeDetails({ userId: 7, role: { from: 'content_editor', to: 'case_officer' }, active: false, sessionsEnded: 1 })).toBe(
		'رقم المستخدم: 7، الصلاحية: محرر المحتوى ← الباحث الاجتماعي، الحساب فعّال: لا، الجلسات المنتهية: 1',
	)
	expect(describeDetails({ roles: ['admin', 'case_officer'] })).toBe('الصلاحيات: مدير النظام، الباحث الاجتماعي')
	// A user's roles changed: the set before and after.
	expect(describeDetails({ roles: { from: ['case_officer'], to: ['case_officer', 'content_editor'] } })).toBe('الصلاحيات: الباحث الاجتماعي ← الباحث الاجتماعي، محرر المحتوى')
	expect(describeDetails({ kind: 'individual', format: 'xlsx', rows: 53, method: 'recovery-code' })).toBe('القائمة: طلبات الأفراد، الصيغة: xlsx، عدد الصفوف: 53، الطريقة: رمز احتياطي')
	expect(describeDetails({ somethingNew: { a: 1 } })).toBe('somethingNew: {"a":1}')
	expect(describeDetails(null)).toBe('')
})

test('a refused decision reads in Arabic, not as its codes (issue 37, §2.14)', () => {
	expect(describeDetails({ intent: 'decide', outcome: 'approve', from: 2 })).toBe(`القرار: اعتماد الدعم، من: «${staffStatusName(2)}»`)
	expect(describeDetails({ intent: 'decide', refused: 'four-eyes' })).toBe('رُفض: من أوصى بالدعم أو أعدّ الدفعة لا يعتمدها (فصل المهام)')
	expect(describeDetails({ intent: 'rename-fund', fund: 'صندوق الزكاة' })).toBe('العملية: تغيير اسم صندوق، الصندوق: صندوق الزكاة')
	expect(describeDetails({ approved: ['AB-CDE'], refused: [] })).toBe('اعتُمد: AB-CDE، رُفض: لا شيء')
})
