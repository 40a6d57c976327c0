import { and, asc, eq, isNotNull, isNull, notInArray, sql, type SQL } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { caseEvents, cases, reminderSettings } from '#app/db/schema.ts'
import { applicationDefinitions } from '#app/forms/registry.ts'
import { notifyApplicant } from '#app/notify/outbox.server.ts'
import { smsDay, type MessageEvent, type TemplateValues } from '#app/notify/templates.ts'
import { countOf, days } from '#app/text/arabic-count.ts'
import { formatDate } from '#app/text/format.ts'
import { logger } from '#app/utils/log.server.ts'
import { Status } from '#app/cases/case-statuses.ts'
import { canTransition } from '#app/cases/workflow.ts'
import { verificationOn } from '#app/verify/case-verification.server.ts'

// The applicants' reminders (docs/product.md#reminders), run by the scheduler each tick
// (app/operations/scheduler.server.ts) with the server's time (app/utils/clock.server.ts):
// - a case sent back as incomplete: a first reminder `incompleteFirstDays` after it was sent back, a
//   second after `incompleteSecondDays`; each once per time it is sent back. With `incompleteCloseDays`
//   set, a case still unanswered that long after it was sent back (or after the applicant last changed
//   it) is closed, and the applicant told;
// - a draft never sent: one reminder `draftDays` after it was started.
// Each case is claimed in a transaction of its own, its row locked (FOR UPDATE SKIP LOCKED) and what is
// due checked again under the lock, so instances running this at once remind once. The message is
// handed to the outbox once that transaction has committed: a slow provider never holds the case's lock.

export interface ReminderSettings {
	incompleteFirstDays: number
	incompleteSecondDays: number
	/** null: an incomplete case is never closed by itself (the default). */
	incompleteCloseDays: number | null
	draftDays: number
}

export const DEFAULT_REMINDER_SETTINGS: ReminderSettings = { incompleteFirstDays: 3, incompleteSecondDays: 7, incompleteCloseDays: null, draftDays: 2 }

/** A draft started longer ago than its reminder's day and this many more is not reminded: the first run after an upgrade must not text every draft ever left. */
export const DRAFT_REMINDER_WINDOW_DAYS = 30

/** Cases handled of each kind per run; the next tick takes the rest. */
export const REMINDER_BATCH = 200

const DAY_MS = 24 * 60 * 60 * 1000

export async function getReminderSettings(db: Database): Promise<ReminderSettings> {
	const [row] = await db.select().from(reminderSettings).where(eq(reminderSettings.id, 1))
	if (!row) return DEFAULT_REMINDER_SETTINGS
	return { incompleteFirstDays: row.incompleteFirstDays, incompleteSecondDays: row.incompleteSecondDays, incompleteCloseDays: row.incompleteCloseDays, draftDays: row.draftDays }
}

export async function saveReminderSettings(db: Database, settings: ReminderSettings, userId: number): Promise<void> {
	await db
		.insert(reminderSettings)
		.values({ id: 1, ...settings, updatedBy: userId })
		.onConflictDoUpdate({ target: reminderSettings.id, set: { ...settings, updatedBy: userId, updatedAt: sql`now()` } })
}

/** The settings in one sentence, counted as Arabic counts: «التذكير الأول بعد 3 أيام، …». */
export function describeReminderSettings(settings: ReminderSettings): string {
	const close =
		settings.incompleteCloseDays === null ? 'ولا يُغلق الطلب غير المكتمل تلقائياً' : `ويُغلق الطلب غير المكتمل تلقائياً بعد ${countOf(settings.incompleteCloseDays, days)} إن لم يستكمله المتقدم`
	return `يُذكَّر المتقدم بطلبه غير المكتمل مرتين: بعد ${countOf(settings.incompleteFirstDays, days)} وبعد ${countOf(settings.incompleteSecondDays, days)} من إعادته إليه، وبطلبه الذي لم يرسله بعد ${countOf(settings.draftDays, days)} من بدئه، ${close}.`
}

export interface RemindersRun {
	/** Reminders of incomplete cases sent. */
	incomplete: number
	/** Reminders of drafts sent. */
	drafts: number
	/** Incomplete cases closed unanswered. */
	closed: number
}

const iso = (date: Date) => sql`${date.toISOString()}::timestamptz`

// Written out with their table: in a select list Drizzle names a column alone, which inside a subquery on case_events would be that table's.
const caseIdColumn = sql.raw('"cases"."id"')
const changedAtColumn = sql.raw('"cases"."status_changed_at"')

/** Programmes whose incomplete cases staff may not close (the workflow table): the system does not either. */
const unclosableTypes = () => applicationDefinitions.filter((definition) => !canTransition(definition.kind, Status.Incomplete, Status.Closed, 'admin')).map((definition) => definition.type)

/** What is due for incomplete cases at `now`: the reminder's number (0, 1, 2), the one already sent since the case was sent back, whether it is to be closed. */
function incompleteDue(settings: ReminderSettings, now: Date) {
	const before = (daysAgo: number) => iso(new Date(now.getTime() - daysAgo * DAY_MS))
	const due = sql<number>`(case when ${changedAtColumn} <= ${before(settings.incompleteSecondDays)} then 2 when ${changedAtColumn} <= ${before(settings.incompleteFirstDays)} then 1 else 0 end)`
	const sent = sql<number>`coalesce((select max((e.data->>'n')::int) from case_events e where e.case_id = ${caseIdColumn} and e.kind = 'reminded' and e.data->>'event' = 'reminder:incomplete' and e.at >= ${changedAtColumn}), 0)`
	// Counted from the later of: sent back, the applicant's last change since (a section saved, a file added or removed).
	const answered = sql`coalesce((select max(e.at) from case_events e where e.case_id = ${caseIdColumn} and e.actor_id is null and e.kind in ('section_saved', 'file_added', 'file_removed') and e.at >= ${changedAtColumn}), ${changedAtColumn})`
	const unclosable = unclosableTypes()
	const close =
		settings.incompleteCloseDays === null
			? sql<boolean>`false`
			: sql<boolean>`(${answered} <= ${before(settings.incompleteCloseDays)}${unclosable.length ? sql` and ${notInArray(cases.type, unclosable)}` : sql``})`
	const where = and(eq(cases.status, Status.Incomplete), isNotNull(cases.submittedAt), isNull(cases.deletedAt), isNull(cases.purgedAt), sql`(${due} > ${sent} or ${close})`)
	return { due, sent, answered: answered.mapWith(cases.statusChangedAt), close, where }
}

/** Drafts due their one reminder at `now`. */
function draftDue(settings: ReminderSettings, now: Date): SQL | undefined {
	const dueAt = new Date(now.getTime() - settings.draftDays * DAY_MS)
	const oldest = new Date(dueAt.getTime() - DRAFT_REMINDER_WINDOW_DAYS * DAY_MS)
	return and(
		isNull(cases.submittedAt),
		isNull(cases.deletedAt),
		isNull(cases.purgedAt),
		// A walk-in's case staff are typing in is theirs, not the applicant's, to finish.
		eq(cases.paperIntake, false),
		// Only to a mobile a code proved: a stranger's drafts text nobody (docs/security.md#verified-mobile).
		verificationOn() ? isNotNull(cases.mobileVerifiedAt) : undefined,
		sql`${cases.createdAt} <= ${iso(dueAt)}`,
		sql`${cases.createdAt} > ${iso(oldest)}`,
		sql`not exists (select 1 from case_events e where e.case_id = ${caseIdColumn} and e.kind = 'reminded' and e.data->>'event' = 'reminder:draft')`,
	)
}

/** Locks the case for this transaction; false when another instance holds it (it is doing this case's work). */
async function lock(tx: Database, caseId: string): Promise<boolean> {
	const [row] = await tx.select({ id: cases.id }).from(cases).where(eq(cases.id, caseId)).for('update', { skipLocked: true })
	return Boolean(row)
}

type Outcome = { kind: 'reminded'; event: MessageEvent; n: number; values?: Partial<TemplateValues> } | { kind: 'closed' } | null

async function handleIncomplete(db: Database, settings: ReminderSettings, now: Date, caseId: string): Promise<Outcome> {
	return db.transaction(async (tx): Promise<Outcome> => {
		if (!(await lock(tx, caseId))) return null
		const due = incompleteDue(settings, now)
		const [state] = await tx
			.select({ status: cases.status, due: due.due, sent: due.sent, answered: due.answered, close: due.close })
			.from(cases)
			.where(and(eq(cases.id, caseId), due.where))
		if (!state) return null
		if (state.close) {
			// As a staff member's change to «مغلق» (app/cases/status-changes.server.ts changeStatus), by the
			// system: no actor, no message typed; the applicant is told by the outbox's own text.
			const closeDays = settings.incompleteCloseDays!
			await tx
				.update(cases)
				.set({ status: Status.Closed, statusChangedAt: sql`now()`, updatedAt: sql`now()`, reopened: null })
				.where(eq(cases.id, caseId))
			await tx.insert(caseEvents).values([
				{ caseId, actorId: null, kind: 'status_changed', note: `أُغلق تلقائياً: لم يستكمل المتقدم الطلب خلال ${countOf(closeDays, days)}.`, data: { from: state.status, to: Status.Closed } },
				{ caseId, actorId: null, kind: 'closed_unanswered', data: { days: closeDays } },
			])
			return { kind: 'closed' }
		}
		const n = Number(state.due)
		await tx.insert(caseEvents).values({ caseId, actorId: null, kind: 'reminded', data: { event: 'reminder:incomplete', n } })
		// The last day to complete it, when incomplete cases are closed: the message's «{التاريخ}» (left out otherwise).
		const closesAt = settings.incompleteCloseDays === null ? null : new Date(state.answered.getTime() + settings.incompleteCloseDays * DAY_MS)
		return { kind: 'reminded', event: 'reminder:incomplete', n, values: closesAt ? { date: formatDate(closesAt), smsDate: smsDay(closesAt) } : {} }
	})
}

async function handleDraft(db: Database, settings: ReminderSettings, now: Date, caseId: string): Promise<Outcome> {
	return db.transaction(async (tx): Promise<Outcome> => {
		if (!(await lock(tx, caseId))) return null
		const [state] = await tx
			.select({ id: cases.id })
			.from(cases)
			.where(and(eq(cases.id, caseId), draftDue(settings, now)))
		if (!state) return null
		await tx.insert(caseEvents).values({ caseId, actorId: null, kind: 'reminded', data: { event: 'reminder:draft', n: 1 } })
		return { kind: 'reminded', event: 'reminder:draft', n: 1 }
	})
}

/**
 * Sends the reminders due at `now`, and closes the incomplete cases left unanswered when the settings
 * say so. Due times are counted from `now`, never the database's clock, so a test's moved clock counts.
 */
export async function runReminders(db: Database, now: Date): Promise<RemindersRun> {
	const settings = await getReminderSettings(db)
	const run: RemindersRun = { incomplete: 0, drafts: 0, closed: 0 }

	const incomplete = await db.select({ id: cases.id, reference: cases.reference }).from(cases).where(incompleteDue(settings, now).where).orderBy(asc(cases.statusChangedAt)).limit(REMINDER_BATCH)
	for (const candidate of incomplete) {
		try {
			const outcome = await handleIncomplete(db, settings, now, candidate.id)
			if (!outcome) continue
			// Told once the claim has committed; notifyApplicant stores the message and never throws.
			if (outcome.kind === 'closed') {
				run.closed++
				await notifyApplicant(db, candidate.id, 'closed-unanswered', {}, null)
			} else {
				run.incomplete++
				await notifyApplicant(db, candidate.id, outcome.event, outcome.values, null)
			}
		} catch (error) {
			logger.error(`Reminders: case ${candidate.reference} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
		}
	}

	const drafts = await db.select({ id: cases.id, reference: cases.reference }).from(cases).where(draftDue(settings, now)).orderBy(asc(cases.createdAt)).limit(REMINDER_BATCH)
	for (const candidate of drafts) {
		try {
			const outcome = await handleDraft(db, settings, now, candidate.id)
			if (!outcome) continue
			run.drafts++
			await notifyApplicant(db, candidate.id, 'reminder:draft', {}, null)
		} catch (error) {
			logger.error(`Reminders: draft ${candidate.reference} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
		}
	}

	if (run.incomplete || run.drafts || run.closed) logger.info(`Reminders: ${run.incomplete} incomplete case(s) and ${run.drafts} draft(s) reminded, ${run.closed} incomplete case(s) closed unanswered`)
	return run
}
