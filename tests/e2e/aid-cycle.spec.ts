import type { Page } from '@playwright/test'
import { addUser, expect, expectNoAxeViolations, signIn, staffState, test, unique } from './utils.ts'
import { studiedCaseAs, submitCaseAsStaff } from './case-fixtures.ts'
import { lookUp } from './apply-steps.ts'
import { confirmReceiptAs, recordReceiptAs } from './receipt-steps.ts'

// The aid cycle after the study, as the foundation's staff work it (docs/product.md#the-decision,
// #funds-and-budgets, #payment): the researcher studies, an admin sets a fund and its budget, a member
// of the committee approves from the queue, finance pays it in a batch with the bank's reference,
// and the applicant reads each step. The server refuses the
// recommender's own decision, zakat to a family not eligible for it, and an overdrawn budget.
test.use({ storageState: staffState('case_officer') })

const year = () => new Date(Date.now() + 3 * 3600_000).getUTCFullYear()

/** The queue's row of a case, for the committee member on `page`. */
const queueRow = (page: Page, reference: string) => page.getByRole('listitem').filter({ has: page.getByRole('link', { name: reference }) })

test('the committee approves a studied case from a zakat fund within its budget, finance pays it in a batch, and the applicant reads each step; four eyes, zakat and an overdrawn budget are refused', async ({ page, pageAs }) => {
	test.setTimeout(180_000)
	const marker = unique()
	// The researcher plans the home visit and reports it in the browser; the family reads each step on its private link.
	const family = await submitCaseAsStaff(page.request, { name: `أم خالد ${marker}` })
	const applicant = await pageAs('visitor')
	const privateLink = `/apply/r/${family.token}`
	await page.goto(`/admin/cases/${family.reference}`)
	const visits = page.getByRole('region', { name: 'زيارة الأسرة' })
	await visits.getByText('تحديد موعد زيارة').click()
	await visits.getByLabel('اليوم').fill(new Date(Date.now() + 27 * 3600_000).toISOString().slice(0, 10))
	await visits.getByLabel('الساعة').fill('10:30')
	await visits.getByRole('button', { name: 'تحديد الموعد' }).click()
	await expect(page.getByRole('status')).toContainText('تم تحديد موعد الزيارة')
	await applicant.goto(privateLink)
	await expect(applicant.locator('main')).toContainText('الساعة 10:30 صباحاً')
	await page.goto(`/admin/cases/${family.reference}/study`)
	await page.getByLabel('من قابلتم').fill('الأم وأبناؤها الثلاثة')
	await page.getByLabel('خلاصة الدراسة').fill('أسرة بلا عائل، الدخل من الضمان الاجتماعي فقط')
	await page.getByRole('radio', { name: 'دعم الحالة' }).check()
	await page.getByLabel('نوع المساعدة').selectOption({ label: 'دعم نقدي' })
	await page.getByLabel('المبلغ بالريال').fill('1500')
	await page.getByRole('radio', { name: 'مرة واحدة' }).check()
	await page.getByLabel('مصرف الزكاة').selectOption({ label: 'المساكين' })
	await page.getByLabel('سبب استحقاق الزكاة من هذا المصرف (مع اختيار مصرف)').fill('لا عائل للأسرة')
	await page.getByRole('button', { name: 'حفظ الدراسة' }).click()
	await expect(page.getByRole('status')).toContainText('تم تسجيل الدراسة')
	const studiedForm = page.locator('details', { has: page.locator('summary', { hasText: 'إلى «تمت الدراسة»' }) })
	await studiedForm.locator('summary').click()
	await studiedForm.getByLabel('ملاحظة داخلية (سبب التغيير)').fill('زار الباحث الأسرة')
	await studiedForm.getByRole('button', { name: 'تغيير الحالة إلى «تمت الدراسة»' }).click()
	await expect(page.getByRole('status')).toContainText('تم تغيير الحالة إلى «تمت الدراسة»')
	await applicant.reload()
	await expect(applicant.locator('main')).toContainText('تمت الدراسة')
	const notEligible = await studiedCaseAs(page.request, { zakat: false, name: `أبو سالم ${marker}` })
	const third = await studiedCaseAs(page.request, { name: `أم ريم ${marker}` })

	// An admin adds a zakat fund and gives it a ceiling of 2,000 riyals for the families' programme this year.
	const admin = await pageAs('admin')
	await admin.goto('/admin/funds')
	await expectNoAxeViolations(admin)
	const fundName = `زكاة المحسنين ${marker}`
	await admin.getByLabel('صندوق جديد').fill(fundName)
	await admin.getByLabel(/^أموال زكاة/).check()
	await admin.getByRole('button', { name: 'إضافة الصندوق' }).click()
	await expect(admin.getByRole('status')).toBeVisible()
	for (const [fund, amount] of [
		['كل الصناديق', '999999999'],
		[fundName, '2000'],
	] as const) {
		await admin.getByLabel('البرنامج').selectOption({ label: 'طلب دعم الأسر المحتاجة (الدعم المقطوع)' })
		await admin.getByLabel('الصندوق', { exact: true }).selectOption({ label: fund })
		await admin.getByLabel('المبلغ المخصص بالريال').fill(amount)
		await admin.getByRole('button', { name: 'حفظ الميزانية' }).click()
		await expect(admin.getByRole('status')).toContainText(`تم حفظ ميزانية «طلب دعم الأسر المحتاجة (الدعم المقطوع)» لعام ${year()}`)
	}
	// The fund receives 5,000 riyals of zakat, recorded by finance and confirmed by another member of
	// finance (docs/product.md#money-in): the committee approves zakat only within what was received.
	const confirming = { name: `مراجع مالي ${marker}`, email: `finance-confirms-${marker}@e2e.test`, mobile: '0551000018', roles: ['finance'] as const, password: `Confirms-Receipts-${marker}` }
	await addUser(admin, { ...confirming, roles: [...confirming.roles] })
	const receipt = await recordReceiptAs(await pageAs('finance'), `${fundName} (زكاة)`, '5000')
	const confirmerContext = await page.context().browser()!.newContext({ storageState: { cookies: [], origins: [] } })
	const confirmer = await confirmerContext.newPage()
	await signIn(confirmer, confirming)
	await confirmReceiptAs(confirmer, receipt)
	await confirmerContext.close()
	await admin.goto('/admin/funds')
	const budgets = admin.getByRole('table', { name: /^ميزانيات / })
	await expect(budgets.getByRole('row').filter({ hasText: `${fundName} (زكاة)` })).toContainText('2,000')

	// The committee's member finds the three cases in the queue, with the researcher's proposal.
	const approver = await pageAs('approver')
	await approver.goto('/admin/decisions?programme=needy-families')
	await expectNoAxeViolations(approver)
	await expect(queueRow(approver, family.reference)).toContainText('توصية الباحث')
	await expect(queueRow(approver, family.reference)).toContainText('دعم نقدي')
	// A family not eligible for zakat is not offered the zakat fund…
	await expect(queueRow(approver, notEligible.reference).getByLabel(/^الصندوق/).locator('option', { hasText: fundName })).toHaveCount(0)
	// …and zakat posted by hand for it is refused by the server, nothing decided.
	const fundId = await queueRow(approver, family.reference).getByLabel(/^الصندوق/).locator('option', { hasText: fundName }).getAttribute('value')
	const zakat = await approver.request.post(`/admin/cases/${notEligible.reference}`, { form: { intent: 'decide', outcome: 'approve', aidKind: 'cash', amount: '500', months: '', fund: fundId!, note: '' }, maxRedirects: 0 })
	expect(zakat.status()).toBe(409)
	expect(await zakat.text()).toContain('لا تُصرف أموال الزكاة إلا لحالة حددت دراستها مصرف الزكاة')

	// Two approved at once from the zakat fund: the first fits in its 2,000, the second would overdraw it.
	for (const made of [family, third]) {
		const row = queueRow(approver, made.reference)
		await row.getByRole('checkbox').check()
		await row.getByLabel(/^المبلغ بالريال/).fill('1500')
		await row.getByLabel(/^الصندوق/).selectOption({ label: `${fundName} (زكاة)` })
	}
	await approver.getByLabel(/^ملاحظة داخلية للقرار/).fill(`محضر اللجنة ${marker}`)
	await approver.getByRole('button', { name: 'اعتماد الطلبات المختارة' }).click()
	const outcome = approver.getByRole('status')
	await expect(outcome).toContainText('اعتُمد طلب واحد')
	await expect(outcome).toContainText('تعذّر اعتماد طلب واحد:')
	// With the figures: allocated 2,000, 1,500 approved and not paid, 500 left.
	await expect(outcome.getByRole('listitem').filter({ hasText: third.reference })).toContainText(/يتجاوز المبلغ \([^)]*1,500\.00[^)]*\) المتبقي من ميزانية/)
	await expect(outcome.getByRole('listitem').filter({ hasText: third.reference })).toContainText(/المخصص [^،]*2,000\.00.*المتبقي [^،]*500\.00/)
	// The refused one stays in the queue, ticked, with what was typed.
	await expect(queueRow(approver, third.reference).getByRole('checkbox')).toBeChecked()
	await expect(queueRow(approver, third.reference).getByLabel(/^المبلغ بالريال/)).toHaveValue('1500')
	await expect(queueRow(approver, family.reference)).toHaveCount(0)

	// The case view shows the decision and its instalment; the budget counts it.
	await approver.goto(`/admin/cases/${family.reference}`)
	const decision = approver.getByRole('region', { name: 'قرار لجنة الصرف' })
	await expect(decision).toContainText('اعتماد الدعم')
	await expect(decision).toContainText(`${fundName} (زكاة)`)
	await expect(decision.getByRole('table')).toContainText('بانتظار الصرف')
	await expect(approver.locator('main header')).toContainText('معتمد بانتظار الصرف')
	await expectNoAxeViolations(approver)
	await admin.reload()
	const ceiling = admin.getByRole('table', { name: /^ميزانيات / }).getByRole('row').filter({ hasText: `${fundName} (زكاة)` })
	// Allocated, approved and not paid, paid, left.
	await expect(ceiling.getByRole('cell')).toHaveText([`${fundName} (زكاة)`, /2,000/, /1,500/, /^\D*0[.\s]/, /^\D*500/])

	// The applicant reads the approval on the status lookup.
	const visitor = await pageAs('visitor')
	await lookUp(visitor, family.nationalId, family.mobile)
	await expect(visitor.locator('main')).toContainText('معتمد بانتظار الصرف')
	await expect(visitor.locator('main')).toContainText('اعتُمد لطلبك الدعم التالي: دعم نقدي')
	await expect(visitor.locator('main')).not.toContainText(`محضر اللجنة ${marker}`)
	await applicant.reload()
	await expect(applicant.locator('main')).toContainText('معتمد بانتظار الصرف')

	// Finance gathers the transfer into a batch, downloads the bank's file, sends it, records the bank's reference.
	const finance = await pageAs('finance')
	await finance.goto('/admin/payments')
	await expectNoAxeViolations(finance)
	const due = finance.getByRole('listitem').filter({ has: finance.getByRole('link', { name: family.reference }) })
	await expect(due).toContainText('SA0380000000608010167519')
	// Only this case's transfer goes into the batch (others may be due from other tests).
	for (const box of await finance.getByRole('checkbox', { name: /./ }).all()) await box.setChecked(false)
	await due.getByRole('checkbox').check()
	await finance.getByRole('button', { name: 'إنشاء دفعة صرف بالتحويلات المختارة' }).click()
	await expect(finance.getByRole('status')).toContainText('أُنشئت دفعة الصرف رقم')
	await expectNoAxeViolations(finance)
	const file = await finance.request.get((await finance.getByRole('link', { name: 'الصيغة العامة (عطاء) — CSV' }).getAttribute('href'))!)
	expect(file.headers()['content-type']).toBe('text/csv; charset=utf-8')
	const transfer = (await file.text()).split('\n').find((row) => row.includes(family.reference))!
	expect(transfer).toContain('"SA0380000000608010167519","1500","دعم نقدي"')
	await finance.getByRole('button', { name: 'تسجيل الإرسال إلى البنك' }).click()
	await expect(finance.getByRole('status')).toContainText('سُجّل إرسال دفعة الصرف إلى البنك')
	await finance.getByLabel(/^مرجع البنك/).fill(`FT${marker}`.slice(0, 30))
	await finance.getByRole('button', { name: /^تسجيل الصرف/ }).click()
	await expect(finance.getByRole('status')).toContainText('سُجّل صرف التحويل')
	await expect(finance.locator('main')).toContainText('مكتملة')

	// The case is «تم تقديم الدعم», the ledger holds what was paid, and the applicant reads it.
	await approver.goto(`/admin/cases/${family.reference}`)
	await expect(approver.locator('main header')).toContainText('تم تقديم الدعم')
	await expect(approver.getByRole('region', { name: 'قرار لجنة الصرف' }).getByRole('table')).toContainText('صُرفت')
	await expect(approver.getByRole('region', { name: 'الدعم المقدم لهذا المستفيد في كل البرامج' })).toContainText('1,500')
	await approver.goto(`/admin/cases/${family.reference}/print`)
	await expect(approver.getByRole('region', { name: 'قرار لجنة الصرف' })).toContainText('القسط 1')
	await expect(approver.getByRole('region', { name: 'قرار لجنة الصرف' })).toContainText('صُرفت')
	await lookUp(visitor, family.nationalId, family.mobile)
	await expect(visitor.locator('main')).toContainText('تم تقديم الدعم')
	await applicant.reload()
	await expect(applicant.locator('main')).toContainText('تم تقديم الدعم')

	// The year's report counts it, on screen and as XLSX; «أثرنا» names no one, and shows the payment only
	// at next month's snapshot (tests/e2e/security/impact-disclosure.spec.ts).
	await finance.goto(`/admin/reports?year=${year()}&by=fund`)
	await expectNoAxeViolations(finance)
	const row = finance.getByRole('region', { name: 'جدول التقرير' }).getByRole('row', { name: new RegExp(fundName) })
	await expect(row).toContainText('1,500.00')
	const xlsx = await finance.request.get(`/admin/reports/export?year=${year()}&by=fund`)
	expect(xlsx.headers()['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
	await visitor.goto('/impact')
	await expectNoAxeViolations(visitor)
	await expect(visitor.locator('main')).toContainText('الأرقام كما في سجل الصرف حتى')
	await expect(visitor.locator('main')).not.toContainText(family.name)

	// Four eyes: a researcher who also sits on the committee records a study, then may not decide on it.
	const both = { name: `باحث وعضو لجنة ${marker}`, email: `both-${marker}@e2e.test`, mobile: '0551000008', roles: ['case_officer', 'approver'] as const, password: `Both-Roles-${marker}` }
	await addUser(admin, { ...both, roles: [...both.roles] })
	const context = await page.context().browser()!.newContext({ storageState: { cookies: [], origins: [] } })
	const researcher = await context.newPage()
	await signIn(researcher, both)
	const own = await studiedCaseAs(researcher.request, { name: `أم فهد ${marker}` })
	await researcher.goto(`/admin/cases/${own.reference}`)
	await expect(researcher.getByRole('region', { name: 'قرار لجنة الصرف' })).toContainText('لك توصية بدعم هذا الطلب')
	await researcher.locator('summary', { hasText: 'اعتماد الدعم' }).click()
	await researcher.getByLabel('الصندوق').selectOption({ index: 1 })
	await researcher.getByRole('button', { name: 'اعتماد الدعم' }).click()
	await expect(researcher.getByRole('region', { name: 'قرار لجنة الصرف' })).toContainText('لا يقرر في الطلب من أوصى بدعمه')
	await expect(researcher.locator('main header')).toContainText('تمت الدراسة')
	await context.close()
	// The refusal is in the audit trail.
	await admin.goto(`/admin/audit?case=${own.reference}`)
	await expect(admin.locator('main')).toContainText('محاولة وصول مرفوضة')
})
