// What staff actions tell the applicant, for every caller (one case, the committee's batch, a bulk
// change, finance's payments): one fan-out, after the action's transaction has committed, a few at
// a time. Each notice is sent once; a provider's failure changes nothing recorded (app/notify/outbox.server.ts).
import type { Database } from '#app/db/client.server.ts'
import type { PublicUser } from '#app/domain/staff-users.server.ts'
import { notifyPaymentBounced, notifyPaymentMade, notifyStatusChange, notifyVisitScheduled, type Notice } from '#app/notify/case-notices.server.ts'

/** How many messages go out at once: a mail server or SMS gateway throttles a burst of 200. */
export const TELL_AT_ONCE = 5

function tell(db: Database, notice: Notice, actor: Pick<PublicUser, 'id'>) {
	switch (notice.kind) {
		case 'status':
			return notifyStatusChange(db, { id: notice.caseId }, { to: notice.to, message: notice.message, messageOnly: notice.messageOnly }, actor)
		case 'visit':
			return notifyVisitScheduled(db, notice.caseId, notice, actor)
		case 'payment-made':
			return notifyPaymentMade(db, notice.caseId, notice, actor)
		case 'payment-bounced':
			return notifyPaymentBounced(db, notice.caseId, notice.reason, actor, notice.final)
	}
}

/**
 * Tells each applicant their notice, in order, `TELL_AT_ONCE` at a time. Called once the action has
 * committed (never inside its transaction: a slow gateway must not hold the case's lock).
 */
export async function tellApplicants(db: Database, notices: readonly Notice[], actor: Pick<PublicUser, 'id'>): Promise<void> {
	for (let start = 0; start < notices.length; start += TELL_AT_ONCE) {
		await Promise.all(notices.slice(start, start + TELL_AT_ONCE).map((notice) => tell(db, notice, actor)))
	}
}
