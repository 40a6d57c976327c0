import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest'
import { changeStatus } from '#app/cases/status-changes.server.ts'
import { notifyStatusChange } from '#app/notify/case-notices.server.ts'
import { caseEvents, caseMessages, cases, messageTemplates } from '#app/db/schema.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { publicOrigin } from '#app/utils/env.server.ts'
import { createTestDatabase } from '#tests/db.ts'
import { submittedCase } from '#tests/fixtures/needy-families.ts'
import type { DatabaseHandle } from '#app/db/client.server.ts'
import type { MailPart } from './mail.server.ts'
import { createNotifier, logNotifier, setNotifier, setSmsDriver } from './notifier.server.ts'
import { deliverDue, listCaseMessages, MAX_ATTEMPTS, notifyApplicant, resendMessage } from './outbox.server.ts'
import type { SmsResult } from './sms.server.ts'

// The outbox against a real database, with a fake SMS driver and a fake mail transport: what is
// stored, what is sent, and what becomes of a message a provider refuses.

let handle: DatabaseHandle
let officer: PublicUser

/** What the fake SMS driver was given, and what it answers next (then: accepted). */
const texts: { to: string; text: string }[] = []
let answers: SmsResult[] = []
let smsDelay = 0
const mails: { to: string; subject: string; text: string; html: string }[] = []

const mail: MailPart = {
	from: 'no-reply@ataa.org.sa',
	transport: {
		async sendMail(message) {
			mails.push({ to: String(message.to), subject: String(message.subject), text: String(message.text), html: String(message.html) })
			return { messageId: `<${mails.length}@ataa.test>` }
		},
	},
}

beforeAll(async () => {
	handle = await createTestDatabase()
	officer = await createUser(handle.db, { name: 'باحثة', email: `outbox-${Date.now()}@example.org`, mobile: '', roles: ['case_officer'], password: 'Outbox-Officer-1234' })
	setNotifier(createNotifier({ mail }))
	setSmsDriver({
		async deliver(to, text) {
			if (smsDelay) await new Promise((resolve) => setTimeout(resolve, smsDelay))
			texts.push({ to, text })
			return answers.shift() ?? { ok: true, provider: 'fake', ref: `sms-${texts.length}` }
		},
	})
})
afterAll(async () => {
	setNotifier(logNotifier)
	setSmsDriver(undefined)
	await handle.close()
})
beforeEach(() => {
	answers = []
	smsDelay = 0
})

const refused = (retry: boolean, reason = retry ? 'HTTP 503' : 'invalid destination number'): SmsResult => ({ ok: false, provider: 'fake', reason, retry })
const later = (ms: number) => new Date(Date.now() + ms)

/** A sent case with an e-mail, as one whose applicant gave it. */
async function caseWithEmail() {
	const row = await submittedCase(handle.db)
	const [withEmail] = await handle.db.update(cases).set({ email: 'family@example.org' }).where(eq(cases.id, row.id)).returning()
	return withEmail!
}

test('a status change: an SMS and an e-mail stored with the Arabic text and the lookup link on the public origin, sent at once; the private link stays as it was', async () => {
	const row = await caseWithEmail()
	const { row: changed } = await changeStatus(handle.db, row.id, { to: 4, note: 'ناقص', message: 'أرفق صك الإعالة', reopened: { sections: ['family'], slots: ['identity'] } }, { ...officer, roles: ['case_officer'] })
	const sent = await notifyStatusChange(handle.db, changed, { to: 4, message: 'أرفق صك الإعالة' }, officer)
	expect(sent.map((message) => [message.channel, message.status, message.attempts])).toEqual([
		['sms', 'sent', 1],
		['email', 'sent', 1],
	])
	const [sms, email] = sent
	const lookup = `${publicOrigin()}/apply/status`
	expect(sms).toMatchObject({ caseId: row.id, event: 'status:4', recipient: row.mobile, provider: 'fake', providerRef: expect.stringMatching(/^sms-/), createdBy: officer.id, sentAt: expect.any(Date) })
	expect(sms!.body).toContain(`طلبك ${row.reference} ينقصه: «أفراد الأسرة»`)
	expect(sms!.body).toContain('رسالة من المؤسسة: أرفق صك الإعالة')
	expect(sms!.body).toContain(lookup)
	expect(texts.at(-1)).toEqual({ to: row.mobile, text: sms!.body })
	expect(email).toMatchObject({ recipient: 'family@example.org', subject: `تحديث حالة طلبك رقم ${row.reference} - مؤسسة عطاء الخيرية`, provider: 'smtp' })
	expect(email!.body).toContain(`إلى: غير مكتمل.`)
	expect(email!.body).toContain(lookup)
	expect(mails.at(-1)).toMatchObject({ to: 'family@example.org', text: email!.body })
	expect(mails.at(-1)!.html).toContain(`<a href="${lookup}" dir="ltr">`)
	expect(mails.at(-1)!.html).toMatch(/^<div dir="rtl" lang="ar"/)
	// No secret is stored or sent, and the applicant's link is not replaced.
	for (const message of sent) expect(message.body).not.toContain('/apply/r/')
	const [after] = await handle.db.select({ hash: cases.resumeTokenHash }).from(cases).where(eq(cases.id, row.id))
	expect(after!.hash).toBe(row.resumeTokenHash)
	expect(await listCaseMessages(handle.db, row.id)).toHaveLength(2)
})

test('without mail configured, only the SMS; a case without a mobile gets nothing and nothing fails', async () => {
	const row = await caseWithEmail()
	setNotifier(logNotifier)
	try {
		expect((await notifyApplicant(handle.db, row.id, 'applicant-message', { staffMessage: 'مرحباً' }, officer)).map((message) => message.channel)).toEqual(['sms'])
	} finally {
		setNotifier(createNotifier({ mail }))
	}
	await handle.db.update(cases).set({ mobile: '', email: '' }).where(eq(cases.id, row.id))
	expect(await notifyApplicant(handle.db, row.id, 'applicant-message', { staffMessage: 'مرحباً' }, officer)).toEqual([])
})

test('a refusal worth retrying leaves the message pending for a minute; the scheduler sends it once due', async () => {
	const row = await submittedCase(handle.db)
	answers = [refused(true)]
	const [pending] = await notifyApplicant(handle.db, row.id, 'status:2', {}, officer)
	expect(pending).toMatchObject({ status: 'pending', attempts: 1, lastError: 'HTTP 503', sentAt: null })
	const wait = pending!.nextAttemptAt!.getTime() - Date.now()
	expect(wait).toBeGreaterThan(50_000)
	expect(wait).toBeLessThanOrEqual(60_000)

	const tries = texts.length
	await deliverDue(handle.db, later(30_000))
	expect(texts).toHaveLength(tries)
	expect(await deliverDue(handle.db, later(61_000))).toBeGreaterThanOrEqual(1)
	const [message] = await handle.db.select().from(caseMessages).where(eq(caseMessages.id, pending!.id))
	expect(message).toMatchObject({ status: 'sent', attempts: 2, nextAttemptAt: null, lastError: null, provider: 'fake' })
})

test('a refusal that trying again cannot mend fails at once, with its reason', async () => {
	const row = await submittedCase(handle.db)
	answers = [refused(false)]
	const [failed] = await notifyApplicant(handle.db, row.id, 'status:8', { staffMessage: 'السبب' }, officer)
	expect(failed).toMatchObject({ status: 'failed', attempts: 1, lastError: 'invalid destination number', nextAttemptAt: null })
})

test('after five failures the message fails; the waits between are 1 min, 5 min, 30 min and 2 h', async () => {
	const row = await submittedCase(handle.db)
	answers = Array.from({ length: MAX_ATTEMPTS }, () => refused(true))
	const [first] = await notifyApplicant(handle.db, row.id, 'status:7', {}, officer)
	let message = first!
	let now = new Date()
	const waits: number[] = []
	while (message.status === 'pending') {
		const next = message.nextAttemptAt!
		waits.push(Math.round((next.getTime() - now.getTime()) / 60_000))
		now = new Date(next.getTime() + 1000)
		await deliverDue(handle.db, now)
		message = (await handle.db.select().from(caseMessages).where(eq(caseMessages.id, message.id)))[0]!
	}
	expect(waits).toEqual([1, 5, 30, 120])
	expect(message).toMatchObject({ status: 'failed', attempts: 5, lastError: 'HTTP 503', nextAttemptAt: null })
})

test('two schedulers at once send a due message once', async () => {
	const row = await submittedCase(handle.db)
	answers = [refused(true)]
	const [pending] = await notifyApplicant(handle.db, row.id, 'status:2', {}, officer)
	smsDelay = 50
	const before = texts.filter((text) => text.to === row.mobile).length
	const when = later(2 * 60_000)
	const [a, b] = await Promise.all([deliverDue(handle.db, when), deliverDue(handle.db, when)])
	expect(texts.filter((text) => text.to === row.mobile).length - before).toBe(1)
	expect(a + b).toBeGreaterThanOrEqual(1)
	const [message] = await handle.db.select().from(caseMessages).where(eq(caseMessages.id, pending!.id))
	expect(message).toMatchObject({ status: 'sent', attempts: 2 })
})

test('staff send a failed message again: a new row to the case mobile as it is now, a history event, tried at once', async () => {
	const row = await submittedCase(handle.db)
	answers = [refused(false)]
	const [failed] = await notifyApplicant(handle.db, row.id, 'applicant-message', { staffMessage: 'نرجو التواصل' }, officer)
	await handle.db.update(cases).set({ mobile: '+966559998877' }).where(eq(cases.id, row.id))
	const copy = await resendMessage(handle.db, failed!.id, officer)
	expect(copy).toMatchObject({ status: 'sent', event: 'applicant-message', channel: 'sms', recipient: '+966559998877', body: failed!.body, createdBy: officer.id })
	expect(copy!.id).not.toBe(failed!.id)
	expect(texts.at(-1)).toEqual({ to: '+966559998877', text: failed!.body })
	const [old] = await handle.db.select().from(caseMessages).where(eq(caseMessages.id, failed!.id))
	expect(old!.status).toBe('failed')
	const events = await handle.db.select().from(caseEvents).where(and(eq(caseEvents.caseId, row.id), eq(caseEvents.kind, 'message_resent')))
	expect(events).toEqual([expect.objectContaining({ actorId: officer.id, data: { event: 'applicant-message', channel: 'sms', message: failed!.id, copy: copy!.id } })])
	expect(await listCaseMessages(handle.db, row.id)).toHaveLength(2)
})

test("the staff's wording of an event is used instead of the default", async () => {
	const row = await caseWithEmail()
	await handle.db.insert(messageTemplates).values({ event: 'visit-scheduled', sms: 'زيارة لطلبك {رقم_الطلب} يوم {التاريخ} الساعة {الساعة}', emailSubject: 'زيارة {رقم_الطلب}', emailBody: 'نزوركم يوم {التاريخ}.\n{الرابط}', updatedBy: officer.id })
	try {
		const [sms, email] = await notifyApplicant(handle.db, row.id, 'visit-scheduled', { date: 'الأحد 11 يناير 2026م (22 رجب 1447هـ)', time: '10:30 صباحاً' }, officer)
		expect(sms!.body).toBe(`زيارة لطلبك ${row.reference} يوم الأحد 11 يناير 2026م (22 رجب 1447هـ) الساعة 10:30 صباحاً`)
		expect(email).toMatchObject({ subject: `زيارة ${row.reference}`, body: `نزوركم يوم الأحد 11 يناير 2026م (22 رجب 1447هـ).\n${publicOrigin()}/apply/status` })
	} finally {
		await handle.db.delete(messageTemplates).where(eq(messageTemplates.event, 'visit-scheduled'))
	}
})
