import { formatSaudiMobile } from '#app/utils/format.ts'
import type { FieldDef, SectionDef } from './definition.ts'
import type { SectionAnswers } from './schema.ts'

// Stored answers are normalised (numbers, +966 mobiles); forms show what people type.

function toFormValue(field: FieldDef, value: unknown): unknown {
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

/** The defaults of one new row of a group. */
export function rowDefaults(fields: readonly FieldDef[]): Record<string, unknown> {
	return rowValues(fields, undefined)
}
