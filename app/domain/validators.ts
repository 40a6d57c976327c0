import { z } from 'zod'
import { normaliseSaudiMobile, toWesternDigits } from '#app/text/format.ts'

// Checks for the identifiers people type into our forms (national ID, IBAN, mobile, e-mail).
// Pure and browser-safe: the same rules give instant feedback in the form and are the truth in
// the action.

// ─── National ID / iqama ────────────────────────────────────────────────────────────────────────

export type NationalIdProblem = 'empty' | 'length' | 'prefix' | 'checksum'

/** Western digits, no spaces or dashes: people copy IDs from cards and SMS in many spellings. */
export function normaliseNationalId(input: string): string {
	return toWesternDigits(input).replace(/[\s-]/g, '')
}

/** Luhn-style sum used by Saudi IDs: even positions doubled (digits of the product added). */
function nationalIdChecksumOk(digits: string): boolean {
	let sum = 0
	for (let i = 0; i < digits.length; i++) {
		const digit = Number(digits[i])
		if (i % 2 === 0) {
			const doubled = digit * 2
			sum += Math.floor(doubled / 10) + (doubled % 10)
		} else {
			sum += digit
		}
	}
	return sum % 10 === 0
}

/**
 * What is wrong with a national ID (starts with 1) or iqama (starts with 2), or null when it is
 * valid. Kept separate so staff can override only a 'checksum' failure (old cards, typos on
 * documents) while length and prefix stay hard errors.
 */
export function nationalIdProblem(input: string): NationalIdProblem | null {
	const value = normaliseNationalId(input)
	if (value === '') return 'empty'
	if (!/^\d{10}$/.test(value)) return 'length'
	if (value[0] !== '1' && value[0] !== '2') return 'prefix'
	if (!nationalIdChecksumOk(value)) return 'checksum'
	return null
}

export function isValidNationalId(input: string): boolean {
	return nationalIdProblem(input) === null
}

/** A 9-digit prefix completed with its check digit: the ID generators of demo data, samples and tests. */
export function nationalIdWithCheckDigit(prefix: string): string {
	for (let last = 0; last <= 9; last++) if (nationalIdChecksumOk(`${prefix}${last}`)) return `${prefix}${last}`
	throw new Error(`no check digit completes ${prefix}`)
}

// ─── IBAN ───────────────────────────────────────────────────────────────────────────────────────

export type IbanProblem = 'empty' | 'format' | 'checksum'

/** Western digits, no spaces, upper case: the way bank statements print it varies. */
export function normaliseIban(input: string): string {
	return toWesternDigits(input).replace(/\s/g, '').toUpperCase()
}

/** The number a string of [0-9A-Z] stands for (A=10 … Z=35), mod 97, digit by digit to avoid big numbers. */
function mod97(value: string): number {
	let remainder = 0
	for (const char of value) {
		const code = char.charCodeAt(0)
		const digits = code >= 65 && code <= 90 ? String(code - 55) : char
		for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97
	}
	return remainder
}

/**
 * What is wrong with a Saudi IBAN, or null when it is valid. 'SA' alone counts as empty because
 * the form prefills it.
 */
export function ibanProblem(input: string): IbanProblem | null {
	const value = normaliseIban(input)
	if (value === '' || value === 'SA') return 'empty'
	// SA + 2 check digits + 2-digit bank code + 18 account characters (digits in practice).
	if (!/^SA\d{4}[0-9A-Z]{18}$/.test(value)) return 'format'
	// ISO 13616: country and check digits moved to the end, the whole number mod 97 must be 1.
	if (mod97(value.slice(4) + value.slice(0, 4)) !== 1) return 'checksum'
	return null
}

export function isValidSaudiIban(input: string): boolean {
	return ibanProblem(input) === null
}

/** A Saudi IBAN from its 20-character BBAN (bank code and account), with its ISO 13616 check digits. */
export function saudiIbanFromBban(bban: string): string {
	return `SA${String(98 - mod97(`${bban}SA00`)).padStart(2, '0')}${bban}`
}

// ─── Mobile ─────────────────────────────────────────────────────────────────────────────────────

/**
 * 05XXXXXXXX or an international form (+9665…, 009665…, 9665…), spaces and dashes allowed.
 * The bare 5XXXXXXXX that normaliseSaudiMobile also takes is refused, to match the message
 * «10 digits starting with 05».
 */
export function isValidSaudiMobile(input: string): boolean {
	const typed = toWesternDigits(input).replace(/[\s-]/g, '')
	if (!/^(?:05|\+9665|009665|9665)\d{8}$/.test(typed)) return false
	return normaliseSaudiMobile(input) !== null
}

// ─── E-mail ─────────────────────────────────────────────────────────────────────────────────────

const MAX_EMAIL_LENGTH = 254

const emailSchema = z.email()

export function isValidEmail(input: string): boolean {
	const value = input.trim()
	return value.length <= MAX_EMAIL_LENGTH && emailSchema.safeParse(value).success
}

// ─── Zod field builders for forms ───────────────────────────────────────────────────────────────

export interface FieldOptions<Required extends boolean> {
	required?: Required
}

/** A required field outputs a string; an optional one may output undefined. */
export type FieldOutput<Required extends boolean> = Required extends false ? string | undefined : string

/** Conform sends empty inputs as undefined, so every field takes string | undefined. */
export type FieldSchema<Required extends boolean> = z.ZodType<FieldOutput<Required>, string | undefined>

type Check = { ok: true; value: string } | { ok: false; message: string }

/**
 * Shared plumbing: empty (undefined, blank or whatever `isEmpty` says) gives the required message
 * or undefined; anything else goes through `check`, which normalises or names the problem.
 */
function textField<Required extends boolean>(
	required: Required,
	emptyMessage: string,
	check: (value: string) => Check,
	isEmpty: (value: string) => boolean = (value) => value.trim() === '',
): FieldSchema<Required> {
	const schema = z
		.string()
		.optional()
		.transform((value, ctx) => {
			if (value === undefined || isEmpty(value)) {
				if (!required) return undefined
				ctx.addIssue({ code: 'custom', message: emptyMessage })
				return z.NEVER
			}
			const result = check(value)
			if (!result.ok) {
				ctx.addIssue({ code: 'custom', message: result.message })
				return z.NEVER
			}
			return result.value
		})
	// The runtime guarantees the narrower output when required; the types cannot see that.
	return schema as unknown as FieldSchema<Required>
}

export const nationalIdMessages = {
	empty: 'الرجاء كتابة رقم الهوية',
	shape: 'رقم الهوية يجب أن يكون 10 أرقام ويبدأ بـ 1 أو 2',
	checksum: 'رقم الهوية غير صحيح، تأكد من كتابته كما في البطاقة',
} as const

/** National ID or iqama; outputs the 10 Western digits. */
export function nationalIdField<Required extends boolean = true>({
	required = true as Required,
	allowChecksumFailure = false,
}: FieldOptions<Required> & {
	/** Staff overrode the checksum for this case (some valid IDs are reported to fail it). */
	allowChecksumFailure?: boolean
} = {}): FieldSchema<Required> {
	return textField(
		required,
		nationalIdMessages.empty,
		(value) => {
			const problem = nationalIdProblem(value)
			if (problem === null || (problem === 'checksum' && allowChecksumFailure)) return { ok: true, value: normaliseNationalId(value) }
			if (problem === 'checksum') return { ok: false, message: nationalIdMessages.checksum }
			return { ok: false, message: nationalIdMessages.shape }
		},
		(value) => normaliseNationalId(value) === '',
	)
}

const mobileMessages = {
	empty: 'الرجاء كتابة رقم الجوال',
	invalid: 'رقم الجوال يجب أن يكون 10 أرقام ويبدأ بـ 05',
} as const

/** Saudi mobile; outputs +9665XXXXXXXX as stored. */
export function saudiMobileField<Required extends boolean = true>({
	required = true as Required,
}: FieldOptions<Required> = {}): FieldSchema<Required> {
	return textField(required, mobileMessages.empty, (value) => {
		const normalised = isValidSaudiMobile(value) ? normaliseSaudiMobile(value) : null
		return normalised === null ? { ok: false, message: mobileMessages.invalid } : { ok: true, value: normalised }
	})
}

const ibanMessages = {
	empty: 'الرجاء كتابة رقم الحساب (الآيبان)',
	format: 'رقم الآيبان يجب أن يبدأ بـ SA ويتبعه 22 رقماً',
	checksum: 'رقم الآيبان غير صحيح، تأكد من كتابته كما في كشف الحساب',
} as const

/** Saudi IBAN; outputs it without spaces, upper case. The prefilled 'SA' alone counts as empty. */
export function ibanField<Required extends boolean = true>({
	required = true as Required,
}: FieldOptions<Required> = {}): FieldSchema<Required> {
	return textField(
		required,
		ibanMessages.empty,
		(value) => {
			const problem = ibanProblem(value)
			if (problem === null) return { ok: true, value: normaliseIban(value) }
			return { ok: false, message: problem === 'checksum' ? ibanMessages.checksum : ibanMessages.format }
		},
		(value) => ibanProblem(value) === 'empty',
	)
}

const emailMessages = {
	empty: 'الرجاء كتابة البريد الإلكتروني',
	invalid: 'صيغة البريد الإلكتروني غير صحيحة',
} as const

/** E-mail, optional by default; outputs it trimmed and lower case so lookups match. */
export function emailField<Required extends boolean = false>({
	required = false as Required,
}: FieldOptions<Required> = {}): FieldSchema<Required> {
	return textField(required, emailMessages.empty, (value) =>
		isValidEmail(value) ? { ok: true, value: value.trim().toLowerCase() } : { ok: false, message: emailMessages.invalid },
	)
}

/** The field's own name in its messages: «رقم الترخيص» of an association, «رقم التصريح» of an institution. */
const licenceMessages = (label: string) => ({
	empty: `الرجاء كتابة ${label}`,
	invalid: `${label} أرقام فقط، حتى 20 رقماً`,
})

/** An association's licence or an institution's permit number: Western digits, 1 to 20 (spaces and dashes dropped). */
export function normaliseLicenceNumber(input: string): string {
	return toWesternDigits(input).replace(/[\s-]/g, '')
}

export function licenceNumberField<Required extends boolean = true>({
	required = true as Required,
	label = 'رقم الترخيص',
}: FieldOptions<Required> & { label?: string } = {}): FieldSchema<Required> {
	const messages = licenceMessages(label)
	return textField(required, messages.empty, (value) => {
		const digits = normaliseLicenceNumber(value)
		return /^\d{1,20}$/.test(digits) ? { ok: true, value: digits } : { ok: false, message: messages.invalid }
	})
}
