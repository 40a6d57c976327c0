// A stored PDF, served under the sandbox policy, still shows in Chromium's PDF viewer: in the staff
// case view's frame and opened with «عرض» on a public page. The viewer is the whole browser's; the
// headless shell every other browser test drives downloads a PDF instead (scripts/lib/test-machine.mjs).
import type { APIRequestContext, Page } from '@playwright/test'
import { PDFDocument } from 'pdf-lib'
import { inspectPdf } from '#app/storage/pdf-active-content.server.ts'
import { UNSAFE_PDF } from '#app/storage/upload-messages.ts'
import { encodedVariants, type EncodedVariant } from '#tests/fixtures/pdf-encoded-variants.ts'
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

test('a PDF whose script or links hide behind an encoding is refused, or kept made again: nothing of it acts in the staff download or the viewer', async ({ pageAs }) => {
	test.setTimeout(240_000)
	// Each variant alone in a document of its own, as an applicant sends a statement: four slots a case.
	const slots = ['proof_of_residence', 'referrer_form', 'bank_statement', 'other']
	const variants = encodedVariants()
	const name = (variant: EncodedVariant) => `كشف-${variant.id}.pdf`
	const kept: { reference: string; variant: EncodedVariant }[] = []
	for (let start = 0; start < variants.length; start += slots.length) {
		const accepted: EncodedVariant[] = []
		const submitted = await submitCaseAsStaff(admin, {
			name: `متغيرات ${unique()}`,
			beforeSubmit: async (token) => {
				for (const [index, variant] of variants.slice(start, start + slots.length).entries()) {
					const response = await admin.post(`/apply/r/${token}/files/upload`, { multipart: { slot: slots[index]!, file: { name: name(variant), mimeType: 'application/pdf', buffer: Buffer.from(variant.bytes) } }, headers: { Accept: 'application/json' } })
					if (response.status() === 200) accepted.push(variant)
					else expect(await response.json(), variant.id).toMatchObject({ ok: false, error: 'unsafe-pdf', message: UNSAFE_PDF })
				}
			},
		})
		kept.push(...accepted.map((variant) => ({ reference: submitted.reference, variant })))
	}
	// The first refusal refuses what hides a script, however it is packed; the rest are kept.
	expect(kept.map(({ variant }) => variant.id)).toEqual(variants.filter((variant) => !variant.refused).map((variant) => variant.id))

	const page = await pageAs('case_officer', { bypassCSP: false })
	const dialogs: string[] = []
	page.on('dialog', async (dialog) => {
		dialogs.push(dialog.message())
		await dialog.dismiss()
	})
	for (const { reference, variant } of kept) {
		await page.goto(`/admin/cases/${reference}`)
		const item = page.getByRole('listitem').filter({ hasText: name(variant) })
		const href = (await item.getByRole('link', { name: /^تنزيل/ }).getAttribute('href'))!
		// The staff download: a PDF of ours, its one page, nothing in its catalog but its pages, no link on the page.
		const bytes = await (await page.request.get(href)).body()
		expect(inspectPdf(bytes), variant.id).toEqual({ ok: true })
		const read = await PDFDocument.load(bytes, { updateMetadata: false })
		expect([read.getProducer(), read.getPageCount(), read.catalog.keys().map((key) => key.decodeText()).sort()], variant.id).toEqual(['Ataa', 1, ['Pages', 'Type']])
		expect(read.getPage(0).node.Annots(), variant.id).toBeUndefined()
		for (const word of ['evil.example', 'app.alert']) expect(bytes.toString('latin1'), variant.id).not.toContain(word)
		// The viewer draws it, and nothing runs or opens.
		await item.locator('summary').filter({ hasText: 'معاينة' }).click()
		await expectPdfShown(page)
	}
	expect(dialogs).toEqual([])
	expect(page.context().pages()).toHaveLength(1)
})
