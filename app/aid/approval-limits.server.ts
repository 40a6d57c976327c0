// Approval limits (docs/product.md#approval-limits): data an admin keeps on /admin/funds/limits.
// Above a limit, an approval needs a second member of the committee before the aid is committed
// (app/aid/decisions.server.ts `decide`).
import { and, asc, eq, isNull, or, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { approvalLimits } from '#app/db/schema.ts'

export type ApprovalLimit = typeof approvalLimits.$inferSelect

export function listLimits(db: Database): Promise<ApprovalLimit[]> {
	return db.select().from(approvalLimits).orderBy(asc(approvalLimits.programme), asc(approvalLimits.fundId))
}

/** Sets the limit of a programme or a fund (or both, or neither: every approval); returns what it was, for the audit trail. */
export async function setLimit(db: Database, input: { programme: string | null; fundId: number | null; above: number }, actor: { id: number }): Promise<{ before: number | null; after: number }> {
	return db.transaction(async (tx) => {
		const where = and(input.programme === null ? isNull(approvalLimits.programme) : eq(approvalLimits.programme, input.programme), input.fundId === null ? isNull(approvalLimits.fundId) : eq(approvalLimits.fundId, input.fundId))
		const [current] = await tx.select().from(approvalLimits).where(where).for('update')
		if (current) {
			await tx.update(approvalLimits).set({ above: input.above, updatedAt: sql`now()`, updatedBy: actor.id }).where(eq(approvalLimits.id, current.id))
			return { before: current.above, after: input.above }
		}
		await tx.insert(approvalLimits).values({ ...input, updatedBy: actor.id })
		return { before: null, after: input.above }
	})
}

/** Removes a limit; the removed one, for the audit trail, or undefined. */
export async function removeLimit(db: Database, id: number): Promise<ApprovalLimit | undefined> {
	const [removed] = await db.delete(approvalLimits).where(eq(approvalLimits.id, id)).returning()
	return removed
}

/** The lowest limit that applies to an approval of this programme from this fund; null when none does. */
export async function limitFor(db: Database, programme: string, fundId: number): Promise<number | null> {
	const [found] = await db
		.select({ above: sql<string | null>`min(${approvalLimits.above})` })
		.from(approvalLimits)
		.where(and(or(isNull(approvalLimits.programme), eq(approvalLimits.programme, programme)), or(isNull(approvalLimits.fundId), eq(approvalLimits.fundId, fundId))))
	return found?.above === null || found?.above === undefined ? null : Number(found.above)
}
