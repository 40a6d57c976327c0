import { parse } from 'csv-parse/sync'
import { stringify } from 'csv-stringify/sync'
import { expect, test } from 'vitest'
import { csvOptions, safeCell } from './spreadsheet-cells.ts'

/** What a spreadsheet runs: a field, as a reader splits it at `separator`, that starts with a formula's character. */
const runs = (field: string) => /^[ \u00a0]*[=+\-@]/.test(field)

test('text that looks like a formula is exported as text', () => {
	expect(safeCell('=HYPERLINK("http://evil.example","x")')).toBe(`'=HYPERLINK("http://evil.example","x")`)
	for (const value of ['+966', '-1', '@SUM(A1)', '\t=1', '\rx']) expect(safeCell(value).startsWith("'")).toBe(true)
	expect(safeCell('عبدالله')).toBe('عبدالله')
	expect(safeCell('—')).toBe('—')
	expect(safeCell('شارع 12-ب')).toBe('شارع 12-ب')
	expect(safeCell(-1500)).toBe(-1500)
	expect(safeCell(null)).toBe(null)
})

test('a formula after any separator a reader may split at is escaped too, spaces or not', () => {
	for (const separator of [',', ';', '\t', '\r', '\n', '\r\n']) {
		for (const formula of ['=1+1', '+1+1', '-1+1', '@SUM(A1)', ' =1+1', '\u00a0=1+1']) {
			const value = `الرياض${separator}${formula}${separator}جدة${separator}${separator}=2`
			const escaped = safeCell(value)
			for (const split of [',', ';', '\t', /\r\n|\r|\n/]) {
				expect(escaped.split(split).filter(runs), JSON.stringify([value, String(split)])).toEqual([])
			}
		}
	}
	expect(safeCell('الرياض;=1+1')).toBe("الرياض;'=1+1")
})

test('every CSV cell is quoted, so no locale splits it, and reads back as written', () => {
	const rows = [
		['المدينة', 'المبلغ'],
		[safeCell('الرياض;=1+1'), 1500],
		['', safeCell('a\tb')],
	]
	const text = stringify(rows, csvOptions)
	expect(text.startsWith('\uFEFF')).toBe(true)
	expect(text.split('\n')[1]).toBe(`"الرياض;'=1+1","1500"`)
	expect(text.split('\n')[2]).toBe(`"","a\tb"`)
	expect(parse(text.slice(1))).toEqual([
		['المدينة', 'المبلغ'],
		["الرياض;'=1+1", '1500'],
		['', 'a\tb'],
	])
})
