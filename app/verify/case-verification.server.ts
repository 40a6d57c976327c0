// A case's private link opens only on a browser that proved the case's mobile with a code
// (docs/security.md#verified-mobile): a link forwarded, leaked or read over a shoulder is not enough.
import { and, eq, isNull, lt, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { attachments, caseEvents, cases } from '#app/db/schema.ts'
import { logger } from '#app/utils/log.server.ts'
import type { CaseRow } from '#app/cases/case-store.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { checkCode, codeComesBy, sendCode, type CodeChecked, type CodeSent } from './codes.server.ts'

/** On unless the operator turned it off (APPLICANT_VERIFICATION=off, with its risk documented). */
export function verificationOn(): boolean {
	return getEnv().APPLICANT_VERIFICATION === 'on'
}

/** +966512345234 → «05•••••234», as the applicant wrote it. */
export function maskedLocalMobile(mobile: string): string {
	const local = mobile.startsWith('+966') ? `0${mobile.slice(4)}` : mobile
	return local.length > 5 ? `${local.slice(0, 2)}${'•'.repeat(local.length - 5)}${local.slice(-3)}` : local
}

/** The same, isolated left to right for a plain-text message in Arabic (otherwise drawn «234•••••05»). */
export const isolatedMobile = (mobile: string) => `\u2066${maskedLocalMobile(mobile)}\u2069`

/** What a case's code sent says, in Arabic: sent now, or waiting for the SMS budget and coming by a time said. */
export function codeSentMessage(sent: Extract<CodeSent, { ok: true }>, mobile: string): string {
	if (sent.by) return `${codeComesBy(sent.by)} إلى جوالك ${isolatedMobile(mobile)}: اكتبه هنا حين يصل لتكمل طلبك.`
	return `أرسلنا رمز تحقق برسالة نصية إلى جوالك ${isolatedMobile(mobile)}: اكتبه هنا لتكمل طلبك.`
}

/**
 * A case's code goes to its own mobile, limited per mobile only: a per-ID limit would let whoever
 * knows an ID use up its owner's codes with drafts of their own (docs/security.md#rate-limits).
 */
export function sendCaseCode(db: Database, row: Pick<CaseRow, 'id' | 'mobile'>, address: string): Promise<CodeSent> {
	return sendCode(db, { purpose: 'case', subject: row.id, mobile: row.mobile, nationalId: '', address })
}

/**
 * Checks a code sent to the case's mobile. The first right code proves the mobile (and says so in
 * the case's history); `first` tells the caller to send what waited for it (the link by e-mail).
 */
export async function confirmCaseCode(db: Database, row: Pick<CaseRow, 'id' | 'mobile'>, code: string): Promise<CodeChecked | { ok: true; first: boolean }> {
	const checked = await checkCode(db, 'case', row.id, code)
	if (!checked.ok) return checked
	// The code went to the mobile the case has now: staff may have changed it since it was sent.
	if (checked.mobile !== row.mobile) return { ok: false, reason: 'expired' }
	return { ok: true, first: await proveMobile(db, row) }
}

/**
 * A code sent to `row.mobile` was typed (here or in the lookup): the case's mobile is proven, if it
 * was not yet, and its history says so. True when this was the first proof.
 */
export async function proveMobile(db: Database, row: Pick<CaseRow, 'id' | 'mobile'>): Promise<boolean> {
	return db.transaction(async (tx) => {
		const [proven] = await tx
			.update(cases)
			.set({ mobileVerifiedAt: new Date(), mobileVerifiedHow: 'code' })
			.where(and(eq(cases.id, row.id), isNull(cases.mobileVerifiedAt), eq(cases.mobile, row.mobile)))
			.returning({ id: cases.id })
		if (proven) await tx.insert(caseEvents).values({ caseId: row.id, kind: 'mobile_verified', data: { how: 'code' } })
		return Boolean(proven)
	})
}

/** A draft whose mobile no code proved goes this long after it was started (docs/security.md#verified-mobile). */
export const UNPROVEN_DRAFT_HOURS = 48

/**
 * Drafts started by visitors whose mobile no code proved within 48 hours, with no file (nothing can be
 * added before the code): deleted with their answers and history, a task of the scheduler. Nobody
 * owned them, and they held someone's ID and a mobile never shown to be theirs. With codes off no
 * draft is ever proven, so none goes. Resolves with how many went.
 */
export async function removeUnprovenDrafts(db: Database, now: Date): Promise<number> {
	if (!verificationOn()) return 0
	const gone = await db
		.delete(cases)
		.where(
			and(
				isNull(cases.submittedAt),
				isNull(cases.mobileVerifiedAt),
				eq(cases.paperIntake, false),
				isNull(cases.accountId),
				lt(cases.createdAt, new Date(now.getTime() - UNPROVEN_DRAFT_HOURS * 3600_000)),
				sql`not exists (select 1 from ${attachments} where ${attachments.caseId} = ${cases.id})`,
			),
		)
		.returning({ id: cases.id })
	if (gone.length) logger.info(`[verify] ${gone.length} draft(s) whose mobile was never proven removed after ${UNPROVEN_DRAFT_HOURS} hours`)
	return gone.length
}
