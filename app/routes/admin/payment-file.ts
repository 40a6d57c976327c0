import { data } from 'react-router'
import type { Route } from './+types/payment-file'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { batchOf } from '#app/aid/payments.server.ts'
import { findLayout } from '#app/aid/bank-layouts/index.ts'
import { batchFile, sha256 } from '#app/aid/batch-files.server.ts'
import { audited, noteAudit } from '#app/audit/audit-trail.server.ts'

// A batch's bank transfer file (docs/product.md#payment): its pinned lines in a bank's layout, as CSV
// or XLSX; once the batch is sent, the very bytes kept then. Names and IBANs leave the system here:
// every download is audited, with the file's SHA-256.

export const middleware = [audited({ read: 'payments.file', write: false })]

export async function loader({ params, context }: Route.LoaderArgs) {
	requireRole(context, areaRoles.payments)
	const layout = findLayout(params.layout)
	const format = params.format
	const batchId = Number(params.batch)
	if (!layout || (format !== 'csv' && format !== 'xlsx') || !Number.isInteger(batchId) || batchId < 1) throw data(null, { status: 404 })
	const db = await getDb()
	const found = await batchOf(db, batchId)
	if (!found) throw data(null, { status: 404 })
	const file = await batchFile(db, found, layout, format)
	noteAudit(context, { data: { batch: batchId, layout: layout.key, format, lines: found.lines.filter((line) => line.status !== 'withdrawn').length, kept: file.kept, sha256: sha256(file.bytes) } })
	const name = `ataa-batch-${batchId}-${layout.key}.${format}`
	const headers = { 'Content-Disposition': `attachment; filename="${name}"`, 'Cache-Control': 'private, no-store' }
	const type = format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
	return new Response(new Uint8Array(file.bytes), { headers: { ...headers, 'Content-Type': type } })
}
