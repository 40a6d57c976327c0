import { describe, expect, test } from 'vitest'
import { needyFamilies } from './definitions/needy-families.ts'
import { describeSection, exportColumns } from './describe.ts'
import { findSection } from './journey.ts'
import { sectionSchema, type SectionAnswers } from './schema.ts'
import { basicAnswers, nationalIdFrom, sectionAnswers } from '#tests/fixtures/needy-families.ts'

const stored: Record<string, SectionAnswers> = {
	basic: sectionSchema(findSection(needyFamilies, 'basic')!).parse(basicAnswers(nationalIdFrom('101234567'))),
	...Object.fromEntries(Object.entries(sectionAnswers).map(([key, value]) => [key, sectionSchema(findSection(needyFamilies, key)!).parse(value)])),
}

describe('answers in words', () => {
	test('options show their labels, mobiles as 05…, money in riyals, blanks as empty', () => {
		const lines = describeSection(findSection(needyFamilies, 'basic')!, stored.basic).flatMap((item) => (item.kind === 'line' ? [item.line] : []))
		const value = (label: string) => lines.find((line) => line.label === label)?.value
		expect(value('الجنس')).toBe('ذكر')
		expect(value('العمل')).toBe('لا يعمل')
		expect(value('رقم الجوال')).toBe('0551234567')
		expect(value('تاريخ الميلاد')).toBe('')
		const financial = describeSection(findSection(needyFamilies, 'financial')!, stored.financial)
		expect(financial[0]).toMatchObject({ kind: 'line', line: { label: 'صافي دخل الأسرة الشهري' } })
		expect(financial[0]!.kind === 'line' && financial[0]!.line.value).toMatch(/2,?500/)
		const services = describeSection(findSection(needyFamilies, 'services')!, stored.services)[0]!
		expect(services.kind === 'line' && services.line.value).toBe('سلة غذائية، خدمات أخرى: أجهزة منزلية')
	})

	test('groups list their rows', () => {
		const family = describeSection(findSection(needyFamilies, 'family')!, stored.family)[0]!
		if (family.kind !== 'group') throw new Error('family members are a group')
		expect(family.group.rows).toHaveLength(2)
		expect(family.group.rows[0]!.find((line) => line.label === 'صلة القرابة')?.value).toBe('زوجة')
	})

	test('export columns are flat, named, and in the order of the form', () => {
		const columns = exportColumns(needyFamilies, stored)
		expect(columns[0]).toEqual(['الاسم الرباعي', 'عبدالله محمد سعد القحطاني'])
		expect(columns).toContainEqual(['فرد 2 - الاسم', 'سعد'])
		expect(columns).toContainEqual(['المعرّف 3 - الاسم', 'جار الأسرة'])
		expect(columns.find(([header]) => header === 'البنك')?.[1]).toBe('مصرف الراجحي')
	})
})
