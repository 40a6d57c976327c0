import type { APIRequestContext, Locator, Page } from '@playwright/test'
import { expect, staffState, test, unique } from './utils.ts'
import { studiedCaseAs, submitCaseAsStaff } from './case-fixtures.ts'
import { lookUp } from './apply-steps.ts'

// The Arabic of the back office and the applicant's pages, read on the real screens (issue 37 §2.1,
// 2.4–2.6, 2.8; docs/product.md#words-we-use): one name per status, per role and per thing paid;
// agreement in number and gender; every delivery state in Arabic.
test.use({ storageState: staffState('case_officer') })

const year = () => new Date(Date.now() + 3 * 3600_000).getUTCFullYear()

/** The visible text of a part of the page (a folded <details> is not read). */
const visibleText = (locator: Locator) => locator.innerText()

/** «دفعة» or «الدفعة» or «دفعات» standing alone: the word is kept for a batch sent to the bank, «دفعة صرف». */
const bareBatchWord = /(?<!\p{L})(?:ال)?دفع(?:ة|ات)(?! (?:ال)?صرف)/u

/** An admin's request: the families' programme may spend this year, from every fund, whatever other tests approved. */
async function openBudget(admin: APIRequestContext) {
	const response = await admin.post('/admin/funds', { form: { intent: 'budget', programme: 'needy-families', year: String(year()), fund: 'all', allocated: '999999999' }, maxRedirects: 0 })
	expect(response.status(), 'the programme budget is saved').toBe(302)
}

async function addFund(admin: Page, name: string) {
	await admin.goto('/admin/funds')
	await admin.getByLabel('صندوق جديد').fill(name)
	await admin.getByRole('button', { name: 'إضافة الصندوق' }).click()
	// «تمت الإضافة» (إضافة is feminine), not «تم إضافة بنجاح».
	await expect(admin.getByRole('status')).toHaveText('تمت الإضافة بنجاح')
}

test('the status filter names each status as its badge does, and the option for «تمت الدراسة» selects it (§2.1)', async ({ page }) => {
	const marker = unique()
	const studied = await studiedCaseAs(page.request, { name: `سلمى ${marker}` })
	await page.goto('/admin/cases')
	const filter = page.getByLabel('الحالة', { exact: true })
	// The names of docs/product.md#case-statuses, in order: no «طلب جديد» beside the badge «جديد», no «تحت الدراسة» selecting «تمت الدراسة».
	await expect(filter.locator('option')).toHaveText(['كل الحالات عدا المغلقة', 'جديد', 'تمت الدراسة', 'تم تقديم الدعم', 'غير مكتمل', 'تم إيقاف الدعم', 'مغلق', 'معتمد بانتظار الصرف', 'مرفوض'])
	await page.getByLabel('بحث').fill(marker)
	await filter.selectOption({ label: 'تمت الدراسة' })
	await page.getByRole('button', { name: 'عرض النتائج' }).click()
	await expect(page).toHaveURL(/status=2/)
	const row = page.getByRole('region', { name: 'جدول الطلبات' }).getByRole('row').filter({ hasText: studied.reference })
	await expect(row).toContainText('تمت الدراسة')
	await expect(page.getByLabel('الحالة', { exact: true }).locator('option:checked')).toHaveText('تمت الدراسة')
})

test('an instalment is «قسط», a batch sent to the bank «دفعة صرف», one transfer «تحويل»: on the case, the payments, the batch, its bank file and the print (§2.4)', async ({ page, pageAs }) => {
	test.setTimeout(120_000)
	const family = await studiedCaseAs(page.request, { name: `أم عمر ${unique()}` })
	const admin = await pageAs('admin')
	await openBudget(admin.request)

	// The committee approves three months of 600 riyals.
	const approver = await pageAs('approver')
	await approver.goto(`/admin/cases/${family.reference}`)
	const decision = approver.getByRole('region', { name: 'قرار لجنة الصرف' })
	await decision.locator('summary', { hasText: 'اعتماد الدعم' }).click()
	await decision.getByLabel('المبلغ بالريال (للقسط الواحد)').fill('600')
	await decision.getByLabel(/^عدد الأشهر/).fill('3')
	await decision.getByLabel('الصندوق').selectOption({ label: 'صندوق الصدقات والتبرعات العامة' })
	await decision.getByRole('button', { name: 'اعتماد الدعم' }).click()
	const instalments = decision.getByRole('table', { name: 'الأقساط المعتمدة' })
	await expect(instalments.getByRole('columnheader').first()).toHaveText('القسط')
	await expect(instalments.getByRole('row')).toHaveCount(4)
	expect(await visibleText(decision)).not.toMatch(bareBatchWord)

	// Finance: the first month's transfer is «القسط 1 من 3», gathered into a «دفعة صرف».
	const finance = await pageAs('finance')
	await finance.goto('/admin/payments')
	const due = finance.getByRole('listitem').filter({ has: finance.getByRole('link', { name: family.reference }) })
	await expect(due).toContainText('القسط 1 من 3')
	expect(await visibleText(finance.locator('main'))).not.toMatch(bareBatchWord)
	for (const box of await finance.getByRole('checkbox', { name: /./ }).all()) await box.setChecked(false)
	await due.getByRole('checkbox').check()
	await finance.getByLabel('ملاحظة على دفعة الصرف (اختياري)').fill('صرف الشهر')
	await finance.getByRole('button', { name: 'إنشاء دفعة صرف بالتحويلات المختارة' }).click()
	await expect(finance.getByRole('status')).toContainText('أُنشئت دفعة الصرف رقم')
	const file = await finance.request.get((await finance.getByRole('link', { name: 'الصيغة العامة (عطاء) — CSV' }).getAttribute('href'))!)
	expect((await file.text()).replace(/^\uFEFF/, '').split('\n')[0]).toContain('مرجع التحويل')
	await finance.getByRole('button', { name: 'تسجيل الإرسال إلى البنك' }).click()
	await expect(finance.getByRole('status')).toHaveText('سُجّل إرسال دفعة الصرف إلى البنك')
	expect(await visibleText(finance.locator('main'))).not.toMatch(bareBatchWord)

	// The print names the instalment too.
	await approver.goto(`/admin/cases/${family.reference}/print`)
	await expect(approver.getByRole('region', { name: 'قرار لجنة الصرف' })).toContainText('القسط 1')
	expect(await visibleText(approver.locator('main'))).not.toMatch(bareBatchWord)
})

test('the role that studies cases has one name, «الباحث الاجتماعي», on the users screen and beside the signed-in researcher (§2.5)', async ({ page, pageAs }) => {
	const admin = await pageAs('admin')
	await admin.goto('/admin/users/new')
	await expect(admin.getByRole('group', { name: 'الصلاحيات' }).getByLabel('الباحث الاجتماعي', { exact: true })).toBeVisible()
	await admin.goto('/admin/users')
	expect(await visibleText(admin.locator('main'))).not.toContain('مسؤول الحالات')
	await page.goto('/admin/visits')
	await expect(page.getByRole('banner')).toContainText('الباحث الاجتماعي')
	await expect(page.getByRole('link', { name: 'زيارات كل الباحثين' })).toBeVisible()
})

test('the committee reads counts that agree, «تمت الإضافة» and «اعتُمد طلبان، وأُبلغ صاحباهما»; a rejected family reads «لم تتم الموافقة» once; options name a woman too (§2.6)', async ({ page, pageAs }) => {
	test.setTimeout(120_000)
	const marker = unique()
	const [first, second, third, rejected] = [
		await studiedCaseAs(page.request, { name: `أم سعد ${marker}` }),
		await studiedCaseAs(page.request, { name: `أم بدر ${marker}` }),
		await studiedCaseAs(page.request, { name: `أم هند ${marker}` }),
		await studiedCaseAs(page.request, { name: `أم نايف ${marker}` }),
	]
	// A fund of this test's own with a ceiling of 1,000 riyals: the third approval overdraws it.
	const admin = await pageAs('admin')
	await openBudget(admin.request)
	const fund = `صندوق الوقف ${marker}`
	await addFund(admin, fund)
	await admin.getByLabel('البرنامج').selectOption({ label: 'طلب دعم الأسر المحتاجة (الدعم المقطوع)' })
	await admin.getByLabel('الصندوق', { exact: true }).selectOption({ label: fund })
	await admin.getByLabel('المبلغ المخصص بالريال').fill('1000')
	await admin.getByRole('button', { name: 'حفظ الميزانية' }).click()
	await expect(admin.getByRole('status')).toContainText('تم حفظ ميزانية')

	const approver = await pageAs('approver')
	await approver.goto('/admin/decisions?programme=needy-families')
	for (const made of [first, second, third]) {
		const row = approver.getByRole('listitem').filter({ has: approver.getByRole('link', { name: made.reference }) })
		await row.getByRole('checkbox').check()
		await row.getByLabel(/^المبلغ بالريال/).fill('500')
		await row.getByLabel(/^الصندوق/).selectOption({ label: fund })
	}
	await approver.getByRole('button', { name: 'اعتماد الطلبات المختارة' }).click()
	const outcome = approver.getByRole('status')
	await expect(outcome.locator('p').first()).toHaveText('اعتُمد طلبان، وأُبلغ صاحباهما بالقرار.')
	await expect(outcome.locator('p').nth(1)).toHaveText('تعذّر اعتماد طلب واحد:')
	await expect(outcome.getByRole('listitem')).toContainText(third.reference)

	// Rejected: the status says where the reason is, the message says «نعتذر…» once.
	await approver.goto(`/admin/cases/${rejected.reference}`)
	const decision = approver.getByRole('region', { name: 'قرار لجنة الصرف' })
	await decision.locator('summary', { hasText: 'رفض الطلب' }).click()
	await decision.getByLabel(/^سبب الرفض/).selectOption({ index: 1 })
	await decision.getByRole('button', { name: 'رفض الطلب' }).click()
	await expect(approver.locator('main header')).toContainText('مرفوض')
	const visitor = await pageAs('visitor')
	await lookUp(visitor, rejected.nationalId, rejected.mobile)
	await expect(visitor.locator('main')).toContainText('مرفوض')
	expect((await visibleText(visitor.locator('main'))).split('لم تتم الموافقة على طلبك')).toHaveLength(2)

	// The first step offers a woman her own words, the stored values unchanged.
	await visitor.goto('/apply/needy-families/new')
	const career = visitor.getByLabel('العمل', { exact: true })
	await expect(career.locator('option')).toHaveText(['موظف / موظفة في القطاع الخاص', 'موظف / موظفة في القطاع الحكومي', 'متقاعد / متقاعدة', 'لا يعمل / لا تعمل'])
	await expect(career.locator('option', { hasText: 'متقاعد / متقاعدة' })).toHaveAttribute('value', 'retired')
	await expect(visitor.getByLabel('الصفة في الأسرة').locator('option', { hasText: 'رب / ربة الأسرة' })).toHaveAttribute('value', 'head')
	// And the case view reads the stored answer with both forms.
	await page.goto(`/admin/cases/${first.reference}`)
	await expect(page.locator('main')).toContainText('رب / ربة الأسرة')
})

test('a message that could not be sent says why in Arabic on the case view; the provider’s own words stay folded (§2.8)', async ({ page }) => {
	const family = await submitCaseAsStaff(page.request, { name: `أم ماجد ${unique()}` })
	expect((await page.request.post(`/admin/cases/${family.reference}`, { form: { intent: 'message', message: 'نرجو إحضار أصل الصك.' }, maxRedirects: 0 })).status()).toBe(302)
	await page.goto(`/admin/cases/${family.reference}`)
	const messages = page.getByRole('region', { name: 'الرسائل', exact: true })
	const sms = messages.getByRole('listitem').filter({ hasText: 'رسالة من الموظف إلى المتقدم' }).filter({ hasText: 'رسالة نصية' })
	// This server has no SMS provider: the state and its reason in Arabic.
	await expect(sms).toContainText('تعذّر الإرسال: لا توجد بوابة رسائل نصية مهيأة')
	await expect(sms.getByText('no SMS provider configured')).toBeHidden()
	expect(await visibleText(messages)).not.toMatch(/[A-Za-z]/)
	// Opened, the provider's words are there for whoever calls its support.
	await sms.locator('summary', { hasText: 'نص مزود الخدمة كما أرسله' }).click()
	await expect(sms.getByText('no SMS provider configured')).toBeVisible()
})
