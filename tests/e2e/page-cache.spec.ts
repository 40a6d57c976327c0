import { expect, test, unique } from './utils.ts'

// The public-page cache (docs/decisions/008-public-page-cache.md): a page anyone without a session
// gets the same way is drawn once, kept compressed with an ETag, and forgotten when staff change
// what it shows. A session's page is never kept, and a kept page is never sent to a session.

const CACHE = 'x-ataa-cache'

// Other tests edit content while these run, and any edit empties the cache: a test that needs a
// hit asks again until it gets one. Each uses a path of its own (`page` is a parameter pages read,
// so the cache keeps it; an unknown one would not be kept).
const ownPath = (path: string) => `${path}?page=${unique()}`

/** Requests `path` until the second of two answers comes from the cache; gives both. */
async function untilHit<T extends { headers(): Record<string, string> }>(get: () => Promise<T>): Promise<[T, T]> {
	for (let attempt = 0; attempt < 5; attempt++) {
		const first = await get()
		const second = await get()
		if (second.headers()[CACHE] === 'hit') return [first, second]
	}
	throw new Error('no answer came from the cache in five tries')
}

test('a public page is drawn once, then answered from the cache, compressed, with 304 when unchanged', async ({ playwright, baseURL }) => {
	const visitor = await playwright.request.newContext({ baseURL })
	const path = ownPath('/committees')
	const [first, second] = await untilHit(() => visitor.get(path, { headers: { 'accept-encoding': 'br' } }))
	expect(first.status()).toBe(200)
	expect(first.headers()[CACHE]).toBe('miss')
	expect(second.headers()['content-encoding']).toBe('br')
	expect(await second.text()).toBe(await first.text())
	const etag = second.headers()['etag']!
	expect(etag).toMatch(/^"[\w-]+"$/)
	expect(first.headers()['etag']).toBe(etag)
	// The headers a hit carries are the page's own: its policy (no nonce), no framing, no sniffing.
	const policy = second.headers()['content-security-policy']!
	expect(policy).toContain("script-src 'self'")
	expect(policy).not.toContain('nonce-')
	expect(second.headers()['x-frame-options']).toBe('DENY')
	expect(second.headers()['x-content-type-options']).toBe('nosniff')
	expect(second.headers()['vary']).toMatch(/Cookie/)
	// Every answer, kept or drawn, says how long the server took (bench:apply reads it).
	for (const answer of [first, second]) expect(answer.headers()['server-timing']).toMatch(/^app;dur=\d+\.\d$/)

	const gzip = await visitor.get(path, { headers: { 'accept-encoding': 'gzip' } })
	expect(gzip.headers()['content-encoding']).toBe('gzip')
	expect(await gzip.text()).toBe(await first.text())

	const unchanged = await visitor.get(path, { headers: { 'if-none-match': etag }, maxRedirects: 0 })
	expect(unchanged.status()).toBe(304)
	expect(await unchanged.body()).toHaveLength(0)
	await visitor.dispose()
})

test('a signed-in page is never kept, and a kept page never carries a session', async ({ playwright, pageAs, baseURL }) => {
	const path = ownPath('/about')
	// Staff first: their page shows the dashboard link and is not kept.
	const staff = await pageAs('admin')
	const staffResponse = await staff.goto(path)
	expect(staffResponse?.headers()[CACHE]).toBeUndefined()
	await expect(staff.getByRole('banner').getByRole('link', { name: 'لوحة التحكم' })).toBeVisible()
	const session = (await staff.context().cookies(baseURL)).find((cookie) => cookie.name.includes('ataa_session'))
	expect(session?.value).toBeTruthy()

	// A visitor then gets the page as a visitor, drawn for them and then from the cache.
	const visitor = await playwright.request.newContext({ baseURL })
	for (const response of await untilHit(() => visitor.get(path))) {
		expect(response.headers()['set-cookie']).toBeUndefined()
		const html = await response.text()
		expect(html).toContain('بوابة الموظفين')
		expect(html).not.toContain('لوحة التحكم')
		expect(html).not.toContain(session!.value)
		expect(html).not.toContain('nonce=')
	}
	await visitor.dispose()

	// Staff again, with the page now kept: still their own page.
	const again = await staff.goto(path)
	expect(again?.headers()[CACHE]).toBeUndefined()
	await expect(staff.getByRole('banner').getByRole('link', { name: 'لوحة التحكم' })).toBeVisible()
})

test.describe('with the page’s own Content-Security-Policy enforced', () => {
	test.use({ bypassCSP: false })

	test('the home page’s slider script runs from the cache, allowed by its hash, with nothing refused', async ({ page }) => {
		const refused: string[] = []
		page.on('console', (message) => {
			if (/Content Security Policy|Refused/i.test(message.text())) refused.push(message.text())
		})
		const path = ownPath('/')
		// The second visit may be the browser's own copy, confirmed by a 304: a hit as well.
		await untilHit(async () => {
			const response = await page.goto(path)
			// The pause button is hidden until the script shows it.
			await expect(page.getByRole('button', { name: 'إيقاف العرض' })).toBeVisible()
			return response!
		})
		expect(refused).toEqual([])
	})
})

test('a change staff make empties the cache at once: a kept search finds the news they publish', async ({ page, pageAs }) => {
	const sharp = (await import('sharp')).default
	const photo = await sharp({ create: { width: 1200, height: 750, channels: 3, background: '#0f6251' } })
		.jpeg()
		.toBuffer()
	const token = unique()
	const search = `/news?q=${encodeURIComponent(token)}`
	await untilHit(async () => (await page.goto(search))!)
	await expect(page.getByRole('main').getByRole('article')).toHaveCount(0)

	const staff = await pageAs('content_editor')
	await staff.goto('/admin/content/news/new')
	const title = `تدشين برنامج كفالة الأيتام ${token}`
	await staff.getByLabel('عنوان الخبر').fill(title)
	await staff.getByRole('textbox', { name: 'تفاصيل الخبر', exact: true }).fill('دشّنت المؤسسة برنامجاً جديداً لكفالة الأيتام في المنطقة الشرقية.')
	await staff.getByLabel('صورة الخبر').setInputFiles({ name: 'orphans.jpg', mimeType: 'image/jpeg', buffer: photo })
	await staff.getByLabel('منشور في الموقع').check()
	await staff.getByRole('button', { name: 'حفظ' }).click()
	await expect(staff.getByRole('status')).toHaveText('تمت إضافة الخبر بنجاح')

	// Without the change emptying the cache, the kept page with no result would come back.
	await page.goto(search)
	await expect(page.getByRole('main').getByRole('article').getByRole('heading')).toHaveText([title])
})
