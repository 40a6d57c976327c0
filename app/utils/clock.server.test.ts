import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { clockOffset, now } from './clock.server.ts'

// ATAA_CLOCK_FILE moves the server's clock for browser tests; nothing else does.

const DAY = 24 * 60 * 60 * 1000
let dir: string
let file: string

beforeEach(() => {
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-clock-'))
	file = path.join(dir, 'clock')
})
afterEach(() => {
	vi.unstubAllEnvs()
	vi.useRealTimers()
	fs.rmSync(dir, { recursive: true, force: true })
})

describe('now', () => {
	test('is the real time without ATAA_CLOCK_FILE', () => {
		vi.stubEnv('ATAA_CLOCK_FILE', undefined)
		const before = Date.now()
		const time = now().getTime()
		expect(time).toBeGreaterThanOrEqual(before)
		expect(time).toBeLessThanOrEqual(Date.now())
	})

	test('adds the offset written in the file, and follows it as it changes', () => {
		vi.stubEnv('ATAA_CLOCK_FILE', file)
		// No file yet, then an empty one: no offset.
		expect(clockOffset()).toBe(0)
		fs.writeFileSync(file, '')
		expect(clockOffset()).toBe(0)
		fs.writeFileSync(file, `${3 * DAY}\n`)
		const time = now().getTime()
		expect(time - Date.now()).toBeGreaterThan(3 * DAY - 1000)
		expect(time - Date.now()).toBeLessThanOrEqual(3 * DAY)
		// A change of size is seen at once.
		fs.writeFileSync(file, String(7 * DAY + 1))
		expect(clockOffset()).toBe(7 * DAY + 1)
		fs.rmSync(file)
		expect(clockOffset()).toBe(0)
	})

	test('reads the file again at least once a second, whatever its mtime says', () => {
		vi.useFakeTimers({ now: new Date('2026-03-01T09:00:00Z') })
		vi.stubEnv('ATAA_CLOCK_FILE', file)
		fs.writeFileSync(file, '1000')
		expect(now().toISOString()).toBe('2026-03-01T09:00:01.000Z')
		// Same size, and an mtime set back to the old one: only the second's re-read sees it.
		const { atime, mtime } = fs.statSync(file)
		fs.writeFileSync(file, '2000')
		fs.utimesSync(file, atime, mtime)
		vi.advanceTimersByTime(1000)
		expect(now().toISOString()).toBe('2026-03-01T09:00:03.000Z')
	})

	test('a file that holds no number is no offset', () => {
		vi.stubEnv('ATAA_CLOCK_FILE', file)
		fs.writeFileSync(file, 'three days')
		expect(clockOffset()).toBe(0)
	})

	test('is ignored in production', () => {
		vi.stubEnv('ATAA_CLOCK_FILE', file)
		vi.stubEnv('ATAA_ENV', 'production')
		fs.writeFileSync(file, String(DAY))
		expect(clockOffset()).toBe(0)
	})
})
