// The SMS budgets of the codes the public can ask for (docs/operations.md#sms-budgets): in all, per hour
// and per day, and per address per hour. A code within them is texted at once; past them, it waits in a
// queue (verification_codes.queued) that the scheduler drains within the hourly and daily budgets, one
// address's turn after another's, so a crowd behind one address (a carrier's NAT) still gets its codes
// within the hour while a script on one address costs no more than the budget. A code waiting 50
// minutes is never sent. Staff see the use and set the budgets on /admin/intake.
import { and, eq, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { smsBudget, verificationCodes } from '#app/db/schema.ts'
import { getEnv } from '#app/utils/env.server.ts'

export interface SmsBudget {
	perHour: number
	perDay: number
	perAddressHour: number
}

export interface SmsUse {
	/** Codes texted in the last hour, and in the last 24 hours. */
	hour: number
	day: number
	/** Codes waiting for the budget now. */
	queued: number
}

const HOUR_MS = 60 * 60 * 1000
/**
 * A code waits at most this long for the budget; then it is never sent (the page said by when to ask
 * again). Shorter than the hour the budget counts: a burst's codes all go within one hourly budget.
 */
export const QUEUE_MS = 50 * 60 * 1000

export async function getSmsBudget(db: Database): Promise<SmsBudget> {
	const [row] = await db.select().from(smsBudget).where(eq(smsBudget.id, 1))
	if (row) return { perHour: row.perHour, perDay: row.perDay, perAddressHour: row.perAddressHour }
	const env = getEnv()
	return { perHour: env.SMS_BUDGET_PER_HOUR, perDay: env.SMS_BUDGET_PER_DAY, perAddressHour: env.SMS_BUDGET_PER_ADDRESS_HOUR }
}

export async function saveSmsBudget(db: Database, budget: SmsBudget, userId: number | null): Promise<void> {
	await db
		.insert(smsBudget)
		.values({ id: 1, ...budget, updatedBy: userId })
		.onConflictDoUpdate({ target: smsBudget.id, set: { ...budget, updatedBy: userId, updatedAt: sql`now()` } })
}

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`
const sentWhen = sql`coalesce(${verificationCodes.sentAt}, ${verificationCodes.createdAt})`
/** A code that took the budget: texted (not a stand-in) and not waiting. */
const spent = and(eq(verificationCodes.texted, true), eq(verificationCodes.queued, false))

/** What the budgets have used at `now` (the app's clock: a test moves it). */
export async function smsUse(db: Database, now: Date, address?: string): Promise<SmsUse & { addressHour: number }> {
	const hourAgo = at(new Date(now.getTime() - HOUR_MS))
	const [row] = await db
		.select({
			hour: sql<number>`count(*) filter (where ${spent} and ${sentWhen} > ${hourAgo})`.mapWith(Number),
			day: sql<number>`count(*) filter (where ${spent} and ${sentWhen} > ${at(new Date(now.getTime() - 24 * HOUR_MS))})`.mapWith(Number),
			addressHour: sql<number>`count(*) filter (where ${spent} and ${sentWhen} > ${hourAgo} and ${verificationCodes.address} = ${address ?? ''})`.mapWith(Number),
			queued: sql<number>`count(*) filter (where ${waiting(now)})`.mapWith(Number),
		})
		.from(verificationCodes)
	return row ?? { hour: 0, day: 0, addressHour: 0, queued: 0 }
}

/** Codes waiting for the budget at `now`: queued, not replaced, and not waiting an hour yet. */
export function waiting(now: Date) {
	return sql`(${verificationCodes.queued} and ${verificationCodes.usedAt} is null and ${verificationCodes.createdAt} > ${at(new Date(now.getTime() - QUEUE_MS))})`
}

/** Held by whoever decides on the budget, until its transaction ends: two at once never both take the last SMS. */
export async function lockBudget(tx: Database): Promise<void> {
	await tx.execute(sql`select pg_advisory_xact_lock(7301)`)
}

/** Room left in the hourly and daily budgets at `now`. */
export const roomLeft = (budget: SmsBudget, use: SmsUse) => Math.max(0, Math.min(budget.perHour - use.hour, budget.perDay - use.day))

/**
 * Whether a code asked for from `address` at `now` is texted at once, or waits, and by when it comes at
 * the latest. Called under lockBudget; a stand-in code is decided the same way (and takes nothing).
 */
export async function admit(tx: Database, address: string, now: Date, intervalMs: number): Promise<{ now: true } | { now: false; by: Date }> {
	const budget = await getSmsBudget(tx)
	const use = await smsUse(tx, now, address)
	const room = roomLeft(budget, use)
	if (room > 0 && use.addressHour < budget.perAddressHour) return { now: true }
	// The next tick sends it when the budget has room for the queue ahead of it; otherwise within the hour at most.
	const soon = room > use.queued
	return { now: false, by: new Date(now.getTime() + (soon ? 2 * intervalMs : QUEUE_MS)) }
}
