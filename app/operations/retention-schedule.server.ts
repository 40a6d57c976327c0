import type { Database } from '#app/db/client.server.ts'
import { getCaseFileStorage } from '#app/storage/file-storage.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { logger } from '#app/utils/log.server.ts'
import { registerControlCommand } from './control.server.ts'
import { claimPeriodicRun, periodicSchedule } from './periodic-runs.server.ts'
import { describeRetention, runRetention, type RetentionReport, type RunBy } from '#app/operations/retention-purge.server.ts'

// Retention runs once a day as a task of the elected scheduler (docs/operations.md#retention): one
// instance runs it for all, the first run a few minutes after the first start (not during it: a restart
// loop must not hold the start up), then every 24 hours, whichever instance holds the scheduler then.
// `npm run retention` asks a running server to run it now (app/operations/control.server.ts) when the
// server holds PGlite.

export const TASK_NAME = 'retention'
export const FIRST_RUN_DELAY_MS = 5 * 60 * 1000
export const RUN_EVERY_MS = 24 * 60 * 60 * 1000

// Kept on globalThis as app/bootstrap.server.ts keeps the app: the dev server's reloads share one run.
const holder = globalThis as typeof globalThis & { __ataaRetentionRun?: Promise<RetentionReport> }

/** Runs retention now in this process, after any run under way (never two at once). */
export async function runRetentionNow(db: Database, runBy: RunBy, options: { dryRun?: boolean } = {}): Promise<RetentionReport> {
	while (holder.__ataaRetentionRun) await holder.__ataaRetentionRun.catch(() => undefined)
	const run = runRetention(db, getCaseFileStorage(), { months: getEnv().RETENTION_MONTHS, runBy, dryRun: options.dryRun })
	holder.__ataaRetentionRun = run
	try {
		return await run
	} finally {
		holder.__ataaRetentionRun = undefined
	}
}

/** The scheduler's task: runs retention when its day has come (claimed in the database, so once for all instances). */
export const retentionTask = {
	name: TASK_NAME,
	async run(db: Database, now: Date): Promise<void> {
		if (!(await claimPeriodicRun(db, TASK_NAME, now, { everyMs: RUN_EVERY_MS, firstAfterMs: FIRST_RUN_DELAY_MS, by: 'timer' }))) return
		logger.info(describeRetention(await runRetentionNow(db, 'timer')))
	},
}

/** `npm run retention [-- --dry-run]` while this server holds the embedded database. */
export function registerRetentionCommands(db: Database): void {
	registerControlCommand('retention', async () => describeRetention(await runRetentionNow(db, 'command')))
	registerControlCommand('retention-dry-run', async () => describeRetention(await runRetentionNow(db, 'command', { dryRun: true })))
}

/** Waits for a run under way in this process, so the database is not closed under it. */
export async function retentionSettled(): Promise<void> {
	await holder.__ataaRetentionRun?.catch(() => undefined)
}

/** When the daily run is next due and last ran, for every instance alike (null before the scheduler's first tick, or before the first run). */
export function retentionSchedule(db: Database): Promise<{ nextRunAt: Date | null; lastRunAt: Date | null }> {
	return periodicSchedule(db, TASK_NAME, RUN_EVERY_MS)
}
