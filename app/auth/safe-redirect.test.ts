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
})
