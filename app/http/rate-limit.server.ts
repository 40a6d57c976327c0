import { sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { rateLimits } from '#app/db/schema.ts'

export interface RateLimitRule {
	bucket: string
	limit: number
	windowSeconds: number
}

export interface RateLimitState {
	count: number
	limited: boolean
	/** Seconds until the window resets. */
	retryAfter: number
}

/**
 * Counts one hit for `key` in a fixed window kept in PostgreSQL, so every app instance shares it.
 * The hit is counted atomically in one statement; the reply says whether the limit is now passed.
 */
export async function hit(db: Database, rule: RateLimitRule, key: string): Promise<RateLimitState> {
	const window = `${rule.windowSeconds} seconds`
	const rows = await db
		.insert(rateLimits)
		.values({ bucket: rule.bucket, key, windowStart: sql`now()`, count: 1 })
		.onConflictDoUpdate({
			target: [rateLimits.bucket, rateLimits.key],
			set: {
				count: sql`case when ${rateLimits.windowStart} <= now() - ${window}::interval then 1 else ${rateLimits.count} + 1 end`,
				windowStart: sql`case when ${rateLimits.windowStart} <= now() - ${window}::interval then now() else ${rateLimits.windowStart} end`,
			},
		})
		.returning({
			count: rateLimits.count,
			retryAfter: sql<number>`ceil(extract(epoch from (${rateLimits.windowStart} + ${window}::interval - now())))::int`,
		})
	const row = rows[0]!
	return { count: row.count, limited: row.count > rule.limit, retryAfter: Math.max(1, Number(row.retryAfter)) }
}

/** Reads the current count without adding to it. */
export async function peek(db: Database, rule: RateLimitRule, key: string): Promise<RateLimitState> {
	const window = `${rule.windowSeconds} seconds`
	const result = await db.execute<{ count: number; retry_after: number }>(sql`
		select ${rateLimits.count} as count,
			ceil(extract(epoch from (${rateLimits.windowStart} + ${window}::interval - now())))::int as retry_after
		from ${rateLimits}
		where ${rateLimits.bucket} = ${rule.bucket} and ${rateLimits.key} = ${key}
			and ${rateLimits.windowStart} > now() - ${window}::interval`)
	const row = result.rows[0]
	if (!row) return { count: 0, limited: false, retryAfter: 0 }
	return { count: Number(row.count), limited: Number(row.count) >= rule.limit, retryAfter: Math.max(1, Number(row.retry_after)) }
}

export async function reset(db: Database, rule: RateLimitRule, key: string): Promise<void> {
	await db.execute(sql`delete from ${rateLimits} where ${rateLimits.bucket} = ${rule.bucket} and ${rateLimits.key} = ${key}`)
}

/** Drops windows that ended long ago; called at start-up. */
export async function purgeOld(db: Database): Promise<void> {
	await db.execute(sql`delete from ${rateLimits} where ${rateLimits.windowStart} < now() - interval '1 day'`)
}
