import { createElement, type ComponentType } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { describe, expect, test } from 'vitest'
import { ErrorBoundary as PublicBoundary } from './public/layout.tsx'
import { ErrorBoundary as AdminBoundary } from './admin/layout.tsx'

// What a visitor sees when something fails (docs/security.md#errors): an Arabic page in the site's
// frame that says what happened, and never a stack, a query, a value from it or a path on the server.

/** A failed query as Drizzle throws it: the SQL, its parameters (a national ID), and the driver's cause with a path. */
function failedQuery(): Error {
	const error = new Error('Failed query: select * from cases where national_id = $1\nparams: 1012345678', {
		cause: new Error('connect ECONNREFUSED 127.0.0.1:5432 at /srv/ataa/node_modules/pg/lib/client.js:132'),
	})
	error.name = 'DrizzleQueryError'
	return error
}

/** A thrown `data(…, { status })` as the error boundary receives it. */
const thrownData = (status: number, value: unknown = null) => ({ status, statusText: '', internal: false, data: value })

const frames = {
	public: { id: 'routes/public/layout', path: '/news', Boundary: PublicBoundary, loaderData: undefined },
	admin: { id: 'routes/admin/layout', path: '/admin/cases', Boundary: AdminBoundary, loaderData: { user: { name: 'سارة', roles: ['case_officer'] } } },
} as const

function render(frame: keyof typeof frames, error: unknown): string {
	const { id, path, Boundary, loaderData } = frames[frame]
	const Stub = createRoutesStub([{ id, path, Component: () => null, ErrorBoundary: Boundary as ComponentType }])
	const html = renderToString(createElement(Stub, { initialEntries: [path], hydrationData: { errors: { [id]: error }, loaderData: loaderData ? { [id]: loaderData } : {} } }))
	return html.replaceAll('<!-- -->', '')
}

const leaks = ['Failed query', 'select', 'national_id', '1012345678', 'ECONNREFUSED', '/srv/ataa', 'node_modules', 'DrizzleQueryError', ' at ']

describe.each(['public', 'admin'] as const)('error pages in the %s frame', (frame) => {
	test('a server error (500) says so in Arabic and shows nothing of the failure', () => {
		const html = render(frame, failedQuery())
		expect(html).toContain('حدث خطأ غير متوقع. حاول مرة أخرى بعد قليل.')
		for (const leak of leaks) expect(html).not.toContain(leak)
	})

	test('a 500 answered as data shows its status words, never the data', () => {
		const html = render(frame, thrownData(500, 'Failed query: select 1 params: 1012345678'))
		expect(html).toContain('حدث خطأ غير متوقع')
		for (const leak of leaks) expect(html).not.toContain(leak)
	})

	test.each([
		[404, 'الصفحة غير موجودة', 'لم نجد الصفحة التي تبحث عنها'],
		[403, 'غير مسموح', 'ليست لديك صلاحية لهذا الطلب.'],
		[429, 'محاولات كثيرة', 'محاولات كثيرة من جهازك'],
		[400, 'طلب غير صالح', 'لم نستطع قراءة هذا الطلب'],
	])('%i has its own Arabic title and words', (status, title, words) => {
		const html = render(frame, thrownData(status))
		expect(html).toContain(`<h1 class="text-2xl font-bold text-brand-900">${title}</h1>`)
		expect(html).toContain(words)
	})
})
