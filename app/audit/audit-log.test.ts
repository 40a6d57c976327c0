import { expect, test } from 'vitest'
import { describeDetails } from './audit-log.server.ts'

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
