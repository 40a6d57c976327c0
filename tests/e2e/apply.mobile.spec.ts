import { minimalPdf } from '#tests/fixtures/pdf.ts'
import { randomNationalId } from '#tests/fixtures/needy-families.ts'
import { expect, expectNoAxeViolations, test } from './utils.ts'
import { answerConsent, expectErrors, fillBasic, fillReferrer, next, onStep } from './apply-steps.ts'

const pdf = (name: string) => ({ name, mimeType: 'application/pdf', buffer: Buffer.from(minimalPdf()) })
const fakePdf = { name: 'fake.pdf', mimeType: 'application/pdf', buffer: Buffer.from('this is only text pretending to be a PDF') }

// Applications stay open throughout: pausing and closing them is tested in site-wide.spec.ts, once
// every other test has finished.

test('a family applies on a phone: every step, its errors, files, check and submit; then the lookup shows it', async ({ page, pageAs }) => {
	// The whole journey (seven steps, their errors, four uploads): a longer budget than one screen's.
	test.setTimeout(120_000)
	const nationalId = randomNationalId()
	await page.goto('/apply/needy-families')
	await expectNoAxeViolations(page)
	await page.getByRole('link', { name: 'ابدأ الطلب' }).click()

	// 1-1 basic info
	await onStep(page, 'البيانات الأساسية')
	await next(page)
	await expectErrors(page, 'الرجاء كتابة الاسم الرباعي', 'الرجاء كتابة رقم الهوية', 'الرجاء كتابة رقم الجوال')
	await expect(page.getByRole('alert').getByRole('link', { name: 'الرجاء كتابة الاسم الرباعي' })).toHaveAttribute('href', /^#/)
	await expectNoAxeViolations(page)
	await fillBasic(page, '1000000000')
	await next(page)
	await expectErrors(page, 'رقم الهوية غير صحيح')
	await page.getByLabel('رقم الهوية أو الإقامة').fill(nationalId)
	await next(page)

	// The private link and the reference, shown once the case exists.
	// No e-mail was given: nothing is said about sending the link anywhere.
	await expect(page.getByRole('status')).toHaveText('تم حفظ بياناتك وإنشاء طلبك.')
	await expect(page.locator('main')).not.toContainText('بريدك')
	const reference = (await page.locator('strong[dir="ltr"]').textContent())!.trim()
	expect(reference).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/)
	const privateUrl = (await page.getByText(/\/apply\/r\//).textContent())!.trim()
	await expectNoAxeViolations(page)
	await page.getByRole('link', { name: 'متابعة الطلب' }).click()

	// The consent step before the bank details (docs/product.md#privacy-and-consent).
	await answerConsent(page)
	// 1-2 bank
	await onStep(page, 'البيانات البنكية')
	await expect(page.getByLabel('رقم الحساب (الآيبان)')).toHaveValue('SA')
	await next(page)
	await expectErrors(page, 'الرجاء كتابة رقم الحساب (الآيبان)')
	// The IBAN is at Al Rajhi (bank code 80): the bank chosen beside it must be that bank.
	await page.getByLabel('البنك', { exact: true }).selectOption({ label: 'مصرف الراجحي' })
	await page.getByLabel('رقم الحساب (الآيبان)').fill('SA03 8000 0000 6080 1016 7519')
	await next(page)

	// 1-3 financial
	await onStep(page, 'الوضع المالي')
	await next(page)
	await expectErrors(page, 'الرجاء كتابة صافي دخل الأسرة الشهري')
	await page.getByLabel('صافي دخل الأسرة الشهري (ريال)').fill('2500')
	await next(page)

	// 1-4 family members: none is not enough; add two, delete one.
	await onStep(page, 'أفراد الأسرة')
	await next(page)
	await expectErrors(page, 'الرجاء إضافة فرد واحد على الأقل')
	await page.getByRole('button', { name: 'إضافة', exact: true }).click()
	await expectErrors(page, 'الرجاء كتابة الاسم', 'الرجاء اختيار صلة القرابة')
	await page.getByLabel('الاسم').fill('نورة')
	await page.getByLabel('صلة القرابة').selectOption({ label: 'زوجة' })
	await page.getByLabel('العمر').fill('38')
	await page.getByRole('button', { name: 'إضافة', exact: true }).click()
	await expect(page.getByText('أفراد الأسرة (1)')).toBeVisible()
	// The add form is empty again for the next member.
	await expect(page.getByLabel('الاسم')).toHaveValue('')
	await page.getByLabel('الاسم').fill('سعد')
	await page.getByLabel('صلة القرابة').selectOption({ label: 'ابن' })
	await page.getByRole('button', { name: 'إضافة', exact: true }).click()
	await expect(page.getByText('أفراد الأسرة (2)')).toBeVisible()
	await page.getByRole('button', { name: 'حذف فرد 2' }).click()
	await expect(page.getByText('أفراد الأسرة (1)')).toBeVisible()
	await expect(page.locator('#rows')).not.toContainText('سعد')
	await next(page)

	// 1-5 three referrers, at least one official.
	await onStep(page, 'بيانات المعرّفين')
	await expect(page.getByRole('link', { name: /نموذج المعرّف للطباعة/ })).toHaveAttribute('href', '/apply/referrer-form')
	await next(page)
	await expectErrors(page, 'المعرّف 1: الرجاء كتابة الاسم')
	await fillReferrer(page, 1, 'جار الأسرة', 'أخرى')
	await fillReferrer(page, 2, 'صديق العائلة', 'أخرى')
	await fillReferrer(page, 3, 'قريب', 'أخرى')
	await next(page)
	await expectErrors(page, 'يجب أن يكون أحد المعرّفين على الأقل معرّفاً رسمياً')
	await fillReferrer(page, 1, 'الشيخ فهد العتيبي', 'شيخ القبيلة')
	await next(page)

	// 1-6 services: nothing is required, but «other» needs its text.
	await onStep(page, 'الخدمات المطلوبة')
	await page.getByLabel('سلة غذائية').check()
	await page.getByRole('checkbox', { name: 'خدمات أخرى' }).check()
	await next(page)
	await expectErrors(page, 'الرجاء كتابة خدمات أخرى')
	await page.getByRole('checkbox', { name: 'خدمات أخرى' }).uncheck()
	await next(page)

	// 1-7 files: the required ones first; a text file dressed as PDF is refused.
	await onStep(page, 'المرفقات ورسالة المستفيد')
	await next(page)
	await expectErrors(page, 'الرجاء إرفاق صورة الهوية أو الإقامة', 'الرجاء إرفاق سجل الأسرة')
	const identity = page.getByRole('region', { name: /صورة الهوية أو الإقامة/ })
	await identity.getByLabel(/اختر ملف PDF/).setInputFiles(fakePdf)
	await identity.getByRole('button', { name: 'رفع الملف' }).click()
	await expect(identity.getByRole('alert')).toHaveText(/الملف ليس صورة ولا PDF/)
	await identity.getByLabel(/اختر ملف PDF/).setInputFiles(pdf('هوية.pdf'))
	await identity.getByRole('button', { name: 'رفع الملف' }).click()
	await expect(identity.getByRole('listitem').filter({ hasText: 'هوية.pdf' })).toBeVisible()
	// Announced in the files' live region, and only once: a reload does not repeat it.
	await expect(identity.getByRole('status')).toHaveText('تمت إضافة الملف بنجاح')
	expect(page.url()).not.toContain('uploaded')
	await page.reload()
	await expect(identity.getByRole('status')).toHaveText('')
	const family = page.getByRole('region', { name: /سجل الأسرة/ })
	await family.getByLabel(/اختر ملف PDF/).setInputFiles(pdf('سجل.pdf'))
	await family.getByRole('button', { name: 'رفع الملف' }).click()
	await expect(family.getByRole('listitem').filter({ hasText: 'سجل.pdf' })).toBeVisible()
	const fileHref = await identity.getByRole('link', { name: /عرض/ }).getAttribute('href')
	const download = await page.request.get(fileHref!)
	expect(download.status()).toBe(200)
	// «عرض» shows a PDF in the browser (its link asks ?inline=1), still sandboxed and never sniffed.
	expect(download.headers()['content-disposition']).toMatch(/^inline; /)
	expect(download.headers()['x-content-type-options']).toBe('nosniff')
	expect((await download.body()).subarray(0, 5).toString()).toBe('%PDF-')
	await expectNoAxeViolations(page)
	await page.getByLabel('رسالة المستفيد (اختياري)').fill('نرجو النظر في حالتنا.')
	await next(page)

	// Check your answers, then submit with the acknowledgement.
	await onStep(page, 'راجع بياناتك قبل الإرسال')
	await expect(page.getByText('نورة')).toBeVisible()
	await expect(page.getByText('الشيخ فهد العتيبي')).toBeVisible()
	await expectNoAxeViolations(page)
	await page.getByRole('button', { name: 'إرسال الطلب' }).click()
	await expectErrors(page, 'الرجاء الإقرار بصحة البيانات قبل إرسال الطلب')
	await page.getByLabel(/أقر بأن جميع البيانات/).check()
	await page.getByRole('button', { name: 'إرسال الطلب' }).click()
	await onStep(page, 'تم إرسال طلبك')
	await expect(page.getByText(reference)).toBeVisible()

	// Submitted: the steps no longer open for editing.
	await page.goto(`${privateUrl}/financial`)
	await expect(page).toHaveURL(privateUrl)
	await expect(page.getByText('جديد', { exact: true })).toBeVisible()

	// The lookup shows it as new, without the private link.
	await page.goto('/apply/status')
	await page.getByLabel('رقم الهوية أو رقم الترخيص').fill(nationalId)
	await page.getByLabel('رقم الجوال').fill('0551234567')
	await page.getByRole('button', { name: 'استعلام' }).click()
	const result = page.getByRole('listitem').filter({ hasText: reference })
	await expect(result).toContainText('جديد')
	await expect(result).toContainText('طلب دعم الأسر المحتاجة')
	await expect(page.locator('body')).not.toContainText('/apply/r/')
	await expectNoAxeViolations(page)

	// A second application with the same ID is refused and creates nothing.
	await page.goto('/apply/needy-families/new')
	await onStep(page, 'البيانات الأساسية')
	await fillBasic(page, nationalId)
	await next(page)
	await expectErrors(page, 'المستفيد مسجل مسبقاً')
	await expect(page.getByRole('link', { name: 'استعلم عن حالة طلبك' })).toHaveAttribute('href', '/apply/status')

	// Another browser without the token sees nothing.
	const other = await pageAs('visitor')
	const forgedToken = 'A'.repeat(43)
	expect((await other.goto(`/apply/r/${forgedToken}`))?.status()).toBe(404)
	expect((await other.request.get(fileHref!.replace(/\/apply\/r\/[^/]+/, `/apply/r/${forgedToken}`))).status()).toBe(404)
	const forged = await other.request.post('/apply/needy-families/new', { headers: { Origin: 'http://evil.example' }, form: { Full_Name: 'x' } })
	expect(forged.status()).toBe(403)

	// Case officers see the submitted application in the back office.
	const staff = await pageAs('case_officer')
	await staff.goto('/admin/cases')
	await expect(staff.getByRole('row', { name: new RegExp(reference) })).toContainText('جديد')
	await expectNoAxeViolations(staff)
})

test('the same application works with JavaScript turned off, up to the confirmation', async ({ pageAs }) => {
	const page = await pageAs('visitor', { javaScriptEnabled: false, viewport: { width: 375, height: 740 } })
	const nationalId = randomNationalId()
	await page.goto('/apply/needy-families/new')
	await next(page)
	await expectErrors(page, 'الرجاء كتابة الاسم الرباعي')
	await fillBasic(page, nationalId)
	await next(page)
	await expect(page.getByText('تم حفظ بياناتك وإنشاء طلبك.')).toBeVisible()
	await page.getByRole('link', { name: 'متابعة الطلب' }).click()

	await answerConsent(page)
	await onStep(page, 'البيانات البنكية')
	// The IBAN is at Al Rajhi (bank code 80): the bank chosen beside it must be that bank.
	await page.getByLabel('البنك', { exact: true }).selectOption({ label: 'مصرف الراجحي' })
	await page.getByLabel('رقم الحساب (الآيبان)').fill('SA0380000000608010167519')
	await next(page)
	await onStep(page, 'الوضع المالي')
	await page.getByLabel('صافي دخل الأسرة الشهري (ريال)').fill('1800')
	await next(page)

	await onStep(page, 'أفراد الأسرة')
	await page.getByLabel('الاسم').fill('فاطمة')
	await page.getByLabel('صلة القرابة').selectOption({ label: 'ابنة' })
	await page.getByRole('button', { name: 'إضافة', exact: true }).click()
	await expect(page.getByText('أفراد الأسرة (1)')).toBeVisible()
	await next(page)

	await onStep(page, 'بيانات المعرّفين')
	await fillReferrer(page, 1, 'عمدة الحي', 'عمدة الحي أو القرية')
	await fillReferrer(page, 2, 'جار', 'أخرى')
	await fillReferrer(page, 3, 'قريب', 'أخرى')
	await next(page)

	await onStep(page, 'الخدمات المطلوبة')
	await page.getByRole('checkbox', { name: 'خدمات أخرى' }).check()
	await next(page)
	await expectErrors(page, 'الرجاء كتابة خدمات أخرى')
	await page.getByLabel('خدمات أخرى: اذكرها').fill('ثلاجة')
	await next(page)

	await onStep(page, 'المرفقات ورسالة المستفيد')
	for (const [slot, name] of [
		['صورة الهوية أو الإقامة', 'id.pdf'],
		['سجل الأسرة', 'family.pdf'],
	] as const) {
		const region = page.getByRole('region', { name: new RegExp(slot) })
		await region.getByLabel(/اختر ملف PDF/).setInputFiles(pdf(name))
		await region.getByRole('button', { name: 'رفع الملف' }).click()
		await expect(page.getByRole('region', { name: new RegExp(slot) }).getByRole('listitem').filter({ hasText: name })).toBeVisible()
	}
	// A fake PDF is refused here too, with the reason on the page.
	const other = page.getByRole('region', { name: /مرفقات أخرى/ })
	await other.getByLabel(/اختر ملف PDF/).setInputFiles(fakePdf)
	await other.getByRole('button', { name: 'رفع الملف' }).click()
	await expect(page.getByRole('region', { name: /مرفقات أخرى/ }).getByRole('alert')).toHaveText(/الملف ليس صورة ولا PDF/)
	await next(page)

	await onStep(page, 'راجع بياناتك قبل الإرسال')
	await page.getByLabel(/أقر بأن جميع البيانات/).check()
	await page.getByRole('button', { name: 'إرسال الطلب' }).click()
	await onStep(page, 'تم إرسال طلبك')
})

test('a staff member filling in a form for a family may accept an ID that fails the checksum, with a reason', async ({ page, pageAs }) => {
	const valid = randomNationalId()
	const failing = `${valid.slice(0, 9)}${(Number(valid[9]) + 1) % 10}`
	// Applicants are never offered the override.
	await page.goto('/apply/needy-families/new')
	await expect(page.getByText('للموظفين فقط')).toHaveCount(0)

	const staff = await pageAs('case_officer')
	await staff.goto('/apply/needy-families/new')
	await onStep(staff, 'البيانات الأساسية')
	await fillBasic(staff, failing)
	await next(staff)
	await expectErrors(staff, 'رقم الهوية غير صحيح، تأكد من كتابته كما في البطاقة')
	await staff.getByLabel(/قبول رقم الهوية رغم عدم اجتيازه التحقق/).check()
	await next(staff)
	await expectErrors(staff, 'الرجاء كتابة سبب قبول رقم الهوية')
	await staff.getByLabel('سبب القبول').fill('طابقنا الرقم مع بطاقة الأحوال الأصلية')
	await next(staff)
	await expect(staff.getByText('تم حفظ بياناتك وإنشاء طلبك.')).toBeVisible()
})
