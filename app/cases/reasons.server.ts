// The lists of reasons staff keep (/admin/reasons; docs/product.md#the-social-study): why a study
// does not recommend support. A reason is retired, never deleted: what was recorded with it keeps
// its words.
import { and, asc, eq, max } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { reasons } from '#app/db/schema.ts'

export type ReasonKind = (typeof reasons.$inferSelect)['kind']
export type Reason = typeof reasons.$inferSelect

/** The reasons of a list in their order; only those in use unless `withRetired`. */
export function listReasons(db: Database, kind: ReasonKind, options: { withRetired?: boolean } = {}): Promise<Reason[]> {
	return db
		.select()
		.from(reasons)
		.where(and(eq(reasons.kind, kind), options.withRetired ? undefined : eq(reasons.active, true)))
		.orderBy(asc(reasons.position), asc(reasons.id))
}

export async function addReason(db: Database, kind: ReasonKind, label: string): Promise<Reason> {
	const [last] = await db.select({ position: max(reasons.position) }).from(reasons).where(eq(reasons.kind, kind))
	const [added] = await db
		.insert(reasons)
		.values({ kind, label: label.trim(), position: (last?.position ?? 0) + 1 })
		.returning()
	return added!
}

/** Renames or retires (or brings back) a reason of the list; undefined when there is no such reason. */
export async function changeReason(db: Database, kind: ReasonKind, id: number, change: { label?: string; active?: boolean }): Promise<Reason | undefined> {
	const [changed] = await db
		.update(reasons)
		.set({ ...(change.label !== undefined ? { label: change.label.trim() } : {}), ...(change.active !== undefined ? { active: change.active } : {}) })
		.where(and(eq(reasons.id, id), eq(reasons.kind, kind)))
		.returning()
	return changed
}
