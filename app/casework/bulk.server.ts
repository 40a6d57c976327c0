// The case lists' bulk actions (app/routes/admin/cases.tsx): up to 200 ticked cases moved to one
// status or given to one officer; each case checked on its own, the applicants told once
// (./tell.server.ts). Both come back to the list with a notice saying how many.
import { z } from 'zod'
import type { Database } from '#app/db/client.server.ts'
import type { PublicUser } from '#app/domain/staff-users.server.ts'
import { assignCases, bulkChangeStatus, CaseChangeError, caseIdsByReference } from '#app/cases/status-changes.server.ts'
import { bulkAssignMessage, bulkStatusMessage } from '#app/cases/bulk-messages.ts'
import { done, type Done } from './outcome.ts'
import { tellApplicants } from './tell.server.ts'

const ticked = z.array(z.string()).min(1, 'الرجاء تحديد طلب واحد على الأقل').max(200)

export const bulkSchema = z.discriminatedUnion('intent', [
	z.object({
		intent: z.literal('bulk-status'),
		ref: ticked,
		status: z.coerce.number({ error: 'الرجاء اختيار الحالة' }).int(),
		note: z.string({ error: 'الرجاء كتابة ملاحظة تغيير الحالة' }).trim().min(1, 'الرجاء كتابة ملاحظة تغيير الحالة').max(2000),
	}),
	z.object({
		intent: z.literal('bulk-assign'),
		ref: ticked,
		officer: z.string({ error: 'الرجاء اختيار الموظف' }).regex(/^(none|\d+)$/, 'الرجاء اختيار الموظف'),
	}),
])

/** Runs a bulk action; `back` is the list as it was filtered. A refusal is a notice on the list too (tone error). */
export async function runBulkAction(db: Database, value: z.infer<typeof bulkSchema>, user: PublicUser, back: string): Promise<Done> {
	try {
		if (value.intent === 'bulk-assign') {
			const rows = await caseIdsByReference(db, value.ref)
			const changed = await assignCases(db, rows.map((row) => row.id), value.officer === 'none' ? null : Number(value.officer), user)
			return done(back, { tone: 'success', message: bulkAssignMessage(changed, value.ref.length) })
		}
		const result = await bulkChangeStatus(db, value.ref, value.status, value.note, user)
		await tellApplicants(db, result.changed.map((row) => ({ kind: 'status', caseId: row.id, to: row.status })), user)
		return done(back, { tone: result.changed.length ? 'success' : 'error', message: bulkStatusMessage(result.changed.length, result.refused) })
	} catch (error) {
		if (!(error instanceof CaseChangeError)) throw error
		return done(back, { tone: 'error', message: error.message })
	}
}
