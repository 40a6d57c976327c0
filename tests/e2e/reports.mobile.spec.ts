// /admin/reports on a phone (issue 37 §2.11): at 375 px the chart fits the screen and each group's
// name shows whole (a long one wraps on a line of its own above its bar); the table scrolls inside
// its own region. The page is drawn on the server, so this holds without script too.
import { expect, test } from '@playwright/test'
import { submitCaseAsStaff } from './case-fixtures.ts'
import { staffState, unique } from './utils.ts'

test.use({ storageState: staffState('admin') })

test('at 375px the report by fund and by city has no sideways scroll, and every group name is whole', async ({ page }) => {
	// A case sent this year with a long city: a group in both groupings (its fund is «بلا صندوق …» until decided).
	const city = `مدينة الملك عبدالله الاقتصادية بمحافظة رابغ ${unique()}`
	await submitCaseAsStaff(page.request, { city })
	const year = new Date(Date.now() + 3 * 3_600_000).getUTCFullYear()
	for (const [by, name] of [
		['fund', 'بلا صندوق (قبل القرار أو مسجل يدوياً)'],
		['city', city],
	] as const) {
		await page.goto(`/admin/reports?year=${year}&by=${by}`)
		const chart = page.getByRole('region', { name: /^المصروف في/ })
		await expect(chart.getByText(name, { exact: true })).toBeVisible()
		expect(await page.evaluate(() => document.documentElement.scrollWidth), by).toBeLessThanOrEqual(375)
		// Each name in the chart is shown whole: none cut, none wider than its box, none past the screen.
		for (const label of await chart.locator('li > span:first-child').all()) {
			const box = await label.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth, right: element.getBoundingClientRect().right, left: element.getBoundingClientRect().left }))
			expect(box.scroll, `${by}: ${await label.textContent()}`).toBeLessThanOrEqual(box.client)
			expect(box.left).toBeGreaterThanOrEqual(0)
			expect(box.right).toBeLessThanOrEqual(375)
		}
		await page.screenshot({ path: test.info().outputPath(`reports-${by}-375.png`), fullPage: true })
	}
})
