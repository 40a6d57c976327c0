import { describe, expect, test, vi } from 'vitest'
import { needyFamilies } from './definitions/needy-families.ts'
import { associationSupport } from './definitions/association-support.ts'
import { medicalCase } from './definitions/medical-case.ts'
import { collectionOf } from './definition.ts'
import { findSection } from '#app/cases/journey.ts'
import { besideListSchema, listSchema, rowSchema, sectionSchema } from './schema.ts'
import { basicAnswers, nationalIdFrom, sectionAnswers, validIban } from '#tests/fixtures/needy-families.ts'

const section = (key: string) => findSection(needyFamilies, key)!
const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
	result.success ? [] : result.error!.issues.map((issue) => issue.message)

describe('schemas derived from the needy-families definition', () => {
	test('basic info: name, ID and mobile are required, with their Arabic messages', () => {
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

	test('bank: the second bank counts only with its account number; an account number needs its bank', () => {
		const schema = sectionSchema(section('bank'))
		const first = { Bank_Name_1: 'alrajhi', Bank_No_1: validIban }
		// Chosen but no account number: not an answer, so not stored.
		expect(schema.parse({ ...first, Bank_Name_2: 'snb', Bank_No_2: 'SA' })).toEqual({ Bank_Name_1: 'alrajhi', Bank_No_1: validIban })
		expect(schema.parse({ ...first, Bank_Name_2: 'alrajhi', Bank_No_2: validIban })).toMatchObject({ Bank_Name_2: 'alrajhi', Bank_No_2: validIban })
		expect(messages(schema.safeParse({ ...first, Bank_No_2: validIban }))).toEqual(['الرجاء اختيار البنك الثاني لأنك كتبت رقم الحساب الثاني'])
	})

	test('bank: an IBAN of another bank than the one chosen beside it is refused on the IBAN, both banks named (issue 38, finding 3)', () => {
		const schema = sectionSchema(section('bank'))
		const snb = 'SA1510000000608010167519'
		const refused = schema.safeParse({ Bank_Name_1: 'alrajhi', Bank_No_1: snb })
		expect(refused.success ? [] : refused.error.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
			['Bank_No_1', 'الآيبان لحساب في «البنك الأهلي السعودي» (رمز البنك 10)، لا في «مصرف الراجحي» المختار: اختر البنك الذي فيه الحساب، أو اكتب آيبان حسابك في البنك المختار'],
		])
		expect(schema.parse({ Bank_Name_1: 'snb', Bank_No_1: snb })).toEqual({ Bank_Name_1: 'snb', Bank_No_1: snb })
		// The second account against its own bank; a bank code of no Saudi bank is refused too.
		expect(messages(schema.safeParse({ Bank_Name_1: 'snb', Bank_No_1: snb, Bank_Name_2: 'riyad', Bank_No_2: validIban }))).toEqual([
			'الآيبان لحساب في «مصرف الراجحي» (رمز البنك 80)، لا في «بنك الرياض» المختار: اختر البنك الذي فيه الحساب، أو اكتب آيبان حسابك في البنك المختار',
		])
		expect(messages(schema.safeParse({ Bank_Name_1: 'snb', Bank_No_1: 'SA9340000000608010167519' }))[0]).toMatch(/^رمز البنك في الآيبان \(40\) لا يعود إلى بنك سعودي معروف/)
	})

	test('a birth date after today in Riyadh is refused; today and real past days are taken', () => {
		const schema = sectionSchema(section('basic'))
		const basic = basicAnswers(nationalIdFrom('101234567'))
		vi.useFakeTimers({ toFake: ['Date'] })
		try {
			// 22:30 UTC on 21 Sep is already 22 Sep in Riyadh.
			vi.setSystemTime(new Date('2025-09-21T22:30:00Z'))
			expect(messages(schema.safeParse({ ...basic, BirthDate: '2030-01-01' }))).toEqual(['تاريخ الميلاد لا يمكن أن يكون بعد اليوم'])
			expect(messages(schema.safeParse({ ...basic, BirthDate: '2025-09-23' }))).toEqual(['تاريخ الميلاد لا يمكن أن يكون بعد اليوم'])
			expect(schema.parse({ ...basic, BirthDate: '2025-09-22' }).BirthDate).toBe('2025-09-22')
			expect(schema.parse({ ...basic, BirthDate: '1980-02-29' }).BirthDate).toBe('1980-02-29')
			expect(messages(schema.safeParse({ ...basic, BirthDate: '1981-02-29' }))).toEqual(['الرجاء كتابة تاريخ صحيح'])
		} finally {
			vi.useRealTimers()
		}
	})

	test('a birth date typed in Hijri is kept as its Gregorian day, with the calendar to show it back', () => {
		const schema = sectionSchema(section('basic'))
		const basic = basicAnswers(nationalIdFrom('101234567'))
		const kept = schema.parse({ ...basic, BirthDate: '22/06/1405', BirthDateCalendar: 'hijri' })
		expect(kept).toMatchObject({ BirthDate: '1985-03-14', BirthDateCalendar: 'hijri' })
		// What is kept parses to itself, so stored answers stay valid.
		expect(schema.parse(kept)).toMatchObject({ BirthDate: '1985-03-14', BirthDateCalendar: 'hijri' })
		// The year first, Arabic-Indic digits, any separator.
		expect(schema.parse({ ...basic, BirthDate: '١٤٠٥/٦/٢٢', BirthDateCalendar: 'hijri' }).BirthDate).toBe('1985-03-14')
		// Gregorian: the choice is not kept, the answer is as before.
		const gregorian = schema.parse({ ...basic, BirthDate: '14/03/1985', BirthDateCalendar: 'gregorian' })
		expect(gregorian.BirthDate).toBe('1985-03-14')
		expect(gregorian).not.toHaveProperty('BirthDateCalendar')
		// Answers kept before the choice existed (no calendar) read as they were.
		expect(schema.parse({ ...basic, BirthDate: '1980-01-15' }).BirthDate).toBe('1980-01-15')
		// Left blank: no date, no calendar, and the age is asked.
		expect(schema.parse({ ...basic, BirthDate: '', BirthDateCalendar: 'hijri', age: '40' })).toMatchObject({ age: 40 })
		expect(schema.parse({ ...basic, BirthDate: '', BirthDateCalendar: 'hijri' })).not.toHaveProperty('BirthDateCalendar')
	})

	test('a Hijri birth date that is not in Umm al-Qura, or of the other calendar, is refused in Arabic', () => {
		const schema = sectionSchema(section('basic'))
		const basic = basicAnswers(nationalIdFrom('101234567'))
		const refused = (BirthDate: string, BirthDateCalendar: string) => messages(schema.safeParse({ ...basic, BirthDate, BirthDateCalendar }))
		// Sha'ban 1447 had 29 days in Umm al-Qura (1 Ramadan was 18 February 2026).
		expect(refused('30/08/1447', 'hijri')).toEqual(['لا يوجد يوم 30 في شهر شعبان 1447هـ بتقويم أم القرى: الشهر 29 يوماً'])
		expect(refused('14/03/1985', 'hijri')).toEqual(['السنة 1985 ميلادية: اختر «ميلادي» أو اكتب التاريخ الهجري'])
		expect(refused('22/06/1405', 'gregorian')).toEqual(['السنة 1405 هجرية: اختر «هجري» أو اكتب التاريخ الميلادي'])
		expect(refused('22/13/1405', 'hijri')).toEqual(['الرجاء كتابة الشهر برقم من 1 إلى 12'])
		expect(refused('22/06/1250', 'hijri')).toEqual(['الرجاء كتابة سنة هجرية من 1300 إلى 1600'])
		expect(refused('31/02/1985', 'gregorian')).toEqual(['الرجاء كتابة تاريخ صحيح'])
		expect(refused('مارس 1985', 'gregorian')).toEqual(['الرجاء كتابة التاريخ باليوم والشهر والسنة، مثل 14/03/1985'])
		expect(refused('22/06', 'hijri')).toEqual(['الرجاء كتابة التاريخ باليوم والشهر والسنة، مثل 14/06/1405'])
	})

	test('a Hijri birth date after today in Riyadh is refused', () => {
		const schema = sectionSchema(section('basic'))
		const basic = basicAnswers(nationalIdFrom('101234567'))
		vi.useFakeTimers({ toFake: ['Date'] })
		try {
			vi.setSystemTime(new Date('2026-02-17T12:00:00Z'))
			expect(messages(schema.safeParse({ ...basic, BirthDate: '01/09/1447', BirthDateCalendar: 'hijri' }))).toEqual(['تاريخ الميلاد لا يمكن أن يكون بعد اليوم'])
			expect(schema.parse({ ...basic, BirthDate: '29/08/1447', BirthDateCalendar: 'hijri' }).BirthDate).toBe('2026-02-17')
		} finally {
			vi.useRealTimers()
		}
	})

	test('a feminine date label gets the feminine verb when the field says so', () => {
		const schema = rowSchema([{ kind: 'date', name: 'Founded', label: 'سنة التأسيس', gender: 'f', past: true }])
		expect(messages(schema.safeParse({ Founded: '2999-01-01' }))).toEqual(['سنة التأسيس لا يمكن أن تكون بعد اليوم'])
	})

	test('referrers: each one\'s capacity is asked, never assumed (it decides the «one official» rule)', () => {
		const persons = sectionAnswers.referrers.persons.map(({ RelatedPerson: _, ...person }) => person)
		expect(messages(sectionSchema(section('referrers')).safeParse({ persons }))).toEqual(['الرجاء اختيار صفة المعرّف', 'الرجاء اختيار صفة المعرّف', 'الرجاء اختيار صفة المعرّف'])
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
		expect(messages(rowSchema(group.fields).safeParse({ FamilyName: 'x', RelationShip: 'son', Age: '300' }))).toEqual(['العمر: الرجاء كتابة رقم من 0 إلى 120، أو ترك الحقل فارغاً'])
	})

	test('referrers: exactly three, at least one official', () => {
		const schema = sectionSchema(section('referrers'))
		expect(schema.safeParse(sectionAnswers.referrers).success).toBe(true)
		expect(messages(schema.safeParse({ persons: sectionAnswers.referrers.persons.slice(0, 2) }))).toContain('الرجاء إضافة 3 معرّفين')
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

describe('schemas are built once', () => {
	test('the same section and options give the same schema; other options, parts or sections another', () => {
		const bank = section('bank')
		expect(sectionSchema(bank)).toBe(sectionSchema(bank, {}))
		expect(sectionSchema(bank, { allowIdChecksumFailure: true })).toBe(sectionSchema(bank, { allowIdChecksumFailure: true }))
		expect(sectionSchema(bank, { allowIdChecksumFailure: true })).not.toBe(sectionSchema(bank))
		expect(sectionSchema(bank, { partial: true })).not.toBe(sectionSchema(bank, { passwordSet: true }))
		expect(sectionSchema(section('financial'))).not.toBe(sectionSchema(bank))
		const family = section('family')
		expect(listSchema(family)).toBe(listSchema(family))
		expect(listSchema(family)).not.toBe(sectionSchema(family))
		expect(besideListSchema(family)).not.toBe(sectionSchema(family))
		expect(besideListSchema(family)).not.toBe(listSchema(family))
	})

	test('a kept schema still judges each answer on its own', () => {
		const financial = sectionSchema(section('financial'))
		expect(financial.safeParse(sectionAnswers.financial).success).toBe(true)
		expect(sectionSchema(section('financial')).safeParse({}).success).toBe(false)
		expect(financial.safeParse(sectionAnswers.financial).success).toBe(true)
	})
})

describe("an association's projects", () => {
	const projects = collectionOf(findSection(associationSupport, 'projects')!)!
	const project = { ProjectName: 'سقيا', BeneficiariesFromProject: '120', ProjectPlace: 'أبها', ProjectStartDate: '2026-03-01' }

	test('a project ending before it starts is refused on its end date; ending the day it starts is fine', () => {
		const result = rowSchema(projects.fields).safeParse({ ...project, ProjectEndDate: '2026-02-28' })
		expect(result.success).toBe(false)
		expect(result.error!.issues.map((issue) => [issue.path, issue.message])).toEqual([[['ProjectEndDate'], 'تاريخ نهاية المشروع لا يمكن أن يكون قبل تاريخ بداية المشروع']])
		expect(rowSchema(projects.fields).safeParse({ ...project, ProjectEndDate: '2026-03-01' }).success).toBe(true)
		// Shown with the other errors of the row in one round.
		expect(messages(rowSchema(projects.fields).safeParse({ ...project, ProjectName: '', ProjectEndDate: '2026-01-01' }))).toContain('تاريخ نهاية المشروع لا يمكن أن يكون قبل تاريخ بداية المشروع')
	})
})

describe("the medical case's family list (no field required)", () => {
	const family = findSection(medicalCase, 'family')!
	const members = collectionOf(family)!

	test('a member with no answer at all is refused with a message; one answer is enough', () => {
		// As a form posts it: Conform turns empty inputs into no value.
		const blank = rowSchema(members.fields).safeParse({})
		expect(blank.success).toBe(false)
		expect(blank.error!.issues.map((issue) => [issue.path, issue.message])).toEqual([[[], 'الرجاء تعبئة حقل واحد على الأقل']])
		expect(rowSchema(members.fields).safeParse({ FamilyName: 'مريم' }).success).toBe(true)
	})

	test('a blank member already saved is dropped from the list, never shown as an empty row', () => {
		const saved = sectionSchema(family).parse({ members: [{ _key: 'a'.repeat(16) }, { FamilyName: 'مريم', _key: 'b'.repeat(16) }] })
		expect(saved.members).toEqual([{ FamilyName: 'مريم', _key: 'b'.repeat(16) }])
	})
})
