import { data } from 'react-router'
import type { Route } from './+types/payment-vouchers'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { getFoundationInfo } from '#app/domain/foundation-details.server.ts'
import { vouchersOf, vouchersPdf } from '#app/aid/vouchers.server.ts'
import { audited, noteAudit } from '#app/audit/audit-trail.server.ts'

// The disbursement vouchers (سند صرف) of a batch's paid lines as one PDF, or of one payment
// (/admin/payments/:batch/vouchers/:instalment): app/aid/vouchers.server.ts. Names and IBANs leave
// the system here: every download is audited with the vouchers' numbers.

export const middleware = [audited({ read: 'payments.voucher', write: false })]

const positive = (value: string | undefined) => (value !== undefined && /^\d{1,9}$/.test(value) && Number(value) > 0 ? Number(value) : null)

export async function loader({ params, context }: Route.LoaderArgs) {
	requireRole(context, areaRoles.payments)
	const batchId = positive(params.batch)
	const instalmentId = params.instalment === undefined ? undefined : positive(params.instalment)
	if (batchId === null || instalmentId === null) throw data(null, { status: 404 })
	const db = await getDb()
	// Only a paid line has a voucher: one waiting for the bank, returned or withdrawn has none.
	const vouchers = await vouchersOf(db, batchId, instalmentId)
	if (!vouchers.length) throw data(null, { status: 404 })
	const foundation = await getFoundationInfo(db)
	const title = instalmentId === undefined ? `سندات صرف دفعة الصرف رقم ${batchId}` : `سند صرف رقم ${vouchers[0]!.number}`
	const pdf = await vouchersPdf(vouchers, foundation.name, title)
	noteAudit(context, { data: { batch: batchId, ...(instalmentId === undefined ? {} : { instalment: instalmentId }), vouchers: vouchers.map((voucher) => voucher.number).join('، ') } })
	const name = instalmentId === undefined ? `ataa-vouchers-batch-${batchId}.pdf` : `ataa-voucher-${vouchers[0]!.number}.pdf`
	return new Response(new Uint8Array(pdf), {
		headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${name}"`, 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' },
	})
}
