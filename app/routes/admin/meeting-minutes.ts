import { data } from 'react-router'
import type { Route } from './+types/meeting-minutes'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { findMeeting } from '#app/aid/meetings.server.ts'
import type { Minutes } from '#app/aid/minutes.ts'
import { minutesPdf } from '#app/aid/minutes-pdf.server.ts'
import { getFoundationInfo } from '#app/domain/foundation-details.server.ts'
import { audited, noteAudit } from '#app/audit/audit-trail.server.ts'

// The minutes of a closed committee meeting as a PDF to print and sign (docs/product.md#committee-meetings):
// written from what closing the meeting stored; an open meeting has none yet. Every download is audited.

export const middleware = [audited({ read: 'meetings.minutes', write: false })]

export async function loader({ params, context }: Route.LoaderArgs) {
	requireRole(context, areaRoles.decisions)
	const id = params.id && /^\d{1,9}$/.test(params.id) ? Number(params.id) : null
	const db = await getDb()
	const meeting = id === null ? undefined : await findMeeting(db, id)
	if (!meeting || !meeting.minutes) throw data(null, { status: 404 })
	const minutes = meeting.minutes as Minutes
	const bytes = await minutesPdf(minutes, (await getFoundationInfo(db)).name)
	noteAudit(context, { data: { meeting: meeting.id, decisions: minutes.decisions.length } })
	return new Response(new Uint8Array(bytes), {
		headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="ataa-minutes-${meeting.id}.pdf"`, 'Cache-Control': 'private, no-store' },
	})
}
