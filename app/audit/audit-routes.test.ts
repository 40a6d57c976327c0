import type { RouteConfigEntry } from '@react-router/dev/routes'
import { expect, test } from 'vitest'
import routes from '#app/routes.ts'
import type { AuditedMiddleware, AuditPlan } from '#app/audit/audit-trail.server.ts'

// Every back-office route declares its audit plan in its own module (app/audit/audit-trail.server.ts,
// `audited`), as the router runs it: a route that answers must say what it records. That each plan
// is recorded through the real server is tests/e2e/security/audit.spec.ts's part.

interface Found {
	id: string
	path: string
	file: string
	hasChildren: boolean
}

function flatten(entries: readonly RouteConfigEntry[], parent = ''): Found[] {
	return entries.flatMap((entry) => {
		const path = [parent, entry.path ?? ''].filter(Boolean).join('/')
		return [{ id: entry.id ?? entry.file.replace(/\.[jt]sx?$/, ''), path, file: entry.file, hasChildren: Boolean(entry.children?.length) }, ...flatten(entry.children ?? [], path)]
	})
}

/** The routes that answer under /admin (the printable report, outside the frame, included); not the frame itself. */
const adminRoutes = flatten(routes).filter((route) => (route.path === 'admin' || route.path.startsWith('admin/')) && !route.hasChildren)

interface RouteModule {
	middleware?: unknown[]
	loader?: unknown
	action?: unknown
}

const planOf = (module: RouteModule): AuditPlan | undefined => module.middleware?.map((middleware) => (middleware as Partial<AuditedMiddleware>).auditPlan).find(Boolean)

test('the back office has its routes here', () => {
	expect(adminRoutes.length).toBeGreaterThan(25)
	expect(adminRoutes.map((route) => route.id)).toEqual(expect.arrayContaining(['routes/admin/case', 'routes/admin/case-print', 'routes/admin/not-found']))
})

test.each(adminRoutes.map((route) => [route.id, route.file] as const))('%s declares what it records, for what it answers', async (_id, file) => {
	const module = (await import(`../${file}`)) as RouteModule
	const plan = planOf(module)
	expect(plan, `${file} exports middleware with audited(…)`).toBeDefined()
	expect(plan!.write !== false, `${file} ${module.action ? 'has' : 'has no'} action`).toBe(typeof module.action === 'function')
	if (plan!.read) expect(typeof module.loader, `${file} records a read, so it has a loader`).toBe('function')
	// The first import transforms the back office's shared modules: seconds on a busy two-core machine.
}, 60_000)
