import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { cases } from '#app/db/schema.ts'
import { OPEN_STATUSES } from './case-statuses.ts'

// The dashboard's figures.

export async function countsByStatusAndType(db: Database): Promise<{ type: string; status: number; count: number }[]> {
	const rows = await db
		.select({
			type: cases.type,
			status: cases.status,
			count: sql<number>`count(*)::int`,
		})
		.from(cases)
		.where(and(isNotNull(cases.submittedAt), isNull(cases.deletedAt)))
		.groupBy(cases.type, cases.status)
	return rows.map((row) => ({ ...row, count: Number(row.count) }))
}

/** Cases submitted in each of the last `weeks` weeks (Saturday to Friday, Riyadh), oldest first. */
export async function newCasesPerWeek(db: Database, weeks: number, now = new Date()): Promise<{ start: string; count: number }[]> {
	// Weeks start on Saturday in Saudi Arabia: shift by two days around PostgreSQL's Monday weeks.
	const week = sql`(date_trunc('week', (${cases.submittedAt} at time zone 'Asia/Riyadh') + interval '2 days') - interval '2 days')::date`
	const thisWeek = sql`(date_trunc('week', (${now.toISOString()}::timestamptz at time zone 'Asia/Riyadh') + interval '2 days') - interval '2 days')::date`
	const rows = await db
		.select({
			start: sql<string>`to_char(${week}, 'YYYY-MM-DD')`,
			count: sql<number>`count(*)::int`,
		})
		.from(cases)
		.where(and(isNotNull(cases.submittedAt), isNull(cases.deletedAt), sql`${week} > ${thisWeek} - ${weeks * 7}::int`))
		.groupBy(week)
	const [current] = await db.select({ start: sql<string>`to_char(${thisWeek}, 'YYYY-MM-DD')` }).from(sql`(select 1) as one`)
	const counts = new Map(rows.map((row) => [row.start, Number(row.count)]))
	const last = new Date(`${current!.start}T00:00:00Z`)
	return Array.from({ length: weeks }, (_, index) => {
		const start = new Date(last.getTime() - (weeks - 1 - index) * 7 * 86_400_000).toISOString().slice(0, 10)
		return { start, count: counts.get(start) ?? 0 }
	})
}

/** Open cases (new, studied, incomplete) that have waited longest since their last change. */
export function longestWaiting(db: Database, limit: number, assignedTo?: number) {
	return db
		.select({
			reference: cases.reference,
			type: cases.type,
			status: cases.status,
			applicantName: cases.applicantName,
			statusChangedAt: cases.statusChangedAt,
		})
		.from(cases)
		.where(and(isNotNull(cases.submittedAt), isNull(cases.deletedAt), inArray(cases.status, [...OPEN_STATUSES]), assignedTo ? eq(cases.assignedTo, assignedTo) : undefined))
		.orderBy(asc(cases.statusChangedAt), asc(cases.id))
		.limit(limit)
}
