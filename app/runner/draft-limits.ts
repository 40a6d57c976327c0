// How many new drafts one applicant may start (docs/security.md#rate-limits).
import type { ApplicationDef } from '#app/forms/definition.ts'
import type { SectionAnswers } from '#app/forms/schema.ts'
import { publicLimits, type LimitCheck } from '#app/http/ip-limit.server.ts'
import type { RateLimitRule } from '#app/http/rate-limit.server.ts'
import { applications, countOf } from '#app/text/arabic-count.ts'

/**
 * The limits on new drafts per applicant (publicLimits): its national ID or licence number and its
 * e-mail, as typed on the first step. Checked before a draft is made and counted once it is: a
 * refused or mistyped post never uses up a family's allowance.
 */
export function newDraftChecks(definition: ApplicationDef, values: SectionAnswers): LimitCheck[] {
	const first = definition.sections[0]!
	const label = (name: string | undefined, fallback: string) => first.fields.find((field) => field.name === name)?.label ?? fallback
	const value = (name: string | undefined) => (name ? String(values[name] ?? '').trim().toLowerCase() : '')
	const reason = (subject: string, rule: RateLimitRule) => `بلغ ${subject} الحد المسموح به من الطلبات الجديدة: ${countOf(rule.limit, applications)} في اليوم.`
	const { nationalId, email } = definition.applicant
	return [
		{ rule: publicLimits.startPerId, key: value(nationalId), reason: reason(`${label(nationalId, 'رقم الهوية')} هذا`, publicLimits.startPerId) },
		{ rule: publicLimits.startPerEmail, key: value(email), reason: reason('هذا البريد الإلكتروني', publicLimits.startPerEmail) },
	]
}
