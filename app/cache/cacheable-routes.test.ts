import type { RouteConfigEntry } from '@react-router/dev/routes'
import { expect, test } from 'vitest'
import routes from '#app/routes.ts'
import { cacheableRouteIds } from './cacheable-routes.ts'

/** Every route of the config as React Router names it: its id, or its file without the extension. */
function routeIds(entries: readonly RouteConfigEntry[]): { id: string; path: string }[] {
	return entries.flatMap((entry) => [{ id: entry.id ?? entry.file.replace(/\.[jt]sx?$/, ''), path: entry.path ?? '' }, ...routeIds(entry.children ?? [])])
}

const all = routeIds(routes)

test('every route the page cache may keep exists', () => {
	const ids = new Set(all.map((route) => route.id))
	expect([...cacheableRouteIds].filter((id) => !ids.has(id))).toEqual([])
})

test('nothing personal or back-office is ever kept', () => {
	const personal = all.filter((route) => /^(admin|account\/|apply\/r\/|logout|news\/:id|\*)/.test(route.path) || route.id.startsWith('routes/admin/'))
	expect(personal.length).toBeGreaterThan(10)
	expect(personal.filter((route) => cacheableRouteIds.has(route.id) && route.id !== 'routes/account/login')).toEqual([])
})
