import { describe, expect, expectTypeOf, test } from 'vitest'
import type { ContentData } from './definition.ts'
import { contentCards, contentTypes, type homePage, type members, type programmesType } from './types.ts'

describe('content definitions', () => {
	test('an entry’s data is typed by its definition, so a misspelt key does not compile', () => {
		const member = { memberName: 'أ', memberPosition: 'ب', memberImg: undefined, order: 1 } satisfies ContentData<typeof members>
		expectTypeOf(member.memberName).toEqualTypeOf<string>()
		expectTypeOf<ContentData<typeof members>['order']>().toEqualTypeOf<number>()
		expectTypeOf<ContentData<typeof members>['memberImg']>().toEqualTypeOf<string | undefined>()
		expectTypeOf<ContentData<typeof programmesType>['Icon']>().toEqualTypeOf<'family' | 'home' | 'medical' | 'food' | 'clothing' | 'bill'>()
		expectTypeOf<ContentData<typeof homePage>['video3Url']>().toEqualTypeOf<string>()
		// @ts-expect-error «memberNmae» is no field of a member
		expect(member.memberNmae).toBeUndefined()
	})

	test.each(contentTypes.map((type) => [type.type, type] as const))('%s: names unique, its columns, search, publish and date fields exist with the right kind', (_, type) => {
		const names = type.fields.map((field) => field.name)
		expect(new Set(names).size).toBe(names.length)
		const kindOf = (name: string) => type.fields.find((field) => field.name === name)?.kind
		for (const column of type.listColumns) expect(kindOf(column)).toBeDefined()
		for (const name of type.searchFields ?? []) expect(['text', 'textarea', 'richtext']).toContain(kindOf(name))
		if (type.publishedField) expect(kindOf(type.publishedField)).toBe('boolean')
		if (type.dateField) expect(kindOf(type.dateField)).toBe('date')
		if (type.filterField) expect(kindOf(type.filterField)).toBe('select')
		if (type.bulkUpload) expect([kindOf(type.bulkUpload.file), kindOf(type.bulkUpload.title)]).toEqual(['document', 'text'])
		expect(type.dashboard.length).toBeGreaterThan(5)
		if (type.kind === 'collection') expect(type.listColumns.length).toBeGreaterThan(0)
	})

	test('types are named once, and each has its dashboard card leading to its editor', () => {
		const types = contentTypes.map((type) => type.type)
		expect(new Set(types).size).toBe(types.length)
		expect(contentCards().map((card) => card.to)).toEqual(contentTypes.map((type) => (type.kind === 'singleton' ? `/admin/content/${type.type}/edit` : `/admin/content/${type.type}`)))
	})
})

test('an album cannot take the slug of the video gallery’s own page', async () => {
	const { albums } = await import('./types.ts')
	const { contentSchema } = await import('./schema.ts')
	const album = { title: 'ألبوم', slug: 'videos', description: '', date: '2026-01-01' }
	const result = contentSchema(albums).safeParse(album)
	expect(result.error?.issues.map((issue) => issue.message)).toEqual(['المعرّف في الرابط: «videos» محجوز لصفحة أخرى في الموقع، اختر غيره'])
	expect(contentSchema(albums).safeParse({ ...album, slug: 'videos-2026' }).success).toBe(true)
})

test('a link field takes a path of ours or an https address, never one a browser reads as another site', async () => {
	const { programmesType } = await import('./types.ts')
	const { contentSchema } = await import('./schema.ts')
	const programme = { Name: 'السلة الغذائية', slug: 'food-basket', summary: 'سلة شهرية', Deatils: '<p>تفاصيل</p>', order: '1' }
	const linkError = (Link: string) => contentSchema(programmesType).safeParse({ ...programme, Link }).error?.issues.find((issue) => issue.path[0] === 'Link')?.message
	for (const ours of ['/apply/needy-families', 'https://example.org/apply', '']) expect(linkError(ours), ours).toBeUndefined()
	for (const foreign of ['//evil.example/x', '/\\evil.example', 'javascript:alert(1)', 'http://example.org', '/a page']) expect(linkError(foreign), foreign).toBe('الرجاء كتابة رابط يبدأ بـ https:// أو /')
})
