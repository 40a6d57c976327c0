import type { ApplicationDef, Sensitive } from '#app/forms/definition.ts'
import { holdsSensitive, type Consent } from '#app/forms/conditions.ts'
import { formatDate } from '#app/text/format.ts'
import { countOf, type CountedNoun } from '#app/text/arabic-count.ts'

// The consent step's words and rules, shared by the applicant's pages and staff's case view and
// report (docs/product.md#privacy-and-consent).

/** What the case row says about consent. */
export interface ConsentRecord {
	consent: 'given' | 'declined' | null
	consentAt: Date | null
	consentNoticeVersion: number | null
	submittedAt: Date | null
}

/**
 * The consent the journey goes by. A case sent before the consent step existed has no answer: its
 * health and bank sections were collected under the form of the time and stay as they were (shown
 * to staff as «سُجّل قبل طلب الموافقة»), so such a case, sent back as incomplete, loses nothing.
 */
export function journeyConsent(row: Pick<ConsentRecord, 'consent' | 'submittedAt'>): Consent {
	return row.consent ?? (row.submittedAt !== null ? 'given' : null)
}

/** The kinds of sensitive data a form asks for, in the order the words name them. */
export function sensitiveKinds(definition: ApplicationDef): Sensitive[] {
	const kinds = new Set(definition.sections.flatMap((section) => [section.sensitive, ...(section.files ?? []).map((slot) => slot.sensitive)]))
	return (['health', 'bank'] as const).filter((kind) => kinds.has(kind))
}

/** «البيانات الصحية والمالية», «البيانات المالية»: what the consent is for, in this form. */
export function sensitiveDataName(definition: ApplicationDef): string {
	const kinds = sensitiveKinds(definition)
	if (kinds.length === 2) return 'البيانات الصحية والمالية'
	return kinds[0] === 'health' ? 'البيانات الصحية' : 'البيانات المالية'
}

/** The consent step's title, as the overview, the check page and the staff view show it. */
export const consentTitle = (definition: ApplicationDef) => `الموافقة على ${sensitiveDataName(definition)}`

/** Whether a form has a consent step at all. */
export const asksConsent = (definition: ApplicationDef) => definition.sections.some(holdsSensitive)

/** What the sections and files held back without consent are, by title: «البيانات البنكية»، «التقرير الطبي». */
export function sensitiveItems(definition: ApplicationDef): string[] {
	return definition.sections.flatMap((section) => (section.sensitive ? [section.title] : (section.files ?? []).filter((slot) => slot.sensitive).map((slot) => slot.label)))
}

/**
 * The consent answer in one line for staff (case view, report) and the applicant's check page:
 * «أُعطيت في … (إشعار الخصوصية، الإصدار N)», «لم يوافق: لم تُجمع هذه البيانات», or for a case sent
 * before the step existed «سُجّل قبل طلب الموافقة».
 */
export function describeConsent(record: ConsentRecord): string {
	if (record.consent === 'given') {
		const when = record.consentAt ? ` في ${formatDate(record.consentAt)}` : ''
		const version = record.consentNoticeVersion ? ` (إشعار الخصوصية، الإصدار ${record.consentNoticeVersion})` : ''
		return `أُعطيت${when}${version}`
	}
	if (record.consent === 'declined') return 'لم يوافق: لم تُجمع هذه البيانات'
	return record.submittedAt ? 'سُجّل قبل طلب الموافقة' : 'لم يُجب بعد'
}

const months: CountedNoun = { one: 'شهر واحد', two: 'شهرين', few: 'أشهر', many: 'شهراً', other: 'شهر' }

/** «24 شهراً»: how long a closed case keeps its data (RETENTION_MONTHS). */
export const monthsCount = (count: number) => countOf(count, months)
