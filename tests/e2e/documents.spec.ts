import { minimalPdf } from '../fixtures/pdf.ts'
import { expect, expectNoAxeViolations, staffState, test, unique } from './utils.ts'

// The documents library and the basic regulation (docs/product.md#documents-library). `page` is a
// visitor; staff work through pageAs('content_editor'). Uploads go into their own category under
// unique titles, and counts are «at least» the demo's, since other tests may add files meanwhile.

const pages = [
	{ path: '/policies', atLeast: 20 },
	{ path: '/reports/financial', atLeast: 10 },
	{ path: '/reports/workshops', atLeast: 30 },
	{ path: '/reports/yearly', atLeast: 4 },
	{ path: '/governance/2022', atLeast: 13 },
	{ path: '/governance/2023', atLeast: 12 },
	{ path: '/governance/2024', atLeast: 12 },
	{ path: '/projects/2022', atLeast: 4 },
	{ path: '/projects/2023', atLeast: 2 },
]

for (const { path, atLeast } of pages) {
	test(`${path} lists its files; «عرض» opens a PDF in a new tab; no JavaScript; axe-core clean`, async ({ page }) => {
		expect((await page.goto(path))?.status()).toBe(200)
		const views = page.getByRole('link', { name: /^عرض/ })
		expect(await views.count()).toBeGreaterThanOrEqual(atLeast)
		await expect(views.first()).toHaveAttribute('target', '_blank')
		await expect(views.first()).toHaveAttribute('rel', 'noopener')
		// The link says what it opens, its size and that it is a PDF.
		await expect(views.first()).toHaveAccessibleName(/ملف PDF، .*(كيلوبايت|بايت|ميغابايت)\)، يفتح في نافذة جديدة/)
		const href = (await views.first().getAttribute('href'))!
		expect(href).toMatch(/^\/documents\/[0-9a-f-]+\?view$/)
		const pdf = await page.request.get(href)
		expect(pdf.status()).toBe(200)
		expect(pdf.headers()['content-type']).toBe('application/pdf')
		expect(pdf.headers()['content-disposition']).toMatch(/^inline;/)
		expect(new TextDecoder().decode((await pdf.body()).subarray(0, 5))).toBe('%PDF-')
		const download = await page.request.get(href.replace('?view', ''))
		expect(download.headers()['content-disposition']).toMatch(/^attachment;/)
		expect(await page.locator('script').count()).toBe(0)
		await expectNoAxeViolations(page)
	})
}

test('governance 2023 shows the stored numbers 1 to 11 and 13, never 12', async ({ page }) => {
	await page.goto('/governance/2023')
	const numbers = await page.getByRole('region', { name: /جدول/ }).locator('tbody tr td:first-child').allTextContents()
	expect(numbers.slice(0, 12).map(Number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13])
})

test('2023 supported projects are cards that lead to the association-support application', async ({ page }) => {
	await page.goto('/projects/2023')
	const cards = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2 }) })
	expect(await cards.count()).toBeGreaterThanOrEqual(2)
	await expect(cards.first().getByRole('link', { name: 'قدّم طلب دعم جمعية' })).toHaveAttribute('href', '/apply/association-support')
})

test('financial reports are grouped by year: four quarterly and one annual', async ({ page }) => {
	await page.goto('/reports/financial')
	const year = page.getByRole('region', { name: 'التقارير المالية 2024' })
	await expect(year.locator('tbody tr')).toHaveCount(5)
	await expect(year).toContainText('الربع الرابع')
	await expect(year).toContainText('السنوية المدققة')
})

test('the basic regulation shows one page image at a time with the Arabic paginator, without JavaScript', async ({ page }) => {
	await page.goto('/basic-regulation?page=2')
	await expect(page.getByRole('img', { name: 'صفحة 2 من اللائحة الأساسية' })).toBeVisible()
	const pager = page.getByRole('navigation', { name: 'التنقل بين الصفحات' })
	await expect(pager.getByRole('link', { name: 'السابق' })).toHaveAttribute('href', '/basic-regulation?page=1')
	await expect(pager.getByRole('link', { name: 'التالي' })).toHaveAttribute('href', '/basic-regulation?page=3')
	// At most five page links, around the current one.
	expect(await pager.getByRole('link', { name: /^الصفحة \d+$/ }).count()).toBeLessThanOrEqual(4)
	await expect(pager.locator('[aria-current="page"]')).toHaveText('الصفحة 2')
	const full = page.getByRole('link', { name: /عرض الصورة بحجمها الكامل/ })
	expect((await page.request.get((await full.getAttribute('href'))!)).headers()['content-type']).toBe('image/webp')
	expect(await page.locator('script').count()).toBe(0)
	await expectNoAxeViolations(page)
	await pager.getByRole('link', { name: 'التالي' }).click()
	await expect(page.getByRole('img', { name: 'صفحة 3 من اللائحة الأساسية' })).toBeVisible()
})

test.describe('staff', () => {
	test.use({ storageState: staffState('content_editor') })

	test('the documents list is filtered by category, keeps it in its pages, and is axe-core clean', async ({ page }) => {
		await page.goto('/admin/content/documents')
		await page.getByRole('navigation', { name: /أقسام/ }).getByRole('link', { name: 'تقارير ورش العمل' }).click()
		await expect(page).toHaveURL(/category=workshops/)
		await expect(page.getByRole('link', { name: 'تقارير ورش العمل' })).toHaveAttribute('aria-current', 'page')
		const table = page.getByRole('region', { name: /جدول/ })
		await expect(table.locator('tbody tr')).toHaveCount(8)
		await expect(table.locator('tbody')).not.toContainText('السياسات واللوائح')
		await expectNoAxeViolations(page)
		await page.getByRole('navigation', { name: 'التنقل بين الصفحات' }).getByRole('link', { name: 'التالي' }).click()
		await expect(page).toHaveURL(/category=workshops.*page=2|page=2.*category=workshops/)
		await expect(table.locator('tbody')).toContainText('تقرير ورشة عمل')
		// «Add» starts in the category of the tab.
		await page.getByRole('link', { name: 'إضافة مستند' }).click()
		await expect(page.getByLabel('القسم')).toHaveValue('workshops')
		await expectNoAxeViolations(page)
	})

	test('two PDFs uploaded at once appear on the public page; a fake PDF and an oversized one are refused, storing nothing', async ({ page, pageAs }) => {
		const tag = unique()
		await page.goto('/admin/content/documents?category=yearly')
		const form = page.getByRole('region', { name: 'رفع عدة ملفات مرة واحدة' })
		await expect(form.getByLabel('القسم')).toHaveValue('yearly')
		await form.getByLabel('الملفات').setInputFiles([
			{ name: `تقرير أول ${tag}.pdf`, mimeType: 'application/pdf', buffer: Buffer.from(minimalPdf()) },
			{ name: `تقرير ثان ${tag}.pdf`, mimeType: 'application/pdf', buffer: Buffer.from(minimalPdf(40)) },
		])
		await form.getByRole('button', { name: 'رفع الملفات' }).click()
		await expect(page.getByRole('status')).toHaveText('تم رفع ملفين إلى «التقارير السنوية».')
		await expect(page).toHaveURL(/category=yearly/)
		const visitor = await pageAs('visitor')
		await visitor.goto('/reports/yearly')
		for (const title of [`تقرير أول ${tag}`, `تقرير ثان ${tag}`]) {
			const row = visitor.getByRole('row').filter({ hasText: title })
			const href = (await row.getByRole('link', { name: /^عرض/ }).getAttribute('href'))!
			expect((await visitor.request.get(href)).headers()['content-type']).toBe('application/pdf')
		}

		// HTML named .pdf: refused by its bytes, with JavaScript (the progress bar's request)…
		await form.getByLabel('الملفات').setInputFiles({ name: `مزيف ${tag}.pdf`, mimeType: 'application/pdf', buffer: Buffer.from('<!doctype html><html><body>not a pdf</body></html>') })
		await form.getByRole('button', { name: 'رفع الملفات' }).click()
		await expect(form.getByRole('alert')).toHaveText(`خطأ: «مزيف ${tag}.pdf»: الملف ليس PDF. اختر ملفاً بصيغة PDF.`)
		await expectNoAxeViolations(page)
		// … too large (DOCUMENT_MAX_MB is 1 in the test server): said before anything is sent.
		await form.getByLabel('الملفات').setInputFiles({ name: `كبير ${tag}.pdf`, mimeType: 'application/pdf', buffer: Buffer.alloc(1_100_000, 0x25) })
		await form.getByRole('button', { name: 'رفع الملفات' }).click()
		await expect(form.getByRole('alert')).toContainText('حجم الملف أكبر من 1 ميغابايت')

		// … and without JavaScript, where the list itself answers.
		const plain = await pageAs('content_editor', { javaScriptEnabled: false })
		await plain.goto('/admin/content/documents?category=yearly')
		await plain.getByLabel('الملفات').setInputFiles({ name: `مزيف آخر ${tag}.pdf`, mimeType: 'application/pdf', buffer: Buffer.from('<html>not a pdf</html>') })
		await plain.getByRole('button', { name: 'رفع الملفات' }).click()
		await expect(plain.getByRole('alert').filter({ hasText: 'الملف ليس PDF' })).toBeVisible()

		await visitor.goto('/reports/yearly')
		await expect(visitor.getByRole('row').filter({ hasText: tag })).toHaveCount(2)
		await page.goto('/admin/content/documents?category=yearly')
		await expect(page.getByRole('region', { name: /جدول/ })).not.toContainText('مزيف')
	})

	test('a yearly report uploaded for a new year is listed first on the public page, above the seeded 2024 … 2021', async ({ page, pageAs }) => {
		const tag = unique()
		await page.goto('/admin/content/documents?category=yearly')
		const form = page.getByRole('region', { name: 'رفع عدة ملفات مرة واحدة' })
		await form.getByLabel('الملفات').setInputFiles({ name: `التقرير السنوي 2025 ${tag}.pdf`, mimeType: 'application/pdf', buffer: Buffer.from(minimalPdf()) })
		await form.getByRole('button', { name: 'رفع الملفات' }).click()
		await expect(page.getByRole('status')).toHaveText('تم رفع ملف واحد إلى «التقارير السنوية».')
		const visitor = await pageAs('visitor')
		await visitor.goto('/reports/yearly')
		const rows = await visitor.locator('tbody tr').allInnerTexts()
		const uploaded = rows.findIndex((text) => text.includes(tag))
		expect(uploaded).toBeGreaterThanOrEqual(0)
		expect(rows[uploaded]).toContain('2025')
		for (const year of [2024, 2021]) expect(uploaded).toBeLessThan(rows.findIndex((text) => text.includes(`التقرير السنوي لأعمال المؤسسة ${year}`)))
	})

	test('an oversized upload is answered 413 with the limit in Arabic (the editor before reading its body), and nothing is stored', async ({ page }) => {
		await page.goto('/admin/content/documents/new?category=policies')
		const big = { name: 'كبير.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(1_200_000, 0x25) }
		const bulk = await page.request.post('/admin/content/documents/upload', { headers: { Accept: 'application/json' }, multipart: { category: 'policies', files: big } })
		expect(bulk.status()).toBe(413)
		expect(await bulk.json()).toEqual({ ok: false, message: '«كبير.pdf»: حجم الملف أكبر من 1 ميغابايت. اختر ملفاً أصغر.' })
		// Last: the editor's early answer closes the connection.
		const editor = await page.request.post('/admin/content/documents/new', { multipart: { category: 'policies', title: `كبير ${unique()}`, 'file-upload': big } })
		expect(editor.status()).toBe(413)
		expect(await editor.text()).toContain('حجم الملف أكبر من 1 ميغابايت')
		await page.goto('/admin/content/documents?category=policies')
		await expect(page.getByRole('region', { name: /جدول/ })).not.toContainText('كبير')
	})
})
