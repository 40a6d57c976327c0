// A bank's CSV as finance uploads it (the confirmation file of a batch, app/aid/payments.server.ts;
// the statement's credits, app/aid/receipts.server.ts): read tolerantly (a byte-order mark, headers
// in any case with spaces around them, rows of uneven length), its values read strictly: an amount
// or a day that is not plainly one is never guessed.
import { parse } from 'csv-parse/sync'
import { CaseChangeError } from '#app/cases/refusals.ts'
import { toWesternDigits } from '#app/text/format.ts'

/** The file's rows by header (lower case, trimmed); refused with `unreadable` when it is no CSV. */
export function readBankCsv(csv: string, unreadable: string): Record<string, string>[] {
	try {
		return parse(csv.replace(/^\uFEFF/, ''), { columns: (header: string[]) => header.map((name) => name.trim().toLowerCase()), skip_empty_lines: true, trim: true, relax_column_count: true }) as Record<string, string>[]
	} catch {
		throw new CaseChangeError(unreadable)
	}
}

/** A row's value under the first of `names` it has; '' when none. */
export const pickColumn = (record: Record<string, string>, names: readonly string[]) => names.map((name) => record[name]).find((value) => value !== undefined) ?? ''

/**
 * An amount as a bank's file writes it: digits, with or without thousands separators, and a
 * fraction (Arabic-Indic digits and separators too). Anything else is null, never read some other
 * way: JavaScript's Number() would take «0x5DC» for 1,500, «1e3» for 1,000 and « » for 0.
 */
export function plainAmount(written: string): number | null {
	const western = toWesternDigits(written.trim()).replace(/٫/g, '.').replace(/٬/g, ',')
	if (!/^(?:\d+|\d{1,3}(?:,\d{3})+)(?:\.\d+)?$/.test(western)) return null
	return Number(western.replace(/,/g, ''))
}
