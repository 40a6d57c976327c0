// A bank's transfer file, as one small interface (docs/operations.md#bank-transfer-files): the
// columns a bank wants, in its order, with its headers. A foundation whose bank asks for another
// layout adds a file beside this one and lists it in ./index.ts; nothing else changes.

/** One transfer of a batch, as every layout may write it. */
export interface TransferLine {
	/** ATAA-<n>: the reference the bank sends back with the payment (app/aid/payments.server.ts). */
	paymentReference: string
	caseReference: string
	/** The beneficiary: the applicant's name on the case. */
	name: string
	/** SA followed by 22 digits, already checked (mod 97). */
	iban: string
	/** Riyals, to the halala. */
	amount: number
	/** «دعم نقدي»… */
	purpose: string
}

export interface BankLayout {
	/** In the download's address: /admin/payments/:batch/file/:layout.:format */
	key: string
	/** As finance sees it. */
	label: string
	/** The first row. */
	headers: readonly string[]
	/** One row per transfer, in the headers' order. Amounts as numbers: Excel sums them. */
	row: (line: TransferLine, index: number) => readonly (string | number)[]
}
