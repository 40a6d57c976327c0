import { expect, test } from 'vitest'
import { bankDay } from './bank-days.ts'

// The days a bank's confirmation file writes (app/aid/bank-days.ts): as banks and Excel write them, never guessed.

test('the ways banks and Excel write a day are read', () => {
	const written = ['2026-11-29', '2026/11/29', '29/11/2026', '29-11-2026', '29.11.2026', '29/11/2026 10:15', '29/11/2026 10:15:30', '2026-11-29 10:15:00', '2026-11-29T10:15:00Z', '2026-11-29T10:15:00+03:00', '29/11/2026 10:15 AM', '٢٩/١١/٢٠٢٦', ' 2026-11-29 ']
	expect(written.map(bankDay)).toEqual(Array(written.length).fill('2026-11-29'))
	expect(['1/2/2026', '2026-2-1'].map(bankDay)).toEqual(['2026-02-01', '2026-02-01'])
})

test('anything else is not read: a month-first day, a day that does not exist, a number, words', () => {
	expect(['11/29/2026', '31/02/2026', '2026-13-01', '46355', 'yesterday', '', '29/11/26', '2026-11-29 25:00x'].map(bankDay)).toEqual(Array(8).fill(null))
})
