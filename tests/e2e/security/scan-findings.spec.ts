// The findings of the outside scan that are not injection (docs/security.md#outside-scan):
// the return address after sign-in, what browsers may keep of personal data, how many files a case
// holds, and the odd requests a scanner sends. Over HTTP only, through the real server.
import { expect, test, type APIRequestContext } from '@playwright/test'
import { minimalPdf } from '#tests/fixtures/pdf.ts'
import { caseFileIds, submitCaseAsStaff, type SubmittedCase } from '../case-fixtures.ts'
import { staffState, unique } from '../utils.ts'

test.describe.configure({ mode: 'default' })

let admin: APIRequestContext
let visitor: APIRequestContext

test.beforeAll(async ({ playwright, baseURL }) => {
	admin = await playwright.request.newContext({ baseURL, storageState: staffState('admin') })
	visitor = await playwright.request.newContext({ baseURL })
})
test.afterAll(async () => {
	await Promise.all([admin.dispose(), visitor.dispose()])
})

test('a signed-in sign-in page sends only to a path of our own, whatever the return address says', async ({ baseURL }) => {
	const ours = new URL(baseURL!).origin
	const forged = [
		'/.//evil.example',
		'/./\\evil.example',
		'/admin/..//evil.example',
		'/x/../..//evil.example',
		'/%2e//evil.example',
		'//evil.example',
		'///evil.example',
		'/\\evil.example',
		'\\\\evil.example',
		'/%2F%2Fevil.example',
		'/%5C%5Cevil.example',
		'/%09/evil.example',
		'/\t/evil.example',
		'/\n/evil.example',
		'/\r\n/evil.example',
		'https://evil.example',
		'https:evil.example',
		'https:/\\evil.example',
		'javascript:alert(1)',
	]
	for (const redirectTo of forged) {
		const response = await admin.get(`/login?${new URLSearchParams({ redirectTo })}`, { maxRedirects: 0 })
		expect(response.status(), JSON.stringify(redirectTo)).toBe(302)
		const location = response.headers()['location']!
		// Where a browser goes: resolved against the page, as it resolves it.
		expect(new URL(location, ours).origin, `${JSON.stringify(redirectTo)} → ${location}`).toBe(ours)
		expect(location, JSON.stringify(redirectTo)).toMatch(/^\/(?![/\\])/)
	}
	// A real return address still works.
	const back = await admin.get(`/login?${new URLSearchParams({ redirectTo: '/admin/cases?page=2' })}`, { maxRedirects: 0 })
	expect(back.headers()['location']).toBe('/admin/cases?page=2')
})

test.describe('what a browser may keep', () => {
	let applicant: SubmittedCase

	test.beforeAll(async () => {
		test.setTimeout(120_000)
		applicant = await submitCaseAsStaff(admin, { name: `سعد ${unique()} القحطاني` })
	})

	test('every answer with personal data or behind a session is no-store: in-page navigation data, the case, its file, print and export, the private link', async () => {
		const [fileId] = await caseFileIds(admin, applicant.reference)
		const staffAnswers = {
			"the case's data for in-page navigation": `/admin/cases/${applicant.reference}.data`,
			'the case list data': '/admin/cases.data',
			'the dashboard data': '/admin.data',
			'the case page': `/admin/cases/${applicant.reference}`,
			'the print': `/admin/cases/${applicant.reference}/print`,
			'a file of the case': `/admin/cases/${applicant.reference}/files/${fileId}`,
			'the case list export': '/admin/cases/export/csv',
		}
		for (const [what, path] of Object.entries(staffAnswers)) {
			const response = await admin.get(path, { maxRedirects: 0 })
			expect(response.status(), `${what}: ${path}`).toBe(200)
			expect(response.headers()['cache-control'], `${what}: ${path}`).toContain('no-store')
		}
		// The data answer is the case itself: what the disk cache held (national ID, IBAN, mobile).
		expect(await (await admin.get(`/admin/cases/${applicant.reference}.data`)).text()).toContain(applicant.nationalId)
		const applicantAnswers = {
			'the private link': `/apply/r/${applicant.token}`,
			"the private link's data": `/apply/r/${applicant.token}.data`,
		}
		for (const [what, path] of Object.entries(applicantAnswers)) {
			const response = await visitor.get(path, { maxRedirects: 0 })
			expect(response.status(), `${what}`).toBe(200)
			expect(response.headers()['cache-control'], what).toContain('no-store')
		}
	})
})

test.describe('how many files a case holds', () => {
	const pdf = (name: string) => ({ name, mimeType: 'application/pdf', buffer: Buffer.from(minimalPdf()) })
	/** Files listed on the applicant's files step, by id. */
	const filesOn = async (token: string) => {
		const html = await (await admin.get(`/apply/r/${token}/files`)).text()
		return [...new Set([...html.matchAll(new RegExp(`/apply/r/${token}/files/([0-9a-f-]{36})`, 'g'))].map((match) => match[1]!))]
	}
	const upload = (token: string, slot: string, name: string, json = true) =>
		admin.post(`/apply/r/${token}/files/upload`, { multipart: { slot, file: pdf(name) }, headers: json ? { Accept: 'application/json' } : {}, maxRedirects: 0 })

	/** A document's pages listed on the files step, by id (their thumbnails' and buttons' addresses). */
	const pagesOn = async (token: string) => {
		const html = await (await admin.get(`/apply/r/${token}/files`)).text()
		return [...new Set([...html.matchAll(/name="pageId" value="([0-9a-f-]{36})"/g)].map((match) => match[1]!))]
	}

	test('a document takes pages: each upload adds one, none replaces another, and they are one PDF', async () => {
		test.setTimeout(120_000)
		const draft = await submitCaseAsStaff(admin, { submit: false })
		// The fixture gave one page to the identity and one to the family report.
		expect(await filesOn(draft.token)).toHaveLength(2)
		expect(await pagesOn(draft.token)).toHaveLength(2)
		for (const name of ['هوية-ثانية.pdf', 'هوية-ثالثة.pdf', 'هوية-رابعة.pdf']) expect((await upload(draft.token, 'identity', name)).status()).toBe(200)
		// The three new pages follow the identity's first.
		expect(await pagesOn(draft.token)).toHaveLength(5)
		await expect.poll(async () => (await (await admin.get(`/apply/r/${draft.token}/files`)).text()).includes('ملف PDF من 4 صفحات'), { timeout: 30_000 }).toBe(true)
		const page = await (await admin.get(`/apply/r/${draft.token}/files`)).text()
		for (const name of ['هوية-ثانية.pdf', 'هوية-ثالثة.pdf', 'هوية-رابعة.pdf']) expect(page).toContain(name)
		// Still two documents: the identity, now of four pages, and the family report.
		expect(await filesOn(draft.token)).toHaveLength(2)
	})

	test('a document holds at most DOCUMENT_MAX_PAGES (10) pages: the next is refused with a clear message, and nothing changes', async () => {
		test.setTimeout(180_000)
		const draft = await submitCaseAsStaff(admin, { submit: false })
		for (let index = 1; index <= 10; index++) expect((await upload(draft.token, 'other', `مرفق-${index}.pdf`)).status(), `page ${index}`).toBe(200)
		const full = await pagesOn(draft.token)
		// Ten in «other files», with the identity's and the family report's pages the fixture gave.
		expect(full).toHaveLength(12)
		const refused = await upload(draft.token, 'other', 'مرفق-11.pdf')
		expect(refused.status()).toBe(400)
		expect(await refused.json()).toMatchObject({ ok: false, error: 'too-many-pages', message: 'لا يتسع المستند الواحد لأكثر من 10 صفحات. احذف صفحة لم تعد لازمة ثم أضف الجديدة.' })
		// Without JavaScript: the same words on the same page, beside the slot.
		const plain = await upload(draft.token, 'other', 'مرفق-12.pdf', false)
		expect(plain.status()).toBe(302)
		const page = await (await admin.get(plain.headers()['location']!)).text()
		expect(page).toContain('لا يتسع المستند الواحد لأكثر من 10 صفحات.')
		expect(await pagesOn(draft.token)).toEqual(full)
		expect(page).not.toContain('مرفق-11.pdf')
	})

	test('a case holds at most CASE_MAX_FILES (40) files, the documents made of pages counted with the pages', async () => {
		test.setTimeout(240_000)
		const draft = await submitCaseAsStaff(admin, { submit: false })
		// The fixture gave the identity and the family record a page each: two pages, two documents.
		// Ten pages to each of three more slots: 32 pages and five documents, 37 files.
		for (const slot of ['other', 'proof_of_residence', 'referrer_form']) for (let index = 1; index <= 10; index++) expect((await upload(draft.token, slot, `${slot}-${index}.pdf`)).status(), `${slot} ${index}`).toBe(200)
		// A sixth document: its first page makes 39 files, its second 40.
		for (const index of [1, 2]) expect((await upload(draft.token, 'bank_statement', `كشف-${index}.pdf`)).status(), `bank ${index}`).toBe(200)
		const full = await pagesOn(draft.token)
		expect(full).toHaveLength(34)
		const refused = await upload(draft.token, 'bank_statement', 'كشف-3.pdf')
		expect(refused.status()).toBe(400)
		expect(await refused.json()).toMatchObject({ ok: false, error: 'case-full', message: 'لا يتسع الطلب لأكثر من 40 ملفاً. احذف ملفاً لم يعد لازماً ثم ارفع الملف الجديد.' })
		expect(await pagesOn(draft.token)).toEqual(full)
		// What is stored once the documents are made: 34 pages and their six documents, no more than the cap.
		await expect.poll(async () => (await filesOn(draft.token)).length, { timeout: 60_000 }).toBe(6)
	})
})

test.describe('odd requests a scanner sends', () => {
	test('a JSON body is refused 415 with an Arabic page, not a 500', async () => {
		for (const path of ['/apply/status', '/contact', '/login']) {
			const response = await visitor.post(path, { data: { nationalId: '1000000008' }, headers: { 'Content-Type': 'application/json' } })
			expect(response.status(), path).toBe(415)
			const html = await response.text()
			expect(html, path).toContain('طلب غير مدعوم')
			expect(html, path).toContain('أرسل النموذج من صفحته في الموقع')
		}
	})

	test('OPTIONS, TRACE and other methods are answered 405 in Arabic, saying what is allowed', async () => {
		for (const method of ['OPTIONS', 'TRACE', 'PUT', 'DELETE', 'PATCH']) {
			for (const path of ['/', '/apply/status', '/admin']) {
				const response = await visitor.fetch(path, { method, maxRedirects: 0 })
				expect(response.status(), `${method} ${path}`).toBe(405)
				expect(response.headers()['allow'], `${method} ${path}`).toBe('GET, HEAD, POST')
				const html = await response.text()
				expect(html, `${method} ${path}`).toContain('طلب غير مدعوم')
				expect(html, `${method} ${path}`).not.toMatch(/Internal Server Error|Cannot /)
			}
		}
	})

	test('a photo caption over its limit is a 400 beside the field, what was typed kept; nothing is saved', async () => {
		// The first album with a photo (other tests add empty albums of their own).
		const albums = await (await admin.get('/admin/content/albums')).text()
		let albumId: string | undefined
		let photoId: string | undefined
		for (const [, id] of albums.matchAll(/\/admin\/content\/albums\/([0-9a-f-]{36})\/photos/g)) {
			photoId = /name="photo" value="([0-9a-f-]{36})"/.exec(await (await admin.get(`/admin/content/albums/${id}/photos`)).text())?.[1]
			albumId = id
			if (photoId) break
		}
		expect(photoId, 'a demo album with a photo').toBeTruthy()
		const caption = `وصف ${unique()} ${'طويل '.repeat(60)}`
		const response = await admin.post(`/admin/content/albums/${albumId}/photos`, { form: { intent: 'caption', photo: photoId!, page: '1', caption }, maxRedirects: 0 })
		expect(response.status()).toBe(400)
		const html = await response.text()
		expect(html).toMatch(/aria-invalid="true"/)
		expect(html).toContain(caption.trim().slice(0, 20))
		expect(await (await admin.get(`/admin/content/albums/${albumId}/photos`)).text()).not.toContain(caption.slice(0, 20))
	})
})
