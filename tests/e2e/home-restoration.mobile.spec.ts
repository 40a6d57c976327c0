import sharp from 'sharp'
import { minimalPdf } from '#tests/fixtures/pdf.ts'
import { randomNationalId } from '#tests/fixtures/needy-families.ts'
import { expect, expectNoAxeViolations, test } from './utils.ts'
import { expectErrors, lookUp, next, onStep, startWithSharedSteps } from './apply-steps.ts'

const pdf = (name: string) => ({ name, mimeType: 'application/pdf', buffer: Buffer.from(minimalPdf()) })

test('a family asks for its home to be restored on a phone: housing choices, photos of the house, submit, lookup', async ({ page, pageAs }) => {
	test.setTimeout(120_000)
	const nationalId = randomNationalId()
	// A photo as a phone takes it: a JPEG with its camera's metadata.
	const photo = await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#b08d57' } })
		.jpeg()
		.withMetadata({ exif: { IFD0: { Make: 'PhoneCam' } } })
		.toBuffer()

	await startWithSharedSteps(page, 'home-restoration', { nationalId, netIncome: '1800', firstStepLabel: 'طلب ترميم منزل — الخطوة 1 من 6' })

	// 3-4: three choices, each starting on the old system's default; ownership and kind were asked in step 1, not again here.
	await onStep(page, 'بيانات السكن')
	await expectNoAxeViolations(page)
	await expect(page.getByLabel('حالة المنزل')).toHaveValue('good')
	await expect(page.getByLabel('ملكية السكن')).toHaveCount(0)
	await expect(page.getByLabel('التكلفة التقديرية للترميم')).toHaveValue('500-1500')
	await page.getByLabel('حالة المنزل').selectOption({ label: 'متهالك' })
	await page.getByLabel('التكلفة التقديرية للترميم').selectOption({ label: 'من 5,000 إلى 15,000 ريال' })
	await next(page)

	// 3-5: documents as PDF, the house as photos; a text file dressed as a photo is refused.
	await onStep(page, 'مرفقات السكن ورسالة المستفيد')
	await next(page)
	await expectErrors(page, 'الرجاء إرفاق صورة الهوية أو الإقامة', 'الرجاء إرفاق صك الملكية أو عقد الإيجار', 'الرجاء إرفاق صور المنزل')
	for (const [slot, file] of [
		['صورة الهوية أو الإقامة', pdf('هوية.pdf')],
		['صك الملكية أو عقد الإيجار', pdf('صك.pdf')],
	] as const) {
		const region = page.getByRole('region', { name: new RegExp(slot) })
		await region.getByLabel(/اختر ملف PDF/).setInputFiles(file)
		await region.getByRole('button', { name: 'رفع الملف' }).click()
		await expect(region.getByRole('listitem').filter({ hasText: file.name })).toBeVisible()
	}
	const photos = page.getByRole('region', { name: /صور المنزل/ })
	await expect(photos.getByText(/صورة أو ملف PDF \(JPEG أو PNG أو WebP أو HEIC\)/)).toBeVisible()
	await photos.getByLabel(/اختر ملف PDF أو صورة/).setInputFiles({ name: 'fake.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('only text, not a photo') })
	await photos.getByRole('button', { name: 'رفع الملف' }).click()
	await expect(photos.getByRole('alert')).toHaveText(/الملف ليس صورة ولا PDF/)
	await photos.getByLabel(/اختر ملف PDF أو صورة/).setInputFiles({ name: 'واجهة المنزل.jpg', mimeType: 'image/jpeg', buffer: photo })
	await photos.getByRole('button', { name: 'رفع الملف' }).click()
	// Kept re-encoded, as WebP without the camera's metadata.
	const kept = photos.getByRole('listitem').filter({ hasText: 'واجهة المنزل.webp' })
	await expect(kept).toContainText('صورة')
	const href = await kept.getByRole('link', { name: /عرض/ }).getAttribute('href')
	const served = await page.request.get(href!)
	expect(served.headers()['content-type']).toBe('image/webp')
	const metadata = await sharp(await served.body()).metadata()
	expect(metadata.format).toBe('webp')
	expect(metadata.exif).toBeUndefined()
	await expectNoAxeViolations(page)
	await next(page)

	await expect(page.getByRole('heading', { level: 1 })).toHaveText('راجع بياناتك قبل الإرسال')
	await expect(page.locator('main')).toContainText('متهالك')
	await page.getByLabel(/أقر بأن جميع البيانات/).check()
	await page.getByRole('button', { name: 'إرسال الطلب' }).click()
	await expect(page).toHaveURL(/\/done$/)
	await expect(page.locator('main')).toContainText('لترتيب زيارة المنزل')

	const visitor = await pageAs('visitor')
	await lookUp(visitor, nationalId)
	await expect(visitor.locator('main')).toContainText('طلب ترميم منزل')

	// Staff see the photo in the case.
	const officer = await pageAs('case_officer')
	await officer.goto(`/admin/cases?q=${nationalId}`)
	await officer.getByRole('link', { name: 'عبدالله محمد سعد القحطاني' }).click()
	await expect(officer.getByRole('region', { name: 'بيانات السكن' })).toContainText('من 5,000 إلى 15,000 ريال')
	await officer.locator('summary', { hasText: 'واجهة المنزل' }).click()
	await expect(officer.getByRole('img', { name: /واجهة المنزل/ })).toBeVisible()
})
