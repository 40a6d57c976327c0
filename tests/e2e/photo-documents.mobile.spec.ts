import { PDFDocument, PDFName, type PDFRawStream, type PDFDict } from 'pdf-lib'
import sharp from 'sharp'
import type { Page } from '@playwright/test'
import { applyForNeedyFamilies, plantedApplicant } from './apply-journey.ts'
import { submitCaseAsStaff } from './case-fixtures.ts'
import { expect, test, unique } from './utils.ts'

// Documents from a phone's camera (docs/decisions/015-documents-from-photos.md), at 375 px: a family
// gives every document as photos, two of them with two pages, and staff open each as one PDF with
// its pages in the order given; pages move and go with and without JavaScript.

/** A phone photo of a page: `width` × `height`, its colour, EXIF orientation 1 and the phone's make. */
async function photo(name: string, width: number, height: number, colour: string) {
	const buffer = await sharp({ create: { width, height, channels: 3, background: colour } })
		.jpeg({ quality: 90 })
		.withExif({ IFD0: { Make: 'ThePhoneMaker', Model: 'Cheap-1' } })
		.toBuffer()
	return { name, mimeType: 'image/jpeg', buffer }
}

/** Each page of a PDF: the pixel size of the photo drawn on it, or «pdf» for a page of a PDF drawn whole. */
function pagesOf(pdf: PDFDocument): string[] {
	return pdf.getPages().map((page) => {
		const objects = page.node.Resources()?.lookup(PDFName.of('XObject')) as PDFDict | undefined
		const [name] = objects?.keys() ?? []
		if (!name) return 'blank'
		const object = pdf.context.lookup(objects!.get(name)) as PDFRawStream
		return object.dict.get(PDFName.of('Subtype'))?.toString() === '/Image' ? `${object.dict.get(PDFName.of('Width'))}x${object.dict.get(PDFName.of('Height'))}` : 'pdf'
	})
}

/** Adds `files` to the slot named `label`, one after another, as a family does with the camera. */
async function addPages(page: Page, label: RegExp, files: Awaited<ReturnType<typeof photo>>[], already = 0) {
	const region = page.getByRole('region', { name: label })
	for (const [index, file] of files.entries()) {
		await region.getByLabel(/اختر ملف PDF أو صورة/).setInputFiles(file)
		await region.getByRole('button', { name: 'رفع الملف' }).click()
		await expect(region.getByRole('list', { name: /صفحات/ }).getByRole('listitem')).toHaveCount(already + index + 1)
	}
	return region
}

test('a family gives every document as photos on a phone, two with two pages; staff open each as one PDF of its pages, in order', async ({ page, pageAs }) => {
	test.setTimeout(300_000)
	const documents = [
		{ label: 'صورة الهوية أو الإقامة', pages: [await photo('front.jpg', 600, 380, '#a33'), await photo('back.jpg', 620, 380, '#33a')] },
		{ label: 'سجل الأسرة', pages: [await photo('record-1.jpg', 400, 560, '#3a3'), await photo('record-2.jpg', 410, 560, '#aa3')] },
		{ label: 'إثبات السكن', pages: [await photo('lease.jpg', 420, 560, '#3aa')] },
		{ label: 'كشف حساب بنكي', pages: [await photo('bank.jpg', 430, 560, '#a3a')] },
		{ label: 'نموذج المعرّف موقعاً', pages: [await photo('referrer.jpg', 440, 560, '#777')] },
		{ label: 'مرفقات أخرى', pages: [await photo('other.jpg', 450, 560, '#555')] },
	]
	const planted = plantedApplicant(unique())
	const { reference } = await applyForNeedyFamilies(page, planted, {
		async attach(page) {
			for (const document of documents) {
				const region = await addPages(page, new RegExp(document.label), document.pages)
				// Cleaned and made one PDF after the answer: the step shows the document once it is.
				await expect(region.getByRole('link', { name: new RegExp(`^عرض ${document.label}: ملف PDF من ${document.pages.length === 2 ? 'صفحتين' : 'صفحة واحدة'}`) })).toBeVisible({ timeout: 30_000 })
				await expect(region.getByRole('img', { name: /الصفحة 1 من/ })).toBeVisible()
			}
		},
	})

	const staff = await pageAs('case_officer')
	await staff.goto(`/admin/cases/${reference}`)
	const files = staff.getByRole('region', { name: 'المرفقات ورسالة المستفيد' })
	for (const document of documents) {
		const name = `${document.label}.pdf`
		await expect(files.getByRole('listitem').filter({ hasText: name })).toContainText(`PDF من ${document.pages.length === 2 ? 'صفحتين' : 'صفحة واحدة'}`)
		const href = (await files.getByRole('link', { name: `تنزيل ${name}` }).getAttribute('href'))!
		const response = await staff.request.get(href)
		expect(response.headers()['content-type']).toBe('application/pdf')
		const bytes = await response.body()
		const pdf = await PDFDocument.load(bytes, { updateMetadata: false })
		// Each photo on its page, in the order given; nothing of the phone in the file.
		expect(pagesOf(pdf), name).toEqual(await Promise.all(document.pages.map(async (file) => `${(await sharp(file.buffer).metadata()).width}x${(await sharp(file.buffer).metadata()).height}`)))
		expect(bytes.includes('ThePhoneMaker'), name).toBe(false)
	}
	// The pages went once the application was sent: only the documents are kept.
	await expect(files.getByText(/front\.jpg|record-1\.jpg/)).toHaveCount(0)
})

for (const javaScriptEnabled of [true, false]) {
	test(`pages move earlier and later and are removed ${javaScriptEnabled ? 'with' : 'without'} JavaScript; the document follows`, async ({ pageAs }) => {
		test.setTimeout(180_000)
		const { request } = await pageAs('case_officer')
		// A draft whose identity already holds one PDF page (the fixture's).
		const draft = await submitCaseAsStaff(request, { submit: false })
		const page = await pageAs('visitor', { javaScriptEnabled, viewport: { width: 375, height: 740 } })
		await page.goto(`/apply/r/${draft.token}/files`)
		const region = await addPages(page, /صورة الهوية أو الإقامة/, [await photo('a.jpg', 600, 380, '#a33'), await photo('b.jpg', 500, 500, '#33a')], 1)
		const items = region.getByRole('list', { name: /صفحات/ }).getByRole('listitem')
		await expect(items).toHaveCount(3)
		// The PDF first, then a, then b. Move the PDF one place later: a, PDF, b.
		await region.getByRole('button', { name: 'تأخير الصفحة 1' }).click()
		await expect(page.getByText('تم نقل الصفحة')).toBeVisible()
		await expect(items.first()).not.toContainText('.pdf')
		// Remove b, now page 3.
		await region.getByRole('button', { name: 'حذف الصفحة 3' }).click()
		await expect(page.getByText('تم حذف الصفحة')).toBeVisible()
		await expect(items).toHaveCount(2)
		// The document is made again: a then the PDF's page. Without JavaScript, the page is asked again.
		const link = region.getByRole('link', { name: /^عرض صورة الهوية أو الإقامة: ملف PDF من صفحتين/ })
		await expect(async () => {
			if (!javaScriptEnabled) await page.reload()
			await expect(link).toBeVisible({ timeout: 2_000 })
		}).toPass({ timeout: 30_000 })
		const pdf = await PDFDocument.load(await (await page.request.get((await link.getAttribute('href'))!)).body(), { updateMetadata: false })
		expect(pagesOf(pdf)).toEqual(['600x380', expect.stringMatching(/^(pdf|blank)$/)])
		await page.context().close()
	})
}
