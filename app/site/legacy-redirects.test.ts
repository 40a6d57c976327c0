import { describe, expect, test } from 'vitest'
import { legacyLocation, legacyRedirect, legacyRoutes } from '#app/site/legacy-redirects.ts'

const withId = (path: string, id = '42') => path.replaceAll(':id', id)

describe('the table', () => {
	test.each(legacyRoutes.map((route) => [route.from, route.to]))('%s → %s', (from, to) => {
		expect(legacyRedirect(withId(from))).toBe(withId(to))
	})

	test('every old path redirects whatever its letter case', () => {
		for (const { from, to } of legacyRoutes) {
			expect(legacyRedirect(withId(from).toLowerCase())).toBe(withId(to))
			expect(legacyRedirect(withId(from).toUpperCase())).toBe(withId(to))
		}
	})

	test('one trailing slash is ignored', () => {
		for (const { from, to } of legacyRoutes) {
			expect(legacyRedirect(`${withId(from)}/`)).toBe(withId(to))
		}
	})

	test('no destination is itself an old path, so there are no chains or loops', () => {
		const froms = new Set(legacyRoutes.map((route) => route.from.toLowerCase()))
		for (const { to } of legacyRoutes) {
			expect(froms.has(to.toLowerCase())).toBe(false)
			expect(legacyRedirect(withId(to))).toBeNull()
		}
	})

	test('each old path appears once', () => {
		const froms = legacyRoutes.map((route) => route.from.toLowerCase())
		expect(new Set(froms).size).toBe(froms.length)
	})

	test('destinations are on-site paths', () => {
		for (const { to } of legacyRoutes) {
			expect(to).toMatch(/^\/[^/]/)
			expect(to).not.toContain('//')
		}
	})
})

describe('matching', () => {
	test('mixed case in literal segments', () => {
		expect(legacyRedirect('/ceospeech')).toBe('/chairman-speech')
		expect(legacyRedirect('/CEOSPEECH')).toBe('/chairman-speech')
		expect(legacyRedirect('/NEWS/Deatils/7')).toBe('/news/7')
		expect(legacyRedirect('/customer/supportneedyfamilies/123')).toBe('/apply/status')
	})

	test('param values keep their case', () => {
		expect(legacyRedirect('/news/deatils/AbC')).toBe('/news/AbC')
	})

	test('only one trailing slash is ignored', () => {
		expect(legacyRedirect('/CEOSpeech/')).toBe('/chairman-speech')
		expect(legacyRedirect('/CEOSpeech//')).toBeNull()
	})

	test(':id matches exactly one non-empty segment', () => {
		expect(legacyRedirect('/news/deatils')).toBeNull()
		expect(legacyRedirect('/news/deatils/')).toBeNull()
		expect(legacyRedirect('/news/deatils//')).toBeNull()
		expect(legacyRedirect('/news/deatils/1/2')).toBeNull()
	})

	test('a case code never leads to a case', () => {
		expect(legacyRedirect('/Customer/SupportNeedyFamilies/123')).toBe('/apply/status')
		expect(legacyRedirect('/Customer/InstitutionBenefitForm/123')).toBe('/apply/status')
	})
})

describe('param safety', () => {
	test('an encoded slash stays encoded and on-site', () => {
		const target = legacyRedirect('/news/deatils/%2F%2Fevil.com')
		expect(target).toBe('/news/%2F%2Fevil.com')
		expect(target).not.toContain('//')
		expect(new URL(target ?? '', 'https://ataa.example').origin).toBe('https://ataa.example')
	})

	test('a URL as the param cannot escape the site', () => {
		const target = legacyRedirect('/news/deatils/https:%2F%2Fevil.com')
		expect(target).toBe('/news/https%3A%2F%2Fevil.com')
		expect(new URL(target ?? '', 'https://ataa.example').origin).toBe('https://ataa.example')
	})

	test('values are re-encoded exactly once', () => {
		expect(legacyRedirect('/news/deatils/a%20b')).toBe('/news/a%20b')
		expect(legacyRedirect('/news/deatils/%D8%B9%D8%B7%D8%A7%D8%A1')).toBe('/news/%D8%B9%D8%B7%D8%A7%D8%A1')
		expect(legacyRedirect('/news/deatils/a?b')).toBe('/news/a%3Fb')
	})

	test('a malformed escape does not throw', () => {
		expect(legacyRedirect('/news/deatils/%zz')).toBe('/news/%25zz')
	})
})

describe('the old back office', () => {
	test('old back-office screens that we have go to their screen, not the dashboard', () => {
		expect(legacyRedirect('/backend/company/update')).toBe('/admin/foundation')
		expect(legacyRedirect('/backend/member/list')).toBe('/admin/content/members')
		expect(legacyRedirect('/backend/member/add')).toBe('/admin/content/members/new')
		expect(legacyRedirect('/backend/member/update/7')).toBe('/admin/content/members')
		expect(legacyRedirect('/backend/CEOSpeach/update')).toBe('/admin/content/chairman-speech/edit')
		expect(legacyRedirect('/backend/OrganizationChart/update')).toBe('/admin/content/organization-chart/edit')
	})

	test('old news, gallery, video and report screens go to their screen (issue 24 §5.12)', () => {
		expect(legacyRedirect('/backend/news/viewlist')).toBe('/admin/content/news')
		expect(legacyRedirect('/backend/news/add')).toBe('/admin/content/news/new')
		expect(legacyRedirect('/backend/news/add/7')).toBe('/admin/content/news')
		expect(legacyRedirect('/backend/news/update/7')).toBe('/admin/content/news')
		expect(legacyRedirect('/backend/gallery/update')).toBe('/admin/content/albums')
		expect(legacyRedirect('/backend/gallery/update/7')).toBe('/admin/content/albums')
		expect(legacyRedirect('/backend/YearReport')).toBe('/admin/content/documents?category=yearly')
		expect(legacyRedirect('/backend/galleryVideo/add')).toBe('/admin/content/videos/new')
	})

	test('association requests go to the associations list, individuals to the cases list', () => {
		expect(legacyRedirect('/backend/AssociationRequests')).toBe('/admin/associations')
		expect(legacyRedirect('/backend/BeneficiariesRequests')).toBe('/admin/cases')
	})

	test('no known old back-office screen falls back to the dashboard', () => {
		for (const { from, to } of legacyRoutes) {
			if (from.toLowerCase() !== '/backend/home') expect(to, from).not.toBe('/admin')
		}
	})

	test('the query is kept, after a destination\'s own', () => {
		expect(legacyLocation(new URL('https://ataa.example/CEOSpeech?ref=old'))).toBe('/chairman-speech?ref=old')
		expect(legacyLocation(new URL('https://ataa.example/backend/YearReport?page=2'))).toBe('/admin/content/documents?category=yearly&page=2')
		expect(legacyLocation(new URL('https://ataa.example/backend/YearReport'))).toBe('/admin/content/documents?category=yearly')
		expect(legacyLocation(new URL('https://ataa.example/nothing?x=1'))).toBeNull()
	})

	test('unknown /backend paths at any depth go to /admin', () => {
		expect(legacyRedirect('/backend')).toBe('/admin')
		expect(legacyRedirect('/backend/unknown')).toBe('/admin')
		expect(legacyRedirect('/backend/news/delete/5')).toBe('/admin')
		expect(legacyRedirect('/Backend/a/b/c/d/e')).toBe('/admin')
		expect(legacyRedirect('/BACKEND/x/')).toBe('/admin')
	})

	test('table rows win over the fallback', () => {
		expect(legacyRedirect('/backend/user/list')).toBe('/admin/users')
		expect(legacyRedirect('/backend/BeneficiariesRequests')).toBe('/admin/cases')
	})

	test('only a whole first segment counts', () => {
		expect(legacyRedirect('/backendx')).toBeNull()
		expect(legacyRedirect('/news/backend')).toBeNull()
	})
})

describe('paths the router serves itself', () => {
	test.each([
		'/',
		'/News',
		'/Contact',
		'/Gallery',
		'/policies',
		'/news',
		'/news/5',
		'/admin',
		'/admin/users',
		'/admin/cases',
		'/login',
		'/apply',
		'/apply/status',
		'/services',
		'/gallery/videos',
	])('%s is not redirected', (path) => {
		expect(legacyRedirect(path)).toBeNull()
	})

	test('unrelated unknown paths are not redirected', () => {
		expect(legacyRedirect('/does-not-exist')).toBeNull()
		expect(legacyRedirect('/CEOSpeech/extra')).toBeNull()
		expect(legacyRedirect('/user')).toBeNull()
		expect(legacyRedirect('')).toBeNull()
	})
})
