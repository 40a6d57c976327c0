import ExcelJS from 'exceljs'
import { parse } from 'csv-parse/sync'
import type { Page } from '@playwright/test'
import { expectNoAxeViolations, expect, staffState, test, unique } from './utils.ts'
import { recordStudyAs, submitCaseAsStaff } from './case-fixtures.ts'
import { lookUp } from './apply-steps.ts'
import { minimalPdf } from '#tests/fixtures/pdf.ts'

// Case management as the foundation's staff do it (docs/product.md#case-statuses).
test.use({ storageState: staffState('case_officer') })

/** The case view's form that moves the case to `status` (one folded section per allowed status). */
async function openStatusForm(page: Page, status: string) {
	const form = page.locator('details', { has: page.locator('summary', { hasText: `إلى «${status}»` }) })
	await form.locator('summary').click()
	return form
}

test('a case officer finds a case, reads it, studies it, proposes its aid to the committee, and the applicant sees it', async ({ page, pageAs }) => {
	const family = `آل ${unique()}`
	const mobile = `05${String(Date.now() % 1e8).padStart(8, '0')}`
	const submitted = await submitCaseAsStaff(page.request, { name: `أحمد موسى ${family}`, mobile })
	// Another applicant with the same mobile: a sign of a second application.
	const twin = await submitCaseAsStaff(page.request, { name: `سعد ${family}`, mobile })

	await page.goto('/admin/cases')
	await expectNoAxeViolations(page)
	// Hamza and alef maqsura folded: «احمد موسي» finds «أحمد موسى».
	await page.getByLabel('بحث').fill(`احمد موسي ${family}`)
	await page.getByLabel('الحالة', { exact: true }).selectOption({ label: 'جديد' })
	await page.getByRole('button', { name: 'عرض النتائج' }).click()
	await expect(page).toHaveURL(/status=1/)
	const rows = page.getByRole('region', { name: 'جدول الطلبات' }).getByRole('row')
	await expect(rows).toHaveCount(2)
	await page.getByRole('link', { name: submitted.reference, exact: true }).click()

	await expect(page.getByRole('heading', { level: 1 })).toHaveText(`أحمد موسى ${family}`)
	await expectNoAxeViolations(page)
	await expect(page.getByRole('region', { name: 'البيانات البنكية' })).toContainText('SA0380000000608010167519')
	await expect(page.getByRole('region', { name: 'أفراد الأسرة' }).getByRole('table')).toContainText('نورة')
	await expect(page.getByRole('region', { name: 'المرفقات ورسالة المستفيد' })).toContainText('هوية-المتقدم.pdf')
	const flags = page.getByRole('region', { name: 'تنبيهات تكرار محتمل' })
	await expect(flags).toContainText('رقم الجوال نفسه في طلب متقدم آخر')
	await expect(flags.getByRole('listitem').filter({ hasText: 'رقم الجوال نفسه' }).getByRole('link', { name: new RegExp(twin.reference) })).toBeVisible()
	const download = await page.request.get(await page.getByRole('link', { name: /^تنزيل هوية-المتقدم/ }).getAttribute('href') ?? '')
	expect(download.headers()['content-type']).toBe('application/pdf')

	// The researcher plans the home visit for tomorrow; the family is told, and it is on «زياراتي».
	const visits = page.getByRole('region', { name: 'زيارة الأسرة' })
	await visits.getByText('تحديد موعد زيارة').click()
	await visits.getByLabel('اليوم').fill(new Date(Date.now() + 27 * 3600_000).toISOString().slice(0, 10))
	await visits.getByLabel('الساعة').fill('16:30')
	await visits.getByRole('button', { name: 'تحديد الموعد' }).click()
	await expect(page.getByRole('status')).toContainText('تم تحديد موعد الزيارة')
	await expect(page.getByRole('region', { name: 'زيارة الأسرة' })).toContainText('الساعة 4:30 مساءً')
	await page.goto('/admin/visits')
	await expect(page.getByRole('listitem').filter({ hasText: submitted.reference })).toContainText('4:30 مساءً')
	await expectNoAxeViolations(page)
	await page.goto(`/admin/cases/${submitted.reference}`)

	// «تمت الدراسة» asks for the study first; the researcher records it on the visit's form.
	const studied = await openStatusForm(page, 'تمت الدراسة')
	await expect(studied).toContainText('سجّل الدراسة وتوصيتها أولاً')
	await page.getByRole('region', { name: 'الدراسة الاجتماعية' }).getByRole('link', { name: 'تسجيل الدراسة' }).click()
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('الدراسة الاجتماعية')
	await expectNoAxeViolations(page)
	await page.getByLabel('من قابلتم').fill('الأم وابنها الأكبر')
	await page.getByLabel('حالة المسكن (اختياري)').selectOption({ label: 'متهالك' })
	await page.getByLabel('خلاصة الدراسة').fill('أسرة من خمسة أفراد بلا دخل ثابت')
	await page.getByRole('radio', { name: 'دعم الحالة' }).check()
	await page.getByRole('button', { name: 'حفظ الدراسة' }).click()
	// Nothing typed is lost when the proposed aid is missing.
	await expect(page.getByRole('alert').getByRole('link', { name: 'الرجاء اختيار نوع المساعدة المقترحة' })).toBeVisible()
	await expect(page.getByLabel('خلاصة الدراسة')).toHaveValue('أسرة من خمسة أفراد بلا دخل ثابت')
	await page.getByLabel('نوع المساعدة').selectOption({ label: 'دعم نقدي' })
	await page.getByLabel('المبلغ بالريال').fill('1500')
	await page.getByRole('radio', { name: 'مرة واحدة' }).check()
	await page.getByRole('button', { name: 'حفظ الدراسة' }).click()
	await expect(page.getByRole('status')).toContainText('تم تسجيل الدراسة')
	await expect(page.getByRole('region', { name: 'الدراسة الاجتماعية' })).toContainText('التوصية: دعم الحالة')

	const study = await openStatusForm(page, 'تمت الدراسة')
	await study.getByLabel('ملاحظة داخلية (سبب التغيير)').fill('زار الباحث الأسرة وتحقق من الوضع')
	await study.getByRole('button', { name: 'تغيير الحالة إلى «تمت الدراسة»' }).click()
	await expect(page.getByRole('status')).toContainText('تم تغيير الحالة إلى «تمت الدراسة»')

	// No money by the officer's hand: aid is proposed to the committee, and nothing is given yet.
	await expect(page.getByRole('region', { name: 'تغيير الحالة' })).toContainText('لا يمكن تغيير حالة هذا الطلب من حالته الحالية.')
	const proposal = page.getByRole('region', { name: 'اقتراح دعم على لجنة الصرف' })
	await proposal.getByLabel('المبلغ بالريال').fill('1500')
	await proposal.getByLabel('نوع الدعم').selectOption({ label: 'دعم نقدي' })
	await proposal.getByLabel('سبب الاقتراح (للجنة)').fill('إيجار متأخر ثلاثة أشهر')
	await proposal.getByRole('button', { name: 'إرسال الاقتراح إلى لجنة الصرف' }).click()
	await expect(page.getByRole('status')).toContainText('أُرسل اقتراح الدعم إلى لجنة الصرف')
	await expect(page.getByRole('region', { name: 'قرار لجنة الصرف' })).toContainText('اقتراح دعم من')
	await expect(page.getByRole('region', { name: 'الدعم المقدم لهذا المستفيد في كل البرامج' })).toContainText('لم يُسجَّل أي دعم')
	const history = page.getByRole('region', { name: 'سجل الطلب' })
	await expect(history).toContainText('تغيير الحالة من «جديد» إلى «تمت الدراسة»')
	await expect(history).toContainText('زار الباحث الأسرة وتحقق من الوضع')

	const visitor = await pageAs('visitor')
	await lookUp(visitor, submitted.nationalId, mobile)
	const result = visitor.locator('main')
	await expect(result).toContainText('تمت الدراسة')
	// Internal notes never reach the applicant.
	await expect(result).not.toContainText('إيجار متأخر')
})

test('a status the workflow does not allow is refused, also when posted by hand', async ({ page }) => {
	const submitted = await submitCaseAsStaff(page.request)
	const response = await page.request.post(`/admin/cases/${submitted.reference}`, {
		form: { intent: 'status', to: '3', note: 'صرف مباشر', amount: '100', aidKind: 'cash', givenOn: '2026-11-01' },
	})
	expect(response.status()).toBe(409)
	expect(await response.text()).toContain('لا يمكن نقل الطلب من «جديد» إلى «تم تقديم الدعم»')
	await page.goto(`/admin/cases/${submitted.reference}`)
	await expect(page.locator('header').getByText('جديد', { exact: true })).toBeVisible()
	await expect(page.getByRole('region', { name: 'الدعم المقدم لهذا المستفيد في كل البرامج' })).toContainText('لم يُسجَّل أي دعم')
})

test('incomplete with one document ticked lets the applicant replace exactly that file and send again', async ({ page, pageAs }) => {
	const submitted = await submitCaseAsStaff(page.request)
	await page.goto(`/admin/cases/${submitted.reference}`)
	const incomplete = await openStatusForm(page, 'غير مكتمل')
	await incomplete.getByRole('checkbox', { name: 'سجل الأسرة' }).check()
	await incomplete.getByLabel('ملاحظة داخلية (سبب التغيير)').fill('السجل غير واضح')
	await incomplete.getByLabel('رسالة إلى المتقدم (ما المطلوب منه)').fill('الرجاء إرفاق صورة واضحة من سجل الأسرة')
	await incomplete.getByRole('button', { name: 'تغيير الحالة إلى «غير مكتمل»' }).click()
	await expect(page.getByRole('status')).toContainText('تم تغيير الحالة إلى «غير مكتمل»')

	const applicant = await pageAs('visitor')
	await applicant.goto(`/apply/r/${submitted.token}`)
	await expect(applicant.getByText('الرجاء إرفاق صورة واضحة من سجل الأسرة')).toBeVisible()
	await expect(applicant.getByText('مطلوب تعديله')).toHaveCount(1)
	// Sections not asked about cannot be opened, even by typing their address.
	await applicant.goto(`/apply/r/${submitted.token}/bank`)
	await expect(applicant).toHaveURL(new RegExp(`/apply/r/${submitted.token}$`))
	await applicant.getByRole('link', { name: 'تعديل المطلوب' }).click()
	await expect(applicant.getByRole('heading', { level: 1 })).toHaveText('المرفقات ورسالة المستفيد')
	await expectNoAxeViolations(applicant)
	const identity = applicant.getByRole('region', { name: /صورة الهوية أو الإقامة/ })
	await expect(identity.getByRole('button', { name: /حذف/ })).toHaveCount(0)
	await expect(identity.locator('input[type=file]')).toHaveCount(0)
	const report = applicant.getByRole('region', { name: /سجل الأسرة/ })
	await report.getByRole('button', { name: /حذف/ }).click()
	await expect(applicant.getByText('تم حذف الملف')).toBeVisible()
	await applicant.getByRole('region', { name: /سجل الأسرة/ }).locator('input[type=file]').setInputFiles({ name: 'سجل-واضح.pdf', mimeType: 'application/pdf', buffer: Buffer.from(minimalPdf()) })
	await applicant.getByRole('region', { name: /سجل الأسرة/ }).getByRole('button', { name: /رفع/ }).click()
	// The new file is the document's one page, and the document is that PDF.
	await expect(applicant.getByRole('region', { name: /سجل الأسرة/ }).getByRole('listitem').filter({ hasText: 'سجل-واضح.pdf' })).toBeVisible()
	await expect(applicant.getByRole('link', { name: /عرض سجل الأسرة: ملف PDF من صفحة واحدة/ })).toBeVisible()
	// A slot not asked about refuses a file posted by hand.
	const forged = await applicant.request.post(`/apply/r/${submitted.token}/files/upload`, {
		headers: { Accept: 'application/json' },
		multipart: { slot: 'identity', file: { name: 'x.pdf', mimeType: 'application/pdf', buffer: Buffer.from(minimalPdf()) } },
	})
	expect(forged.status()).toBe(400)
	await applicant.getByRole('button', { name: 'متابعة' }).click()
	await expect(applicant.getByRole('heading', { level: 1 })).toHaveText('راجع بياناتك قبل الإرسال')
	await applicant.getByLabel(/أقر بأن جميع البيانات/).check()
	await applicant.getByRole('button', { name: 'إرسال الطلب' }).click()
	await expect(applicant).toHaveURL(/\/done$/)

	await page.reload()
	await expect(page.locator('header').getByText('جديد', { exact: true })).toBeVisible()
	await expect(page.getByRole('region', { name: 'سجل الطلب' })).toContainText('أعاد المتقدم إرسال الطلب بعد الاستكمال')
	await expect(page.getByRole('region', { name: 'المرفقات ورسالة المستفيد' })).toContainText('سجل-واضح.pdf')
})

test('the printed report: title by form, the applicant as page title, only sections with data', async ({ page }) => {
	const submitted = await submitCaseAsStaff(page.request, { name: `خالد ${unique()}` })
	await page.goto(`/admin/cases/${submitted.reference}/print`)
	await expect(page).toHaveTitle(submitted.name)
	await expect(page.getByRole('heading', { level: 1 })).toContainText('طلب دعم مقطوع')
	await expect(page.locator('body')).toContainText(submitted.reference)
	await expect(page.getByRole('heading', { name: 'أفراد الأسرة' })).toBeVisible()
	// Optional answers left empty leave no trace: no «Other income» label, no empty second bank.
	await expect(page.locator('body')).not.toContainText('مصادر دخل أخرى')
	await expect(page.locator('body')).toContainText('طُبع بواسطة')
	await expectNoAxeViolations(page)
	await page.emulateMedia({ media: 'print' })
	const pdf = await page.pdf({ format: 'A4' })
	expect(pdf.subarray(0, 5).toString()).toBe('%PDF-')
	await page.goto(`/admin/cases/${submitted.reference}`)
	await expect(page.getByRole('region', { name: 'سجل الطلب' })).toContainText('طباعة تقرير الطلب')
})

test('the CSV export opens as Arabic in Excel and is recorded', async ({ page }) => {
	const submitted = await submitCaseAsStaff(page.request, { name: `فاطمة ${unique()}` })
	const response = await page.request.get(`/admin/cases/export/csv?q=${submitted.reference}`)
	expect(response.status()).toBe(200)
	expect(response.headers()['content-disposition']).toMatch(/attachment; filename="cases-\d{4}-\d{2}-\d{2}\.csv"/)
	const bytes = await response.body()
	expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
	expect(bytes.toString('utf8')).toContain(submitted.name)
	// Dates in ISO 8601, which Excel sorts as dates; the decision and payment columns are there (app/cases/export.db.test.ts fills them).
	const [headers, row] = parse(bytes.toString('utf8').replace(/^\uFEFF/, '')) as string[][]
	expect(row![headers!.indexOf('تاريخ الإرسال (ميلادي)')]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/)
	expect(headers).toEqual(expect.arrayContaining(['قرار اللجنة', 'تاريخ القرار', 'الصندوق', 'المبلغ المصروف (ريال)', 'تاريخ آخر صرف', 'مرجع البنك']))
	const xlsx = await page.request.get(`/admin/cases/export/xlsx?q=${submitted.reference}`)
	expect(xlsx.status()).toBe(200)
	const workbook = new ExcelJS.Workbook()
	await workbook.xlsx.load((await xlsx.body()) as unknown as ArrayBuffer)
	const sheet = workbook.worksheets[0]!
	const sent = sheet.getRow(2).getCell((sheet.getRow(1).values as unknown[]).indexOf('تاريخ الإرسال (ميلادي)'))
	expect(sent.type).toBe(ExcelJS.ValueType.Date)
})

test('a content editor gets 403 on a case, its files, its report and the export', async ({ page, pageAs }) => {
	const submitted = await submitCaseAsStaff(page.request)
	await page.goto(`/admin/cases/${submitted.reference}`)
	const fileHref = (await page.getByRole('link', { name: /^تنزيل هوية-المتقدم/ }).getAttribute('href'))!
	const editor = await pageAs('content_editor')
	for (const url of [`/admin/cases/${submitted.reference}`, fileHref, `${fileHref}?inline=1`, `/admin/cases/${submitted.reference}/print`, '/admin/cases', '/admin/cases/export/csv']) {
		const response = await editor.request.get(url)
		expect(response.status(), url).toBe(403)
		expect(await response.text(), url).not.toContain(submitted.name)
	}
	const post = await editor.request.post(`/admin/cases/${submitted.reference}`, { form: { intent: 'status', to: '2', note: 'x' } })
	expect(post.status()).toBe(403)
})

test('a bulk status change writes one history entry per case', async ({ page }) => {
	const family = `آل ${unique()}`
	const first = await submitCaseAsStaff(page.request, { name: `الأول ${family}` })
	const second = await submitCaseAsStaff(page.request, { name: `الثاني ${family}` })
	// «تمت الدراسة» follows each one's study.
	for (const reference of [first.reference, second.reference]) await recordStudyAs(page.request, reference)
	await page.goto(`/admin/cases?q=${encodeURIComponent(family)}`)
	await page.getByRole('checkbox', { name: `تحديد طلب الأول ${family}` }).check()
	await page.getByRole('checkbox', { name: `تحديد طلب الثاني ${family}` }).check()
	await page.getByLabel('تغيير الحالة إلى').selectOption({ label: 'تمت الدراسة' })
	await page.getByLabel('ملاحظة تغيير الحالة (داخلية)').fill('دراسة ميدانية للحي')
	await page.getByRole('button', { name: 'تغيير حالة المحدد' }).click()
	await expect(page.getByRole('status')).toContainText('تم تغيير حالة طلبين.')
	for (const reference of [first.reference, second.reference]) {
		await page.goto(`/admin/cases/${reference}`)
		const history = page.getByRole('region', { name: 'سجل الطلب' })
		await expect(history.getByText('تغيير الحالة من «جديد» إلى «تمت الدراسة»')).toHaveCount(1)
		await expect(history).toContainText('دراسة ميدانية للحي')
	}
})

test('every case-management screen passes axe, on a phone without sideways scrolling too', async ({ page, pageAs }) => {
	const submitted = await submitCaseAsStaff(page.request)
	const screens = ['/admin', '/admin/cases', '/admin/associations', '/admin/cases/new', `/admin/cases/${submitted.reference}`, `/admin/cases/${submitted.reference}/edit/basic`, `/admin/cases/${submitted.reference}/edit/family`, `/admin/cases/${submitted.reference}/study`, '/admin/visits']
	for (const url of screens) {
		await page.goto(url)
		await expectNoAxeViolations(page)
	}
	const phone = await pageAs('case_officer', { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true })
	for (const url of [...screens, `/admin/cases/${submitted.reference}/print`]) {
		await phone.goto(url)
		const width = await phone.evaluate(() => document.documentElement.scrollWidth)
		expect(width, url).toBeLessThanOrEqual(375)
	}
	await expectNoAxeViolations(phone)
})

test('staff correct an answer and the history keeps it before and after', async ({ page }) => {
	const submitted = await submitCaseAsStaff(page.request)
	await page.goto(`/admin/cases/${submitted.reference}`)
	await page.getByRole('link', { name: 'تصحيح البيانات الوضع المالي' }).click()
	await page.getByLabel('صافي دخل الأسرة الشهري').fill('3100')
	await page.getByRole('button', { name: 'حفظ التصحيح' }).click()
	await expect(page.getByRole('status')).toContainText('تم تحديث البيانات بنجاح')
	await expect(page.getByRole('region', { name: 'سجل الطلب' })).toContainText('تصحيح «الوضع المالي»: صافي دخل الأسرة الشهري')
	await expect(page.getByRole('region', { name: 'الوضع المالي' })).toContainText('3,100')
})

test('a status change from a page left open after a colleague moved the case says what happened and what is allowed now', async ({ page }) => {
	const submitted = await submitCaseAsStaff(page.request)
	await page.goto(`/admin/cases/${submitted.reference}`)
	const form = await openStatusForm(page, 'مغلق')
	await form.getByLabel('ملاحظة داخلية (سبب التغيير)').fill('لم يرد المتقدم على اتصالاتنا')
	// Meanwhile a colleague studies the case.
	await recordStudyAs(page.request, submitted.reference)
	const colleague = await page.request.post(`/admin/cases/${submitted.reference}`, { form: { intent: 'status', to: '2', note: 'دُرست الحالة' }, maxRedirects: 0 })
	expect(colleague.status()).toBe(302)
	await form.getByRole('button', { name: 'تغيير الحالة' }).click()
	const alert = page.getByRole('region', { name: 'تغيير الحالة' }).getByRole('alert')
	await expect(alert).toContainText('لم يُحفظ تغييرك: غيّر غيرك حالة الطلب إلى «تمت الدراسة» بعد أن فتحت الصفحة. ولا يمكن تغيير حالته الآن.')
	await expect(alert).toContainText('لم يرد المتقدم على اتصالاتنا')
	await expect(page.locator('header').getByText('تمت الدراسة', { exact: true })).toBeVisible()
})
