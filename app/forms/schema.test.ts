import { describe, expect, test } from 'vitest'
import { needyFamilies } from './definitions/needy-families.ts'
import { findSection } from './journey.ts'
import { rowSchema, sectionSchema } from './schema.ts'
import { basicAnswers, nationalIdFrom, sectionAnswers } from '#tests/fixtures/needy-families.ts'

const section = (key: string) => findSection(needyFamilies, key)!
const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
	result.success ? [] : result.error!.issues.map((issue) => issue.message)

describe('schemas derived from the needy-families definition', () => {
	test('basic info: name, ID and mobile are required, with the spec messages', () => {
		const result = sectionSchema(section('basic')).safeParse({})
		expect(messages(result)).toEqual(
			expect.arrayContaining(['الرجاء كتابة الاسم الرباعي', 'الرجاء كتابة رقم الهوية', 'الرجاء كتابة رقم الجوال']),
		)
	})

	test('basic info is normalised: mobile to +966, Arabic-Indic ID digits to 0-9, unknown keys dropped', () => {
		const id = nationalIdFrom('101234567')
		const arabicId = id.replace(/\d/g, (d) => '٠١٢٣٤٥٦٧٨٩'[Number(d)]!)
		const result = sectionSchema(section('basic')).parse({ ...basicAnswers(arabicId), injected: '<script>' })
		expect(result.Identify_Id).toBe(id)
		expect(result.Phone).toBe('+966551234567')
		expect(result).not.toHaveProperty('injected')
	})

	test('a select only takes its own options', () => {
		const result = sectionSchema(section('basic')).safeParse({ ...basicAnswers(nationalIdFrom('101234567')), Gander: 'robot' })
		expect(messages(result)).toContain('الرجاء اختيار الجنس')
	})

	test('bank: the prefilled «SA» of the second account counts as empty; the first is required and checked', () => {
		const ok = sectionSchema(section('bank')).parse(sectionAnswers.bank)
		expect(ok.Bank_No_2).toBeUndefined()
		const bad = sectionSchema(section('bank')).safeParse({ ...sectionAnswers.bank, Bank_No_1: 'SA0380000000608010167518' })
		expect(messages(bad)).toEqual(['رقم الآيبان غير صحيح، تأكد من كتابته كما في كشف الحساب'])
		expect(messages(sectionSchema(section('bank')).safeParse({ Bank_Name_1: 'snb', Bank_No_1: 'SA' }))).toEqual(['الرجاء كتابة رقم الحساب (الآيبان)'])
	})

	test('money accepts Arabic-Indic digits and decimals, refuses words', () => {
		const schema = sectionSchema(section('financial'))
		expect(schema.parse({ Net_Income: '٢٥٠٠٫٥' }).Net_Income).toBe(2500.5)
		expect(messages(schema.safeParse({}))).toEqual(['الرجاء كتابة صافي دخل الأسرة الشهري'])
		expect(messages(schema.safeParse({ Net_Income: 'ألفان' }))).toEqual(['الرجاء كتابة المبلغ بالأرقام، مثل 1500 أو 1500.50'])
	})

	test('family members: at least one, each with a name and relationship', () => {
		const schema = sectionSchema(section('family'))
		expect(messages(schema.safeParse({ members: [] }))).toEqual(['الرجاء إضافة فرد واحد على الأقل'])
		expect(schema.parse(sectionAnswers.family).members).toHaveLength(2)
		const group = section('family').fields[0]!
		if (group.kind !== 'group') throw new Error('not a group')
		expect(messages(rowSchema(group.fields).safeParse({ Age: '7' }))).toEqual(
			expect.arrayContaining(['الرجاء كتابة الاسم', 'الرجاء اختيار صلة القرابة']),
		)
		expect(messages(rowSchema(group.fields).safeParse({ FamilyName: 'x', RelationShip: 'son', Age: '300' }))).toEqual(['العمر يجب أن يكون بين 0 و120'])
	})

	test('referrers: exactly three, at least one official', () => {
		const schema = sectionSchema(section('referrers'))
		expect(schema.safeParse(sectionAnswers.referrers).success).toBe(true)
		expect(messages(schema.safeParse({ persons: sectionAnswers.referrers.persons.slice(0, 2) }))).toContain('الرجاء إدخال 3 المعرّفون')
		const unofficial = sectionAnswers.referrers.persons.map((person) => ({ ...person, RelatedPerson: 'other' }))
		expect(messages(schema.safeParse({ persons: unofficial }))).toEqual([
			'يجب أن يكون أحد المعرّفين على الأقل معرّفاً رسمياً (شيخ القبيلة أو عمدة الحي أو إمام المسجد)',
		])
	})

	test('services: nothing is required, but «other» needs its text', () => {
		const schema = sectionSchema(section('services'))
		expect(schema.parse({}).services).toEqual([])
		expect(schema.parse({ services: 'food_basket' }).services).toEqual(['food_basket'])
		expect(messages(schema.safeParse({ services: ['other'] }))).toEqual(['الرجاء كتابة خدمات أخرى'])
	})

	test('parsing is idempotent: stored answers validate again to themselves', () => {
		const stored = {
			basic: sectionSchema(section('basic')).parse(basicAnswers(nationalIdFrom('101234567'))),
			...Object.fromEntries(
				Object.entries(sectionAnswers).map(([key, value]) => [key, sectionSchema(section(key)).parse(value)]),
			),
		}
		for (const [key, value] of Object.entries(stored)) {
			expect(sectionSchema(section(key)).parse(value), key).toEqual(value)
		}
	})
})
