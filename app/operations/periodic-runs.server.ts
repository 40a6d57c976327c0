import { and, eq, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { schedulerLeases } from '#app/db/schema.ts'

// Tasks the scheduler (./scheduler.server.ts) runs once a period rather than every tick: retention,
// daily. Their rows share `scheduler_leases` with the scheduler's lease, under their own names.

/**
 * A task due every `everyMs` across all instances (docs/operations.md#scheduler-and-reminders): its row
 * in `scheduler_leases` holds when it is next due, `firstAfterMs` after the first tick that saw no row.
 * Claims the run in one statement, moving the row a period on: true when the caller should run the
 * task now. The next run is counted from this one's start, so a slow run does not shift the day, and
 * a run claimed by one instance is not claimed again by another, nor by this one after a restart.
 */
export async function claimPeriodicRun(db: Database, name: string, now: Date, options: { everyMs: number; firstAfterMs: number; by: string }): Promise<boolean> {
	await db
		.insert(schedulerLeases)
		.values({ name, holder: '', expiresAt: new Date(now.getTime() + options.firstAfterMs) })
		.onConflictDoNothing()
	const claimed = await db
		.update(schedulerLeases)
		.set({ holder: options.by, expiresAt: new Date(now.getTime() + options.everyMs) })
		.where(and(eq(schedulerLeases.name, name), sql`${schedulerLeases.expiresAt} <= ${now.toISOString()}::timestamptz`))
		.returning({ name: schedulerLeases.name })
	return claimed.length > 0
}

/** When a periodic task runs next and last ran (null when it has not run yet, or no tick has seen it). */
export async function periodicSchedule(db: Database, name: string, everyMs: number): Promise<{ nextRunAt: Date | null; lastRunAt: Date | null }> {
	const [row] = await db.select().from(schedulerLeases).where(eq(schedulerLeases.name, name))
	if (!row) return { nextRunAt: null, lastRunAt: null }
	return { nextRunAt: row.expiresAt, lastRunAt: row.holder ? new Date(row.expiresAt.getTime() - everyMs) : null }
}
