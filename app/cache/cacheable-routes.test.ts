import type { RouteConfigEntry } from '@react-router/dev/routes'
import { expect, test } from 'vitest'
import routes from '#app/routes.ts'
import { cacheableRouteIds } from './cacheable-routes.ts'

/** Every route of the config as React Router names it: its id, or its file without the extension. */
function routeIds(entries: readonly RouteConfigEntry[], parent = ''): { id: string; path: string; file: string }[] {
	return entries.flatMap((entry) => {
		const path = [parent, entry.path ?? ''].filter(Boolean).join('/')
		return [{ id: entry.id ?? entry.file.replace(/\.[jt]sx?$/, ''), path, file: entry.file }, ...routeIds(entry.children ?? [], path)]
	})
}

const all = routeIds(routes)

test('every route the page cache may keep exists', () => {
	const ids = new Set(all.map((route) => route.id))
	expect([...cacheableRouteIds].filter((id) => !ids.has(id))).toEqual([])
})

test('nothing personal or back-office is ever kept', () => {
	const personal = all.filter(
		(route) => /^(admin|account|apply\/r|logout)(\/|$)|\*/.test(route.path) || /^routes\/(admin|account)\//.test(route.file),
	)
	// The back office, an institution's own area, an applicant's private link, the catch-all.
	for (const id of ['routes/admin/dashboard', 'admin-user-edit', 'admin-content-edit', 'routes/account/index', 'routes/apply/overview', 'routes/public/not-found']) {
		expect(personal.map((route) => route.id)).toContain(id)
	}
	expect(personal.filter((route) => cacheableRouteIds.has(route.id) && route.id !== 'routes/account/login')).toEqual([])
})
