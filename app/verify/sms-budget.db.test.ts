import { and, eq, isNotNull } from 'drizzle-orm'
import { afterAll, expect, test } from 'vitest'
import { verificationCodes } from '#app/db/schema.ts'
import { smsDriver } from '#app/notify/sms.server.ts'
import { setSmsDriver } from '#app/notify/notifier.server.ts'
import { withAppDatabase } from '#tests/db.ts'
import { checkCode, drainQueuedCodes, sendCode } from './codes.server.ts'
import { saveSmsBudget, smsUse } from './sms-budget.server.ts'

// The SMS budgets of codes (docs/operations.md#sms-budgets), against the database with the clock moved
// by hand, as the scheduler's drain sees it: what a script on one address costs, and that a crowd of
// families behind one address still gets every code within the hour.

const app = withAppDatabase()
const db = () => app.handle.db

const inbox: { to: string; text: string; at: number }[] = []
let clock = 0
setSmsDriver(
	smsDriver('unifonic', async (to, text) => {
		inbox.push({ to, text, at: clock })
		return { ok: true, provider: 'fake' }
	}),
)
afterAll(() => setSmsDriver(undefined))

const MINUTE = 60_000
let mobiles = 0
const freshMobile = () => `+9665${String(10_000_000 + mobiles++).slice(-8)}`

/** A new draft's code from `address` at `at`, as the first save asks for it. */
const start = (address: string, at: Date, mobile = freshMobile()) => sendCode(db(), { purpose: 'case', subject: crypto.randomUUID(), mobile, nationalId: '', address }, at)

/** The scheduler's ticks, a minute apart, from `from` for `minutes`. */
async function drainFor(from: number, minutes: number) {
	for (let minute = 1; minute <= minutes; minute++) {
		clock = from + minute * MINUTE
		await drainQueuedCodes(db(), new Date(clock))
	}
}

test('1,000 generated starts from one address cost at most the hourly budget in SMS, ever; each draft is kept and told when its code comes', { timeout: 300_000 }, async () => {
	await saveSmsBudget(db(), { perHour: 100, perDay: 1000, perAddressHour: 10 }, null)
	const t0 = Date.UTC(2026, 0, 10, 9)
	const before = inbox.length
	const answers = []
	// 1,000 in 70 seconds, as the assessment's script did.
	for (let i = 0; i < 1000; i++) {
		clock = t0 + i * 70
		answers.push(await start('203.0.113.7', new Date(clock)))
	}
	expect(answers.every((answer) => answer.ok)).toBe(true)
	expect(inbox.length - before).toBe(10)
	// Past the address's budget: waiting, with the time it comes by at the latest (within the hour).
	const waiting = answers.filter((answer) => answer.ok && answer.by)
	expect(waiting).toHaveLength(990)
	expect(waiting.every((answer) => answer.ok && answer.by!.getTime() <= t0 + 70_000 + 50 * MINUTE)).toBe(true)
	// Three hours of ticks: the hour's budget is spent, the rest never goes.
	await drainFor(t0 + 70_000, 180)
	expect(Math.max(...inbox.slice(before).map((sms) => sms.at)) - t0).toBeLessThan(60 * MINUTE)
	expect(inbox.length - before).toBe(100)
	expect((await smsUse(db(), new Date(clock))).queued).toBe(0)
	// A waiting code that was never sent opens nothing.
	const [left] = await db()
		.select({ subject: verificationCodes.subject })
		.from(verificationCodes)
		.where(eq(verificationCodes.queued, true))
		.limit(1)
	expect(await checkCode(db(), 'case', left!.subject, '123456', new Date(clock))).toMatchObject({ ok: false })
})

test('300 families behind one shared address all start and get their codes within the hour, and the code that comes opens the draft', { timeout: 120_000 }, async () => {
	await saveSmsBudget(db(), { perHour: 600, perDay: 5000, perAddressHour: 30 }, null)
	// Two days after the script: its SMS are out of every window.
	const t0 = Date.UTC(2026, 0, 12, 9)
	const before = inbox.length
	const families: { subject: string; mobile: string; by: Date | undefined }[] = []
	// Over 20 minutes, as a busy morning behind a carrier's NAT.
	for (let i = 0; i < 300; i++) {
		clock = t0 + i * 4_000
		const mobile = freshMobile()
		const subject = crypto.randomUUID()
		const sent = await sendCode(db(), { purpose: 'case', subject, mobile, nationalId: '', address: '198.51.100.20' }, new Date(clock))
		expect(sent.ok).toBe(true)
		families.push({ subject, mobile, by: sent.ok ? sent.by : undefined })
		// The scheduler's tick each minute meanwhile.
		if (i % 15 === 14) await drainQueuedCodes(db(), new Date(clock))
	}
	await drainFor(clock, 2)
	const received = inbox.slice(before)
	expect(received).toHaveLength(300)
	expect(new Set(received.map((sms) => sms.to)).size).toBe(300)
	// Every code came within the hour of its start, and by the time its page said.
	for (const family of families) {
		const sms = received.find((message) => message.to === `${family.mobile}`)!
		const startedAt = t0 + families.indexOf(family) * 4_000
		expect(sms.at - startedAt).toBeLessThan(60 * MINUTE)
		if (family.by) expect(sms.at).toBeLessThanOrEqual(family.by.getTime())
	}
	// A code sent from the queue is the one that opens the draft.
	const last = families.at(-1)!
	const code = /رمز التحقق: (\d{6})/.exec(received.find((sms) => sms.to === last.mobile)!.text)![1]!
	expect(await checkCode(db(), 'case', last.subject, code, new Date(clock))).toEqual({ ok: true, mobile: last.mobile })
	expect(
		await db()
			.select({ id: verificationCodes.id })
			.from(verificationCodes)
			.where(and(eq(verificationCodes.subject, last.subject), isNotNull(verificationCodes.sentAt))),
	).toHaveLength(1)
})
