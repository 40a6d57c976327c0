import { describe, expect, test } from 'vitest'
import { todayInRiyadh } from '#app/text/format.ts'
import { ageOn, conditionHolds } from './conditions.ts'
import { medicalCase } from './definitions/medical-case.ts'
import { needyFamilies } from './definitions/needy-families.ts'
import { institutionRegistration } from './definitions/institution-registration.ts'
import { sampleAnswers } from './sample-answers.ts'
import { sectionSchema } from './schema.ts'
import { findSection } from '#app/cases/journey.ts'
import { describeSection } from './describe.ts'

const section = (definition: typeof medicalCase, key: string) => findSection(definition, key)!

describe('conditions', () => {
	test('an answer among the values, or given / not given', () => {
		expect(conditionHolds({ field: 'a', is: ['other'] }, { a: 'other' })).toBe(true)
		expect(conditionHolds({ field: 'a', is: ['other'] }, { a: 'none' })).toBe(false)
		expect(conditionHolds({ field: 'a', is: ['other'] }, {})).toBe(false)
		expect(conditionHolds({ field: 'a', is: ['x'] }, { a: ['y', 'x'] })).toBe(true)
		expect(conditionHolds({ field: 'a', given: false }, { a: '' })).toBe(true)
		expect(conditionHolds({ field: 'a', given: true }, { a: '2020-01-01' })).toBe(true)
	})

	test('a question asked after «أخرى» is required then, and its answer dropped otherwise', () => {
		const needs = sectionSchema(section(medicalCase, 'needs'))
		const base = sampleAnswers(medicalCase, { variant: 'minimal' }).needs!
		const asked = needs.safeParse({ ...base, Auxiliary_Devices: 'other' })
		expect(asked.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([['Auxiliary_Devices_Other', 'الرجاء كتابة الجهاز المساعد الذي يحتاجه']])
		const answered = needs.parse({ ...base, Auxiliary_Devices: 'other', Auxiliary_Devices_Other: 'سرير طبي' })
		expect(answered).toMatchObject({ Auxiliary_Devices: 'other', Auxiliary_Devices_Other: 'سرير طبي' })
		// The applicant changed «أخرى» back to «كرسي متحرك»: what was typed for «أخرى» is not kept.
		const hidden = needs.parse({ ...base, Auxiliary_Devices: 'wheelchair', Auxiliary_Devices_Other: 'سرير طبي' })
		expect(hidden).not.toHaveProperty('Auxiliary_Devices_Other')
		expect(needs.parse(hidden)).toEqual(hidden)
	})

	test('its error shows in the same round as the other fields’ errors, not after they are fixed', () => {
		const needs = sectionSchema(section(medicalCase, 'needs'))
		const base = sampleAnswers(medicalCase, { variant: 'minimal' }).needs!
		const result = needs.safeParse({ ...base, Educational_Needs: undefined, Auxiliary_Devices: 'other' })
		expect(result.error?.issues.map((issue) => issue.path.join('.')).sort()).toEqual(['Auxiliary_Devices_Other', 'Educational_Needs'])
	})

	test('the age is asked only without a birth date, and otherwise worked out from it when shown', () => {
		const basic = sectionSchema(needyFamilies.sections[0]!)
		const base = sampleAnswers(needyFamilies, { variant: 'minimal' }).basic!
		const [year, month, day] = todayInRiyadh().split('-')
		const withBirth = basic.parse({ ...base, BirthDate: `${Number(year) - 40}-${month}-${day}`, age: '12' })
		expect(withBirth).not.toHaveProperty('age')
		expect(describeSection(needyFamilies.sections[0]!, withBirth).find((item) => item.kind === 'line' && item.line.label === 'العمر بالسنوات')).toMatchObject({ line: { value: '40' } })
		expect(basic.parse({ ...base, age: '٦٥' }).age).toBe(65)
		expect(basic.parse(base)).not.toHaveProperty('age')
		expect(basic.safeParse({ ...base, age: 'ستون' }).error?.issues[0]?.message).toBe('الرجاء كتابة رقم صحيح')
		expect(ageOn('2000-03-01', '2026-02-28')).toBe(25)
		expect(ageOn('2000-03-01', '2026-03-01')).toBe(26)
	})
})

describe('a new password', () => {
	const user = sectionSchema(institutionRegistration.sections[0]!)
	const base = { fullName: 'سعد الدوسري', userName: 'saad.d', email: 'saad@example.org', phone: '0551234567' }
	const messages = (values: Record<string, unknown>) => user.safeParse({ ...base, ...values }).error?.issues.map((issue) => [issue.path.join('.'), issue.message]) ?? []

	test('12 characters at least and nothing else asked of them (a passphrase of lower-case words passes), typed twice alike', () => {
		expect(messages({})).toEqual([['password', 'الرجاء كتابة كلمة المرور']])
		expect(messages({ password: 'Short1a', passwordConfirm: 'Short1a' })).toEqual([['password', 'كلمة المرور يجب ألا تقل عن 12 حرفاً']])
		expect(messages({ password: 'dates and arabic coffee', passwordConfirm: 'dates and arabic coffee' })).toEqual([])
		expect(messages({ password: 'تمر وقهوة عربية', passwordConfirm: 'تمر وقهوة عربية' })).toEqual([])
		expect(messages({ password: 'Good-Password-2026', passwordConfirm: 'Good-Password-2025' })).toEqual([['passwordConfirm', 'كلمتا المرور غير متطابقتين']])
	})

	test('the confirmation is never kept; a stored hash parses as it is; a blank keeps a password already set', () => {
		const parsed = user.parse({ ...base, password: 'Good-Password-2026', passwordConfirm: 'Good-Password-2026' })
		expect(parsed).not.toHaveProperty('passwordConfirm')
		const hash = 'scrypt$32768$8$1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaA'
		expect(user.parse({ ...base, password: hash })).toEqual({ ...base, phone: '+966551234567', password: hash })
		expect(sectionSchema(institutionRegistration.sections[0]!, { passwordSet: true }).safeParse(base).success).toBe(true)
	})
})
