import type { Database } from '#app/db/client.server.ts'
import type { PublicUser } from '#app/domain/staff-users.server.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { getNotifier } from '#app/notify/notifier.server.ts'
import { recordNotified } from './case-decisions.server.ts'
import { rotateResumeToken, type CaseRow } from './case-store.server.ts'
import { statusInfo } from '#app/cases/case-statuses.ts'
import { privateLink } from './tokens.server.ts'
import { logger } from '#app/utils/log.server.ts'

/**
 * Tells the applicant their case changed status: by e-mail when they gave one and mail works, and
 * by SMS. Only the hash of their private link is kept, so the message carries a new link, which
 * replaces the old one only once it has reached them (app/cases/case-store.server.ts
 * `rotateResumeToken`). Recorded in the history either way; never fails the staff's action.
 *
 * Sent once the decision is committed, never inside its transaction: a slow gateway must not hold
 * the case's lock, and a failed message must not undo the decision. The new link and the record of
 * what was sent are then written together, in one transaction.
 */
export async function notifyStatusChange(
	db: Database,
	request: Request,
	row: CaseRow,
	change: { to: number; message?: string; messageOnly?: boolean },
	actor: Pick<PublicUser, 'id'>,
): Promise<{ email: boolean; sms: boolean }> {
	const definition = findDefinition(row.type)
	const status = statusInfo(change.to)
	let sent = { email: false, sms: false }
	try {
		await rotateResumeToken(db, row, async (token) => {
			sent = await getNotifier().sendStatusUpdate({
				email: row.email,
				mobile: row.mobile,
				reference: row.reference,
				formTitle: definition?.title ?? '',
				statusName: status.name,
				next: status.next,
				applicantMessage: change.message,
				messageOnly: change.messageOnly,
				link: privateLink(token),
			})
			return sent.email || sent.sms
		}, (tx) => recordNotified(tx, row.id, sent, actor))
	} catch (error) {
		logger.error(`[notify] status update of ${row.reference} failed: ${(error as Error).message}`)
	}
	return sent
}
