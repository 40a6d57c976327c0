import { and, eq, isNull, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { caseEvents, cases, privacyNotices } from '#app/db/schema.ts'

// The consent step's record on the case (docs/product.md#privacy-and-consent). Kept apart from the
// notice's store, which reads the server's settings: this module is also what test fixtures use.
// The server writes the first notice on start (app/bootstrap.server.ts), so a consent always names
// a version there.

/** The consent step can no longer be answered: the case was sent or removed meanwhile. */
export class ConsentLockedError extends Error {}

/**
 * Records the applicant's answer on the consent step, with the time and the notice's current
 * version, and a line in the case's history. Only a case not yet sent: once sent, its answer stays
 * as it was sent (docs/product.md#privacy-and-consent). `actorId`: staff recording a paper applicant's answer.
 */
export async function saveConsent(db: Database, caseId: string, answer: 'given' | 'declined', actorId?: number): Promise<number | null> {
	return db.transaction(async (tx) => {
		const [updated] = await tx
			.update(cases)
			.set({
				consent: answer,
				consentAt: sql`now()`,
				consentNoticeVersion: sql`(select max(${privacyNotices.version}) from ${privacyNotices})`,
				updatedAt: sql`now()`,
			})
			.where(and(eq(cases.id, caseId), isNull(cases.submittedAt), isNull(cases.deletedAt)))
			.returning({ version: cases.consentNoticeVersion })
		if (!updated) throw new ConsentLockedError()
		await tx.insert(caseEvents).values({ caseId, kind: 'section_saved', actorId, data: { section: 'consent', consent: answer, noticeVersion: updated.version } })
		return updated.version
	})
}
