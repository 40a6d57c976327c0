// A bank's transfer file, as one small interface (docs/operations.md#bank-transfer-files): the
// columns a bank wants, in its order, with its headers. A foundation whose bank asks for another
// layout adds a file beside this one and lists it in ./index.ts; nothing else changes.

/** One transfer of a batch, as every layout may write it: the batch's pinned line (app/aid/payments.server.ts). */
export interface TransferLine {
	/** The pinned line's own number: unique across batches, as a bank's sequence number must be. */
	lineId: number
	/** ATAA-<n>: the reference the bank sends back with the payment (app/aid/payments.server.ts). */
	paymentReference: string
	caseReference: string
	/** The beneficiary: the applicant's name on the case when the batch was made. */
	name: string
	/** SA followed by 22 digits, checked (mod 97, and against the chosen bank) when the batch was made. */
	iban: string
	/** The IBAN's bank code (app/domain/saudi-banks.ts). */
	bankCode: string
	/** Riyals, to the halala. */
	amount: number
	/** «دعم نقدي»… */
	purpose: string
}

/** What a layout may write once per file or on every line: the account debited, the value date, the control total. */
export interface TransferBatch {
	id: number
	/** The foundation's account the batch is debited from (its funds'); '' when they name none. */
	debitAccount: string
	/** YYYY-MM-DD: the day the bank is to pay. */
	valueDate: string
	/** The sum of the lines (a control total) and their number. */
	total: number
	count: number
	/** The foundation as the bank knows it, and its address. */
	orderingParty: string
	orderingAddress: string
}

export interface BankLayout {
	/** In the download's address: /admin/payments/:batch/file/:layout.:format */
	key: string
	/** As finance sees it. */
	label: string
	/** The first row. */
	headers: readonly string[]
	/** One row per transfer, in the headers' order. Amounts as numbers: Excel sums them. */
	row: (line: TransferLine, index: number, batch: TransferBatch) => readonly (string | number)[]
}
