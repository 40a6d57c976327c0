import { expect, test } from 'vitest'
import { safeRedirect } from './session.server.ts'

test('only same-site paths are followed after sign-in', () => {
	expect(safeRedirect('/admin/users?page=2')).toBe('/admin/users?page=2')
	expect(safeRedirect('//evil.example/x')).toBe('/admin')
	expect(safeRedirect('/\\evil.example')).toBe('/admin')
	expect(safeRedirect('https://evil.example')).toBe('/admin')
	expect(safeRedirect('')).toBe('/admin')
	expect(safeRedirect(null)).toBe('/admin')
	expect(safeRedirect(undefined, '/')).toBe('/')
	// What a browser would read as another host once it drops tabs and newlines or turns \ into /.
	for (const forged of ['/\t/evil.example', '/\n/evil.example', '/\r\n/evil.example', '/x\\..\\\\evil.example', '/ /evil.example', '/%09/evil.example/..']) {
		expect(safeRedirect(forged), JSON.stringify(forged)).toMatch(/^\/(admin|%09\/)/)
	}
	expect(safeRedirect('/%2F%2Fevil.example')).toBe('/%2F%2Fevil.example')
	// Dot segments that resolve to «//host» (issue 24 §3.2), and the other usual forms of another host.
	for (const forged of ['/.//evil.example', '/./\\evil.example', '/admin/..//evil.example', '/x/../..//evil.example', '/%2e//evil.example', '/.%2F/evil.example', 'https:evil.example', 'https://evil.example', 'http:/\\evil.example', '\\evil.example', '/\\/evil.example', '///evil.example']) {
		expect(new URL(safeRedirect(forged), 'https://ataa.example').origin, JSON.stringify(forged)).toBe('https://ataa.example')
		expect(safeRedirect(forged), JSON.stringify(forged)).not.toMatch(/^\/\//)
	}
	// Dot segments resolve on our own site.
	expect(safeRedirect('/admin/../news?q=1#top')).toBe('/news?q=1#top')
})
