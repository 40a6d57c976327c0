import type { Route } from './+types/reports-export'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { reportWorkbook } from '#app/aid/report-export.server.ts'
import { reportGroupings, reportQuery } from '#app/aid/report-query.ts'
import { audited, noteAudit } from '#app/audit/audit-trail.server.ts'

// The report as XLSX (docs/product.md#reports; its sheet: app/aid/report-export.server.ts). Recorded
// in the audit trail, as every export.

export const middleware = [audited({ read: 'reports.export', write: false })]

export async function loader({ request, context }: Route.LoaderArgs) {
	requireRole(context, areaRoles.funds)
	const query = reportQuery(new URL(request.url))
	const workbook = await reportWorkbook(await getDb(), query)
	const grouping = reportGroupings.find((item) => item.value === query.by)!.label
	noteAudit(context, { data: { year: query.year, grouping } })
	return new Response(new Uint8Array(await workbook.xlsx.writeBuffer()), {
		headers: {
			'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
			'Content-Disposition': `attachment; filename="ataa-report-${query.year}-${query.by}.xlsx"`,
			'Cache-Control': 'private, no-store',
		},
	})
}
