import type { Database } from '#app/db/client.server.ts'
import type { PublicUser } from '#app/domain/staff-users.server.ts'
import { notifyApplicant, type CaseMessageRow } from './outbox.server.ts'
import { isMessageEvent, smsDay } from './templates.ts'
import { formatClock, formatDate, formatMoney, formatWeekday } from '#app/text/format.ts'
import type { CaseRow } from '#app/cases/case-store.server.ts'

// What staff actions tell the applicant, through the outbox (outbox.server.ts): a staff action
// returns its notices, and app/casework/tell.server.ts (`tellApplicants`) sends each once the
// action's transaction has committed, never inside it (a slow gateway must not hold the case's
// lock, and a failed message must not undo the decision), and none fails the action.

/** One thing to tell one applicant: what a staff action's handler or a store function returns, and app/casework/tell.server.ts sends. */
export type Notice =
	/** The case moved to `to`; or, with `messageOnly`, staff wrote to the applicant without moving it. */
	| { kind: 'status'; caseId: string; to: number; message?: string; messageOnly?: boolean }
	/** A home visit planned: the day and the hour. */
	| { kind: 'visit'; caseId: string; visitOn: string; visitAt: string }
	/** Aid paid or delivered: the instalment's amount and day. */
	| { kind: 'payment-made'; caseId: string; amount: number; on: string }
	/** A transfer the bank returned, and why; `final`: not sent again (their aid was stopped), so no IBAN is asked for. */
	| { kind: 'payment-bounced'; caseId: string; reason: string; final?: true }

/**
 * Tells the applicant their case changed status (`status:N`), or that staff wrote to them without
 * changing it (`applicant-message`), with the staff's message when there is one. The message links
 * to the lookup, not to a private link: the applicant's link stays as it is.
 */
export function notifyStatusChange(db: Database, row: Pick<CaseRow, 'id'>, change: { to: number; message?: string; messageOnly?: boolean }, actor: Pick<PublicUser, 'id'>): Promise<CaseMessageRow[]> {
	const status = `status:${change.to}`
	const event = !change.messageOnly && isMessageEvent(status) ? status : 'applicant-message'
	return notifyApplicant(db, row.id, event, { staffMessage: change.message?.trim() ?? '' }, actor)
}

/** A home visit planned (app/cases/visits.server.ts): the day in both calendars and the hour. */
export function notifyVisitScheduled(db: Database, caseId: string, visit: { visitOn: string; visitAt: string }, actor: Pick<PublicUser, 'id'>): Promise<CaseMessageRow[]> {
	return notifyApplicant(
		db,
		caseId,
		'visit-scheduled',
		{ date: `${formatWeekday(visit.visitOn)} ${formatDate(visit.visitOn)}`, smsDate: smsDay(visit.visitOn, { weekday: true }), time: formatClock(visit.visitAt) },
		actor,
	)
}

/** Aid paid or delivered (app/aid/payments.server.ts): the instalment's amount and day. */
export function notifyPaymentMade(db: Database, caseId: string, payment: { amount: number; on: string }, actor: Pick<PublicUser, 'id'>): Promise<CaseMessageRow[]> {
	return notifyApplicant(db, caseId, 'payment-made', { amount: formatMoney(payment.amount), date: formatDate(payment.on), smsDate: smsDay(payment.on) }, actor)
}

/** The longest bank reason an SMS carries: with the longest values it stays within two parts (app/notify/templates.test.ts); the link says the rest. */
export const BOUNCE_REASON_SMS = 20

/**
 * A transfer the bank returned (app/aid/payments.server.ts reopenPayment): why, and a new IBAN asked
 * for on the link; `final` (their aid was stopped, nothing owed by transfer): that it is not sent again.
 */
export function notifyPaymentBounced(db: Database, caseId: string, reason: string, actor: Pick<PublicUser, 'id'>, final = false): Promise<CaseMessageRow[]> {
	const why = reason.replace(/\s+/g, ' ').trim()
	return notifyApplicant(db, caseId, final ? 'payment-bounced-final' : 'payment-bounced', { staffMessage: why.length <= BOUNCE_REASON_SMS ? why : '' }, actor)
}
