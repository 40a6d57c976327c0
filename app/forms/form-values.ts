import { formatSaudiMobile } from '#app/text/format.ts'
import { calendarFieldName, calendarOf, typedDate } from './calendar-date.ts'
import type { FieldDef, SectionDef } from './definition.ts'
import type { SectionAnswers } from './schema.ts'

// Stored answers are normalised (numbers, +966 mobiles); forms show what people type.

function toFormValue(field: FieldDef, value: unknown): unknown {
	// Only a password's hash is kept, and it never goes back to the browser.
	if (field.kind === 'newPassword') return undefined
	if (value === undefined || value === null) {
		return 'default' in field ? field.default : undefined
	}
	if (field.kind === 'group') {
		return (value as Record<string, unknown>[]).map((row) => rowValues(field.fields, row))
	}
	if (field.kind === 'text' && field.format === 'mobile') return formatSaudiMobile(String(value))
	if (typeof value === 'number') return String(value)
	return value
}

function rowValues(fields: readonly FieldDef[], answers: Record<string, unknown> | undefined): Record<string, unknown> {
	const values: Record<string, unknown> = {}
	for (const field of fields) {
		values[field.name] = toFormValue(field, answers?.[field.name])
		if (field.kind === 'date' && field.hijri) {
			// Shown back as typed, in the calendar chosen; a new one starts on Hijri, as on the ID card.
			const kept = answers?.[field.name]
			const calendar = typeof kept === 'string' ? calendarOf(answers?.[calendarFieldName(field.name)]) : 'hijri'
			if (typeof kept === 'string') values[field.name] = typedDate(kept, calendar)
			values[calendarFieldName(field.name)] = calendar
		}
		if (field.kind === 'checkboxes' && field.other) values[`${field.name}Other`] = answers?.[`${field.name}Other`]
	}
	return values
}

/** The values a section's form starts with: what was saved, else the definition's defaults. */
export function formDefaults(section: SectionDef, saved: SectionAnswers | undefined): Record<string, unknown> {
	const values = rowValues(section.fields, saved)
	for (const field of section.fields) {
		// A group of fixed size starts with that many empty rows, each with its defaults.
		if (field.kind === 'group' && field.min === field.max && !saved) {
			values[field.name] = Array.from({ length: field.max }, () => rowValues(field.fields, undefined))
		}
	}
	return values
}

/** The values one row's form starts with: a saved row being changed, else a new row's defaults. */
export function rowDefaults(fields: readonly FieldDef[], saved?: Record<string, unknown>): Record<string, unknown> {
	return rowValues(fields, saved)
}
