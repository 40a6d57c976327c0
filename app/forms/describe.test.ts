import { describe, expect, test } from 'vitest'
import { needyFamilies } from './definitions/needy-families.ts'
import { applicationDefinitions } from './registry.ts'
import { describeSection, exportColumns } from './describe.ts'
import { formDefaults, rowDefaults } from './form-values.ts'
import { findSection } from '#app/cases/journey.ts'
import { rowSchema, sectionSchema, type SectionAnswers } from './schema.ts'
import { basicAnswers, nationalIdFrom, sectionAnswers, validIban } from '#tests/fixtures/needy-families.ts'

const stored: Record<string, SectionAnswers> = {
	basic: sectionSchema(findSection(needyFamilies, 'basic')!).parse(basicAnswers(nationalIdFrom('101234567'))),
	...Object.fromEntries(Object.entries(sectionAnswers).map(([key, value]) => [key, sectionSchema(findSection(needyFamilies, key)!).parse(value)])),
}

describe('answers in words', () => {
	test('options show their labels, mobiles as 05…, money in riyals, blanks as empty', () => {
		const lines = describeSection(findSection(needyFamilies, 'basic')!, stored.basic).flatMap((item) => (item.kind === 'line' ? [item.line] : []))
		const value = (label: string) => lines.find((line) => line.label === label)?.value
		expect(value('الجنس')).toBe('ذكر')
		expect(value('العمل')).toBe('لا يعمل / لا تعمل')
		expect(value('رقم الجوال')).toBe('0551234567')
		expect(value('تاريخ الميلاد')).toBe('')
		const financial = describeSection(findSection(needyFamilies, 'financial')!, stored.financial)
		expect(financial[0]).toMatchObject({ kind: 'line', line: { label: 'صافي دخل الأسرة الشهري' } })
		expect(financial[0]!.kind === 'line' && financial[0]!.line.value).toMatch(/2,?500/)
		const services = describeSection(findSection(needyFamilies, 'services')!, stored.services)[0]!
		expect(services.kind === 'line' && services.line.value).toBe('سلة غذائية، خدمات أخرى: أجهزة منزلية')
	})

	test('check your answers: an optional bank slot left as the form starts is empty, not the first bank', () => {
		const bank = findSection(needyFamilies, 'bank')!
		const lineOf = (answers: SectionAnswers, label: string) =>
			describeSection(bank, answers).flatMap((item) => (item.kind === 'line' ? [item.line] : [])).find((line) => line.label === label)?.value
		// What the browser sends when only the first account is typed: the form's starting values.
		const sent = { ...formDefaults(bank, undefined), Bank_Name_1: 'alrajhi', Bank_No_1: validIban }
		const saved = sectionSchema(bank).parse(sent)
		expect(saved).not.toHaveProperty('Bank_Name_2')
		expect(lineOf(saved, 'البنك')).toBe('مصرف الراجحي')
		expect(lineOf(saved, 'البنك الثاني (اختياري)')).toBe('')
		// A bank chosen without its account number is not an answer either.
		expect(lineOf(sectionSchema(bank).parse({ ...sent, Bank_Name_2: 'riyad' }), 'البنك الثاني (اختياري)')).toBe('')
		// Nor is one saved that way before the fix.
		expect(lineOf({ Bank_Name_1: 'alrajhi', Bank_No_1: validIban, Bank_Name_2: 'snb' }, 'البنك الثاني (اختياري)')).toBe('')
		expect(lineOf(sectionSchema(bank).parse({ ...sent, Bank_Name_2: 'alrajhi', Bank_No_2: validIban }), 'البنك الثاني (اختياري)')).toBe('مصرف الراجحي')
	})

	test('a family member shows only what the applicant gave: no default gender, education, status or health', () => {
		const group = findSection(needyFamilies, 'family')!.fields[0]!
		if (group.kind !== 'group') throw new Error('family members are a group')
		const row = rowSchema(group.fields).parse({ ...rowDefaults(group.fields), FamilyName: 'نورة', RelationShip: 'wife' })
		const family = describeSection(findSection(needyFamilies, 'family')!, { members: [row] })[0]!
		if (family.kind !== 'group') throw new Error('family members are a group')
		expect(family.group.rows[0]!.filter((line) => line.value)).toEqual([
			{ label: 'الاسم', value: 'نورة' },
			{ label: 'صلة القرابة', value: 'زوجة' },
		])
	})

	test('every optional choice of every definition starts empty, so its first option is never stored as chosen', () => {
		for (const definition of applicationDefinitions) {
			for (const section of definition.sections) {
				const rowFields = section.fields.flatMap((field) => (field.kind === 'group' ? field.fields : []))
				const starts = { ...formDefaults(section, undefined), ...rowDefaults(rowFields) }
				for (const field of [...section.fields, ...rowFields]) {
					if ((field.kind === 'select' || field.kind === 'radio') && !field.required) expect(starts[field.name], `${definition.type} ${field.name}`).toBeUndefined()
				}
			}
		}
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
