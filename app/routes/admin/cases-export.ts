import { data } from 'react-router'
import type { Route } from './+types/cases-export'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { countCases, filterParams, readCaseFilter, typesOfKind } from '#app/cases/case-lists.server.ts'
import { noteAudit, audited } from '#app/audit/audit-trail.server.ts'
import { csvExport, xlsxExport } from '#app/cases/export.server.ts'
import type { CaseKind } from '#app/cases/workflow.ts'
import { areaRoles, hasRole } from '#app/db/roles.ts'
import { todayInRiyadh } from '#app/text/format.ts'

const formats = {
	csv: { contentType: 'text/csv; charset=utf-8', build: csvExport },
	xlsx: { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', build: xlsxExport },
} as const

export const middleware = [audited({ read: 'cases.export', write: false })]

/** The filtered list as CSV or XLSX, streamed; every export is in the audit trail (who, when, filter, rows). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
	const user = requireRole(context, areaRoles.cases)
	const format = formats[params.format as keyof typeof formats]
	if (!format) throw data(null, { status: 404 })
	const url = new URL(request.url)
	const kind: CaseKind = url.pathname.startsWith('/admin/associations') ? 'association' : 'individual'
	const filter = readCaseFilter(url.searchParams, kind, user.id)
	if (filter.deleted && !hasRole(user, 'admin')) filter.deleted = false
	const db = await getDb()
	const rows = await countCases(db, filter)
	noteAudit(context, { data: { kind, format: params.format, filter: filterParams(filter, user.id).toString(), rows } })
	const types = filter.type ? [filter.type] : typesOfKind(kind)
	const name = `${kind === 'association' ? 'associations' : 'cases'}-${todayInRiyadh()}.${params.format}`
	return new Response(format.build(db, filter, types), {
		headers: {
			'Content-Type': format.contentType,
			'Content-Disposition': `attachment; filename="${name}"`,
			'Cache-Control': 'private, no-store',
		},
	})
}
