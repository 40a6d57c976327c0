import type { BankLayout } from './layout.ts'

// Ataa's own layout: every field of a transfer, with Arabic headers; what finance reads, and what
// the bank's confirmation file is matched against (payment reference and amount).
export const commonLayout: BankLayout = {
	key: 'common',
	label: 'الصيغة العامة (عطاء)',
	headers: ['م', 'مرجع التحويل', 'رقم الطلب', 'اسم المستفيد', 'الآيبان', 'المبلغ (ريال)', 'الغرض'],
	row: (line, index) => [index + 1, line.paymentReference, line.caseReference, line.name, line.iban, line.amount, line.purpose],
}
