// What the benchmarks that drive the application form over HTTP share (scripts/bench-apply.ts,
// scripts/bench-verify.ts): an applicant's answers from the programme's definition, a form's inputs
// as a browser without JavaScript posts them, the server's own time of an answer, what a refused
// page says.
import type { ApplicationDef, FieldDef } from '#app/forms/definition.ts'
import { sampleAnswers, type SampleAnswers } from '#app/forms/sample-answers.ts'

/**
 * The applicant's answers: the definition's full sample for seed = the applicant's number, or the
 * next seed along when that national ID is taken (a second open case with it would be refused).
 * `usedIds` holds the national IDs given out so far in this run (one set per database).
 */
export function answersFor(definition: ApplicationDef, index: number, usedIds: Set<string>): { answers: SampleAnswers; nationalId: string } {
	// The identity may be asked after the first step (an institution's permit number).
	const holder = definition.sections.find((section) => section.fields.some((field) => field.name === definition.applicant.nationalId))!.key
	for (let attempt = 0; ; attempt++) {
		const answers = sampleAnswers(definition, { seed: index + attempt * 1_000_003, variant: 'full' })
		const nationalId = String(answers[holder]?.[definition.applicant.nationalId] ?? '')
		if (!usedIds.has(nationalId)) {
			usedIds.add(nationalId)
			return { answers, nationalId }
		}
	}
}

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value))

/**
 * A form's inputs as a browser without JavaScript posts them: every text input and select (empty
 * ones as ''), ticked radios and checkboxes only, a group's rows as `name[i].field` (Conform).
 */
export function inputsOf(fields: readonly FieldDef[], values: Record<string, unknown>, prefix = ''): [string, string][] {
	const inputs: [string, string][] = []
	for (const field of fields) {
		const name = `${prefix}${field.name}`
		const value = values[field.name]
		switch (field.kind) {
			case 'group': {
				const rows = (value ?? []) as Record<string, unknown>[]
				rows.forEach((row, index) => inputs.push(...inputsOf(field.fields, row, `${name}[${index}].`)))
				break
			}
			case 'checkboxes':
				for (const chosen of (value ?? []) as unknown[]) inputs.push([name, text(chosen)])
				if (field.other) inputs.push([`${name}Other`, text(values[`${field.name}Other`])])
				break
			case 'checkbox':
				if (value === true) inputs.push([name, 'on'])
				break
			case 'newPassword':
				inputs.push([name, text(value)], [`${name}Confirm`, text(values[`${field.name}Confirm`])])
				break
			case 'radio':
				if (value !== undefined && value !== '') inputs.push([name, text(value)])
				break
			default:
				inputs.push([name, text(value)])
		}
	}
	return inputs
}

/** A browser without JavaScript sends every input, the empty honeypot included. */
export function form(fields: Record<string, string>, extra: [string, string][] = []): URLSearchParams {
	const body = new URLSearchParams({ website: '', ...fields })
	for (const [name, value] of extra) body.append(name, value)
	return body
}

export const plain = (html: string) =>
	html
		.replace(/<script[\s\S]*?<\/script>/g, ' ')
		.replace(/<[^>]+>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim()

/** What a person would read first on a refused page: its title and error summary, not the site header. */
export function excerptOf(text: string): string {
	const title = text.match(/<title>([\s\S]*?)<\/title>/)?.[1]
	const alert = text.match(/<div[^>]*role="alert"[^>]*>([\s\S]*?)<\/div>/)?.[1]
	const summary =
		title || alert
			? [title, alert]
					.filter(Boolean)
					.map((part) => plain(part!))
					.join(' — ')
			: plain(text)
	return summary.slice(0, 240)
}

/** The server's own time to its headers (Server-Timing: app;dur=…), NaN if it sent none. */
export const serverTime = (response: Response) => Number(response.headers.get('server-timing')?.match(/(?:^|,)\s*app;dur=([\d.]+)/)?.[1] ?? NaN)

/** The p-th percentile of values sorted ascending (nearest rank); NaN for none. */
export { percentile } from './case-list-searches.ts'

/** A duration in ms with one decimal, '-' for none. */
export const ms = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(1))

/** The values that are numbers, ascending. */
export const sortedOf = (values: number[]) => values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b)
