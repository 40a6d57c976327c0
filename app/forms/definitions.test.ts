import { describe, expect, test } from 'vitest'
import type { ApplicationDef, FieldDef, RowFieldDef, SectionDef } from './definition.ts'
import { canVisit, CHECK_STEP, completedSections, CONSENT_STEP } from '#app/cases/journey.ts'
import { applicationDefinitions } from './registry.ts'
import { isStaffSlot } from '#app/cases/staff-files.ts'
import { sampleAnswers, sampleFiles, type SampleVariant } from './sample-answers.ts'
import { sectionSchema } from './schema.ts'

// Invariants every application definition must keep, checked for each one in the registry, so a
// programme added there is covered without touching this file. Each check collects every problem
// it finds, so a failure lists all of them by section and field.

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
const variants: readonly SampleVariant[] = ['minimal', 'full']

const duplicates = (values: readonly string[]) => [...new Set(values.filter((value, index) => values.indexOf(value) !== index))]
const blank = (value: unknown) => typeof value !== 'string' || value.trim() === ''
const conditionOf = (item: unknown) => (item as { when?: { field?: unknown } }).when

/** Where a list of fields lives, for messages: «basic», «family › members». */
interface Container {
	where: string
	fields: readonly FieldDef[]
}

function containers(section: SectionDef): Container[] {
	return [
		{ where: section.key, fields: section.fields },
		...section.fields.flatMap((field) =>
			field.kind === 'group'
				? [
						{
							where: `${section.key} › ${field.name}`,
							fields: field.fields as readonly FieldDef[],
						},
					]
				: [],
		),
	]
}

/** The names a list of fields posts: each field's, and `${name}Other` beside a checkbox list with «other». */
const postedNames = (fields: readonly FieldDef[]) => fields.flatMap((field) => (field.kind === 'checkboxes' && field.other ? [field.name, `${field.name}Other`] : [field.name]))

/** Saved as the case store saves them: each section parsed by its schema. */
/** A password's hash as the server stores it in place of what was typed (sealPasswords in app/routes/apply/+applicant.server.ts). */
const STORED_HASH = 'scrypt$32768$8$1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaA'

/** Parsed answers as they are stored: a new password replaced by its hash. */
function asStored(section: SectionDef, values: Record<string, unknown>): Record<string, unknown> {
	const stored = { ...values }
	for (const field of section.fields) if (field.kind === 'newPassword' && field.name in stored) stored[field.name] = STORED_HASH
	return stored
}

function savedState(definition: ApplicationDef, variant: SampleVariant) {
	const answers = sampleAnswers(definition, { variant })
	const parsed = Object.fromEntries(
		Object.entries(answers).map(([key, values]) => {
			const section = definition.sections.find((candidate) => candidate.key === key)!
			return [key, asStored(section, sectionSchema(section).parse(values) as Record<string, unknown>)]
		}),
	)
	const fileCounts = Object.fromEntries(
		sampleFiles(definition)
			.filter((file) => file.required)
			.map((file) => [file.slot, 1]),
	)
	return { answers, parsed, fileCounts }
}

const cases = applicationDefinitions.map((definition) => [definition.type, definition] as const)

test('the registry holds at least one definition, each type once', () => {
	expect(cases.length).toBeGreaterThan(0)
	expect(duplicates(applicationDefinitions.map((definition) => definition.type))).toEqual([])
})

describe.each(cases)('%s', (type, definition) => {
	test('type is a unique URL slug; titles, summary and kind are set', () => {
		const problems: string[] = []
		if (!SLUG.test(type)) problems.push(`type "${type}" is not a URL slug`)
		if (applicationDefinitions.filter((other) => other.type === type).length !== 1) problems.push(`type "${type}" is used by more than one definition`)
		for (const key of ['title', 'reportTitle', 'summary', 'acknowledgement'] as const) if (blank(definition[key])) problems.push(`${key} is empty`)
		if (definition.kind !== 'individual' && definition.kind !== 'association') problems.push(`kind "${String(definition.kind)}" is neither individual nor association`)
		if (!definition.sections.length) problems.push('no sections')
		expect(problems).toEqual([])
	})

	test("the applicant fields are fields of one section (a person's of the first), with the right formats", () => {
		const problems: string[] = []
		// A person is known from the first step (the duplicate rule and the lookup need it at once);
		// an institution's name and permit may follow its user's details.
		const sections = definition.kind === 'individual' ? definition.sections.slice(0, 1) : definition.sections
		const first = definition.sections[0]
		const fieldOf = (name: string) => sections.flatMap((section) => section.fields).find((field) => field.name === name && field.kind !== 'group')
		const { applicant } = definition
		for (const role of ['name', 'nationalId', 'mobile', 'email', 'nationality', 'specialty'] as const) {
			const name = applicant[role]
			if (name === undefined && (role === 'email' || role === 'nationality' || role === 'specialty')) continue
			if (name === undefined || !fieldOf(name))
				problems.push(`applicant.${role} "${String(name)}" is not a field of ${definition.kind === 'individual' ? `the first section (${first?.key})` : 'any section'}`)
		}
		const format = (name: string | undefined) => {
			const field = name === undefined ? undefined : fieldOf(name)
			return field?.kind === 'text' ? field.format : undefined
		}
		if (definition.kind === 'individual' && fieldOf(applicant.nationalId) && format(applicant.nationalId) !== 'nationalId')
			problems.push(`applicant.nationalId "${applicant.nationalId}" is not a text field of format nationalId`)
		if (fieldOf(applicant.mobile) && format(applicant.mobile) !== 'mobile') problems.push(`applicant.mobile "${applicant.mobile}" is not a text field of format mobile`)
		if (applicant.email !== undefined && fieldOf(applicant.email) && format(applicant.email) !== 'email') problems.push(`applicant.email "${applicant.email}" is not a text field of format email`)
		expect(problems).toEqual([])
	})

	test('section keys and codes, field names and file slots are unique', () => {
		const problems: string[] = []
		const keys = definition.sections.map((section) => section.key)
		for (const key of duplicates(keys)) problems.push(`section key "${key}" is used more than once`)
		for (const key of keys) if (!SLUG.test(key) || key === CHECK_STEP) problems.push(`section key "${key}" cannot be a step in the URL`)
		for (const code of duplicates(definition.sections.map((section) => section.code))) problems.push(`section code "${code}" is used more than once`)
		for (const section of definition.sections) {
			if (blank(section.title)) problems.push(`${section.key}: title is empty`)
			for (const { where, fields } of containers(section)) {
				for (const name of duplicates(postedNames(fields))) problems.push(`${where}: field name "${name}" is used more than once`)
			}
		}
		const slots = definition.sections.flatMap((section) => (section.files ?? []).map((slot) => slot.slot))
		for (const slot of duplicates(slots)) problems.push(`file slot "${slot}" is used more than once`)
		// Staff's own files (visit photos, receipts) live in slots of this prefix, hidden from the applicant.
		for (const slot of slots) if (isStaffSlot(slot)) problems.push(`file slot "${slot}" begins with the staff files' prefix`)
		for (const section of definition.sections) for (const slot of section.files ?? []) if (blank(slot.label)) problems.push(`${section.key}: file slot "${slot.slot}" has no label`)
		expect(problems).toEqual([])
	})

	test('choices have options, and their defaults and pairings make sense', () => {
		const problems: string[] = []
		for (const section of definition.sections) {
			for (const { where, fields } of containers(section)) {
				for (const field of fields) {
					if (field.kind !== 'select' && field.kind !== 'radio' && field.kind !== 'checkboxes') continue
					const at = `${where}.${field.name}`
					if (!field.options.length) problems.push(`${at}: no options`)
					for (const value of duplicates(field.options.map((option) => option.value))) problems.push(`${at}: option "${value}" appears more than once`)
					for (const option of field.options) {
						if (blank(option.value)) problems.push(`${at}: an option has an empty value`)
						if (blank(option.label)) problems.push(`${at}: option "${option.value}" has no label`)
					}
					if (field.kind === 'checkboxes') {
						if (field.other && field.options.some((option) => option.value === 'other')) problems.push(`${at}: lists «other» as an option and as \`other\``)
						continue
					}
					if (field.default !== undefined) {
						if (!field.options.some((option) => option.value === field.default)) problems.push(`${at}: default "${field.default}" is not one of its options`)
						if (field.required !== true) problems.push(`${at}: has a default but is not required`)
					}
					if (field.onlyWith !== undefined && (field.onlyWith === field.name || !fields.some((other) => other.name === field.onlyWith))) {
						problems.push(`${at}: onlyWith "${field.onlyWith}" is not another field of the same ${where.includes('›') ? 'row' : 'section'}`)
					}
				}
			}
		}
		expect(problems).toEqual([])
	})

	test('groups and numbers have sensible bounds and labels', () => {
		const problems: string[] = []
		for (const section of definition.sections) {
			for (const field of section.fields) {
				const at = `${section.key}.${field.name}`
				if (field.kind === 'number' && field.min !== undefined && field.max !== undefined && field.min > field.max) problems.push(`${at}: min ${field.min} > max ${field.max}`)
				if (field.kind !== 'group') continue
				if (!Number.isInteger(field.min) || !Number.isInteger(field.max) || field.min < 0 || field.min > field.max || field.max < 1) {
					problems.push(`${at}: rows from ${field.min} to ${field.max} is not 0 ≤ min ≤ max (max ≥ 1)`)
				}
				if (blank(field.itemLabel)) problems.push(`${at}: no itemLabel`)
				const counted = field.counted as unknown as Record<string, unknown> | undefined
				if (!counted || ['one', 'two', 'few', 'many', 'other'].some((form) => blank(counted[form]))) problems.push(`${at}: counted is missing a form`)
				if (!field.fields.length) problems.push(`${at}: a row has no fields`)
				for (const row of field.fields as readonly FieldDef[]) if (row.kind === 'group') problems.push(`${at}.${row.name}: a group inside a group`)
			}
			for (const { where, fields } of containers(section)) {
				for (const field of fields as readonly RowFieldDef[]) {
					if (field.kind === 'number' && field.min !== undefined && field.max !== undefined && field.min > field.max && where.includes('›')) problems.push(`${where}.${field.name}: min > max`)
				}
			}
		}
		expect(problems).toEqual([])
	})

	test('every `when` condition refers to a field defined earlier', () => {
		const problems: string[] = []
		/** Fields of earlier sections. */
		const before = new Set<string>()
		const check = (item: unknown, at: string, known: ReadonlySet<string>) => {
			const when = conditionOf(item)
			if (when === undefined) return
			if (typeof when?.field !== 'string') problems.push(`${at}: \`when\` does not name a field`)
			else if (!known.has(when.field)) problems.push(`${at}: \`when\` refers to "${when.field}", not a field defined earlier`)
		}
		for (const section of definition.sections) {
			check(section, `section ${section.key}`, before)
			const inSection = new Set(before)
			for (const field of section.fields) {
				check(field, `${section.key}.${field.name}`, inSection)
				if (field.kind === 'group') {
					const inRow = new Set(inSection)
					for (const row of field.fields) {
						check(row, `${section.key}.${field.name}.${row.name}`, inRow)
						inRow.add(row.name)
					}
				}
				inSection.add(field.name)
			}
			for (const name of postedNames(section.fields)) before.add(name)
		}
		expect(problems).toEqual([])
	})

	test.each(variants)('%s sample answers parse with every section schema, and parsing is idempotent', (variant) => {
		const answers = sampleAnswers(definition, { variant })
		for (const section of definition.sections) {
			const values = answers[section.key]
			if (values === undefined) continue
			const schema = sectionSchema(section)
			const first = schema.safeParse(values)
			expect(first.error?.issues ?? [], `${section.key}: ${JSON.stringify(values)}`).toEqual([])
			const stored = asStored(section, first.data as Record<string, unknown>)
			const again = schema.safeParse(stored)
			expect(again.error?.issues ?? [], `${section.key} parsed again`).toEqual([])
			expect(again.data, `${section.key} parsed again`).toEqual(stored)
		}
	})

	test.each(variants)('%s sample answers with the required files complete the journey', (variant) => {
		const { parsed, fileCounts } = savedState(definition, variant)
		const completed = completedSections(definition, {
			answers: parsed,
			fileCounts,
			consent: 'given',
		})
		expect([...completed].filter((key) => key !== CONSENT_STEP).sort()).toEqual(Object.keys(parsed).sort())
		expect(canVisit(definition, CHECK_STEP, completed, parsed, 'given')).toBe(true)
	})

	test('sample answers are the same for a seed, and valid for many seeds', () => {
		expect(sampleAnswers(definition, { seed: 7 })).toEqual(sampleAnswers(definition, { seed: 7 }))
		for (let seed = 1; seed <= 40; seed++) {
			for (const variant of variants) {
				const answers = sampleAnswers(definition, { seed, variant })
				for (const section of definition.sections) {
					const values = answers[section.key]
					if (values === undefined) continue
					const result = sectionSchema(section).safeParse(values)
					expect(result.error?.issues ?? [], `seed ${seed}, ${variant}, ${section.key}: ${JSON.stringify(values)}`).toEqual([])
				}
			}
		}
	})
})
