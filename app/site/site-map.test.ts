import type { RouteConfigEntry } from '@react-router/dev/routes'
import { expect, test } from 'vitest'
import routes from '#app/routes.ts'
import { navigationPaths, sectionPages } from '#app/site/site-map.ts'

/** Every path pattern the route config serves, as full paths ('/news/:id'), the catch-alls left out. */
function patterns(entries: readonly RouteConfigEntry[], parent = ''): string[] {
	return entries.flatMap((entry) => {
		const path = entry.path === undefined ? parent : `${parent}/${entry.path}`.replace(/\/+/g, '/')
		const own = entry.path === undefined || entry.path.endsWith('*') ? [] : [path]
		return [...own, ...(entry.index ? [parent || '/'] : []), ...patterns(entry.children ?? [], path)]
	})
}

const served = patterns(routes).map((pattern) => new RegExp(`^${pattern.replace(/:[^/]+/g, '[^/]+')}$`))

test.each([...new Set([...sectionPages.map((page) => page.path), ...navigationPaths()])])('%s has a route of its own (not the 404 catch-all)', (path) => {
	expect(served.some((pattern) => pattern.test(path.split('?')[0]!))).toBe(true)
})
