import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import type { DatabaseHandle } from '#app/db/client.server.ts'
import { schedulerLeases } from '#app/db/schema.ts'
import { createTestDatabase } from '#tests/db.ts'
import { claimPeriodicRun, periodicSchedule } from './periodic-runs.server.ts'
import { defaultTasks, LEASE_INTERVALS, startScheduler, type Scheduler, type SchedulerTask } from './scheduler.server.ts'

// Several instances, one database: the scheduler's lease lets one of them run the work each tick,
// and another take it over when that one stops or dies.

let handle: DatabaseHandle
const db = () => handle.db
const INTERVAL = 1000
const started: Scheduler[] = []
let time: number
const clock = () => new Date(time)

beforeAll(async () => {
	handle = await createTestDatabase()
})
afterAll(async () => {
	await handle.close()
})
beforeEach(async () => {
	await Promise.all(started.splice(0).map((scheduler) => scheduler.stop()))
	await db().delete(schedulerLeases)
	time = Date.parse('2026-03-01T09:00:00Z')
})

/** A scheduler that ticks only when told, with a task recording who ran it. */
function instance(holder: string, runs: string[], tasks?: SchedulerTask[]): Scheduler {
	const scheduler = startScheduler(db(), { holder, intervalMs: INTERVAL, timer: false, now: clock, tasks: tasks ?? [{ name: 'count', run: async () => void runs.push(holder) }] })
	started.push(scheduler)
	return scheduler
}

describe('scheduler', () => {
	test('one of two instances runs the tasks each tick, and keeps on running them', async () => {
		const runs: string[] = []
		const a = instance('a', runs)
		const b = instance('b', runs)
		for (let tick = 0; tick < 3; tick++) {
			const ran = await Promise.all([a.tick(), b.tick()])
			expect(ran.filter(Boolean)).toHaveLength(1)
			time += INTERVAL
		}
		expect(runs).toHaveLength(3)
		expect(new Set(runs).size).toBe(1)
		const [lease] = await db().select().from(schedulerLeases)
		expect(lease).toMatchObject({ name: 'scheduler', holder: runs[0] })
		expect(lease!.expiresAt.getTime()).toBe(time - INTERVAL + LEASE_INTERVALS * INTERVAL)
	})

	test('when the holder stops, the other takes over at its next tick', async () => {
		const runs: string[] = []
		const a = instance('a', runs)
		const b = instance('b', runs)
		expect(await a.tick()).toBe(true)
		expect(await b.tick()).toBe(false)
		await a.stop()
		expect(await db().select().from(schedulerLeases)).toEqual([])
		expect(await a.tick()).toBe(false)
		expect(await b.tick()).toBe(true)
		expect(runs).toEqual(['a', 'b'])
	})

	test('when the holder dies, its lease runs out and the other takes over', async () => {
		const runs: string[] = []
		const a = instance('a', runs)
		const b = instance('b', runs)
		expect(await a.tick()).toBe(true)
		// a ticks no more. Until its lease has run out, b waits.
		time += LEASE_INTERVALS * INTERVAL
		expect(await b.tick()).toBe(false)
		time += 1
		expect(await b.tick()).toBe(true)
		// a, back, finds b holding the lease.
		expect(await a.tick()).toBe(false)
		expect(runs).toEqual(['a', 'b'])
	})

	test('a task that throws does not stop the tasks after it, nor later ticks', async () => {
		const runs: string[] = []
		const failing: SchedulerTask = {
			name: 'failing',
			run: async () => {
				throw new Error('the provider is down')
			},
		}
		const a = instance('a', runs, [failing, { name: 'count', run: async () => void runs.push('a') }])
		expect(await a.tick()).toBe(true)
		time += INTERVAL
		expect(await a.tick()).toBe(true)
		expect(runs).toEqual(['a', 'a'])
	})

	test('a tick never overlaps itself, and stop() waits for the tick under way before giving the lease up', async () => {
		let finish!: () => void
		const blocked = new Promise<void>((resolve) => (finish = resolve))
		let entered = 0
		const a = instance('a', [], [{ name: 'slow', run: async () => void (entered++, await blocked) }])
		const first = a.tick()
		expect(await a.tick()).toBe(false)
		while (entered === 0) await new Promise((resolve) => setTimeout(resolve, 5))
		let stopped = false
		const stopping = a.stop().then(() => (stopped = true))
		await new Promise((resolve) => setTimeout(resolve, 50))
		expect(stopped).toBe(false)
		expect(await db().select().from(schedulerLeases)).toHaveLength(1)
		finish()
		await stopping
		expect(await first).toBe(true)
		expect(entered).toBe(1)
		expect(await db().select().from(schedulerLeases)).toEqual([])
	})

	test('ticks by itself every interval until stopped', async () => {
		let runs = 0
		const scheduler = startScheduler(db(), { holder: 'timed', intervalMs: 20, tasks: [{ name: 'count', run: async () => void runs++ }] })
		started.push(scheduler)
		while (runs < 3) await new Promise((resolve) => setTimeout(resolve, 10))
		await scheduler.stop()
		const after = runs
		await new Promise((resolve) => setTimeout(resolve, 60))
		expect(runs).toBe(after)
	})
})

describe('a task due once a period', () => {
	const DAY = 24 * 60 * 60 * 1000
	const FIRST = 5 * 60 * 1000
	/** A task that runs `daily` when its day has come, as retention does (app/operations/retention-schedule.server.ts). */
	const daily = (runs: string[], who: string): SchedulerTask => ({
		name: 'daily',
		run: async (database, now) => {
			if (await claimPeriodicRun(database, 'daily', now, { everyMs: DAY, firstAfterMs: FIRST, by: who })) runs.push(who)
		},
	})

	test('runs first a few minutes after the first tick, then once a day, whichever instance holds the scheduler and however often it restarts', async () => {
		const runs: string[] = []
		const a = instance('a', runs, [daily(runs, 'a')])
		expect(await a.tick()).toBe(true)
		expect(runs).toEqual([])
		expect(await periodicSchedule(db(), 'daily', DAY)).toEqual({ nextRunAt: new Date(time + FIRST), lastRunAt: null })
		time += FIRST
		await a.tick()
		expect(runs).toEqual(['a'])
		const ranAt = time
		// Ticks all day long, a restart, and another instance taking over: no second run that day.
		time += INTERVAL
		await a.tick()
		await a.stop()
		const b = instance('b', runs, [daily(runs, 'b')])
		for (; time < ranAt + DAY - INTERVAL; time += DAY / 8) expect(await b.tick()).toBe(true)
		expect(runs).toEqual(['a'])
		expect(await periodicSchedule(db(), 'daily', DAY)).toEqual({ nextRunAt: new Date(ranAt + DAY), lastRunAt: new Date(ranAt) })
		time = ranAt + DAY
		await b.tick()
		expect(runs).toEqual(['a', 'b'])
	})

	test('two instances that both think they hold the scheduler claim the day once', async () => {
		const runs: string[] = []
		await claimPeriodicRun(db(), 'daily', new Date(time), { everyMs: DAY, firstAfterMs: 0, by: 'first' })
		time += DAY
		await Promise.all(['a', 'b', 'c'].map((who) => daily(runs, who).run(db(), clock())))
		expect(runs).toHaveLength(1)
	})

	test('retention is one of the scheduler\'s tasks, not a timer of its own', () => {
		expect(defaultTasks.map((task) => task.name)).toContain('retention')
	})
})
