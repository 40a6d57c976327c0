import { formatDate, formatMoney, formatNumber, formatSaudiMobile, todayInRiyadh } from '#app/text/format.ts'
import { isOrphanChoice, type ApplicationDef, type FieldDef, type RowFieldDef, type SectionDef } from './definition.ts'
import { ageOn, isAsked } from './conditions.ts'
import type { SectionAnswers } from './schema.ts'
import { groupTotals, type TotalLine } from './totals.ts'

// Answers in words: the check-your-answers page, the staff case view, the printable report and
// the export columns all read a case through these.

export interface AnswerLine {
	label: string
	/** Empty when the applicant left it blank. */
	value: string
}

export interface AnswerGroup {
	label: string
	itemLabel: string
	rows: AnswerLine[][]
	/** The group's sums under its rows (a budget), each with its warning when it is off. */
	totals: TotalLine[]
}

export type Described = { kind: 'line'; line: AnswerLine } | { kind: 'group'; group: AnswerGroup }

export function describeValue(field: RowFieldDef, answers: Record<string, unknown>): string {
	const value = answers[field.name]
	if (value === undefined || value === null || value === '') return ''
	// A second bank saved without its account number (before such choices were dropped) was never an answer.
	if (isOrphanChoice(field, answers)) return ''
	switch (field.kind) {
		case 'money':
			return formatMoney(Number(value))
		case 'number':
		case 'age':
			return formatNumber(Number(value))
		case 'newPassword':
			return ''
		case 'date':
			return formatDate(String(value))
		case 'select':
		case 'radio':
			return field.options.find((option) => option.value === value)?.label ?? String(value)
		case 'checkbox':
			return value ? 'نعم' : 'لا'
		case 'checkboxes': {
			const chosen = (value as string[]).map((item) =>
				item === 'other' ? `${field.other?.label ?? 'أخرى'}: ${String(answers[`${field.name}Other`] ?? '')}` : (field.options.find((o) => o.value === item)?.label ?? item),
			)
			return chosen.join('، ')
		}
		case 'text':
			return field.format === 'mobile' ? formatSaudiMobile(String(value)) : String(value)
		case 'textarea':
			return String(value)
	}
}

/** Whether a field is shown with the answers: not a password, and asked (its `when` holds). */
const shown = (field: FieldDef, answers: Record<string, unknown>) => field.kind !== 'newPassword' && isAsked(field, answers)

function describeField(field: FieldDef, answers: SectionAnswers): Described {
	if (field.kind === 'group') {
		const stored = (answers[field.name] ?? []) as Record<string, unknown>[]
		// Every row has every column (a table's), a question not asked simply blank: its answer was dropped.
		const rows = stored.map((row) =>
			field.fields.map((sub) => ({
				label: sub.label,
				value: describeValue(sub, row),
			})),
		)
		return {
			kind: 'group',
			group: {
				label: field.label,
				itemLabel: field.itemLabel,
				rows,
				totals: groupTotals(field, stored),
			},
		}
	}
	if (field.kind === 'age' && typeof answers[field.birthDate] === 'string' && answers[field.birthDate]) {
		// Worked out from the birth date on the day it is read, so it is never stale.
		return { kind: 'line', line: { label: field.label, value: formatNumber(ageOn(answers[field.birthDate] as string, todayInRiyadh())) } }
	}
	return { kind: 'line', line: { label: field.label, value: describeValue(field, answers) } }
}

export function describeSection(section: SectionDef, answers: SectionAnswers | undefined): Described[] {
	const values = answers ?? {}
	// An age is shown whether it was asked or is worked out from the birth date.
	return section.fields.filter((field) => shown(field, values) || field.kind === 'age').map((field) => describeField(field, values))
}

/** Flat export columns (header, value) for one case: groups become «label 1 - sub-label». */
export function exportColumns(definition: ApplicationDef, answers: Readonly<Record<string, SectionAnswers | undefined>>): [string, string][] {
	return definition.sections.flatMap((section) =>
		describeSection(section, answers[section.key]).flatMap((item): [string, string][] =>
			item.kind === 'line'
				? [[item.line.label, item.line.value]]
				: item.group.rows.flatMap((row, index) => row.map((line): [string, string] => [`${item.group.itemLabel} ${index + 1} - ${line.label}`, line.value])),
		),
	)
}
