import { describe, expect, test } from 'vitest'
import {
	nationalIdWithCheckDigit,
	saudiIbanFromBban,
	emailField,
	ibanField,
	ibanProblem,
	isValidEmail,
	isValidNationalId,
	isValidSaudiIban,
	isValidSaudiMobile,
	nationalIdField,
	nationalIdProblem,
	normaliseIban,
	normaliseNationalId,
	saudiMobileField,
} from './validators.ts'

// Test data is built with the checksum computed here, independently of the module, so the tests
// do not depend on made-up numbers that happen to pass.

/** Appends the check digit that makes a 9-digit prefix a valid Saudi ID. */
function withIdCheckDigit(prefix: string): string {
	let sum = 0
	for (let i = 0; i < 9; i++) {
		const digit = Number(prefix[i])
		sum += i % 2 === 0 ? [...String(digit * 2)].reduce((total, d) => total + Number(d), 0) : digit
	}
	// The last digit sits at odd index 9, so it is added as it is.
	return prefix + String((10 - (sum % 10)) % 10)
}

/** Changes the last digit so the checksum no longer holds. */
function breakLastDigit(value: string): string {
	return value.slice(0, -1) + String((Number(value.at(-1)) + 1) % 10)
}

function toArabicIndic(value: string): string {
	return value.replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d)))
}

function bigMod97(value: string): number {
	const numeric = [...value].map((char) => (/[A-Z]/.test(char) ? String(char.charCodeAt(0) - 55) : char)).join('')
	return Number(BigInt(numeric) % 97n)
}

/** A valid Saudi IBAN for a 20-character BBAN (2-digit bank code + 18 account characters). */
function saudiIban(bban: string): string {
	const check = 98 - bigMod97(`${bban}SA00`)
	return `SA${String(check).padStart(2, '0')}${bban}`
}

const sampleId = withIdCheckDigit('101234567')
const validIds = [sampleId, ...['110000000', '123456789', '234567890', '200000000', '212345678'].map(withIdCheckDigit)]

describe('national ID', () => {
	test('the test helper builds IDs with the expected check digits', () => {
		// Hand-checked: 1,0,1,2,3,4,5,6,7 → 2+0+2+2+6+4+1+6+5 = 28 → check digit 2.
		expect(withIdCheckDigit('101234567')).toBe('1012345672')
		expect(withIdCheckDigit('200000000')).toBe('2000000006')
	})

	test('nationalIdWithCheckDigit completes a prefix as the hand-checked helper does', () => {
		for (const prefix of ['101234567', '200000000', '110000000', '234567890']) expect(nationalIdWithCheckDigit(prefix)).toBe(withIdCheckDigit(prefix))
	})

	test.each(validIds)('%s is valid', (id) => {
		expect(isValidNationalId(id)).toBe(true)
		expect(nationalIdProblem(id)).toBeNull()
	})

	test('IDs starting with 1 and with 2 are both covered', () => {
		expect(validIds.some((id) => id.startsWith('1'))).toBe(true)
		expect(validIds.some((id) => id.startsWith('2'))).toBe(true)
	})

	test.each(validIds)('%s with a changed last digit fails the checksum', (id) => {
		expect(isValidNationalId(breakLastDigit(id))).toBe(false)
		expect(nationalIdProblem(breakLastDigit(id))).toBe('checksum')
	})

	test('Arabic-Indic and Eastern Arabic-Indic digits, spaces and dashes are accepted', () => {
		const id = sampleId
		expect(isValidNationalId(toArabicIndic(id))).toBe(true)
		expect(isValidNationalId('۱۰۱۲۳۴۵۶۷۲')).toBe(true)
		expect(isValidNationalId(`${id.slice(0, 4)} ${id.slice(4, 7)}-${id.slice(7)}`)).toBe(true)
		expect(normaliseNationalId(` ${toArabicIndic(id)} `)).toBe(id)
	})

	test('wrong lengths', () => {
		expect(nationalIdProblem('101234567')).toBe('length')
		expect(nationalIdProblem(`${sampleId}0`)).toBe('length')
		expect(isValidNationalId('101234567')).toBe(false)
		expect(isValidNationalId(`${sampleId}0`)).toBe(false)
	})

	test('wrong first digit, even with a correct checksum', () => {
		for (const prefix of ['301234567', '001234567']) {
			const id = withIdCheckDigit(prefix)
			expect(nationalIdProblem(id)).toBe('prefix')
			expect(isValidNationalId(id)).toBe(false)
		}
	})

	test('letters and empty input', () => {
		expect(nationalIdProblem('10123456a2')).toBe('length')
		expect(isValidNationalId('abcdefghij')).toBe(false)
		expect(nationalIdProblem('')).toBe('empty')
		expect(nationalIdProblem('  ')).toBe('empty')
		expect(isValidNationalId('')).toBe(false)
	})
})

const knownIban = 'SA0380000000608010167519'
const validIbans = [knownIban, ...['80000000608010167519', '10000000000000000001', '65123456789012345678', '05000068201234567000'].map(saudiIban)]

describe('Saudi IBAN', () => {
	test('the test helper reproduces the well-known example', () => {
		expect(saudiIban('80000000608010167519')).toBe(knownIban)
	})

	test.each(validIbans)('%s is valid', (iban) => {
		expect(isValidSaudiIban(iban)).toBe(true)
		expect(ibanProblem(iban)).toBeNull()
	})

	test('spaces, lower case and Arabic-Indic digits are accepted', () => {
		expect(isValidSaudiIban('SA03 8000 0000 6080 1016 7519')).toBe(true)
		expect(isValidSaudiIban('sa03 8000 0000 6080 1016 7519')).toBe(true)
		expect(isValidSaudiIban(`SA${toArabicIndic(knownIban.slice(2))}`)).toBe(true)
		expect(normaliseIban('sa03 8000 0000 6080 1016 7519')).toBe(knownIban)
	})

	test('letters in the account part are allowed when the checksum holds', () => {
		const iban = saudiIban('80ABCDEF012345678901')
		expect(isValidSaudiIban(iban)).toBe(true)
	})

	test('a changed digit fails the checksum', () => {
		expect(ibanProblem('SA0380000000608010167518')).toBe('checksum')
		expect(isValidSaudiIban('SA0380000000608010167518')).toBe(false)
		expect(ibanProblem('SA0480000000608010167519')).toBe('checksum')
	})

	test('wrong shape', () => {
		expect(ibanProblem(knownIban.slice(0, -1))).toBe('format')
		expect(ibanProblem(`${knownIban}0`)).toBe('format')
		// Bank code must be digits.
		expect(ibanProblem('SA03A0000000608010167519')).toBe('format')
		expect(isValidSaudiIban(knownIban.slice(0, -1))).toBe(false)
	})

	test('a valid IBAN from another country is not Saudi', () => {
		expect(bigMod97('WEST12345698765432GB82')).toBe(1)
		expect(ibanProblem('GB82WEST12345698765432')).toBe('format')
		expect(isValidSaudiIban('GB82WEST12345698765432')).toBe(false)
	})

	test("empty input and the prefilled 'SA' alone", () => {
		expect(ibanProblem('')).toBe('empty')
		expect(ibanProblem('SA')).toBe('empty')
		expect(ibanProblem(' sa ')).toBe('empty')
		expect(isValidSaudiIban('SA')).toBe(false)
		expect(isValidSaudiIban('')).toBe(false)
	})
})

describe('Saudi mobile', () => {
	test.each(['0512345678', '055 123 4567', '055-123-4567', '٠٥٥١٢٣٤٥٦٧', '+966512345678', '+966 55 123 4567', '00966512345678', '966512345678'])(
		'%s is valid',
		(input) => {
			expect(isValidSaudiMobile(input)).toBe(true)
		},
	)

	test.each(['', '512345678', '0412345678', '051234567', '05123456789', '+966412345678', '+44512345678', 'abc'])('%s is not valid', (input) => {
		expect(isValidSaudiMobile(input)).toBe(false)
	})
})

describe('e-mail', () => {
	test.each(['a@example.com', ' Someone.Name+tag@Example.SA ', 'x@sub.domain.org'])('%s is valid', (input) => {
		expect(isValidEmail(input)).toBe(true)
	})

	test.each(['', 'plain', 'a@', '@example.com', 'a b@example.com', 'a@example'])('%s is not valid', (input) => {
		expect(isValidEmail(input)).toBe(false)
	})

	test('longer than 254 characters is not valid', () => {
		const long = `${'a'.repeat(60)}@${Array.from({ length: 4 }, () => 'b'.repeat(60)).join('.')}.com`
		expect(long.length).toBeGreaterThan(254)
		expect(isValidEmail(long)).toBe(false)
	})
})

/** The issue messages of a parse that must have failed. */
function messagesOf(result: { success: boolean; error?: { issues: { message: string }[] } }): string[] {
	expect(result.success).toBe(false)
	return result.error?.issues.map((issue) => issue.message) ?? []
}

describe('nationalIdField', () => {
	const id = sampleId

	test('valid input gives the normalised ID', () => {
		expect(nationalIdField().safeParse(` ${toArabicIndic(id).slice(0, 5)}-${id.slice(5)} `)).toEqual({ success: true, data: id })
	})

	test('each problem has its message', () => {
		const shape = 'رقم الهوية يجب أن يكون 10 أرقام ويبدأ بـ 1 أو 2'
		expect(messagesOf(nationalIdField().safeParse('12345'))).toEqual([shape])
		expect(messagesOf(nationalIdField().safeParse(withIdCheckDigit('301234567')))).toEqual([shape])
		expect(messagesOf(nationalIdField().safeParse(breakLastDigit(id)))).toEqual(['رقم الهوية غير صحيح، تأكد من كتابته كما في البطاقة'])
	})

	test('empty is required by default, passes as undefined when optional', () => {
		expect(messagesOf(nationalIdField().safeParse(undefined))).toEqual(['الرجاء كتابة رقم الهوية'])
		expect(messagesOf(nationalIdField().safeParse(''))).toEqual(['الرجاء كتابة رقم الهوية'])
		expect(nationalIdField({ required: false }).safeParse(undefined)).toEqual({ success: true, data: undefined })
		expect(nationalIdField({ required: false }).safeParse('')).toEqual({ success: true, data: undefined })
		expect(messagesOf(nationalIdField({ required: false }).safeParse('12345'))).toEqual(['رقم الهوية يجب أن يكون 10 أرقام ويبدأ بـ 1 أو 2'])
	})
})

describe('saudiMobileField', () => {
	test('valid input gives the stored form', () => {
		expect(saudiMobileField().safeParse('٠٥٥ ١٢٣ ٤٥٦٧')).toEqual({ success: true, data: '+966551234567' })
		expect(saudiMobileField().safeParse('00966551234567')).toEqual({ success: true, data: '+966551234567' })
	})

	test('invalid input has its message', () => {
		for (const input of ['0412345678', '551234567', '05512345']) {
			expect(messagesOf(saudiMobileField().safeParse(input))).toEqual(['رقم الجوال يجب أن يكون 10 أرقام ويبدأ بـ 05'])
		}
	})

	test('empty is required by default, passes as undefined when optional', () => {
		expect(messagesOf(saudiMobileField().safeParse(undefined))).toEqual(['الرجاء كتابة رقم الجوال'])
		expect(saudiMobileField({ required: false }).safeParse(undefined)).toEqual({ success: true, data: undefined })
	})
})

describe('ibanField', () => {
	test('valid input gives the normalised IBAN', () => {
		expect(ibanField().safeParse('sa03 8000 0000 6080 1016 7519')).toEqual({ success: true, data: knownIban })
	})

	test('each problem has its message', () => {
		const format = 'رقم الآيبان يجب أن يبدأ بـ SA ويتبعه 22 رقماً'
		expect(messagesOf(ibanField().safeParse('SA03800000006080101675'))).toEqual([format])
		expect(messagesOf(ibanField().safeParse('GB82WEST12345698765432'))).toEqual([format])
		expect(messagesOf(ibanField().safeParse('SA0380000000608010167518'))).toEqual(['رقم الآيبان غير صحيح، تأكد من كتابته كما في كشف الحساب'])
	})

	test("empty or the prefilled 'SA' is required by default, passes as undefined when optional", () => {
		const empty = 'الرجاء كتابة رقم الحساب (الآيبان)'
		expect(messagesOf(ibanField().safeParse(undefined))).toEqual([empty])
		expect(messagesOf(ibanField().safeParse('SA'))).toEqual([empty])
		expect(ibanField({ required: false }).safeParse(undefined)).toEqual({ success: true, data: undefined })
		expect(ibanField({ required: false }).safeParse('SA')).toEqual({ success: true, data: undefined })
	})
})

describe('emailField', () => {
	test('valid input gives it trimmed and lower case', () => {
		expect(emailField().safeParse('  Someone@Example.SA ')).toEqual({ success: true, data: 'someone@example.sa' })
	})

	test('invalid input has its message', () => {
		expect(messagesOf(emailField().safeParse('not-an-email'))).toEqual(['صيغة البريد الإلكتروني غير صحيحة'])
	})

	test('optional by default, required on request', () => {
		expect(emailField().safeParse(undefined)).toEqual({ success: true, data: undefined })
		expect(messagesOf(emailField({ required: true }).safeParse(undefined))).toEqual(['الرجاء كتابة البريد الإلكتروني'])
	})
})

test('saudiIbanFromBban gives the check digits of a known IBAN', () => {
	expect(saudiIbanFromBban('80000000608010167519')).toBe('SA0380000000608010167519')
	expect(isValidSaudiIban(saudiIbanFromBban('10123456789012345678'))).toBe(true)
})
