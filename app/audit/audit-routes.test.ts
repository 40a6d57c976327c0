import type { RouteConfigEntry } from '@react-router/dev/routes'
import { expect, test } from 'vitest'
import routes from '#app/routes.ts'
import { auditedRoutes } from './audit.server.ts'

// The audit trail's table of back-office routes (app/audit/audit.server.ts) is whole: every route
// under /admin has a line, every line is a route, and a route that changes things says what it records.

interface Found {
	pattern: string
	file: string
}

function flatten(entries: readonly RouteConfigEntry[], parent = ''): Found[] {
	return entries.flatMap((entry) => {
		const pattern = entry.index ? parent || '/' : entry.path === undefined ? parent : `${parent}/${entry.path}`.replace(/\/+/g, '/')
		const own = entry.path !== undefined || entry.index ? [{ pattern, file: entry.file }] : []
		return [...own, ...flatten(entry.children ?? [], pattern)]
	})
}

const adminRoutes = flatten(routes).filter((route) => route.pattern === '/admin' || route.pattern.startsWith('/admin/'))

test('every back-office route has a line in the audit table, and every line is a route', () => {
	expect(adminRoutes.length).toBeGreaterThan(25)
	expect(new Set(Object.keys(auditedRoutes))).toEqual(new Set(adminRoutes.map((route) => route.pattern)))
})

test.each(adminRoutes.map((route) => [route.pattern, route.file] as const))('%s records a change exactly when it has an action', async (pattern, file) => {
	const module = (await import(`../${file}`)) as { action?: unknown }
	expect(auditedRoutes[pattern]!.write !== false, `${file} ${module.action ? 'has' : 'has no'} action`).toBe(typeof module.action === 'function')
})
