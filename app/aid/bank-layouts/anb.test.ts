import { expect, test } from 'vitest'
import { saudiIbanFromBban } from '#app/domain/validators.ts'
import { transferCsv } from '../transfer-file.server.ts'
import { ANB_TEXT_MAX, anbChannel, anbLayout, anbValueDate } from './anb.ts'
import type { TransferBatch, TransferLine } from './layout.ts'

// The Arab National Bank's bulk payment file (docs/decisions/017-bank-files-kept-as-sent.md): its
// header as published, the beneficiary's bank by BIC from the IBAN, the channel by bank and amount.

const batch: TransferBatch = { id: 7, debitAccount: 'SA4430000000108057386290', valueDate: '2026-11-29', total: 0, count: 0, orderingParty: 'مؤسسة عطاء الخيرية', orderingAddress: 'الرياض' }
const line = (code: string, amount: number, name = 'فاطمة أحمد'): TransferLine => ({ lineId: 41, paymentReference: 'ATAA-12', caseReference: 'NF-2026-00012', name, iban: saudiIbanFromBban(`${code}000000608010167519`), bankCode: code, amount, purpose: 'دعم نقدي' })

test('the header is ANB\'s, and a line carries the value date (YYMMDD), the debit account, the BIC and the channel', () => {
	const csv = transferCsv(anbLayout, [line('80', 1500)], batch).replace(/^\uFEFF/, '').split('\n').filter(Boolean)
	expect(csv[0]).toBe(
		'"sequenceNumber","valueDate","currency","amount","orderingParty","orderingPartyAddress1","orderingPartyAddress2","orderingPartyAddress3","debitAccount","destinationBankBIC","channel","creditAccount","beneficiaryName","beneficiaryAddress1","beneficiaryAddress2","narrative","transactionComment","purposeOfTransfer"',
	)
	expect(anbLayout.row(line('80', 1500), 0, batch)).toEqual(['41', '261129', 'SAR', '1500.00', 'مؤسسة عطاء الخيرية', 'الرياض', '', 'Saudi Arabia', batch.debitAccount, 'RJHISARI', 'IPS', line('80', 1500).iban, 'فاطمة أحمد', '', '', 'ATAA-12 NF-2026-00012', 'دعم نقدي', ''])
})

test('the channel: ANB for a beneficiary at ANB, IPS up to 20,000 SAR, SARIE above', () => {
	expect(anbChannel({ bankCode: '30', amount: 50_000 })).toBe('ANB')
	expect(anbChannel({ bankCode: '10', amount: 20_000 })).toBe('IPS')
	expect(anbChannel({ bankCode: '10', amount: 20_000.01 })).toBe('SARIE')
	expect(anbLayout.row(line('30', 900), 0, batch)[9]).toBe('ARNBSARI')
	expect(anbValueDate('2027-01-05')).toBe('270105')
})

test('a long name is kept within 35 characters, whole letters, spaces folded', () => {
	const long = 'عبدالرحمن  بن عبدالعزيز بن محمد بن عبدالله آل فلان الطويل'
	const written = anbLayout.row(line('10', 100, long), 0, batch)[12] as string
	expect([...written].length).toBe(ANB_TEXT_MAX)
	expect(long.replace(/\s+/g, ' ').startsWith(written)).toBe(true)
})
