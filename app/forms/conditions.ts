import { isGiven, type ApplicationDef, type Condition, type FieldDef, type SectionDef } from './definition.ts'

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

/** The sections asked of this applicant, in order: the journey's steps. */
export function askedSections(definition: ApplicationDef, answers: AnswersBySection): SectionDef[] {
	return definition.sections.filter((section) => isSectionAsked(section, answers))
}

/** Whole years from a birth date to a day (both yyyy-mm-dd): the age worked out, never asked. */
export function ageOn(birthDate: string, day: string): number {
	const [by, bm, bd] = birthDate.split('-').map(Number) as [number, number, number]
	const [y, m, d] = day.split('-').map(Number) as [number, number, number]
	return Math.max(0, y - by - (m < bm || (m === bm && d < bd) ? 1 : 0))
}
