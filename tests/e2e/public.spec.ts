import type { Page } from '@playwright/test'
import { legacyRoutes } from '#app/site/legacy-redirects.ts'
import { navigationPaths, sectionPages } from '#app/site/site-map.ts'
import { expect, expectNoAxeViolations, test } from './utils.ts'

test('the home page is Arabic, right to left, in the foundation font', async ({ page }) => {
	const response = await page.goto('/')
	expect(response?.status()).toBe(200)
	await expect(page.locator('html')).toHaveAttribute('lang', 'ar')
	await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('مؤسسة عطاء الخيرية')
	await page.goto('/')
	await expect(page).toHaveTitle(/مؤسسة عطاء الخيرية/)
	const fontLoaded = await page.evaluate(async () => {
		await document.fonts.ready
		return document.fonts.check('16px "Noto Kufi Arabic"', 'عطاء')
	})
	expect(fontLoaded).toBe(true)
	// The footer's contact details come from the database.
	const footer = page.getByRole('contentinfo')
	await expect(footer).toContainText('0114567890')
	await expect(footer).toContainText('info@ataa.org.sa')
	await expect(footer.getByRole('link', { name: /لينكدإن/ })).toHaveAttribute('href', 'https://www.linkedin.com/company/ataa-charity')
	await expect(page.getByRole('link', { name: 'بوابة الموظفين' })).toHaveAttribute('href', '/login')
})

test('every link in the header answers 200', async ({ page, request }) => {
	await page.goto('/')
	const hrefs = await page
		.getByRole('navigation', { name: 'القائمة الرئيسية' })
		.first()
		.locator('a')
		.evaluateAll((links) => links.map((link) => link.getAttribute('href')))
	expect(new Set(hrefs)).toEqual(new Set([...navigationPaths(), '/login']))
	for (const href of hrefs) {
		const response = await request.get(href!)
		expect(response.status(), href!).toBe(200)
	}
})

// The home page's slider and announcement, and an album's photo viewer, are small inline scripts
// with tests of their own; no public page ships a script file. The public forms (contact, the
// status lookup, the staff sign-in) are validated on the server and ship no JavaScript.
const album = '/gallery/ramadan-food-baskets'
const interactive = new Set(['/', album])

const publicPaths = [...new Set(['/', '/about', '/contact', '/login', '/account/login', '/services/needy-families', '/apply/referrer-form', '/jobs', album, ...sectionPages.map((p) => p.path)])]

// One test per page: each gets its own time budget, and a failure names the page.
for (const path of publicPaths) {
	test(`${path} passes axe-core, shows its heading, has one meta description${interactive.has(path) ? '' : '; it ships no JavaScript'}`, async ({ page }) => {
		const response = await page.goto(path)
		expect(response?.status()).toBe(200)
		await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
		await expectOneDescription(page)
		expect(await page.locator('script[src]').count(), `script files on ${path}`).toBe(0)
		if (!interactive.has(path)) expect(await page.locator('script').count(), `scripts on ${path}`).toBe(0)
		await expectNoAxeViolations(page)
	})
}

/** Search results and shared links show it: one per page, in the head, saying something. */
async function expectOneDescription(page: Page) {
	const description = page.locator('head meta[name="description"]')
	await expect(description).toHaveCount(1)
	expect((await description.getAttribute('content'))?.trim().length, `meta description of ${page.url()}`).toBeGreaterThan(10)
}

test('a news item and an album, reached from their lists, have their own meta description', async ({ page }) => {
	for (const [list, link] of [
		['/news', 'main a[href^="/news/"]'],
		['/gallery', 'main a[href^="/gallery/"]:not([href="/gallery/videos"])'],
	] as const) {
		await page.goto(list)
		await page.locator(link).first().click()
		await expectOneDescription(page)
	}
})

test('an unknown address gets a 404 page inside the site frame', async ({ page }) => {
	const response = await page.goto('/no-such-page')
	expect(response?.status()).toBe(404)
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('الصفحة غير موجودة')
	await expect(page.getByRole('banner')).toBeVisible()
	await expectNoAxeViolations(page)
	expect((await page.request.get('/services/no-such-programme')).status()).toBe(404)
})

test('every old path of the previous site answers 301 to its new path', async ({ request }) => {
	for (const row of legacyRoutes) {
		const from = row.from.replace(':id', '42')
		const response = await request.get(from, { maxRedirects: 0 })
		expect(response.status(), from).toBe(301)
		expect(response.headers()['location'], from).toBe(row.to.replace(':id', '42'))
		// Followed, it lands on a page: public pages answer 200, admin ones send a visitor to sign in.
		const landed = await request.get(from)
		const url = new URL(landed.url())
		if (row.to === '/news/:id') continue // a news item exists only once news is published
		expect(landed.status(), from).toBe(200)
		if (row.to.startsWith('/admin')) expect(url.pathname).toBe('/login')
	}
	const withQuery = await request.get('/CEOSpeech?ref=old', { maxRedirects: 0 })
	expect(withQuery.headers()['location']).toBe('/chairman-speech?ref=old')
	const deep = await request.get('/backend/anything/else/7', { maxRedirects: 0 })
	expect(deep.headers()['location']).toBe('/admin')
})

test('signed in, each old back-office screen lands on its own screen, not the dashboard', async ({ pageAs }) => {
	const staff = await pageAs('admin')
	for (const row of legacyRoutes.filter((candidate) => candidate.from.startsWith('/backend/') && candidate.from !== '/backend/home')) {
		const from = row.from.replace(':id', '42')
		const response = await staff.goto(from)
		expect(response?.status(), from).toBe(200)
		const landed = new URL(staff.url())
		expect(`${landed.pathname}${landed.search}`, from).toBe(row.to)
		expect(landed.pathname, from).not.toBe('/admin')
	}
	const withQuery = await staff.request.get('/backend/YearReport?page=2', { maxRedirects: 0 })
	expect(withQuery.headers()['location']).toBe('/admin/content/documents?category=yearly&page=2')
	await staff.context().close()
})

test('paths that differ from ours only by letter case are served, not redirected', async ({ request }) => {
	for (const path of ['/News', '/Contact', '/Gallery', '/policies', '/']) {
		const response = await request.get(path, { maxRedirects: 0 })
		expect(response.status(), path).toBe(200)
	}
})

test('hashed assets are cached as immutable and responses are compressed', async ({ page, pageAs, request }) => {
	// A page without script carries the stylesheet itself (one request fewer on a slow network);
	// pages that hydrate, as the back office, link it.
	await page.goto('/')
	expect(await page.locator('head style').count()).toBe(1)
	expect(await page.locator('link[rel="stylesheet"]').count()).toBe(0)
	const staff = await pageAs('admin')
	await staff.goto('/admin')
	const css = await staff.locator('link[rel="stylesheet"]').first().getAttribute('href')
	const response = await request.get(css!, { headers: { 'Accept-Encoding': 'gzip' } })
	expect(response.headers()['cache-control']).toContain('immutable')
	expect(response.headers()['content-encoding']).toBe('gzip')
	const home = await request.get('/', { headers: { 'Accept-Encoding': 'gzip' } })
	expect(home.headers()['content-encoding']).toBe('gzip')
	expect(home.headers()['content-security-policy']).toContain("frame-ancestors 'none'")
})

test('/healthz answers 200', async ({ request }) => {
	const response = await request.get('/healthz')
	expect(response.status()).toBe(200)
	expect(await response.text()).toBe('ok')
})
