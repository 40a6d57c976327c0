import fs from 'node:fs'
import { logger } from '#app/utils/log.server.ts'

// The server's time for work that waits days (reminders, the scheduler's lease: app/operations/scheduler.server.ts).
// Outside production, ATAA_CLOCK_FILE names a file holding an offset in milliseconds that is added to
// the real time: a browser test writes 259200000 there and the server lives three days later, without
// sleeping. A missing or empty file is no offset. The file is read again when it changes (its mtime
// or size), and at least once a second. A production start refuses ATAA_CLOCK_FILE
// (app/bootstrap.server.ts); here it is ignored there too.

interface Cached {
	file: string
	offset: number
	/** The file's mtime and size when read; null when it did not exist. */
	stamp: string | null
	readAt: number
}

let cached: Cached | undefined
/** The last unreadable text warned about: said once, not every second. */
let warned: string | undefined

const production = () => (process.env.ATAA_ENV || process.env.NODE_ENV) === 'production'

function stampOf(file: string): string | null {
	try {
		const stat = fs.statSync(file)
		return `${stat.mtimeMs}:${stat.size}`
	} catch {
		return null
	}
}

function readOffset(file: string): number {
	let text: string
	try {
		text = fs.readFileSync(file, 'utf8').trim()
	} catch {
		return 0
	}
	if (!text) return 0
	const offset = Number(text)
	if (Number.isFinite(offset)) return Math.trunc(offset)
	if (warned === text) return 0
	warned = text
	logger.warn(`ATAA_CLOCK_FILE ${file} does not hold a number of milliseconds: the real time is used`)
	return 0
}

/** The offset in milliseconds ATAA_CLOCK_FILE adds to the real time now; 0 without one. */
export function clockOffset(real: number = Date.now()): number {
	const file = process.env.ATAA_CLOCK_FILE
	if (!file || production()) return 0
	const stamp = stampOf(file)
	if (!cached || cached.file !== file || cached.stamp !== stamp || real - cached.readAt >= 1000 || real < cached.readAt) {
		cached = { file, offset: stamp === null ? 0 : readOffset(file), stamp, readAt: real }
	}
	return cached.offset
}

/** The server's time: the real time, plus ATAA_CLOCK_FILE's offset outside production. */
export function now(): Date {
	const real = Date.now()
	return new Date(real + clockOffset(real))
}
