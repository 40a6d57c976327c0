// A batch's transfer file in a bank's layout (./bank-layouts), as CSV (UTF-8 with a byte-order mark,
// so Excel reads the Arabic) or XLSX (right to left, amounts as numbers). Cells that a spreadsheet
// would run as a formula are made harmless, as in every export (app/utils/spreadsheet-cells.ts).
import { stringify } from 'csv-stringify/sync'
import { loadExcel } from '#app/utils/lazy-modules.server.ts'
import { csvOptions, safeCell } from '#app/utils/spreadsheet-cells.ts'
import type { BankLayout, TransferBatch, TransferLine } from './bank-layouts/index.ts'

export function transferCsv(layout: BankLayout, lines: readonly TransferLine[], batch: TransferBatch): string {
	return stringify([layout.headers, ...lines.map((line, index) => layout.row(line, index, batch).map(safeCell))], csvOptions)
}

export async function transferXlsx(layout: BankLayout, lines: readonly TransferLine[], batch: TransferBatch): Promise<Buffer> {
	const ExcelJS = await loadExcel()
	const workbook = new ExcelJS.Workbook()
	// The file's own dates are the value date's, not the moment it was made.
	workbook.created = workbook.modified = new Date(`${batch.valueDate}T00:00:00Z`)
	const sheet = workbook.addWorksheet('transfers', { views: [{ rightToLeft: true }] })
	sheet.addRow([...layout.headers]).font = { bold: true }
	for (const [index, line] of lines.entries()) sheet.addRow(layout.row(line, index, batch).map(safeCell))
	sheet.columns.forEach((column) => (column.width = 22))
	return Buffer.from(await workbook.xlsx.writeBuffer())
}
