import { expect, test, type Page } from '@playwright/test'
import { pdfOfSize } from '#tests/fixtures/pdf.ts'
import { randomNationalId } from '#tests/fixtures/needy-families.ts'
import { answerConsent, next, onStep } from './apply-steps.ts'

// The form engine as an applicant meets it: a birth date in the future, optional choices that start
// empty, a missing file linked to its upload control, file sizes and the upload limit in decimal
// units, and check-your-answers showing only what was given.

const pdf = (name: string, size: number) => ({ name, mimeType: 'application/pdf', buffer: Buffer.from(pdfOfSize(size)) })
const summary = (page: Page) => page.getByRole('alert').filter({ hasText: 'يوجد خطأ في البيانات المدخلة' })

test('an application through the engine: dates, optional choices, missing files, sizes and the answers shown', async ({ page }) => {
	test.setTimeout(120_000)
	await page.goto('/apply/needy-families/new')

	// 1-1: a birth date after today is refused, and its summary line leads to the date field.
	await onStep(page, 'البيانات الأساسية')
	await page.getByLabel('الاسم الرباعي').fill('عبدالله محمد سعد القحطاني')
	await page.getByLabel('رقم الهوية أو الإقامة').fill(randomNationalId())
	await page.getByLabel('رقم الجوال', { exact: true }).fill('0551234567')
	await page.getByLabel('تاريخ الميلاد').fill('2030-01-01')
	await next(page)
	const futureDate = summary(page).getByRole('link', { name: 'تاريخ الميلاد لا يمكن أن يكون بعد اليوم' })
	await expect(futureDate).toBeVisible()
	await futureDate.click()
	await expect(page.getByLabel('تاريخ الميلاد')).toBeFocused()
	await page.getByLabel('تاريخ الميلاد').fill('1985-03-14')
	await next(page)
	await expect(page.getByText('تم حفظ بياناتك وإنشاء طلبك.')).toBeVisible()
	await page.getByRole('link', { name: 'متابعة الطلب' }).click()
	await answerConsent(page)

	// 1-2: the first bank starts on the first bank (required); the optional second one on «اختر».
	await onStep(page, 'البيانات البنكية')
	const base = page.url().replace(/\/bank$/, '')
	await expect(page.getByLabel('البنك', { exact: true })).toHaveValue('snb')
	await expect(page.getByLabel('البنك الثاني (اختياري)')).toHaveValue('')
	// An IBAN of the Saudi National Bank (code 10), the bank it starts on.
	await page.getByLabel('رقم الحساب (الآيبان)').fill('SA1510000000608010167519')
	await next(page)

	await onStep(page, 'الوضع المالي')
	await page.getByLabel('صافي دخل الأسرة الشهري (ريال)').fill('2500')
	await next(page)

	// 1-4: a member's optional choices start empty, so nothing is stored that was not chosen.
	await onStep(page, 'أفراد الأسرة')
	for (const label of ['المستوى التعليمي', 'الحالة الاجتماعية', 'الحالة الصحية']) await expect(page.getByLabel(label)).toHaveValue('')
	await expect(page.getByRole('radio', { checked: true })).toHaveCount(0)
	await page.getByLabel('الاسم').fill('نورة')
	await page.getByLabel('صلة القرابة').selectOption({ label: 'زوجة' })
	await page.getByRole('button', { name: 'إضافة', exact: true }).click()
	await expect(page.getByText('أفراد الأسرة (1)')).toBeVisible()
	await next(page)

	// 1-5: each referrer's capacity is asked for, not assumed to be «شيخ القبيلة».
	await onStep(page, 'بيانات المعرّفين')
	for (const index of [1, 2, 3]) {
		const person = page.getByRole('group', { name: `المعرّف ${index}` })
		await person.getByLabel('الاسم').fill(`معرّف ${index}`)
		await person.getByLabel('العنوان الوطني').fill(`RRSA${1000 + index}`)
		await expect(person.getByLabel('صفة المعرّف')).toHaveValue('')
	}
	await next(page)
	await expect(summary(page)).toContainText('المعرّف 1: الرجاء اختيار صفة المعرّف')
	for (const [index, type] of [
		[1, 'إمام أقرب مسجد'],
		[2, 'أخرى'],
		[3, 'أخرى'],
	] as const) {
		await page.getByRole('group', { name: `المعرّف ${index}` }).getByLabel('صفة المعرّف').selectOption({ label: type })
	}
	await next(page)

	await onStep(page, 'الخدمات المطلوبة')
	await next(page)

	// 1-7: a missing file is a link to its upload control, like every other error.
	await onStep(page, 'المرفقات ورسالة المستفيد')
	await next(page)
	const missingIdentity = summary(page).getByRole('link', { name: 'الرجاء إرفاق صورة الهوية أو الإقامة' })
	await expect(missingIdentity).toHaveAttribute('href', '#upload-identity')
	await expect(summary(page).getByRole('link', { name: 'الرجاء إرفاق سجل الأسرة' })).toHaveAttribute('href', '#upload-family_report')
	await missingIdentity.click()
	const identity = page.getByRole('region', { name: /صورة الهوية أو الإقامة/ })
	await expect(identity.getByLabel(/اختر ملف PDF/)).toBeFocused()

	// The limit is said in the units sizes are shown in, and is the limit the server keeps.
	await expect(identity).toContainText('صورة أو ملف PDF (JPEG أو PNG أو WebP أو HEIC)، حتى 10 ميغابايت')
	await identity.getByLabel(/اختر ملف PDF/).setInputFiles(pdf('كبير.pdf', 10_000_001))
	await identity.getByRole('button', { name: 'رفع الملف' }).click()
	await expect(identity.getByRole('alert')).toHaveText(/حجم الملف أكبر من 10 ميغابايت\. اختر ملفاً أصغر\./)
	const upload = (slot: string, size: number) =>
		page.request.post(`${base}/files/upload`, { headers: { Accept: 'application/json' }, multipart: { slot, file: pdf(`${size}.pdf`, size) } })
	expect(await (await upload('other', 10_000_001)).json()).toEqual({ ok: false, error: 'too-large', message: 'حجم الملف أكبر من 10 ميغابايت. اختر ملفاً أصغر.' })
	expect((await upload('other', 10_000_000)).status()).toBe(200)

	// A refused file leaves its input; a file chosen but not sent with «رفع الملف» holds the step, saying so.
	await expect(identity.getByLabel(/اختر ملف PDF/)).toHaveJSProperty('value', '')
	await page.getByRole('region', { name: /سجل الأسرة/ }).getByLabel(/اختر ملف PDF/).setInputFiles(pdf('سجل.pdf', 2_000))
	await next(page)
	await expect(page.getByRole('alert').filter({ hasText: 'ولم يُرفع بعد' })).toContainText('«سجل.pdf»')
	await expect(page.getByRole('region', { name: /سجل الأسرة/ }).getByLabel(/اختر ملف PDF/)).toBeFocused()
	await onStep(page, 'المرفقات ورسالة المستفيد')

	// The size shown is the PDF as kept, made again (docs/security.md#uploads): its padding gone, its one page
	// left, in decimal units (a 52,163-byte file reads 52 KB: app/text/format.test.ts).
	await identity.getByLabel(/اختر ملف PDF/).setInputFiles(pdf('هوية.pdf', 52_163))
	await identity.getByRole('button', { name: 'رفع الملف' }).click()
	await expect(identity.getByRole('listitem').filter({ hasText: 'هوية.pdf' })).toContainText(/ملف PDF من صفحة واحدة، \d+ بايت/)
	const family = page.getByRole('region', { name: /سجل الأسرة/ })
	await family.getByLabel(/اختر ملف PDF/).setInputFiles(pdf('سجل.pdf', 2_000))
	await family.getByRole('button', { name: 'رفع الملف' }).click()
	await expect(family.getByRole('listitem').filter({ hasText: 'سجل.pdf' })).toContainText(/ملف PDF من صفحة واحدة، \d+ بايت/)
	await next(page)

	// Check your answers: the second bank was never given, so it is not shown as the first bank.
	await onStep(page, 'راجع بياناتك قبل الإرسال')
	await expect(page.locator('dt:text-is("البنك") + dd')).toHaveText('البنك الأهلي السعودي')
	await expect(page.locator('dt:text-is("البنك الثاني (اختياري)") + dd')).toHaveText('—')
	await expect(page.locator('dt:text-is("تاريخ الميلاد") + dd')).toHaveText('14 مارس 1985م (22 جمادى الآخرة 1405هـ)')
	const member = page.locator('div', { has: page.locator('dt', { hasText: 'فرد 1' }) }).last()
	await expect(member).toContainText('نورة')
	await expect(member).not.toContainText('الحالة الصحية')
	await expect(member).not.toContainText('الجنس')
})
