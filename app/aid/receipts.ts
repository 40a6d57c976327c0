// Money in (docs/product.md#money-in): where a receipt's money comes from, and how its number is
// written. Shared by the server and the screens.

/** A receipt's sources, as finance picks them; each is the ledger account `source:<value>`. */
export const receiptSources = [
	{ value: 'bank_deposit', label: 'إيداع بنكي' },
	{ value: 'ehsan', label: 'تحويل من منصة إحسان' },
	{ value: 'donor_transfer', label: 'تحويل من متبرع' },
	{ value: 'cash', label: 'نقداً' },
	{ value: 'endowment_yield', label: 'عائد وقف' },
] as const

export type ReceiptSource = (typeof receiptSources)[number]['value']

/** The source of a transfer between funds («مناقلة بين الصناديق»): the ledger account is the other fund's. */
export const FUND_SOURCE = 'fund'

export function sourceLabel(source: string): string {
	if (source === FUND_SOURCE) return 'مناقلة من صندوق آخر'
	return receiptSources.find((item) => item.value === source)?.label ?? source
}

/** «ق-2026-000123»: the series, the Gregorian year of its day, and its number in that year, six digits. */
export function voucherNumber(row: { series: string; year: number; seq: number }): string {
	return `${row.series}-${row.year}-${String(row.seq).padStart(6, '0')}`
}

/** What happened to a receipt, read from its ledger entries. */
export type ReceiptState = 'awaiting' | 'confirmed' | 'cancelled'

export const receiptStateLabel: Record<ReceiptState, string> = {
	awaiting: 'بانتظار التأكيد',
	confirmed: 'مؤكد',
	cancelled: 'ملغى',
}
