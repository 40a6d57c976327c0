import { z } from 'zod'
import { emailField, ibanField, licenceNumberField, nationalIdField, saudiMobileField } from '#app/domain/validators.ts'
import { todayInRiyadh, toWesternDigits } from '#app/text/format.ts'
import { collectionOf, fieldsBesideCollection, isGiven, isOrphanChoice, type FieldDef, type RowFieldDef, type SectionDef } from './definition.ts'
import { conditionOf, conditionHolds } from './conditions.ts'
import { ibanBankMismatches, ibanBankPairs } from './bank-account.ts'
import { calendarFieldName, calendarOf, parseCalendarDate } from './calendar-date.ts'
import * as m from '#app/text/messages.ts'

// The Zod schemas of a definition. One schema per section: the browser uses it for instant
// feedback, the server as the truth, and the case store re-checks every write with it. Parsing is
// idempotent (a stored, normalised value parses to itself), so stored answers can be re-validated.

const { requiredText, requiredChoice } = m

/** Text that may arrive as undefined (Conform sends empty inputs as undefined). */
function optionalText(maxLength: number, label: string) {
	return z
		.string()
		.trim()
		.max(maxLength, m.tooLong(label, maxLength))
		.optional()
		.transform((value) => (value ? value : undefined))
}

/** A number typed as text (any digits); a missing value gets `requiredMessage`. */
function numberLike(message: string, pattern: RegExp, requiredMessage: string) {
	return z.union([z.number(), z.string()], { error: requiredMessage }).transform((value, ctx) => {
		if (typeof value === 'number') return value
		const text = toWesternDigits(value)
			.replace(/[\s,٬]/g, '')
			.replace('٫', '.')
		if (!pattern.test(text)) {
			ctx.addIssue({ code: 'custom', message })
			return z.NEVER
		}
		return Number(text)
	})
}

/** How a case's answers are checked: staff may have overridden the national ID checksum. */
export interface SchemaOptions {
	partial?: boolean
	allowIdChecksumFailure?: boolean
	/** A password is already set: left blank, it stays as it is (the server puts the stored hash back). */
	passwordSet?: boolean
}

/** A stored password: only its hash (app/utils/password.server.ts) is ever kept in the answers. */
export const isPasswordHash = (value: unknown) => typeof value === 'string' && /^scrypt\$\d+\$\d+\$\d+\$[\w-]+\$[\w-]+$/.test(value)

/**
 * A new account's password: 12 to 128 characters, nothing more asked of it. Common and leaked
 * passwords are refused by the server only (app/utils/common-passwords.server.ts): the list stays there.
 */
export function newPasswordSchema(label: string) {
	return z
		.string({ error: requiredText(label) })
		.min(1, requiredText(label))
		.refine((value) => isPasswordHash(value) || value.length >= m.PASSWORD_MIN, m.passwordTooShort(m.PASSWORD_MIN))
		.refine((value) => isPasswordHash(value) || value.length <= m.PASSWORD_MAX, m.tooLong(label, m.PASSWORD_MAX))
}

function fieldSchema(field: RowFieldDef, options: SchemaOptions): z.ZodType {
	const required = field.required === true
	switch (field.kind) {
		case 'text': {
			if (field.format === 'nationalId')
				return nationalIdField({
					required,
					allowChecksumFailure: options.allowIdChecksumFailure,
				})
			if (field.format === 'mobile') return saudiMobileField({ required })
			if (field.format === 'iban') return ibanField({ required })
			if (field.format === 'email') return emailField({ required })
			if (field.format === 'licence') return licenceNumberField({ required, label: field.label })
			const text = optionalText(field.maxLength ?? 200, field.label)
			return required ? text.refine((value) => value !== undefined, requiredText(field.label)) : text
		}
		case 'textarea': {
			const text = optionalText(field.maxLength ?? 2000, field.label)
			return required ? text.refine((value) => value !== undefined, requiredText(field.label)) : text
		}
		case 'money': {
			const amount = numberLike(m.invalidAmount, /^\d{1,9}(\.\d{1,2})?$/, requiredText(field.label))
			return required ? amount : amount.optional()
		}
		case 'number': {
			const min = field.min ?? 0
			const max = field.max ?? 1_000_000
			const number = numberLike(m.invalidWholeNumber, /^\d{1,9}$/, requiredText(field.label)).refine((value) => value >= min && value <= max, m.numberOutOfRange(field.label, min, max, !required))
			return required ? number : number.optional()
		}
		case 'date': {
			const valid = z
				.string({ error: requiredText(field.label) })
				.regex(/^\d{4}-\d{2}-\d{2}$/, m.invalidDate)
				// A real day: Date.parse rolls 2024-02-31 over into March rather than refusing it.
				.refine((value) => {
					const day = new Date(`${value}T00:00:00Z`)
					return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value)
				}, m.invalidDate)
			// ISO dates compare as text; «today» is Riyadh's, wherever the browser or server is.
			const date = field.past ? valid.refine((value) => value <= todayInRiyadh(), m.dateAfterToday(field.label, field.gender)) : valid
			return required ? date : date.optional()
		}
		case 'select':
		case 'radio': {
			const values = field.options.map((option) => option.value) as [string, ...string[]]
			const choice = z.enum(values, { error: requiredChoice(field.label) })
			return required ? choice : choice.optional()
		}
		case 'age': {
			const age = numberLike(m.invalidWholeNumber, /^\d{1,3}$/, requiredText(field.label)).refine((value) => value <= 130, m.numberOutOfRange(field.label, 0, 130))
			return required ? age : age.optional()
		}
		case 'newPassword': {
			const password = newPasswordSchema(field.label)
			return options.passwordSet ? password.optional() : password
		}
		case 'checkbox':
			return z
				.boolean()
				.optional()
				.transform((value) => value === true)
		case 'checkboxes': {
			const values = field.options.map((option) => option.value) as [string, ...string[]]
			const allowed = field.other ? ([...values, 'other'] as [string, ...string[]]) : values
			return z
				.union([z.enum(allowed), z.array(z.enum(allowed))])
				.optional()
				.transform((value) => (value === undefined ? [] : Array.isArray(value) ? [...new Set(value)] : [value]))
		}
	}
}

function objectOf(fields: readonly FieldDef[], options: SchemaOptions = {}, extra: Record<string, z.ZodType> = {}) {
	const shape: Record<string, z.ZodType> = { ...extra }
	for (const field of fields) {
		if (field.kind === 'group') {
			// Each row added one at a time carries a stable key, so deleting names the row, not a position.
			const row = objectOf(field.fields, options, {
				_key: z
					.string()
					.regex(/^[0-9a-f]{16}$/)
					.optional(),
			})
			shape[field.name] = z
				.array(row)
				.optional()
				// A row with no answer is no row: dropped, so it never shows as an empty line (rowSchema refuses adding one).
				.transform((rows) => (rows ?? []).filter((item) => !isBlankRow(field.fields, item)))
				.pipe(
					z
						.array(z.any())
						.min(options.partial ? 0 : field.min, m.tooFewRows(field))
						.max(field.max, m.tooManyRows(field)),
				)
		} else if (field.kind === 'date' && field.hijri) {
			// Read with the calendar chosen beside it (withCalendars).
			shape[field.name] = z.unknown().optional()
			shape[calendarFieldName(field.name)] = z.unknown().optional()
		} else if (conditionOf(field)) {
			// Checked once the answers it depends on are known (withConditions).
			shape[field.name] = z.unknown().optional()
		} else {
			shape[field.name] = fieldSchema(field, options)
			if (field.kind === 'checkboxes' && field.other) {
				shape[`${field.name}Other`] = optionalText(300, field.other.label)
			}
			if (field.kind === 'newPassword') shape[`${field.name}Confirm`] = z.string().optional()
		}
	}
	return withCalendars(fields, withPasswords(fields, withPairedChoices(fields, withBankOfIban(fields, withDateOrder(fields, withConditions(fields, options, z.object(shape)))))))
}

/**
 * Dates typed in either calendar (`hijri`): read in the calendar chosen beside them and kept as the
 * Gregorian day, with the choice kept only when it is Hijri (to show the date back as typed).
 */
function withCalendars(fields: readonly FieldDef[], object: z.ZodType<Record<string, unknown>>) {
	const dated = fields.filter((field) => field.kind === 'date' && field.hijri)
	if (!dated.length) return object
	const read = (field: FieldDef, values: Record<string, unknown>) => {
		const typed = values[field.name]
		if (typed === undefined || typed === null || (typeof typed === 'string' && !typed.trim())) return field.required ? ({ ok: false, message: requiredText(field.label) } as const) : undefined
		if (typeof typed !== 'string') return { ok: false, message: m.invalidDate } as const
		const parsed = parseCalendarDate(typed, calendarOf(values[calendarFieldName(field.name)]))
		if (parsed.ok && field.kind === 'date' && field.past && parsed.day > todayInRiyadh()) return { ok: false, message: m.dateAfterToday(field.label, field.gender) } as const
		return parsed
	}
	return object
		.superRefine(
			(values, ctx) => {
				for (const field of dated) {
					const result = read(field, values)
					if (result && !result.ok) ctx.addIssue({ code: 'custom', path: [field.name], message: result.message })
				}
			},
			{ when: () => true },
		)
		.transform((values) => {
			const kept: Record<string, unknown> = { ...values }
			for (const field of dated) {
				const result = read(field, values)
				const calendar = calendarFieldName(field.name)
				delete kept[field.name]
				delete kept[calendar]
				if (result?.ok) {
					kept[field.name] = result.day
					if (calendarOf(values[calendar]) === 'hijri') kept[calendar] = 'hijri'
				}
			}
			return kept
		})
}

/** An IBAN of another bank than the one chosen beside it (./bank-account.ts): refused on the IBAN, both banks named. */
function withBankOfIban<T extends z.ZodType<Record<string, unknown>>>(fields: readonly FieldDef[], object: T) {
	if (!ibanBankPairs(fields).length) return object
	return object.superRefine(
		(values, ctx) => {
			for (const problem of ibanBankMismatches(fields, values)) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message })
		},
		// Also when another field is wrong: every error of the step shows in one round.
		{ when: () => true },
	)
}

/** A date that may not precede another of the same fields (`notBefore`: a project ends on or after its start). */
function withDateOrder<T extends z.ZodType<Record<string, unknown>>>(fields: readonly FieldDef[], object: T) {
	const ordered = fields.filter((field) => field.kind === 'date' && field.notBefore)
	if (!ordered.length) return object
	const isDate = (value: unknown): value is string => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)
	return object.superRefine(
		(values, ctx) => {
			for (const field of ordered) {
				if (field.kind !== 'date') continue
				const other = fields.find((candidate) => candidate.name === field.notBefore)!
				const [value, start] = [values[field.name], values[other.name]]
				// ISO dates compare as text.
				if (isDate(value) && isDate(start) && value < start) ctx.addIssue({ code: 'custom', path: [field.name], message: m.dateBefore(field.label, other.label, field.gender) })
			}
		},
		// Also when another field is wrong: every error of the step shows in one round.
		{ when: () => true },
	)
}

/**
 * Fields asked only under a condition (`when`; an age without a birth date): checked when it
 * holds, dropped when it does not, so a hidden answer is never stored. An age is kept only
 * without a birth date: with one, it is worked out when shown (describe.ts), so it never goes stale.
 */
function withConditions(fields: readonly FieldDef[], options: SchemaOptions, object: z.ZodObject) {
	const conditional = fields.filter((field): field is RowFieldDef => field.kind !== 'group' && conditionOf(field) !== undefined)
	if (!conditional.length) return object
	const asked = (values: Record<string, unknown>) => conditional.filter((field) => conditionHolds(conditionOf(field)!, values))
	return object
		.superRefine(
			(values, ctx) => {
				for (const field of asked(values)) {
					const result = fieldSchema(field, options).safeParse(values[field.name])
					if (result.success) continue
					for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', path: [field.name, ...issue.path.map(String)], message: issue.message })
				}
			},
			// Also when another field of the step is wrong: every error of the step shows in one round.
			{ when: () => true },
		)
		.transform((values) => {
			const kept: Record<string, unknown> = { ...values }
			for (const field of conditional) delete kept[field.name]
			for (const field of asked(values)) {
				const result = fieldSchema(field, options).safeParse(values[field.name])
				if (result.success && result.data !== undefined) kept[field.name] = result.data
			}
			return kept
		})
}

/** A new password must be typed twice alike; the confirmation is never kept. */
function withPasswords(fields: readonly FieldDef[], object: z.ZodType<Record<string, unknown>>) {
	const passwords = fields.filter((field) => field.kind === 'newPassword')
	if (!passwords.length) return object
	return object
		.superRefine((values, ctx) => {
			for (const field of passwords) {
				const value = values[field.name]
				if (typeof value !== 'string' || isPasswordHash(value)) continue
				if (values[`${field.name}Confirm`] !== value)
					ctx.addIssue({
						code: 'custom',
						path: [`${field.name}Confirm`],
						message: m.passwordsDiffer,
					})
			}
		})
		.transform((values) => Object.fromEntries(Object.entries(values).filter(([name]) => !passwords.some((field) => name === `${field.name}Confirm`))))
}

/**
 * Choices that belong to another answer (`onlyWith`, the second bank to the second IBAN): required
 * beside it, and dropped without it, so a bank chosen with no account number is neither stored nor
 * shown (describe.ts also hides one stored that way before this rule).
 */
function withPairedChoices(fields: readonly FieldDef[], object: z.ZodType<Record<string, unknown>>) {
	const paired = fields.filter((field) => (field.kind === 'select' || field.kind === 'radio') && field.onlyWith !== undefined) as RowFieldDef[]
	if (!paired.length) return object
	return object
		.superRefine((values, ctx) => {
			for (const field of paired) {
				const other = (field as { onlyWith: string }).onlyWith
				if (isGiven(values[other]) && !isGiven(values[field.name])) {
					const otherLabel = fields.find((candidate) => candidate.name === other)?.label ?? other
					ctx.addIssue({
						code: 'custom',
						path: [field.name],
						message: m.requiredChoiceWith(field.label, otherLabel),
					})
				}
			}
		})
		.transform((values) => Object.fromEntries(Object.entries(values).filter(([name]) => !paired.some((field) => field.name === name && isOrphanChoice(field, values)))))
}

/** The schema of one row of a repeatable group (used by the «add a row» form). */
export function rowSchema(fields: readonly RowFieldDef[], options: SchemaOptions = {}) {
	return memoized(fields, 'row', options, () =>
		// A list whose fields are all optional (the medical case's family) could take a row with no answer at all.
		fields.some((field) => field.required)
			? objectOf(fields, options)
			: objectOf(fields, options).refine((row) => !isBlankRow(fields, row), { message: m.blankRow, when: () => true }),
	)
}

/** A row with no answer in any of its fields (its key aside). */
export function isBlankRow(fields: readonly RowFieldDef[], row: Record<string, unknown>): boolean {
	return fields.every((field) => {
		const value = row[field.name]
		return value === undefined || value === null || value === '' || value === false || (Array.isArray(value) && value.length === 0)
	})
}

// Building a Zod schema costs far more than using it (a section's took about a millisecond, and a
// request checks every saved section). A schema never changes once built, and the definitions are
// constants: each is built once per section (or row fields), part and options, and kept while they are.
const built = new WeakMap<object, Map<string, unknown>>()
/** Every option, so that a new one cannot be left out of the key (the compiler checks the list). */
const OPTION_NAMES = Object.keys({ partial: true, allowIdChecksumFailure: true, passwordSet: true } satisfies Record<keyof SchemaOptions, true>) as (keyof SchemaOptions)[]

function memoized<T>(owner: object, part: string, options: SchemaOptions, build: () => T): T {
	const key = `${part}:${OPTION_NAMES.map((name) => Number(Boolean(options[name]))).join('')}`
	let forOwner = built.get(owner)
	if (!forOwner) built.set(owner, (forOwner = new Map()))
	if (!forOwner.has(key)) forOwner.set(key, build())
	return forOwner.get(key) as T
}

/**
 * The schema of a section's answers, with its cross-field rules. `partial` lets a collection hold
 * fewer rows than its minimum while the applicant is still adding them (stored, not yet complete).
 */
export function sectionSchema(section: SectionDef, options: SchemaOptions = {}) {
	return memoized(section, 'section', options, () => buildSectionSchema(section, options))
}

/** The schema of a collection section's fields beside its list: what the section's own form posts. */
export function besideListSchema(section: SectionDef, options: SchemaOptions = {}) {
	return memoized(section, 'beside', options, () => buildSectionSchema({ ...section, fields: fieldsBesideCollection(section) }, options))
}

/** The schema of a collection section's list alone, without the fields beside it or its rules. */
export function listSchema(section: SectionDef, options: SchemaOptions = {}) {
	const collection = collectionOf(section)
	if (!collection) throw new Error(`${section.key} is not a collection`)
	return memoized(section, 'list', options, () => buildSectionSchema({ ...section, fields: [collection], rules: [] }, options))
}

function buildSectionSchema(section: SectionDef, options: SchemaOptions) {
	return objectOf(section.fields, options).superRefine((values, ctx) => {
		for (const field of section.fields) {
			if (field.kind === 'checkboxes' && field.other) {
				const chosen = values[field.name] as string[]
				if (chosen.includes('other') && !values[`${field.name}Other`]) {
					ctx.addIssue({
						code: 'custom',
						path: [`${field.name}Other`],
						message: requiredText(field.other.label),
					})
				}
			}
		}
		for (const rule of section.rules ?? []) {
			const problem = rule.check(values)
			if (problem)
				ctx.addIssue({
					code: 'custom',
					path: problem.path,
					message: problem.message,
				})
		}
	})
}

export type SectionAnswers = Record<string, unknown>
