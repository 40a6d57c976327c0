import { randomUUID } from 'node:crypto'
import os from 'node:os'
import { and, eq, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { schedulerLeases } from '#app/db/schema.ts'
import { runReminders } from '#app/operations/reminders.server.ts'
import { retentionTask } from '#app/operations/retention-schedule.server.ts'
import { drainQueuedCodes, removeOldCodes } from '#app/verify/codes.server.ts'
import { removeUnprovenDrafts } from '#app/verify/case-verification.server.ts'
import { deliverDue } from '#app/notify/outbox.server.ts'
import { takeImpactSnapshot } from '#app/aid/impact.server.ts'
import { now as clockNow } from '#app/utils/clock.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { logger } from '#app/utils/log.server.ts'

// Work one instance does for all, every SCHEDULER_INTERVAL_SECONDS (docs/operations.md#scheduler-and-reminders):
// the applicants' reminders, then the messages due to be tried again, old codes removed, «أثرنا»'s monthly figures, and once a day retention. Every instance starts a scheduler
// (app/bootstrap.server.ts); the one holding the lease `scheduler` in `scheduler_leases` runs the tasks,
// the others only try to take the lease at their next tick. Whoever holds it renews it each tick for
// three intervals; an instance that stops gives it up, so another takes over at its next tick, and one
// that dies loses it once those three intervals have passed. The tasks are safe to run twice anyway
// (each claims its rows with FOR UPDATE SKIP LOCKED): the lease saves the work, it is no lock.

export const LEASE_NAME = 'scheduler'
/** How many intervals a lease lasts: a holder that misses two ticks still holds it. */
export const LEASE_INTERVALS = 3

export interface SchedulerTask {
	/** For the log. */
	name: string
	run(db: Database, now: Date): Promise<unknown>
}

/** What the holder runs each tick, in order: reminders first, so the messages they add are tried in the same tick. */
export const defaultTasks: readonly SchedulerTask[] = [
	{ name: 'reminders', run: runReminders },
	// Codes that waited for the SMS budget (docs/operations.md#sms-budgets), then drafts no code ever proved.
	{ name: 'queued codes', run: drainQueuedCodes },
	{ name: 'unproven drafts', run: removeUnprovenDrafts },
	{ name: 'outbox', run: deliverDue },
	// Codes a day old prove nothing: their rows go (docs/security.md#verified-mobile).
	{ name: 'codes', run: removeOldCodes },
	// «أثرنا»'s figures, once a month (docs/product.md#our-impact): the first tick of a month takes them.
	{ name: 'impact', run: takeImpactSnapshot },
	// Closed cases' data past RETENTION_MONTHS, once a day (docs/operations.md#retention).
	retentionTask,
]

export interface SchedulerOptions {
	/** Between ticks; SCHEDULER_INTERVAL_SECONDS unless given. */
	intervalMs?: number
	/** This instance's name in the lease; host, process and a random part unless given. */
	holder?: string
	tasks?: readonly SchedulerTask[]
	/** The time a tick runs at; app/utils/clock.server.ts unless given (a test moves it). */
	now?: () => Date
	/** Whether ticks run by themselves; true unless a test calls tick() itself. */
	timer?: boolean
}

export interface Scheduler {
	/** Stops the timer, waits for a tick under way and gives the lease up. */
	stop(): Promise<void>
	/**
	 * One tick now: takes or renews the lease, and runs the tasks when it holds it. True when it ran
	 * them; false when another instance holds the lease, a tick is already under way here, or it stopped.
	 */
	tick(): Promise<boolean>
}

const errorText = (error: unknown) => (error instanceof Error ? (error.stack ?? error.message) : String(error))

/** Takes the lease when it is free or expired, or renews this holder's, in one statement: true when held. */
export async function takeLease(db: Database, holder: string, now: Date, leaseMs: number): Promise<boolean> {
	const expiresAt = new Date(now.getTime() + leaseMs)
	const taken = await db
		.insert(schedulerLeases)
		.values({ name: LEASE_NAME, holder, expiresAt })
		.onConflictDoUpdate({
			target: schedulerLeases.name,
			set: { holder, expiresAt },
			setWhere: sql`${schedulerLeases.expiresAt} < ${now.toISOString()}::timestamptz or ${schedulerLeases.holder} = ${holder}`,
		})
		.returning({ holder: schedulerLeases.holder })
	return taken.length > 0
}

/** Gives the lease up, if this holder has it. */
export async function releaseLease(db: Database, holder: string): Promise<void> {
	await db.delete(schedulerLeases).where(and(eq(schedulerLeases.name, LEASE_NAME), eq(schedulerLeases.holder, holder)))
}

export function startScheduler(db: Database, options: SchedulerOptions = {}): Scheduler {
	const intervalMs = options.intervalMs ?? getEnv().SCHEDULER_INTERVAL_SECONDS * 1000
	const leaseMs = intervalMs * LEASE_INTERVALS
	const holder = options.holder ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`
	const tasks = options.tasks ?? defaultTasks
	const now = options.now ?? clockNow
	let running: Promise<boolean> | undefined
	let timer: NodeJS.Timeout | undefined
	let stopped = false
	let holding = false

	const held = (value: boolean) => {
		if (value !== holding) logger.info(value ? `Scheduler: this instance (${holder}) runs the scheduled work` : `Scheduler: another instance runs the scheduled work`)
		holding = value
		return value
	}

	async function run(): Promise<boolean> {
		try {
			if (!held(await takeLease(db, holder, now(), leaseMs))) return false
		} catch (error) {
			logger.error(`Scheduler: the lease could not be taken: ${errorText(error)}`)
			return false
		}
		for (const [index, task] of tasks.entries()) {
			if (stopped) break
			// A long task must not let the lease run out under the next ones: it is renewed before each.
			if (index > 0) {
				try {
					if (!held(await takeLease(db, holder, now(), leaseMs))) break
				} catch (error) {
					logger.error(`Scheduler: the lease could not be renewed: ${errorText(error)}`)
					break
				}
			}
			try {
				await task.run(db, now())
			} catch (error) {
				logger.error(`Scheduler: task ${task.name} failed: ${errorText(error)}`)
			}
		}
		return true
	}

	function tick(): Promise<boolean> {
		if (stopped || running) return Promise.resolve(false)
		const current = run().finally(() => {
			running = undefined
		})
		running = current
		return current
	}

	// The next tick is counted from this one's start, so a slow tick does not shift the others; ticks never overlap.
	function schedule(delay: number) {
		timer = setTimeout(() => {
			timer = undefined
			const started = Date.now()
			void tick().then(() => {
				if (!stopped) schedule(Math.max(0, intervalMs - (Date.now() - started)))
			})
		}, delay)
		timer.unref()
	}

	// The first tick right after the start: messages left pending by a stop are tried at once.
	if (options.timer !== false) schedule(0)

	return {
		tick,
		async stop() {
			if (stopped) return
			stopped = true
			if (timer) clearTimeout(timer)
			timer = undefined
			await running
			try {
				await releaseLease(db, holder)
			} catch (error) {
				logger.error(`Scheduler: the lease could not be given up: ${errorText(error)}`)
			}
			holding = false
		},
	}
}
