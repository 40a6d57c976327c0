// Every spreadsheet the app writes (the case exports, the audit CSV, the bank's transfer files, the
// reports' XLSX) goes through these, so that nothing a visitor typed runs as a formula in Excel or
// LibreOffice (docs/security.md#escaping, OWASP's CSV injection advice).

/** A cell as the writers take it: text, or a number a spreadsheet can sum. */
export type SheetCell = string | number

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
