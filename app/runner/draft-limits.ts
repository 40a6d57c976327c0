// How many new drafts one applicant may start (docs/security.md#rate-limits).
import type { ApplicationDef } from '#app/forms/definition.ts'
import type { SectionAnswers } from '#app/forms/schema.ts'
import { countDone, publicLimits, type LimitCheck } from '#app/http/ip-limit.server.ts'
import { withdrawDuplicateDraft, type CaseRow } from '#app/cases/case-store.server.ts'
import type { Database } from '#app/db/client.server.ts'
import type { RateLimitRule } from '#app/http/rate-limit.server.ts'
import { applications, countOf } from '#app/text/arabic-count.ts'

/**
 * The limits on new drafts per applicant (publicLimits): its national ID or licence number and its
 * e-mail, as typed on the first step. Checked before a draft is made and counted once it is the
 * applicant's: at the first save with codes off, once its mobile is proven with codes on (a stranger
 * who knows an ID cannot use up its owner's allowance with drafts nobody proved). A refused or
 * mistyped post never uses up a family's allowance.
 */
export function newDraftChecks(definition: ApplicationDef, values: SectionAnswers): LimitCheck[] {
	const { nationalId, email } = definition.applicant
	const value = (name: string | undefined) => (name ? String(values[name] ?? '') : '')
	return draftChecks(definition, { nationalId: value(nationalId), email: value(email) })
}

/** The same limits for a draft already made, from its columns. */
export function draftChecks(definition: ApplicationDef, applicant: { nationalId: string; email: string }): LimitCheck[] {
	const first = definition.sections[0]!
	const label = (name: string | undefined, fallback: string) => first.fields.find((field) => field.name === name)?.label ?? fallback
	const reason = (subject: string, rule: RateLimitRule) => `بلغ ${subject} الحد المسموح به من الطلبات الجديدة: ${countOf(rule.limit, applications)} في اليوم.`
	return [
		{ rule: publicLimits.startPerId, key: applicant.nationalId.trim().toLowerCase(), reason: reason(`${label(definition.applicant.nationalId, 'رقم الهوية')} هذا`, publicLimits.startPerId) },
		{ rule: publicLimits.startPerEmail, key: applicant.email.trim().toLowerCase(), reason: reason('هذا البريد الإلكتروني', publicLimits.startPerEmail) },
	]
}

/**
 * A draft's mobile proven for the first time, wherever its code was typed (its verify page, or the
 * lookup's «إكمال الطلب»): only now is the draft its applicant's (docs/security.md#verified-mobile).
 * An open case of the same ID with this very mobile is told to them, and the draft goes
 * ('duplicate'); otherwise the draft counts against its ID and e-mail. A case already sent: nothing.
 */
export async function claimProvenDraft(db: Database, definition: ApplicationDef, row: CaseRow): Promise<'duplicate' | 'claimed'> {
	if (row.submittedAt) return 'claimed'
	if (await withdrawDuplicateDraft(db, row)) return 'duplicate'
	await countDone(db, draftChecks(definition, row))
	return 'claimed'
}
