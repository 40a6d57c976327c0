// What is typed into a search or a filter is matched as text: SQL quotes and LIKE's own wildcards
// (%, _) and escape (\) find exactly themselves, never more, and never an error. Each search gets
// rows made for it: one whose text holds `<marker>50%_x'\z`, one whose text holds `<marker>50-qqx'z`,
// which every query below would find if %, _ or \ were taken as LIKE would take them.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { expect, test, type APIRequestContext } from '@playwright/test'
import { registerInstitutionAsStaff, submitCaseAsStaff } from '../case-fixtures.ts'
import { staffState } from '../utils.ts'
import { inquiry } from './route-table.ts'

test.describe.configure({ mode: 'default' })

let visitor: APIRequestContext
let admin: APIRequestContext
let caseOfficer: APIRequestContext
let contentEditor: APIRequestContext

/**
 * The texts and queries of one run against one server, all about `marker`: lower-case letters and
 * digits, as searches fold letter case. The literal text, and the bait that only a wildcard or a
 * dropped backslash would match; each query says whether the row with each must be found.
 */
function searchesFor(marker: string) {
	const literal = `${marker}50%_x'\\z`
	const bait = `${marker}50-qqx'z`
	return {
		literal,
		bait,
		/** How a found row shows on a page: a word of its own beside the searched text. */
		tags: { literal: `${marker}r1`, bait: `${marker}r2` },
		queries: [
			{ q: literal, literal: true, bait: false },
			{ q: `${marker}50%_x'\\`, literal: true, bait: false },
			{ q: `${marker}50%`, literal: true, bait: false },
			{ q: `${marker}50_`, literal: false, bait: false },
			{ q: `${marker}50%qx'z`, literal: false, bait: false },
			{ q: `${marker}50_qqx'z`, literal: false, bait: false },
			{ q: `${marker}50-qqx'\\z`, literal: false, bait: false },
			{ q: bait, literal: false, bait: true },
			{ q: "' OR 1=1 --", literal: false, bait: false },
			{ q: "'; drop table cases; --", literal: false, bait: false },
		],
	}
}
/** Searched alone, these must answer, and cannot find the bait, which holds none of them. */
const bare = ['%', '_', '\\', "'", '%%', "\\'"] as const

let literal: string
let tags: { literal: string; bait: string }
let queries: ReturnType<typeof searchesFor>['queries']
let references: { literal: string; bait: string }
let associations: { literal: string; bait: string }

test.beforeAll(async ({ playwright }, testInfo) => {
	testInfo.setTimeout(120_000)
	const baseURL = testInfo.project.use.baseURL!
	const context = (storageState?: string) => playwright.request.newContext({ baseURL, storageState })
	;[visitor, admin, caseOfficer, contentEditor] = await Promise.all([context(), context(staffState('admin')), context(staffState('case_officer')), context(staffState('content_editor'))])
	// The same marker for the whole run against this server (its admin's session is the run's own):
	// a worker started again after a failed test finds the contact message already sent, which the
	// form's limit (route-table.ts, inquiry) would not let it send twice.
	const marker = `m${createHash('sha256').update(fs.readFileSync(staffState('admin'))).digest('hex').slice(0, 10)}`
	const searches = searchesFor(marker)
	;({ literal, tags, queries } = searches)
	const { bait } = searches
	const sharp = (await import('sharp')).default
	const picture = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#137a64' } })
		.jpeg()
		.toBuffer()
	const news = async (tag: string, text: string) => {
		// Dated long ago and published: found by the search, never among the latest news other tests read.
		const response = await admin.post('/admin/content/news/new', {
			multipart: {
				NewsDate: '2001-02-03',
				title: `خبر ${tag} ${text}`,
				details: `<p>تفاصيل ${tag}</p>`,
				'img-upload': { name: 'news.jpg', mimeType: 'image/jpeg', buffer: picture },
				IsPublish: 'on',
			},
			maxRedirects: 0,
		})
		expect(response.status(), `news ${tag}`).toBe(302)
	}
	const [literalCase, baitCase, literalAssociation, baitAssociation] = await Promise.all([
		submitCaseAsStaff(admin, { name: `سعد ${tags.literal} ${literal}` }),
		submitCaseAsStaff(admin, { name: `فهد ${tags.bait} ${bait}` }),
		registerInstitutionAsStaff(admin, { name: `جمعية ${tags.literal} ${literal}` }),
		registerInstitutionAsStaff(admin, { name: `جمعية ${tags.bait} ${bait}` }),
		news(tags.literal, literal),
		news(tags.bait, bait),
		// One message holds both (the contact form takes few a run: route-table.ts, inquiry).
		inquiry(visitor, admin, { subject: `استفسار ${tags.literal} ${literal}`, message: `${tags.bait} ${bait}`, key: tags.literal }),
	])
	references = { literal: literalCase.reference, bait: baitCase.reference }
	associations = { literal: literalAssociation.reference, bait: baitAssociation.reference }
})

test.afterAll(async () => {
	await Promise.all([visitor, admin, caseOfficer, contentEditor].filter(Boolean).map((context) => context.dispose()))
})

/** GETs `path`, which must answer 200: a query never makes an error. */
async function page(request: APIRequestContext, path: string): Promise<string> {
	const response = await request.get(path, { maxRedirects: 0 })
	expect(response.status(), path).toBe(200)
	return response.text()
}

/**
 * Runs every query through `search` and checks which rows it finds; `found` tells from a page
 * whether the literal row and the bait row are on it. With `oneRow`, both texts are in one row,
 * found when either is.
 */
async function expectLiteralMatches(search: (q: string) => Promise<string>, found: (body: string) => { literal: boolean; bait: boolean }, oneRow = false) {
	for (const query of queries) {
		const rows = found(await search(query.q))
		if (oneRow) expect(rows.literal, `«${query.q}»`).toBe(query.literal || query.bait)
		else expect(rows, `«${query.q}»`).toEqual({ literal: query.literal, bait: query.bait })
	}
	for (const q of bare) {
		const rows = found(await search(q))
		if (!oneRow && q !== "'") expect(rows.bait, `«${q}» alone`).toBe(false)
	}
	// After all that, the search still works.
	expect(found(await search(literal)).literal).toBe(true)
}

const byReference = (pair: { literal: string; bait: string }) => (body: string) => ({ literal: body.includes(pair.literal), bait: body.includes(pair.bait) })
const byTag = (body: string) => ({ literal: body.includes(tags.literal), bait: body.includes(tags.bait) })
const query = (q: string) => new URLSearchParams({ q }).toString()

test("the cases list's search matches SQL and LIKE metacharacters literally", async () => {
	await expectLiteralMatches((q) => page(caseOfficer, `/admin/cases?${query(q)}`), byReference(references))
})

test("the associations list's search matches SQL and LIKE metacharacters literally", async () => {
	await expectLiteralMatches((q) => page(caseOfficer, `/admin/associations?${query(q)}`), byReference(associations))
})

test('the case exports take the same search', async () => {
	await expectLiteralMatches((q) => page(caseOfficer, `/admin/cases/export/csv?${query(q)}`), byReference(references))
	await expectLiteralMatches((q) => page(caseOfficer, `/admin/associations/export/csv?${query(q)}`), byReference(associations))
})

test("the contact inbox's search matches SQL and LIKE metacharacters literally", async () => {
	await expectLiteralMatches((q) => page(contentEditor, `/admin/inquiries?${query(q)}`), byTag, true)
})

test("the public news search matches SQL and LIKE metacharacters literally", async () => {
	await expectLiteralMatches((q) => page(visitor, `/news?${query(q)}`), byTag)
})

test('every other filter in an address takes metacharacters without an error', async () => {
	const odd = encodeURIComponent(literal)
	const filters = ['status', 'type', 'assigned', 'from', 'to', 'sort', 'deleted', 'page', 'q'].map((name) => `${name}=${odd}`).join('&')
	for (const [request, path] of [
		[caseOfficer, `/admin/cases?${filters}`],
		[caseOfficer, `/admin/associations?${filters}`],
		[caseOfficer, `/admin/cases/export/csv?${filters}`],
		[caseOfficer, `/admin/associations/export/xlsx?${filters}`],
		[caseOfficer, `/admin/cases/${references.literal}/edit/family?row=${odd}`],
		[contentEditor, `/admin/inquiries?q=${odd}&page=${odd}`],
		[contentEditor, `/admin/content/documents?category=${odd}&page=${odd}`],
		[contentEditor, `/admin/content/news?page=${odd}`],
		[contentEditor, `/admin/content/documents/new?category=${odd}`],
		[admin, `/admin/users?page=${odd}`],
		[admin, `/admin/audit?user=${odd}&action=${odd}&case=${odd}&from=${odd}&to=${odd}&page=${odd}`],
		[admin, `/admin/audit/export?user=${odd}&action=${odd}&case=${odd}&from=${odd}&to=${odd}`],
		[visitor, `/news?month=${odd}&page=${odd}&q=${odd}`],
		[visitor, `/login?redirectTo=${odd}`],
		[visitor, `/account/login?redirectTo=${odd}`],
	] as const) {
		await page(request, path)
	}
	// The case with the odd name is still the one its reference opens.
	expect(await page(caseOfficer, `/admin/cases/${references.literal}`)).toContain(tags.literal)
	// The audit trail's case filter is the whole reference, nothing else: that view is in it, under
	// no wildcard.
	expect(await page(admin, `/admin/audit?case=${references.literal}`)).toContain(references.literal)
	for (const wildcard of ['%', '_', `${references.literal.slice(0, 4)}%`, `${references.literal.slice(0, 8)}_`]) {
		expect(await page(admin, `/admin/audit?case=${encodeURIComponent(wildcard)}`), `the audit trail for the case «${wildcard}»`).not.toContain(references.literal)
	}
})
