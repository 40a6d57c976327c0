// Who may open and post what in the back office: every route of the config under /admin (and the
// printable report) × {visitor, institution account, content editor, case officer, admin}, from
// the table in route-table.ts. The role is checked before anything is looked up, so a forbidden
// role gets the same 403 whether the case, user or entry exists or not.
import { expect, test, type APIRequestContext, type APIResponse } from '@playwright/test'
import { signInInstitution } from '../case-fixtures.ts'
import { staffState, type StaffRole } from '../utils.ts'
import { adminRoutes, comparable, createAdminFixtures, expectStatus, routeTable, send, staffRoles, staffSignIn, type AdminFixtures, type RouteEntry, type Status } from './route-table.ts'

// One worker makes the fixtures once and runs the routes one after another.
test.describe.configure({ mode: 'default' })

type Caller = StaffRole | 'visitor' | 'institution'
const callers: readonly Caller[] = ['visitor', 'institution', ...staffRoles]

let f: AdminFixtures
let as: Record<Caller, APIRequestContext>

test.beforeAll(async ({ playwright }, testInfo) => {
	testInfo.setTimeout(120_000)
	const baseURL = testInfo.project.use.baseURL!
	// Every POST below comes from our own origin: the cross-site guard is csrf.spec.ts's subject.
	const context = (storageState?: string) => playwright.request.newContext({ baseURL, storageState, extraHTTPHeaders: { Origin: baseURL } })
	as = {
		visitor: await context(),
		institution: await context(),
		admin: await context(staffState('admin')),
		case_officer: await context(staffState('case_officer')),
		content_editor: await context(staffState('content_editor')),
		approver: await context(staffState('approver')),
		finance: await context(staffState('finance')),
	}
	f = await createAdminFixtures(as.admin, 'رسالة لاختبار الصلاحيات')
	await signInInstitution(as.institution, f.institution)
})

test.afterAll(async () => {
	await Promise.all(Object.values(as ?? {}).map((context) => context.dispose()))
})

test('every back-office route has an entry in the table, and every entry a route', () => {
	const ids = adminRoutes.map((route) => route.id)
	expect(ids, 'the print report and the back office are in the config').toEqual(expect.arrayContaining(['routes/admin/case-print', 'routes/admin/layout', 'routes/admin/not-found']))
	expect(ids.filter((id) => !(id in routeTable)), 'routes without an entry in route-table.ts').toEqual([])
	expect(Object.keys(routeTable).filter((id) => !ids.includes(id)), 'entries whose route is gone').toEqual([])
	for (const route of adminRoutes) {
		const entry = routeTable[route.id]!
		expect(Boolean(entry.get), `${route.id}: sample GETs exactly when it has a loader`).toBe(route.hasLoader)
		expect(Boolean(entry.post), `${route.id}: a sample POST exactly when it has an action`).toBe(route.hasAction)
	}
})

/**
 * The answer `who` gets for `path`: someone not signed in as staff (a visitor, an institution) is
 * sent to the staff sign-in; an allowed role gets the route's own answer; any other role 403,
 * whose body is collected in `refusals` to be compared.
 */
async function expectAnswer(response: APIResponse, who: Caller, entry: RouteEntry, expected: { path: string; status: Status; location?: string }, refusals: Map<string, Set<string>>, method: string) {
	const what = `${method} ${expected.path} as ${who}`
	if (who === 'visitor' || who === 'institution') {
		expect(response.status(), what).toBe(302)
		expect(response.headers()['location'], what).toBe(staffSignIn(expected.path))
	} else if ((method === 'GET' ? (entry.readRoles ?? entry.roles) : entry.roles).includes(who)) {
		expectStatus(response, expected.status, what)
		if (expected.location) expect(response.headers()['location'], what).toBe(expected.location)
	} else {
		expect(response.status(), what).toBe(403)
		const key = `${method} ${who}`
		refusals.set(key, (refusals.get(key) ?? new Set()).add(comparable(await response.text())))
	}
}

for (const [id, entry] of Object.entries(routeTable)) {
	test(`${id}: ${entry.readRoles ? `${entry.readRoles.join(', ')} open it, ` : ''}${entry.roles.join(', ')} only`, async () => {
		const forbidden = staffRoles.filter((role) => !entry.roles.includes(role))
		const unread = staffRoles.filter((role) => !(entry.readRoles ?? entry.roles).includes(role))
		const refusals = new Map<string, Set<string>>()

		for (const sample of entry.get?.(f) ?? []) {
			const responses = await Promise.all(callers.map((who) => as[who].get(sample.path, { maxRedirects: 0 })))
			for (const [index, who] of callers.entries()) await expectAnswer(responses[index]!, who, entry, sample, refusals, 'GET')
		}

		if (entry.post) {
			// Refused first, with the body the first allowed role sends: nothing changes.
			const sample = entry.post(f, entry.roles[0]!)
			const before = await sample.state?.(as.admin)
			for (const who of ['visitor', 'institution', ...forbidden] as const) await expectAnswer(await send(as[who], sample), who, entry, sample, refusals, 'POST')
			if (sample.state) expect(await sample.state(as.admin), `${sample.path}: nothing changed after the refused POSTs`).toEqual(before)

			if (entry.postMissing) {
				const absent = entry.postMissing(f)
				for (const who of staffRoles) await expectAnswer(await send(as[who], absent), who, entry, absent, refusals, 'POST')
			}

			// Then each allowed role, whose POST does what the route does.
			for (const role of entry.roles) {
				const allowed = entry.post(f, role)
				const prior = await allowed.state?.(as.admin)
				const response = await send(as[role], allowed)
				expectStatus(response, allowed.status, `POST ${allowed.path} as ${role}`)
				if (allowed.state) expect(await allowed.state(as.admin), `${allowed.path}: changed by ${role}`).not.toEqual(prior)
			}
		}

		// Whether the id exists or not, a forbidden role reads the same refusal.
		for (const [key, bodies] of refusals) expect(bodies.size, `${id}: ${key} gets one and the same 403 for every URL`).toBe(1)
		expect([...refusals.keys()].length > 0, 'forbidden roles were asked').toBe(forbidden.length > 0 || unread.length > 0)
	})
}
