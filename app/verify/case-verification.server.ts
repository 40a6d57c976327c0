// A case's private link opens only on a browser that proved the case's mobile with a code
// (docs/security.md#verified-mobile): a link forwarded, leaked or read over a shoulder is not enough.
import { and, eq, isNull } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { caseEvents, cases } from '#app/db/schema.ts'
import type { CaseRow } from '#app/cases/case-store.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { checkCode, sendCode, type CodeChecked, type CodeSent } from './codes.server.ts'

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

/**
 * A case's code goes to its own mobile, limited per mobile only: a per-ID limit would let whoever
 * knows an ID use up its owner's codes with drafts of their own (docs/security.md#rate-limits).
 */
export function sendCaseCode(db: Database, row: Pick<CaseRow, 'id' | 'mobile'>): Promise<CodeSent> {
	return sendCode(db, { purpose: 'case', subject: row.id, mobile: row.mobile, nationalId: '' })
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
