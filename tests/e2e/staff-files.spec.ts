import { jpeg } from '#tests/fixtures/attack-files.ts'
import { minimalPdf } from '#tests/fixtures/pdf.ts'
import { studyForm } from '#tests/fixtures/needy-families.ts'
import { expect, expectNoAxeViolations, staffState, test, unique } from './utils.ts'
import { submitCaseAsStaff } from './case-fixtures.ts'

// The files staff keep on a case (docs/product.md#the-social-study, #payment): the researcher adds a
// home visit's photos from the study page, finance keeps the photographed receipt of aid in kind
// handed over. Staff open them from the case view; the applicant's private link never serves them.
test.use({ storageState: staffState('case_officer') })

const photoFile = async (name: string) => ({ name, mimeType: 'image/jpeg', buffer: Buffer.from(await jpeg()) })

test('the researcher adds the visit\'s photos while writing the report, without losing what was typed; the applicant cannot open them', async ({ page, pageAs }) => {
	const family = await submitCaseAsStaff(page.request, { name: `أم سعد ${unique()}` })
	await page.goto(`/admin/cases/${family.reference}/study`)
	await page.getByLabel('من قابلتم').fill('الأم وبناتها')
	const photos = page.getByRole('region', { name: 'صور الزيارة' })
	await photos.getByLabel('أضف صوراً من الكاميرا أو المعرض').setInputFiles([await photoFile('kitchen.jpg'), await photoFile('roof.jpg')])
	await photos.getByRole('button', { name: 'إضافة الصور' }).click()
	await expect(photos.getByRole('status')).toHaveText('أُضيفت صورتان.')
	await expect(photos.getByRole('img', { name: /^صورة الزيارة/ })).toHaveCount(2)
	// The report being typed is still there.
	await expect(page.getByLabel('من قابلتم')).toHaveValue('الأم وبناتها')
	await expectNoAxeViolations(page)

	// A PDF is not a photo: refused, in words; the two photos stay.
	await photos.getByLabel('أضف صوراً من الكاميرا أو المعرض').setInputFiles({ name: 'scan.pdf', mimeType: 'application/pdf', buffer: Buffer.from(minimalPdf()) })
	await photos.getByRole('button', { name: 'إضافة الصور' }).click()
	await expect(photos.getByRole('status')).toContainText('الملف ليس صورة')
	await expect(photos.getByRole('img', { name: /^صورة الزيارة/ })).toHaveCount(2)

	// One removed.
	await photos.getByRole('button', { name: 'حذف صورة الزيارة 2' }).click()
	await expect(photos.getByRole('status')).toHaveText('حُذفت الصورة')
	await expect(photos.getByRole('img', { name: /^صورة الزيارة/ })).toHaveCount(1)

	// The case view shows it with the study; it opens for staff as a picture without the phone's metadata…
	await page.goto(`/admin/cases/${family.reference}`)
	const study = page.getByRole('region', { name: 'الدراسة الاجتماعية' })
	await expect(study).toContainText('صور الزيارة (1)')
	const src = await study.getByRole('img', { name: 'صورة الزيارة 1' }).getAttribute('src')
	const opened = await page.request.get(src!)
	expect([opened.status(), opened.headers()['content-type']]).toEqual([200, 'image/webp'])
	// …but is not one of the applicant's files: their private link has no such file, and does not list it.
	const fileId = /\/files\/([0-9a-f-]{36})/.exec(src!)![1]
	const applicant = await pageAs('visitor')
	expect((await applicant.request.get(`/apply/r/${family.token}/files/${fileId}`)).status()).toBe(404)
	await applicant.goto(`/apply/r/${family.token}`)
	await expect(applicant.locator('main')).not.toContainText('kitchen')
})

test.describe('without JavaScript', () => {
	test.use({ javaScriptEnabled: false })

	test('a photo sent from the study page comes back listed, with the notice', async ({ page }) => {
		const family = await submitCaseAsStaff(page.request, { name: `أم نواف ${unique()}` })
		await page.goto(`/admin/cases/${family.reference}/study`)
		const photos = page.getByRole('region', { name: 'صور الزيارة' })
		await photos.getByLabel('أضف صوراً من الكاميرا أو المعرض').setInputFiles(await photoFile('door.jpg'))
		await photos.getByRole('button', { name: 'إضافة الصور' }).click()
		await expect(page).toHaveURL(new RegExp(`/admin/cases/${family.reference}/study#photos$`))
		await expect(photos.getByRole('status')).toHaveText('أُضيفت صورة واحدة.')
		await expect(photos.getByRole('img', { name: 'صورة الزيارة 1' })).toBeVisible()
	})
})

test('finance keeps the photographed receipt of a food basket handed over; the case view opens it', async ({ page, pageAs }) => {
	const family = await submitCaseAsStaff(page.request, { name: `أبو مازن ${unique()}` })
	expect((await page.request.post(`/admin/cases/${family.reference}/study`, { form: studyForm({ aidKind: 'food_basket', aidAmount: '450' }), maxRedirects: 0 })).status()).toBe(302)
	expect((await page.request.post(`/admin/cases/${family.reference}`, { form: { intent: 'status', to: '2', note: 'زار الباحث الأسرة' }, maxRedirects: 0 })).status()).toBe(302)
	// Room in this year's budget of the families' programme (the same ceiling the aid cycle's test sets).
	const admin = await pageAs('admin')
	const year = String(new Date(Date.now() + 3 * 3600_000).getUTCFullYear())
	expect((await admin.request.post('/admin/funds', { form: { intent: 'budget', year, programme: 'needy-families', fund: 'all', allocated: '999999999' }, maxRedirects: 0 })).status()).toBe(302)
	const approver = await pageAs('approver')
	await approver.goto(`/admin/cases/${family.reference}`)
	await approver.locator('summary', { hasText: 'اعتماد الدعم' }).click()
	// The general fund: zakat asks a category the study names and money the fund received (docs/product.md#zakat, #money-in).
	await approver.getByLabel('الصندوق').selectOption({ label: 'صندوق الصدقات والتبرعات العامة' })
	await approver.getByRole('button', { name: 'اعتماد الدعم' }).click()
	await expect(approver.locator('main header')).toContainText('معتمد بانتظار الصرف')

	const finance = await pageAs('finance')
	await finance.goto('/admin/payments')
	const due = finance.getByRole('listitem').filter({ has: finance.getByRole('link', { name: family.reference }) })
	await due.getByLabel(/^سلّمها/).fill('فريق التوزيع')
	await due.getByLabel(/^صورة الإيصال أو النموذج الموقّع/).setInputFiles(await photoFile('receipt.jpg'))
	await due.getByRole('button', { name: /^تسجيل التسليم/ }).click()
	await expect(finance.getByRole('status')).toContainText('تم تسجيل تسليم المساعدة')

	await finance.goto(`/admin/cases/${family.reference}`)
	const decision = finance.getByRole('region', { name: 'قرار لجنة الصرف' })
	await expect(decision.getByRole('table')).toContainText('سُلِّمت')
	const receipt = await finance.request.get((await decision.getByRole('link', { name: /^الإيصال/ }).getAttribute('href'))!)
	expect([receipt.status(), receipt.headers()['content-type']]).toEqual([200, 'image/webp'])
})
