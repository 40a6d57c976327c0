import { isGiven, type ApplicationDef, type Condition, type FieldDef, type FileSlot, type SectionDef, type Sensitive } from './definition.ts'

// When a field or a section is asked (definition.ts `when`). The same functions run in the
// browser, to show and hide a field as the applicant answers, and on the server, which drops the
// answers of what was not asked. A value from a form (a string) and a stored one compare alike.

export function conditionHolds(condition: Condition, answers: Readonly<Record<string, unknown>>): boolean {
	const value = answers[condition.field]
	if ('given' in condition) return isGiven(value) === condition.given
	if (Array.isArray(value)) return value.some((item) => condition.is.includes(String(item)))
	return value !== undefined && value !== null && condition.is.includes(String(value))
}

/** The condition a field is asked under: its own `when`, or an age asked only without a birth date. */
export function conditionOf(field: FieldDef): Condition | undefined {
	if (field.when) return field.when
	if (field.kind === 'age') return { field: field.birthDate, given: false }
	return undefined
}

/** Whether a field of a section (or row) is asked, given that section's (or row's) answers. */
export function isAsked(field: FieldDef, answers: Readonly<Record<string, unknown>>): boolean {
	const condition = conditionOf(field)
	return condition === undefined || conditionHolds(condition, answers)
}

type AnswersBySection = Readonly<Record<string, Readonly<Record<string, unknown>> | undefined>>

/** Whether a section is asked, given the answers saved so far. */
export function isSectionAsked(section: SectionDef, answers: AnswersBySection): boolean {
	return section.when === undefined || conditionHolds(section.when, answers[section.when.section] ?? {})
}

/**
 * The applicant's answer on the consent step (docs/product.md#privacy-and-consent): 'given',
 * 'declined', or null while not answered.
 */
export type Consent = 'given' | 'declined' | null

/** Whether a section or file slot is offered: one holding health or bank data only with consent given. */
export function isOffered(item: { sensitive?: Sensitive }, consent: Consent): boolean {
	return item.sensitive === undefined || consent === 'given'
}

/** A section's file slots offered to this applicant (a sensitive slot only with consent). */
export function offeredSlots(section: SectionDef, consent: Consent): FileSlot[] {
	return (section.files ?? []).filter((slot) => isOffered(slot, consent))
}

/** Whether a section holds health or bank data, in itself or in one of its file slots. */
export function holdsSensitive(section: SectionDef): boolean {
	return section.sensitive !== undefined || (section.files ?? []).some((slot) => slot.sensitive !== undefined)
}

/**
 * The sections asked of this applicant, in order: those whose `when` holds and, without consent
 * given, none holding health or bank data. A section holding other things beside a sensitive file
 * slot is still asked, without that slot (`offeredSlots`).
 */
export function askedSections(definition: ApplicationDef, answers: AnswersBySection, consent: Consent): SectionDef[] {
	return definition.sections.filter((section) => isSectionAsked(section, answers) && isOffered(section, consent))
}

/**
 * The section the consent step stands before: the first one asked (by its `when`) that holds health
 * or bank data; undefined when the form has none (the associations' and institutions' forms).
 */
export function consentAnchor(definition: ApplicationDef, answers: AnswersBySection): SectionDef | undefined {
	return definition.sections.find((section) => isSectionAsked(section, answers) && holdsSensitive(section))
}

/** Whole years from a birth date to a day (both yyyy-mm-dd): the age worked out, never asked. */
export function ageOn(birthDate: string, day: string): number {
	const [by, bm, bd] = birthDate.split('-').map(Number) as [number, number, number]
	const [y, m, d] = day.split('-').map(Number) as [number, number, number]
	return Math.max(0, y - by - (m < bm || (m === bm && d < bd) ? 1 : 0))
}
