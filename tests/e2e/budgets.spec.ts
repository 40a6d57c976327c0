import { expect, test, type Page } from '@playwright/test'
import { sectionPages } from '#app/site/site-map.ts'

// What a public page costs a phone, in compressed bytes as the browser received them (the
// Resource Timing API's encodedBodySize): bytes are deterministic, so these are tests, not
// benchmarks. The budgets are in docs/product.md#business-constants.

const KB = 1000
const budgets = { html: 30 * KB, css: 30 * KB, font: 60 * KB, interactiveJs: 100 * KB }
/** Pages whose JavaScript is their point (the home page's slider and announcement). */
const interactive = new Set(['/'])
/** A seeded album (app/content/gallery/seed-gallery.server.ts): its photo viewer is an inline script, no file. */
const album = '/gallery/ramadan-food-baskets'
const paths = [...new Set(['/', '/about', '/contact', '/jobs', '/services/needy-families', '/login', '/account/login', album, ...sectionPages.map((page) => page.path)])]

async function bytesOf(page: Page) {
	return page.evaluate(() => {
		const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[]
		const sizes = { html: navigation?.encodedBodySize ?? 0, js: 0, css: 0, font: 0, fonts: 0 }
		for (const entry of performance.getEntriesByType('resource') as PerformanceResourceTiming[]) {
			const path = new URL(entry.name).pathname
			if (path.endsWith('.js')) sizes.js += entry.encodedBodySize
			else if (path.endsWith('.css')) sizes.css += entry.encodedBodySize
			else if (path.endsWith('.woff2')) {
				sizes.font += entry.encodedBodySize
				sizes.fonts++
			}
		}
		return sizes
	})
}

for (const path of paths) {
	test(`${path} keeps to its byte budget and asks nothing of another host`, async ({ page, baseURL }) => {
		const foreign: string[] = []
		page.on('request', (request) => {
			if (new URL(request.url()).origin !== new URL(baseURL!).origin) foreign.push(request.url())
		})
		await page.goto(path, { waitUntil: 'load' })
		// Fonts the text asks for (not only the preloaded ones) count too.
		await page.evaluate(async () => {
			await document.fonts.ready
		})
		const sizes = await bytesOf(page)
		expect(sizes.html, 'HTML, compressed').toBeGreaterThan(0)
		expect(sizes.html, 'HTML, compressed').toBeLessThanOrEqual(budgets.html)
		expect(sizes.css, 'CSS, compressed').toBeLessThanOrEqual(budgets.css)
		expect(sizes.fonts, 'font files').toBeGreaterThan(0)
		expect(sizes.font, 'fonts, compressed').toBeLessThanOrEqual(budgets.font)
		expect(sizes.js, 'JavaScript, compressed').toBeLessThanOrEqual(interactive.has(path) ? budgets.interactiveJs : 0)
		expect(foreign, 'requests to other hosts').toEqual([])
	})
}
