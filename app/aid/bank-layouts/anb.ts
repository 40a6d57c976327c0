import { bankOfIban } from '#app/domain/saudi-banks.ts'
import type { BankLayout, TransferLine } from './layout.ts'

// The Arab National Bank's bulk payment file, as its developer portal publishes it («Bulk Payment»):
// one header row, one payment a row. The choices it leaves open (lengths, channel, account
// numbers) are in docs/decisions/017-bank-files-kept-as-sent.md.

/** What ANB sends instantly (IPS) at most; above it, SARIE. */
export const IPS_LIMIT = 20_000
/** The longest name, address or narrative assumed accepted (a SWIFT/SARIE line of 35 characters). */
export const ANB_TEXT_MAX = 35

const clip = (text: string) => [...text.replace(/\s+/g, ' ').trim()].slice(0, ANB_TEXT_MAX).join('')

/** ANB: a beneficiary at ANB itself; IPS: instant, up to 20,000 SAR; SARIE: any other. */
export function anbChannel(line: Pick<TransferLine, 'bankCode' | 'amount'>): 'ANB' | 'IPS' | 'SARIE' {
	if (line.bankCode === '30') return 'ANB'
	return line.amount <= IPS_LIMIT ? 'IPS' : 'SARIE'
}

/** YYMMDD, as ANB's value date is written. */
export const anbValueDate = (day: string) => day.slice(2).replace(/-/g, '')

export const anbLayout: BankLayout = {
	key: 'anb',
	label: 'البنك العربي الوطني (الدفع الجماعي)',
	headers: [
		'sequenceNumber',
		'valueDate',
		'currency',
		'amount',
		'orderingParty',
		'orderingPartyAddress1',
		'orderingPartyAddress2',
		'orderingPartyAddress3',
		'debitAccount',
		'destinationBankBIC',
		'channel',
		'creditAccount',
		'beneficiaryName',
		'beneficiaryAddress1',
		'beneficiaryAddress2',
		'narrative',
		'transactionComment',
		'purposeOfTransfer',
	],
	row: (line, _index, batch) => [
		String(line.lineId),
		anbValueDate(batch.valueDate),
		'SAR',
		line.amount.toFixed(2),
		clip(batch.orderingParty),
		clip(batch.orderingAddress),
		'',
		'Saudi Arabia',
		batch.debitAccount,
		bankOfIban(line.iban)?.bic ?? '',
		anbChannel(line),
		line.iban,
		clip(line.name),
		'',
		'',
		clip(`${line.paymentReference} ${line.caseReference}`),
		clip(line.purpose),
		'',
	],
}
