import { expect, test } from 'vitest'
import { navigation, sectionPages } from '#app/site/site-map.ts'
import { identifierLabel } from './definition.ts'
import { findDefinition, applicationDefinitions } from './registry.ts'
import { sectionSchema } from './schema.ts'

// Names that users read in more than one place (issue 24 §5.16).

test('a step title reads right after «تغيير» on the check page: no nominative plural («تغيير المعرّفون»)', () => {
	for (const definition of applicationDefinitions) {
		for (const section of definition.sections) expect(`تغيير ${section.title}`, definition.type).not.toMatch(/ون$/)
	}
})

test('each programme has one name, its definition\'s title, in the menu and on /apply; no two programmes share one', () => {
	const menu = navigation.flatMap((entry) => ('links' in entry ? entry.links : [entry]))
	const apply = sectionPages.find((page) => page.path === '/apply')!.links!
	for (const definition of applicationDefinitions) {
		const link = { to: `/apply/${definition.type}`, label: definition.title }
		expect(menu, definition.type).toContainEqual(link)
		expect(apply, definition.type).toContainEqual(link)
	}
	expect(new Set(applicationDefinitions.map((definition) => definition.title)).size).toBe(applicationDefinitions.length)
})

test('an association\'s or institution\'s identifier is called by its own name, and so are its messages', () => {
	expect(identifierLabel(findDefinition('needy-families')!)).toBe('رقم الهوية أو الإقامة')
	expect(identifierLabel(findDefinition('association-support')!)).toBe('رقم الترخيص')
	const registration = findDefinition('institution-registration')!
	expect(identifierLabel(registration)).toBe('رقم التصريح')
	const first = registration.sections.find((section) => section.fields.some((field) => field.name === 'permitNo'))!
	const refused = sectionSchema(first).safeParse({ permitNo: '' })
	expect(refused.error?.issues.filter((issue) => issue.path[0] === 'permitNo').map((issue) => issue.message)).toEqual(['الرجاء كتابة رقم التصريح'])
	const letters = sectionSchema(first).safeParse({ permitNo: 'abc' })
	expect(letters.error?.issues.filter((issue) => issue.path[0] === 'permitNo').map((issue) => issue.message)).toEqual(['رقم التصريح أرقام فقط، حتى 20 رقماً'])
})

test('the home-restoration question asks for an answer, and an optional count may be left empty', () => {
	const restoration = findDefinition('home-restoration')!
	const housing = restoration.sections.find((section) => section.fields.some((field) => field.name === 'Housing_look'))!
	const unanswered = sectionSchema(housing).safeParse({})
	expect(unanswered.error?.issues.find((issue) => issue.path[0] === 'Housing_look')?.message).toBe('الرجاء الإجابة عن السؤال: هل يحتاج المنزل إلى صيانة؟')
	const association = findDefinition('association-support')!
	const projects = association.sections.find((section) => section.fields.some((field) => field.name === 'ProjectsLastYear'))!
	const tooMany = sectionSchema(projects).safeParse({ ProjectsLastYear: '5000' })
	expect(tooMany.error?.issues.find((issue) => issue.path[0] === 'ProjectsLastYear')?.message).toBe('عدد مشاريع العام الماضي: الرجاء كتابة رقم من 0 إلى 1,000، أو ترك الحقل فارغاً')
})
