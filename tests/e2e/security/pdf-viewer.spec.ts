// A stored PDF, served under the sandbox policy, still shows in Chromium's PDF viewer: in the staff
// case view's frame and opened with «عرض» on a public page. The viewer is the whole browser's; the
// headless shell every other browser test drives downloads a PDF instead (scripts/lib/test-machine.mjs).
import type { APIRequestContext, Page } from '@playwright/test'
import { chromiumArgs, wholeChromium } from '../../../scripts/lib/test-machine.mjs'
import { submitCaseAsStaff } from '../case-fixtures.ts'
import { expect, staffState, test, unique } from '../utils.ts'
import { expectStoredFileHeaders } from './stored-files.ts'

test.use({ launchOptions: { executablePath: wholeChromium(), args: chromiumArgs } })

let visitor: APIRequestContext
let admin: APIRequestContext

test.beforeAll(async ({ playwright }, testInfo) => {
	const baseURL = testInfo.project.use.baseURL!
	;[visitor, admin] = await Promise.all([playwright.request.newContext({ baseURL }), playwright.request.newContext({ baseURL, storageState: staffState('admin') })])
})

test.afterAll(async () => {
	await Promise.all([visitor, admin].map((context) => context?.dispose()))
})

/**
 * Chromium's PDF viewer has drawn the document in `page`: its extension frame holds a frame of the
 * file's own address whose page area (#sizer) has the size of the pages. A viewer that was blocked
 * (as in a frame with a sandbox attribute) leaves an error page instead.
 */
async function expectPdfShown(page: Page) {
	const drawn = async () => {
		for (const frame of page.frames()) {
			if (!frame.parentFrame()?.url().startsWith('chrome-extension://')) continue
			const height = await frame.evaluate(() => document.querySelector('#sizer')?.getBoundingClientRect().height ?? 0).catch(() => 0)
			if (height > 100) return true
		}
		return false
	}
	await expect.poll(drawn, { timeout: 15_000 }).toBe(true)
}

test('the staff case view still previews a PDF in its frame, under the sandbox policy', async ({ pageAs }) => {
	const submitted = await submitCaseAsStaff(admin, { name: `معاينة ${unique()}` })
	// The page's own Content-Security-Policy applies here, as for staff.
	const page = await pageAs('case_officer', { bypassCSP: false })
	await page.goto(`/admin/cases/${submitted.reference}`)
	const item = page.getByRole('listitem').filter({ hasText: 'هوية-المتقدم.pdf' })
	const href = (await item.getByRole('link', { name: /^تنزيل/ }).getAttribute('href'))!
	const inline = await page.request.get(`${href}?inline=1`)
	expectStoredFileHeaders(inline.headers(), 'inline', 'self')
	expectStoredFileHeaders((await page.request.get(href)).headers(), 'attachment')
	await item.locator('summary').filter({ hasText: 'معاينة' }).click()
	await expect(item.locator('iframe')).toBeVisible()
	await expectPdfShown(page)
})

test('a published PDF opened with «عرض» shows in the viewer, under the sandbox policy', async ({ pageAs }) => {
	const visitorPage = await pageAs('visitor', { bypassCSP: false })
	const workshops = await (await visitor.get('/reports/workshops')).text()
	const documentHref = /href="(\/documents\/[0-9a-f-]{36})\?view"/.exec(workshops)![1]!
	await visitorPage.goto(`${documentHref}?view`)
	await expectPdfShown(visitorPage)
})
