import { loadExcel } from '#app/utils/lazy-modules.server.ts'
import type { Route } from './+types/reports-export'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { aidReport, reportGroupings } from '#app/aid/reports.server.ts'
import { audited, noteAudit } from '#app/audit/audit-trail.server.ts'
import { reportColumns, reportQuery } from '#app/aid/report-query.ts'
import { safeCell } from '#app/utils/spreadsheet-cells.ts'

// The report as XLSX (docs/product.md#reports): right to left, one row per group and the total,
// every figure a number Excel can sum; a group's name (a city as typed) is escaped as in every export. Recorded in the audit trail, as every export.

export const middleware = [audited({ read: 'reports.export', write: false })]

export async function loader({ request, context }: Route.LoaderArgs) {
	requireRole(context, areaRoles.funds)
	const query = reportQuery(new URL(request.url))
	const { rows, total } = await aidReport(await getDb(), query.year, query.by)
	const ExcelJS = await loadExcel()
	const workbook = new ExcelJS.Workbook()
	const sheet = workbook.addWorksheet(`تقرير ${query.year}`, { views: [{ rightToLeft: true }] })
	const grouping = reportGroupings.find((item) => item.value === query.by)!.label
	sheet.addRow([grouping, ...reportColumns.map((column) => column.header)]).font = { bold: true }
	for (const row of [...rows, total]) sheet.addRow([safeCell(row.label), ...reportColumns.map((column) => row[column.name] ?? null)])
	sheet.lastRow!.font = { bold: true }
	sheet.columns.forEach((column) => (column.width = 20))
	noteAudit(context, { data: { year: query.year, grouping } })
	return new Response(new Uint8Array(await workbook.xlsx.writeBuffer()), {
		headers: {
			'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
			'Content-Disposition': `attachment; filename="ataa-report-${query.year}-${query.by}.xlsx"`,
			'Cache-Control': 'private, no-store',
		},
	})
}
