import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { beforeAll, afterAll, describe, expect, test } from 'vitest'
import { createSession, sessionCookieName } from '#app/auth/session.server.ts'
import { caseEvents } from '#app/db/schema.ts'
import { createUser } from '#app/domain/staff-users.server.ts'
import { insertClosedCase, type TestCase } from '#app/operations/retention-test-cases.ts'
import { getCaseFileStorage } from '#app/storage/file-storage.server.ts'
import { formatDate } from '#app/text/format.ts'
import { withAppDatabase } from '#tests/db.ts'
import { runRoute } from '#tests/route.ts'
import { middleware } from './layout.tsx'
import CaseView, { loader, middleware as caseMiddleware } from './case.tsx'
import CaseList, { loader as listLoader, middleware as listMiddleware } from './cases.tsx'

// What the staff case view shows, through its loader as the admin layout runs it.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-case-view-'))
process.env.DATA_DIR = dataDir

const app = withAppDatabase()
let cookie = ''
let held: TestCase

beforeAll(async () => {
	const db = app.handle.db
	const user = await createUser(db, { name: 'باحثة', email: 'case-view@example.org', mobile: '', roles: ['case_officer'], password: 'Case-View-Officer-1' })
	cookie = `${sessionCookieName()}=${(await createSession(db, user.id)).token}`
	// The fixture's aid row was given on 2024-01-10; its history entry says so too.
	held = await insertClosedCase(db, getCaseFileStorage(), { status: 3, closedAt: new Date() })
	await db.insert(caseEvents).values({ caseId: held.id, kind: 'aid_recorded', data: { amount: 1500, kind: 'cash', givenOn: '2024-01-10' } })
})
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

const view = () =>
	runRoute([...middleware, ...caseMiddleware], loader, {
		request: new Request(`http://localhost/admin/cases/${held.reference}`, { headers: { Cookie: cookie } }),
		params: { reference: held.reference },
	})

describe('the staff case view', () => {
	test('the aid ledger and the history write the date given as every other date: «10 يناير 2024م» with the Hijri date', async () => {
		const shown = await view()
		const date = formatDate('2024-01-10')
		expect(date).toBe('10\u00a0يناير\u00a02024م (28\u00a0جمادى\u00a0الآخرة\u00a01445هـ)')
		expect(shown.ledger.map((entry) => entry.givenOn)).toEqual([date])
		expect(shown.history.find((event) => event.kind === 'aid_recorded')?.what).toContain(`بتاريخ ${date}`)
	})

	test('the page as sent holds no preview of a file: each loads only when «معاينة» is opened', async () => {
		const shown = await view()
		const path = `/admin/cases/${held.reference}`
		const Stub = createRoutesStub([{ id: 'case', path, Component: CaseView as never }])
		const html = renderToString(createElement(Stub, { initialEntries: [path], hydrationData: { loaderData: { case: shown } } }))
		const files = shown.sections.flatMap((section) => section.files.flatMap((slot) => slot.files))
		expect(files).toHaveLength(2)
		expect(html.match(/>معاينة</g)).toHaveLength(2)
		expect(html).not.toMatch(/<(iframe|img)[^>]*\?inline=1/)
		// Without JavaScript the file still opens in the browser's own viewer.
		for (const file of files) expect(html).toContain(`href="${file.href}?inline=1"`)
	})
})

describe('the case lists', () => {
	test('each row links to the case and to its print; deleting is not offered there', async () => {
		const path = '/admin/cases'
		const request = new Request(`http://localhost${path}?q=${held.reference}`, { headers: { Cookie: cookie } })
		const listed = await runRoute([...middleware, ...listMiddleware], listLoader, { request })
		const Stub = createRoutesStub([{ id: 'cases', path, Component: CaseList as never }])
		const html = renderToString(createElement(Stub, { initialEntries: [`${path}?q=${held.reference}`], hydrationData: { loaderData: { cases: listed } } }))
		const row = /<tr[^>]*>(?:(?!<\/tr>).)*<\/tr>/gs.exec(html.slice(html.indexOf('<tbody')))?.[0] ?? ''
		expect(row).toContain(`href="/admin/cases/${held.reference}"`)
		expect(row).toContain(`href="/admin/cases/${held.reference}/print"`)
		expect(row.replaceAll('<!-- -->', '')).toContain(`>طباعة<span class="sr-only"> الطلب ${held.reference}<`)
		expect(row).not.toContain('حذف')
	})
})
