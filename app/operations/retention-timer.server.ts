import type { Database } from '#app/db/client.server.ts'
import { getCaseFileStorage } from '#app/storage/file-storage.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { registerControlCommand } from './control.server.ts'
import { describeRetention, runRetention, type RetentionReport, type RunBy } from '#app/operations/retention-purge.server.ts'

// The server's daily retention run (docs/operations.md#retention): the first a few minutes after the
// start (not during it: a restart loop must not hold the start up), then every 24 hours. The timer is
// unref'd, so it never keeps a stopping process alive, and stopped by shutdown. `npm run retention`
// asks a running server to run it now (app/operations/control.server.ts) when the server holds PGlite.

export const FIRST_RUN_DELAY_MS = 5 * 60 * 1000
export const RUN_EVERY_MS = 24 * 60 * 60 * 1000

interface TimerState {
	db: Database
	log: (line: string) => void
	timer?: NodeJS.Timeout
	nextRunAt: Date | null
	lastRunAt: Date | null
	running?: Promise<RetentionReport>
}

// Kept on globalThis as app/bootstrap.server.ts keeps the app: the dev server's reloads share one timer.
const holder = globalThis as typeof globalThis & { __ataaRetention?: TimerState }

/** Runs retention now in this process, after any run under way (never two at once). */
export async function runRetentionNow(runBy: RunBy, options: { dryRun?: boolean } = {}): Promise<RetentionReport> {
	const state = holder.__ataaRetention
	if (!state) throw new Error('Retention is not running in this process.')
	while (state.running) await state.running.catch(() => undefined)
	const run = runRetention(state.db, getCaseFileStorage(), { months: getEnv().RETENTION_MONTHS, runBy, dryRun: options.dryRun })
	state.running = run
	try {
		const report = await run
		if (!options.dryRun) state.lastRunAt = new Date()
		return report
	} finally {
		state.running = undefined
	}
}

function schedule(state: TimerState, delay: number): void {
	state.nextRunAt = new Date(Date.now() + delay)
	state.timer = setTimeout(() => {
		state.timer = undefined
		runRetentionNow('timer').then(
			(report) => state.log(describeRetention(report)),
			(error: unknown) => state.log(`Retention failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
		)
		// The next run is counted from this one's start: a slow run does not shift the day.
		if (holder.__ataaRetention === state) schedule(state, RUN_EVERY_MS)
	}, delay)
	state.timer.unref()
}

export function startRetentionTimer(db: Database, log: (line: string) => void): void {
	stopTimer()
	const state: TimerState = { db, log, nextRunAt: null, lastRunAt: null }
	holder.__ataaRetention = state
	schedule(state, FIRST_RUN_DELAY_MS)
	// `npm run retention [-- --dry-run]` while this server holds the embedded database.
	registerControlCommand('retention', async () => describeRetention(await runRetentionNow('command')))
	registerControlCommand('retention-dry-run', async () => describeRetention(await runRetentionNow('command', { dryRun: true })))
}

function stopTimer(): TimerState | undefined {
	const state = holder.__ataaRetention
	if (state?.timer) clearTimeout(state.timer)
	holder.__ataaRetention = undefined
	return state
}

/** Stops the timer and waits for a run under way, so the database is not closed under it. */
export async function stopRetentionTimer(): Promise<void> {
	const state = stopTimer()
	await state?.running?.catch(() => undefined)
}

/** When the timer runs next and last ran, in this process (null when it has not run, or no timer). */
export function retentionSchedule(): { nextRunAt: Date | null; lastRunAt: Date | null } {
	const state = holder.__ataaRetention
	return { nextRunAt: state?.nextRunAt ?? null, lastRunAt: state?.lastRunAt ?? null }
}
