import type { Route } from './+types/audit-export'
import { getDb } from '#app/db/database.server.ts'
import { requireRole } from '#app/auth/user-context.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { auditCsv, auditFilterParams, countAudit, readAuditFilter } from '#app/audit/audit-log.server.ts'
import { noteAudit, audited } from '#app/audit/audit-trail.server.ts'
import { todayInRiyadh } from '#app/text/format.ts'

export const middleware = [audited({ read: 'audit.export', write: false })]

/** The filtered audit trail as CSV, streamed; the export is itself in the trail. */
export async function loader({ request, context }: Route.LoaderArgs) {
	requireRole(context, areaRoles.users)
	const db = await getDb()
	const filter = readAuditFilter(new URL(request.url).searchParams)
	noteAudit(context, { data: { filter: auditFilterParams(filter).toString(), rows: await countAudit(db, filter) } })
	return new Response(auditCsv(db, filter), {
		headers: {
			'Content-Type': 'text/csv; charset=utf-8',
			'Content-Disposition': `attachment; filename="audit-${todayInRiyadh()}.csv"`,
			'Cache-Control': 'private, no-store',
		},
	})
}
