import { and, eq, sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import type { DatabaseHandle } from '#app/db/client.server.ts'
import { caseEvents, caseMessages, cases, reminderSettings } from '#app/db/schema.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { needyFamilies } from '#app/forms/definitions/needy-families.ts'
import { setSmsDriver } from '#app/notify/notifier.server.ts'
import { createTestDatabase } from '#tests/db.ts'
import { basicAnswers, randomNationalId, sectionAnswers, submittedCase } from '#tests/fixtures/needy-families.ts'
import { changeStatus } from '#app/cases/status-changes.server.ts'
import { saveSection, startCase, type CaseRow } from '#app/cases/case-store.server.ts'
import { DEFAULT_REMINDER_SETTINGS, getReminderSettings, runReminders, saveReminderSettings } from './reminders.server.ts'

// The reminders, with the clock as a parameter: when each is due, that each goes once, that a case
// left unanswered is closed only when the settings say so, and that two instances at once remind once.

const DAY = 24 * 60 * 60 * 1000
let handle: DatabaseHandle
const db = () => handle.db
let admin: PublicUser
const texts: { to: string; text: string }[] = []

beforeAll(async () => {
	handle = await createTestDatabase()
	admin = await createUser(db(), { name: 'مديرة', email: `reminders-${Date.now()}@example.org`, mobile: '', roles: ['admin'], password: 'Reminders-Admin-1234' })
	setSmsDriver({
		deliver: async (to, text) => {
			texts.push({ to, text })
			return { ok: true, provider: 'test' }
		},
	})
})
afterAll(async () => {
	setSmsDriver(undefined)
	await handle.close()
})
beforeEach(async () => {
	// Each test counts what one run does: the cases of the tests before it are gone.
	await db().delete(cases)
	texts.length = 0
})
afterEach(async () => {
	await db().delete(reminderSettings)
})

/** A sent case, sent back as incomplete (its financial section to correct). */
async function incompleteCase(): Promise<CaseRow> {
	const row = await submittedCase(db())
	const { row: changed } = await changeStatus(db(), row.id, { to: 4, note: 'الدخل غير واضح', message: 'نرجو تصحيح بيانات الدخل.', reopened: { sections: ['financial'], slots: [] } }, admin)
	return changed
}

/** `days` after `start`, and a millisecond: PostgreSQL keeps the microseconds a JavaScript date drops. */
const daysAfter = (start: Date, days: number) => new Date(start.getTime() + days * DAY + 1)

const reminded = (caseId: string) =>
	db()
		.select({ data: caseEvents.data, actorId: caseEvents.actorId })
		.from(caseEvents)
		.where(and(eq(caseEvents.caseId, caseId), eq(caseEvents.kind, 'reminded')))
		.orderBy(caseEvents.id)
const messagesOf = (caseId: string, event: string) =>
	db()
		.select()
		.from(caseMessages)
		.where(and(eq(caseMessages.caseId, caseId), eq(caseMessages.event, event)))
const statusOf = async (caseId: string) => (await db().select({ status: cases.status }).from(cases).where(eq(cases.id, caseId)))[0]!.status

describe('reminders', () => {
	test('the settings are 3, 7, never closed and 2 until an admin changes them', async () => {
		expect(await getReminderSettings(db())).toEqual({ incompleteFirstDays: 3, incompleteSecondDays: 7, incompleteCloseDays: null, draftDays: 2 })
		expect(DEFAULT_REMINDER_SETTINGS).toEqual(await getReminderSettings(db()))
		await saveReminderSettings(db(), { incompleteFirstDays: 4, incompleteSecondDays: 8, incompleteCloseDays: 20, draftDays: 3 }, admin.id)
		expect(await getReminderSettings(db())).toEqual({ incompleteFirstDays: 4, incompleteSecondDays: 8, incompleteCloseDays: 20, draftDays: 3 })
		expect((await db().select({ updatedBy: reminderSettings.updatedBy }).from(reminderSettings))[0]!.updatedBy).toBe(admin.id)
	})

	test('an incomplete case: nothing before day 3, one reminder at day 3 and not again at 3.5, the second at day 7, then nothing; never closed by default', async () => {
		const row = await incompleteCase()
		const sentBack = row.statusChangedAt
		expect(await runReminders(db(), daysAfter(sentBack, 2.9))).toEqual({ incomplete: 0, drafts: 0, closed: 0 })
		expect(await reminded(row.id)).toEqual([])

		expect(await runReminders(db(), daysAfter(sentBack, 3))).toEqual({ incomplete: 1, drafts: 0, closed: 0 })
		expect(await runReminders(db(), daysAfter(sentBack, 3.5))).toEqual({ incomplete: 0, drafts: 0, closed: 0 })
		expect(await reminded(row.id)).toEqual([{ data: { event: 'reminder:incomplete', n: 1 }, actorId: null }])

		expect(await runReminders(db(), daysAfter(sentBack, 7))).toEqual({ incomplete: 1, drafts: 0, closed: 0 })
		expect(await runReminders(db(), daysAfter(sentBack, 8))).toEqual({ incomplete: 0, drafts: 0, closed: 0 })
		expect((await reminded(row.id)).map((event) => event.data)).toEqual([
			{ event: 'reminder:incomplete', n: 1 },
			{ event: 'reminder:incomplete', n: 2 },
		])

		// Each through the outbox: stored with its delivery state, texted to the case's mobile, naming what to complete.
		const messages = await messagesOf(row.id, 'reminder:incomplete')
		expect(messages.map((message) => [message.channel, message.status, message.recipient, message.createdBy])).toEqual([
			['sms', 'sent', row.mobile, null],
			['sms', 'sent', row.mobile, null],
		])
		expect(texts).toHaveLength(2)
		expect(texts[0]!.text).toContain(row.reference)
		// Two parts at most (issue 37 §2.7): it says the case is incomplete and links to where it is completed.
		expect(texts[0]!.text).toContain('لم يكتمل')
		expect(texts[0]!.text).toContain('أكمله من: http')
		// No closing date: incomplete cases are not closed.
		expect(texts[0]!.text).not.toContain('يُغلق')

		// Closing is off: months later the case is still incomplete.
		expect(await runReminders(db(), daysAfter(sentBack, 100))).toEqual({ incomplete: 0, drafts: 0, closed: 0 })
		expect(await statusOf(row.id)).toBe(4)
	})

	test('a case sent back again is reminded again, from the day it was sent back', async () => {
		const row = await incompleteCase()
		await runReminders(db(), daysAfter(row.statusChangedAt, 8))
		expect(await reminded(row.id)).toHaveLength(1)
		const { row: again } = await changeStatus(db(), row.id, { to: 4, note: 'ما زال ناقصاً', message: 'نرجو إرفاق صورة الهوية.', reopened: { sections: [], slots: ['identity'] } }, admin)
		expect(await runReminders(db(), daysAfter(again.statusChangedAt, 2))).toMatchObject({ incomplete: 0 })
		expect(await runReminders(db(), daysAfter(again.statusChangedAt, 3))).toMatchObject({ incomplete: 1 })
		expect((await reminded(row.id)).map((event) => event.data)).toEqual([
			{ event: 'reminder:incomplete', n: 2 },
			{ event: 'reminder:incomplete', n: 1 },
		])
	})

	test('a draft is reminded once, two days after it was started', async () => {
		const { row } = await startCase(db(), needyFamilies, basicAnswers(randomNationalId(), '0551110000'))
		// A walk-in's paper intake staff are typing in: not the applicant's to finish.
		const { row: paper } = await startCase(db(), needyFamilies, basicAnswers(randomNationalId(), '0551110001'), { paperIntake: { actorId: admin.id } })
		// A sent case is no draft.
		await submittedCase(db())
		expect(await runReminders(db(), daysAfter(row.createdAt, 1.9))).toEqual({ incomplete: 0, drafts: 0, closed: 0 })
		expect(await runReminders(db(), daysAfter(row.createdAt, 2))).toEqual({ incomplete: 0, drafts: 1, closed: 0 })
		expect(await runReminders(db(), daysAfter(row.createdAt, 5))).toEqual({ incomplete: 0, drafts: 0, closed: 0 })
		expect(await runReminders(db(), daysAfter(row.createdAt, 20))).toEqual({ incomplete: 0, drafts: 0, closed: 0 })
		expect((await reminded(row.id)).map((event) => event.data)).toEqual([{ event: 'reminder:draft', n: 1 }])
		expect(await reminded(paper.id)).toEqual([])
		expect(await messagesOf(row.id, 'reminder:draft')).toHaveLength(1)
		expect(texts.map((text) => text.to)).toEqual([row.mobile])
	})

	test('a draft left long before the reminders existed is not texted', async () => {
		const { row } = await startCase(db(), needyFamilies, basicAnswers(randomNationalId(), '0551110002'))
		expect(await runReminders(db(), daysAfter(row.createdAt, 40))).toEqual({ incomplete: 0, drafts: 0, closed: 0 })
	})

	test('closing, once set: the reminder names the last day; unanswered, the case is closed, recorded and the applicant told; once', async () => {
		await saveReminderSettings(db(), { ...DEFAULT_REMINDER_SETTINGS, incompleteCloseDays: 10 }, admin.id)
		const row = await incompleteCase()
		const sentBack = row.statusChangedAt
		expect(await runReminders(db(), daysAfter(sentBack, 3))).toEqual({ incomplete: 1, drafts: 0, closed: 0 })
		expect(texts[0]!.text).toContain('يُغلق إن لم يكتمل قبل')
		expect(await runReminders(db(), daysAfter(sentBack, 9.9))).toEqual({ incomplete: 1, drafts: 0, closed: 0 })
		expect(await runReminders(db(), daysAfter(sentBack, 10))).toEqual({ incomplete: 0, drafts: 0, closed: 1 })
		expect(await runReminders(db(), daysAfter(sentBack, 11))).toEqual({ incomplete: 0, drafts: 0, closed: 0 })

		const [closed] = await db().select().from(cases).where(eq(cases.id, row.id))
		expect(closed).toMatchObject({ status: 6, reopened: null })
		const events = await db().select().from(caseEvents).where(eq(caseEvents.caseId, row.id)).orderBy(caseEvents.id)
		const closing = events.filter((event) => event.kind === 'closed_unanswered' || (event.kind === 'status_changed' && event.actorId === null))
		expect(closing.map(({ kind, data, actorId }) => ({ kind, data, actorId }))).toEqual([
			{ kind: 'status_changed', data: { from: 4, to: 6 }, actorId: null },
			{ kind: 'closed_unanswered', data: { days: 10 }, actorId: null },
		])
		expect(closing[0]!.note).toContain('10 أيام')
		const told = await messagesOf(row.id, 'closed-unanswered')
		expect(told.map((message) => [message.channel, message.status])).toEqual([['sms', 'sent']])
		expect(texts.at(-1)!.text).toContain(`أُغلق طلبك ${row.reference} لأنه لم يُستكمل`)
	})

	test('an applicant who changed the case since it was sent back gets the full time again before it is closed', async () => {
		await saveReminderSettings(db(), { ...DEFAULT_REMINDER_SETTINGS, incompleteCloseDays: 10 }, admin.id)
		const row = await incompleteCase()
		const sentBack = row.statusChangedAt
		await saveSection(db(), needyFamilies, row, 'financial', { ...sectionAnswers.financial, Net_Income: '2000' })
		// The change made five days after the case was sent back.
		await db()
			.update(caseEvents)
			.set({ at: daysAfter(sentBack, 5) })
			.where(and(eq(caseEvents.caseId, row.id), eq(caseEvents.kind, 'section_saved'), sql`${caseEvents.at} >= ${sentBack.toISOString()}::timestamptz`))
		expect(await runReminders(db(), daysAfter(sentBack, 12))).toEqual({ incomplete: 1, drafts: 0, closed: 0 })
		expect(await statusOf(row.id)).toBe(4)
		expect(await runReminders(db(), daysAfter(sentBack, 15))).toEqual({ incomplete: 0, drafts: 0, closed: 1 })
		expect(await statusOf(row.id)).toBe(6)
	})

	test('two instances running at once remind each case once', async () => {
		const rows = await Promise.all(Array.from({ length: 4 }, () => incompleteCase()))
		const { row: draft } = await startCase(db(), needyFamilies, basicAnswers(randomNationalId(), '0551110003'))
		const at = daysAfter(new Date(Math.max(...rows.map((row) => row.statusChangedAt.getTime()), draft.createdAt.getTime())), 3)
		const runs = await Promise.all([runReminders(db(), at), runReminders(db(), at), runReminders(db(), at)])
		expect(runs.reduce((sum, run) => sum + run.incomplete, 0)).toBe(4)
		expect(runs.reduce((sum, run) => sum + run.drafts, 0)).toBe(1)
		for (const row of rows) {
			expect(await reminded(row.id)).toHaveLength(1)
			expect(await messagesOf(row.id, 'reminder:incomplete')).toHaveLength(1)
		}
		expect(await reminded(draft.id)).toHaveLength(1)
		expect(texts).toHaveLength(5)
	})
})
