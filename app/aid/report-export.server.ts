// The report as a workbook (docs/product.md#reports): right to left, one row per group and the
// total, every figure a number Excel can sum; a group's name (a city as typed) is escaped as in
// every export. The XLSX route (app/routes/admin/reports-export.ts) sends it; its cells are the
// report's, so a closed period's export reads the same for ever (app/aid/periods.db.test.ts).
import type { Workbook } from 'exceljs'
import type { Database } from '#app/db/client.server.ts'
import { loadExcel } from '#app/utils/lazy-modules.server.ts'
import { safeCell } from '#app/utils/spreadsheet-cells.ts'
import { reportColumns, reportGroupings, type ReportGrouping } from './report-query.ts'
import { aidReport } from './reports.server.ts'

/** A year's report, grouped, as one right-to-left sheet. */
export async function reportWorkbook(db: Database, query: { year: number; by: ReportGrouping }): Promise<Workbook> {
	const { rows, total } = await aidReport(db, query.year, query.by)
	const ExcelJS = await loadExcel()
	const workbook = new ExcelJS.Workbook()
	const sheet = workbook.addWorksheet(`تقرير ${query.year}`, { views: [{ rightToLeft: true }] })
	const grouping = reportGroupings.find((item) => item.value === query.by)!.label
	sheet.addRow([grouping, ...reportColumns.map((column) => column.header)]).font = { bold: true }
	for (const row of [...rows, total]) sheet.addRow([safeCell(row.label), ...reportColumns.map((column) => row[column.name] ?? null)])
	sheet.lastRow!.font = { bold: true }
	sheet.columns.forEach((column) => (column.width = 20))
	return workbook
}
