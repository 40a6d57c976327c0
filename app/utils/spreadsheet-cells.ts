// Every spreadsheet the app writes (the case exports, the audit CSV, the bank's transfer files, the
// reports' XLSX) goes through these, so that nothing a visitor typed runs as a formula in Excel or
// LibreOffice (docs/security.md#escaping, OWASP's CSV injection advice).

/** A cell as the writers take it: text, a number a spreadsheet can sum, or a date it can sort (see `sheetDay`, `sheetTime`). */
export type SheetCell = string | number | Date

/** Whether a date column holds days or days with the time, Riyadh time. */
export type SheetDateKind = 'day' | 'time'

/** How Excel shows each kind (a real date underneath, so it sorts and filters as one). */
export const sheetDateFormats: Record<SheetDateKind, string> = { day: 'yyyy-mm-dd', time: 'yyyy-mm-dd hh:mm' }

/** A calendar day (yyyy-mm-dd) as a date cell. */
export const sheetDay = (day: string): Date => new Date(`${day}T00:00:00Z`)

/**
 * An instant as a date cell showing Riyadh's wall time (UTC+3 all year): a spreadsheet has no time
 * zones, and exceljs writes a date's UTC fields.
 */
export const sheetTime = (instant: Date): Date => new Date(instant.getTime() + 3 * 3_600_000)

/** A date cell in a CSV: ISO 8601 (2026-11-29, 2026-11-29 14:05), which Excel reads as a date in every locale. */
export function sheetDateText(value: Date, kind: SheetDateKind): string {
	const iso = value.toISOString()
	return kind === 'day' ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`
}

// A formula starts a cell, or starts after a character that Excel or LibreOffice may split a CSV line
// at on import (the list separator of the reader's locale is `,` or `;`; tab and the line ends are
// always separators), spaces allowed between them: «الرياض;=1+1» is «الرياض» and «=1+1» to a reader
// in a `;` locale.
const formulaAfterSeparator = /(^|[,;\t\r\n])([ \u00a0]*)(?=[=+\-@])/g

/**
 * Text that would run as a formula, read whole or split at any separator, gets `'` before the
 * formula's first character (a spreadsheet shows the text and runs nothing); a cell starting with a
 * tab or a carriage return gets one before it. Numbers stay numbers.
 */
export function safeCell<T extends SheetCell | null>(value: T): T {
	if (typeof value !== 'string') return value
	const escaped = value.replace(formulaAfterSeparator, "$1$2'")
	return (/^[\t\r]/.test(escaped) ? `'${escaped}` : escaped) as T
}

/**
 * csv-stringify's options for every CSV: UTF-8 with a byte-order mark, so Excel reads the Arabic, and
 * every cell quoted, so that no reader splits a cell at a `;` or a tab whatever its locale's separator.
 */
export const csvOptions = { bom: true, quoted: true, quoted_empty: true } as const
