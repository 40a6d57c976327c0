import { data } from 'react-router'
import type { Route } from './+types/payment-file'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { batchOf } from '#app/aid/payments.server.ts'
import { findLayout } from '#app/aid/bank-layouts/index.ts'
import { transferCsv, transferXlsx } from '#app/aid/transfer-file.server.ts'
import { aidKindLabel } from '#app/cases/aid.ts'
import { audited, noteAudit } from '#app/audit/audit-trail.server.ts'

// A batch's bank transfer file (docs/product.md#payment): one line per transfer still to pay, in a
// bank's layout, as CSV or XLSX. Names and IBANs leave the system here: every download is audited.

export const middleware = [audited({ read: 'payments.file', write: false })]

export async function loader({ params, context }: Route.LoaderArgs) {
	requireRole(context, areaRoles.payments)
	const layout = findLayout(params.layout)
	const format = params.format
	const batchId = Number(params.batch)
	if (!layout || (format !== 'csv' && format !== 'xlsx') || !Number.isInteger(batchId) || batchId < 1) throw data(null, { status: 404 })
	const found = await batchOf(await getDb(), batchId)
	if (!found) throw data(null, { status: 404 })
	// What the bank is to pay: the lines paid or reopened since are not sent again.
	const lines = found.lines
		.filter((line) => line.status === 'in_batch')
		.map((line) => ({ paymentReference: line.reference, caseReference: line.caseReference, name: line.name, iban: line.iban, amount: line.amount, purpose: aidKindLabel(line.aidKind) }))
	noteAudit(context, { data: { batch: batchId, layout: layout.key, format, lines: lines.length } })
	const name = `ataa-batch-${batchId}-${layout.key}.${format}`
	const headers = { 'Content-Disposition': `attachment; filename="${name}"`, 'Cache-Control': 'private, no-store' }
	if (format === 'csv') return new Response(transferCsv(layout, lines), { headers: { ...headers, 'Content-Type': 'text/csv; charset=utf-8' } })
	return new Response(new Uint8Array(await transferXlsx(layout, lines)), { headers: { ...headers, 'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' } })
}
