import { eq, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { foundationInfo } from '#app/db/schema.ts'

import type { FoundationInfo } from '#app/domain/foundation-details.ts'
import type { FoundationValues } from '#app/domain/foundation-schema.ts'

export async function getFoundationInfo(db: Database): Promise<FoundationInfo> {
	const [row] = await db.select().from(foundationInfo).where(eq(foundationInfo.id, 1))
	if (!row) throw new Error('foundation_info has no row: the seed did not run.')
	return row
}

/** Saves the foundation's details; `about` must already be sanitised. */
export async function updateFoundationInfo(db: Database, values: FoundationValues): Promise<void> {
	await db
		.update(foundationInfo)
		.set({ ...values, updatedAt: sql`now()` })
		.where(eq(foundationInfo.id, 1))
}
