import { expect, test } from 'vitest'
import { bulkAssignMessage, bulkStatusMessage } from './bulk-messages.ts'

test('a bulk status change counts its requests in Arabic, never «2 طلب» or «0 طلب» (issue 24 §5.16)', () => {
	expect(bulkStatusMessage(1, [])).toBe('تم تغيير حالة طلب واحد.')
	expect(bulkStatusMessage(2, [])).toBe('تم تغيير حالة طلبين.')
	expect(bulkStatusMessage(3, [])).toBe('تم تغيير حالة 3 طلبات.')
	expect(bulkStatusMessage(11, [])).toBe('تم تغيير حالة 11 طلباً.')
	const refused = [{ reference: 'ABCD-EFGH', reason: 'لا يمكن نقل الطلب من «مغلق»' }]
	expect(bulkStatusMessage(0, refused)).toBe('لم تتغير حالة أي طلب. الأسباب: ABCD-EFGH (لا يمكن نقل الطلب من «مغلق»)')
	expect(bulkStatusMessage(2, [...refused, ...refused, ...refused, ...refused])).toBe(
		'تم تغيير حالة طلبين. لم تتغير حالة 4 طلبات: ABCD-EFGH (لا يمكن نقل الطلب من «مغلق»)؛ ABCD-EFGH (لا يمكن نقل الطلب من «مغلق»)؛ ABCD-EFGH (لا يمكن نقل الطلب من «مغلق»)؛ …',
	)
})

test('a bulk assignment counts what changed of what was ticked', () => {
	expect(bulkAssignMessage(2, 2)).toBe('تم تحديث إسناد طلبين.')
	expect(bulkAssignMessage(1, 3)).toBe('تم تحديث إسناد طلب واحد من 3 طلبات.')
	expect(bulkAssignMessage(0, 2)).toBe('لم يتغير إسناد أي طلب: كلها مسندة كما اخترت.')
})
