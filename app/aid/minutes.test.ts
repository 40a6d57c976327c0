import { expect, test } from 'vitest'
import { formatDate, formatMoney } from '#app/text/format.ts'
import { describeMinutes, type Minutes } from './minutes.ts'

// The minutes in words (docs/product.md#committee-meetings): what the meeting's page and the printed
// minutes both show.

const minutes: Minutes = {
	meeting: { id: 12, heldOn: '2026-11-29', place: 'رابط الاجتماع', online: true, openedBy: 'العضو الأول', openedAt: '2026-11-29T07:00:00.000Z', closedBy: 'العضو الثاني', closedAt: '2026-11-29T09:00:00.000Z' },
	members: [
		{ userId: 1, name: 'العضو الأول' },
		{ userId: 2, name: 'العضو الثاني' },
	],
	decisions: [
		{ id: 5, reference: 'ABCD-2345', name: 'أسرة سالم', programme: 'الأسر المحتاجة', outcome: 'approve', aidKind: 'rent', amount: 1500, months: 6, fund: 'صندوق الزكاة (زكاة)', reason: null, decider: 'العضو الثاني', firstApprover: 'العضو الأول', at: '2026-11-29T08:00:00.000Z' },
		{ id: 6, reference: 'EFGH-2345', name: 'جمعية البر', programme: 'دعم الجمعيات', outcome: 'reject', aidKind: null, amount: null, months: null, fund: null, reason: 'خارج نطاق البرنامج', decider: 'العضو الأول', firstApprover: null, at: '2026-11-29T08:30:00.000Z' },
	],
	approvedTotal: 9000,
}

test('each decision with its case, name, programme, decision, amount, fund and who decided; the meeting and its members', () => {
	const described = describeMinutes(minutes)
	expect(described.title).toBe('محضر اجتماع لجنة الصرف رقم 12')
	expect(described.lines).toContainEqual({ label: 'تاريخ الاجتماع', value: formatDate('2026-11-29') })
	expect(described.lines).toContainEqual({ label: 'المكان', value: 'عن بعد: رابط الاجتماع' })
	expect(described.lines).toContainEqual({ label: 'مجموع ما اعتُمد', value: formatMoney(9000) })
	expect(described.members).toEqual(['العضو الأول', 'العضو الثاني'])
	expect(described.rows).toEqual([
		{ id: 5, reference: 'ABCD-2345', name: 'أسرة سالم', programme: 'الأسر المحتاجة', decision: 'اعتماد الدعم: سداد إيجار', amount: `${formatMoney(1500)} شهرياً لمدة 6 أشهر`, fund: 'صندوق الزكاة (زكاة)', decider: 'العضو الأول ثم العضو الثاني' },
		{ id: 6, reference: 'EFGH-2345', name: 'جمعية البر', programme: 'دعم الجمعيات', decision: 'رفض الطلب: خارج نطاق البرنامج', amount: '', fund: '', decider: 'العضو الأول' },
	])
})
