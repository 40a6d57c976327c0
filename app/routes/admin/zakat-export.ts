import type { Route } from './+types/zakat-export'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { zakatQuery, zakatWorkbook } from '#app/aid/zakat-register.server.ts'
import { audited, noteAudit } from '#app/audit/audit-trail.server.ts'

// The zakat register of a Hijri or Gregorian year as XLSX (docs/product.md#zakat; its sheet:
// app/aid/zakat-register.server.ts). It names beneficiaries: recorded in the audit trail, as every export.

export const middleware = [audited({ read: 'zakat.export', write: false })]

export async function loader({ request, context }: Route.LoaderArgs) {
	requireRole(context, areaRoles.funds)
	const period = zakatQuery(new URL(request.url))
	const workbook = await zakatWorkbook(await getDb(), period)
	noteAudit(context, { data: { calendar: period.calendar === 'hijri' ? 'هجري' : 'ميلادي', year: period.year } })
	return new Response(new Uint8Array(await workbook.xlsx.writeBuffer()), {
		headers: {
			'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
			'Content-Disposition': `attachment; filename="ataa-zakat-${period.calendar}-${period.year}.xlsx"`,
			'Cache-Control': 'private, no-store',
		},
	})
}
