import type { BankLayout } from './layout.ts'

// An example of a bank's own layout, to copy for a real one: English headers, the account before
// the name, the amount with two decimals as text, and the narrative the bank prints on the
// beneficiary's statement (at most 35 Latin characters here: the payment reference and the case's).
// A real bank's layout comes from that bank's own file specification.
export const exampleBankLayout: BankLayout = {
	key: 'example-bank',
	label: 'مثال لصيغة بنك (قالب لإضافة صيغة بنك المؤسسة)',
	headers: ['Beneficiary IBAN', 'Beneficiary Name', 'Amount', 'Currency', 'Customer Reference', 'Narrative'],
	row: (line) => [line.iban, line.name, line.amount.toFixed(2), 'SAR', line.paymentReference, `${line.paymentReference} ${line.caseReference}`.slice(0, 35)],
}
