import { and, asc, desc, eq, inArray, lte } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { caseEvents, caseMessages, cases, type Reopened } from '#app/db/schema.ts'
import { statusInfo } from '#app/cases/case-statuses.ts'
import { getFoundationInfo } from '#app/domain/foundation-details.server.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { getEnv, publicOrigin } from '#app/utils/env.server.ts'
import { logger } from '#app/utils/log.server.ts'
import { now as clockNow } from '#app/utils/clock.server.ts'
import { deliverMail, type MailResult } from './mail.server.ts'
import { templateMail } from './messages.ts'
import { getNotifier, getSmsDriver } from './notifier.server.ts'
import { maskMobile, type SmsResult } from './sms.server.ts'
import { templateOf } from './template-store.server.ts'
import { messageEvent, renderMessage, type Channel, type MessageEvent, type TemplateValues } from './templates.ts'

// The outbox (docs/decisions/016-messages-and-verified-mobile.md, docs/product.md#messages): every
// message about a case is a `case_messages` row with its delivery state. It is tried at once; a
// failure worth retrying is tried again by the scheduler (`deliverDue`) after 1 min, 5 min, 30 min
// and 2 h, and the fifth failure, or a refusal that trying again cannot mend, leaves it `failed`
// with its reason, for staff to send again. A stored message holds no secret: its links go to the
// lookup, where the applicant gets in with a code sent to their mobile.

export type CaseMessageRow = typeof caseMessages.$inferSelect

/** Waits after the 1st, 2nd, 3rd and 4th failure; the 5th is final. */
export const RETRY_AFTER_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000] as const
export const MAX_ATTEMPTS = RETRY_AFTER_MS.length + 1

/**
 * How long a message being tried is held from any other instance: longer than any driver waits for
 * its provider (SMS 10 s, SMTP about 40 s). A message whose instance stopped mid-try goes out again
 * after it, which may send it twice; without it, it would never go.
 */
const LEASE_MS = 5 * 60_000

/** How many due messages one `deliverDue` claims at a time, and tries at most. */
const CLAIM = 20
const MAX_PER_RUN = 200

/** The lookup's address, the only link a stored message carries to an applicant. */
export const lookupLink = () => `${publicOrigin()}/apply/status`

const maskEmail = (email: string) => email.replace(/^(.).*@/, '$1…@')

type Delivery = SmsResult | MailResult

async function send(message: CaseMessageRow): Promise<Delivery> {
	try {
		if (message.channel === 'sms') return await getSmsDriver().deliver(message.recipient, message.body)
		const mail = getNotifier().mail
		if (!mail) return { ok: false, provider: 'smtp', reason: 'no mail transport configured', retry: false }
		const result = await deliverMail(mail, message.recipient, templateMail(message.subject, message.body))
		if (!result.ok) logger.error(`[notify] e-mail ${message.event} to ${maskEmail(message.recipient)} failed: ${result.reason}`)
		return result
	} catch (error) {
		// The drivers never throw; one that does is treated as no answer.
		logger.error(`[notify] ${message.channel} driver failed for ${message.channel === 'sms' ? maskMobile(message.recipient) : maskEmail(message.recipient)}: ${(error as Error).message}`)
		return { ok: false, provider: message.channel === 'sms' ? 'sms' : 'smtp', reason: `driver error: ${(error as Error).message}`.slice(0, 300), retry: true }
	}
}

/** Tries one message its caller holds (just queued, or claimed) and records what became of it. */
async function attempt(db: Database, message: CaseMessageRow, now: Date): Promise<CaseMessageRow> {
	const result = await send(message)
	const attempts = message.attempts + 1
	const outcome: Partial<CaseMessageRow> = result.ok
		? { status: 'sent', sentAt: now, provider: result.provider, providerRef: result.ref ?? null, nextAttemptAt: null, lastError: null }
		: result.retry && attempts < MAX_ATTEMPTS
			? { status: 'pending', provider: result.provider, lastError: result.reason, nextAttemptAt: new Date(now.getTime() + RETRY_AFTER_MS[attempts - 1]!) }
			: { status: 'failed', provider: result.provider, lastError: result.reason, nextAttemptAt: null }
	const [updated] = await db
		.update(caseMessages)
		.set({ ...outcome, attempts })
		.where(eq(caseMessages.id, message.id))
		.returning()
	return updated ?? { ...message, ...outcome, attempts }
}

interface Draft {
	channel: Channel
	recipient: string
	subject: string
	body: string
}

/** Stores the messages, held by this instance while it tries them at once. */
async function queueAndSend(db: Database, caseId: string, event: MessageEvent, drafts: Draft[], actor: { id: number } | null | undefined): Promise<CaseMessageRow[]> {
	if (!drafts.length) return []
	const held = new Date(clockNow().getTime() + LEASE_MS)
	const rows = await db
		.insert(caseMessages)
		.values(drafts.map((draft) => ({ caseId, event, ...draft, status: 'pending' as const, nextAttemptAt: held, createdBy: actor?.id ?? null })))
		.returning()
	return Promise.all(rows.map((row) => attempt(db, row, clockNow())))
}

type CaseRow = typeof cases.$inferSelect

/** «بيانات الأسرة»، «صورة الهوية»: what a case sent back as incomplete asks for, by title. */
function reopenedTitles(row: CaseRow): string {
	const reopened: Reopened | null = row.reopened
	if (!reopened) return 'ما تطلبه المؤسسة'
	const definition = findDefinition(row.type)
	const sections = reopened.sections.map((key) => definition?.sections.find((section) => section.key === key)?.title ?? key)
	const slots = reopened.slots.map((slot) => definition?.sections.flatMap((section) => section.files ?? []).find((file) => file.slot === slot)?.label ?? slot)
	const titles = [...sections, ...slots]
	// A case sent back with a message alone names no part: the message says what.
	return titles.length ? titles.map((title) => `«${title}»`).join('، ') : 'ما تطلبه المؤسسة'
}

/** What a case says of itself in a message: no more than the message needs (never its ID, health or bank data). */
function caseValues(row: CaseRow, event: MessageEvent): Partial<TemplateValues> {
	const status = event.startsWith('status:') ? Number(event.slice('status:'.length)) : row.status
	return {
		name: row.applicantName,
		reference: row.reference,
		programme: findDefinition(row.type)?.title ?? '',
		status: statusInfo(status).name,
		link: lookupLink(),
		sections: reopenedTitles(row),
	}
}

/**
 * Tells the applicant of an event on their case: an SMS to the case's mobile, and an e-mail when
 * they gave one and mail is configured, in the staff's wording or the default; each stored, then
 * tried at once (within the drivers' timeouts). Resolves with the rows as they stand after that
 * first try; never throws, so a staff member's action never fails because a provider is down.
 */
export async function notifyApplicant(
	db: Database,
	caseId: string,
	event: MessageEvent,
	values: Partial<TemplateValues> = {},
	actor: { id: number } | null = null,
): Promise<CaseMessageRow[]> {
	try {
		const definition = messageEvent(event)
		if (!definition) throw new Error(`unknown message event ${event}`)
		if (definition.audience === 'foundation') return await notifyFoundation(db, caseId, actor)
		const [row] = await db.select().from(cases).where(eq(cases.id, caseId))
		// Retention destroyed the applicant's details: there is nobody to tell.
		if (!row || row.purgedAt) return []
		const rendered = renderMessage(await templateOf(db, definition), { ...caseValues(row, event), ...values })
		const drafts: Draft[] = []
		if (definition.channels.includes('sms') && row.mobile) drafts.push({ channel: 'sms', recipient: row.mobile, subject: '', body: rendered.sms })
		if (definition.channels.includes('email') && row.email && getNotifier().mail) drafts.push({ channel: 'email', recipient: row.email, subject: rendered.subject, body: rendered.body })
		return await queueAndSend(db, caseId, event, drafts, actor)
	} catch (error) {
		logger.error(`[notify] the ${event} message of case ${caseId} was not queued: ${(error as Error).message}`)
		return []
	}
}

/**
 * Tells the foundation of a new application by e-mail (NOTIFY_EMAIL, else its own address), kept
 * with the case's messages like any other; nothing when mail is not configured. Never throws.
 */
export async function notifyFoundation(db: Database, caseId: string, actor: { id: number } | null = null): Promise<CaseMessageRow[]> {
	try {
		const definition = messageEvent('new-submission')!
		const [row] = await db.select().from(cases).where(eq(cases.id, caseId))
		if (!row) return []
		if (!getNotifier().mail) {
			logger.info(`[notify] no mail transport configured: the foundation was not e-mailed about the new application ${row.reference}`)
			return []
		}
		const to = getEnv().NOTIFY_EMAIL ?? (await getFoundationInfo(db)).email
		if (!to) return []
		const values = { ...caseValues(row, 'new-submission'), link: `${publicOrigin()}/admin/cases/${row.reference}` }
		const rendered = renderMessage(await templateOf(db, definition), values)
		return await queueAndSend(db, caseId, 'new-submission', [{ channel: 'email', recipient: to, subject: rendered.subject, body: rendered.body }], actor)
	} catch (error) {
		logger.error(`[notify] the new-application e-mail of case ${caseId} was not queued: ${(error as Error).message}`)
		return []
	}
}

/**
 * Tries the pending messages due by `now` (the scheduler's clock), at most MAX_PER_RUN a call. Each is
 * claimed first, its next try moved past the lease in the statement that picks it (skipping rows
 * another instance has locked), so two instances never try one message at once. Resolves with how
 * many were tried.
 */
export async function deliverDue(db: Database, now: Date): Promise<number> {
	let tried = 0
	while (tried < MAX_PER_RUN) {
		const due = db
			.select({ id: caseMessages.id })
			.from(caseMessages)
			.where(and(eq(caseMessages.status, 'pending'), lte(caseMessages.nextAttemptAt, now)))
			.orderBy(asc(caseMessages.nextAttemptAt))
			.limit(CLAIM)
			.for('update', { skipLocked: true })
		const claimed = await db
			.update(caseMessages)
			.set({ nextAttemptAt: new Date(now.getTime() + LEASE_MS) })
			.where(and(inArray(caseMessages.id, due), eq(caseMessages.status, 'pending')))
			.returning()
		if (!claimed.length) break
		await Promise.all(claimed.map((message) => attempt(db, message, now)))
		tried += claimed.length
	}
	return tried
}

/**
 * Sends a failed (or sent) message again: a new row with its text, to the case's mobile or e-mail as
 * they are now (staff may have corrected a wrong number), a case event `message_resent`, and a try at
 * once. Null when there is no such message or it is still pending.
 */
export async function resendMessage(db: Database, messageId: string, actor: { id: number }): Promise<CaseMessageRow | null> {
	const [old] = await db.select().from(caseMessages).where(eq(caseMessages.id, messageId))
	if (!old || old.status === 'pending') return null
	const [row] = old.caseId && messageEvent(old.event)?.audience !== 'foundation' ? await db.select({ mobile: cases.mobile, email: cases.email }).from(cases).where(eq(cases.id, old.caseId)) : []
	const recipient = (old.channel === 'sms' ? row?.mobile : row?.email) || old.recipient
	const copy = await db.transaction(async (tx) => {
		const [queued] = await tx
			.insert(caseMessages)
			.values({ caseId: old.caseId, event: old.event, channel: old.channel, recipient, subject: old.subject, body: old.body, status: 'pending', nextAttemptAt: new Date(clockNow().getTime() + LEASE_MS), createdBy: actor.id })
			.returning()
		if (old.caseId) await tx.insert(caseEvents).values({ caseId: old.caseId, actorId: actor.id, kind: 'message_resent', data: { event: old.event, channel: old.channel, message: old.id, copy: queued!.id } })
		return queued!
	})
	return attempt(db, copy, clockNow())
}

/** A case's messages, newest first, for the staff case view. */
export function listCaseMessages(db: Database, caseId: string): Promise<CaseMessageRow[]> {
	return db.select().from(caseMessages).where(eq(caseMessages.caseId, caseId)).orderBy(desc(caseMessages.createdAt), desc(caseMessages.id))
}
