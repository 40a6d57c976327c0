import type { Page } from '@playwright/test'
import { expect, expectNoAxeViolations, test } from './utils.ts'
import { expectErrors, next, onStep } from './apply-steps.ts'

// The whole journey as a phone without JavaScript sees it: every page is the server's, every list
// change a form post and a redirect.
test.use({ javaScriptEnabled: false })

/**
 * A licence number no other test or earlier run used, as the duplicate rule is on it: twelve digits
 * (a licence is 1 to 20 digits), the last ten from the clock and chance.
 */
const randomLicence = () => `66${String(Date.now() % 1e6).padStart(6, '0')}${String(Math.floor(Math.random() * 1e4)).padStart(4, '0')}`

/** The sum shown under a list's rows beside its label («مجموع النسب» → «80»). */
const total = (page: Page, label: string) =>
	page
		.locator('#rows dl > div')
		.filter({ has: page.locator('dt', { hasText: label }) })
		.locator('dd')
const rowItems = (page: Page) => page.locator('#rows li')

/**
 * expectNoAxeViolations for a page without JavaScript. axe is a script itself, and a page with
 * JavaScript off neither runs its tag nor fires its timers; so what the phone shows (the DOM as the
 * server sent it, after a GET or a form post alike) is copied, without its scripts, into a page that
 * runs scripts, served at the same address (the same styles load, a failure names the real page),
 * and axe checks that copy.
 */
function axeWithoutJs(checker: Page) {
	return async (page: Page) => {
		const html = (await page.content()).replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '')
		const address = new URL(page.url())
		address.hash = ''
		await checker.route(
			(url) => url.href === address.href,
			(route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: html }),
		)
		await checker.goto(address.href)
		await expectNoAxeViolations(checker)
		await checker.unrouteAll()
	}
}

test('a health association applies without JavaScript: five steps, lists changed by form posts, the budget warning, support types, lookup', async ({ page, pageAs }) => {
	test.setTimeout(180_000)
	const expectNoAxeViolationsWithoutJs = axeWithoutJs(await pageAs('visitor', { javaScriptEnabled: true, viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true }))
	const licence = randomLicence()
	const mobile = '0561112233'

	await page.goto('/apply/health-association-support')
	await expectNoAxeViolationsWithoutJs(page)
	await page.getByRole('link', { name: 'ابدأ الطلب' }).click()

	// 6-1 the association: the errors come back from the server; the specialty starts on «صحية».
	await onStep(page, 'بيانات الجمعية')
	await expect(page.getByText('طلب دعم جمعية صحية — الخطوة 1 من 5')).toBeVisible()
	await expect(page.getByLabel('تخصص الجمعية')).toHaveValue('health')
	await next(page)
	await expectErrors(page, 'الرجاء كتابة اسم الجمعية', 'الرجاء كتابة رقم الترخيص', 'الرجاء كتابة تاريخ التأسيس', 'الرجاء كتابة رقم الجوال')
	await expectNoAxeViolationsWithoutJs(page)
	await page.getByLabel('اسم الجمعية').fill('جمعية عناية الصحية')
	await page.getByLabel('رقم الترخيص').fill(licence)
	await page.getByLabel('تاريخ التأسيس').fill('2016-03-01')
	await page.getByLabel('البريد الإلكتروني للجمعية').fill(`health-${licence}@e2e.test`)
	await page.getByLabel('اسم ممثل الجمعية').fill('هند صالح الزهراني')
	await page.getByLabel('جوال ممثل الجمعية').fill(mobile)
	await next(page)
	await expect(page.getByText(/تم حفظ بياناتك وإنشاء طلبك\./)).toBeVisible()
	await expectNoAxeViolationsWithoutJs(page)
	await page.getByRole('link', { name: 'متابعة الطلب' }).click()

	// 6-2 projects, straight after the association: this programme has no bank step.
	await onStep(page, 'المشاريع حسب التخصص')
	await expect(page.getByText('طلب دعم جمعية صحية — الخطوة 2 من 5')).toBeVisible()
	await next(page)
	await expectErrors(page, 'الرجاء إضافة مشروع واحد على الأقل')
	await expectNoAxeViolationsWithoutJs(page)
	// An incomplete row is refused by the server, naming what is missing.
	await page.getByLabel('اسم المشروع').fill('عيادة متنقلة')
	await page.getByRole('button', { name: 'إضافة', exact: true }).click()
	await expectErrors(page, 'الرجاء كتابة عدد المستفيدين من المشروع', 'الرجاء كتابة مكان تنفيذ المشروع')
	await expect(page.getByLabel('اسم المشروع')).toHaveValue('عيادة متنقلة')
	const addProject = async (name: string, beneficiaries: string, place: string) => {
		await page.getByLabel('اسم المشروع').fill(name)
		await page.getByLabel('عدد المستفيدين من المشروع').fill(beneficiaries)
		await page.getByLabel('مكان تنفيذ المشروع').fill(place)
		await page.getByLabel('تاريخ بداية المشروع').fill('2026-02-01')
		await page.getByLabel('تاريخ نهاية المشروع').fill('2026-12-31')
		await page.getByRole('button', { name: 'إضافة', exact: true }).click()
		await expect(page.getByText('تمت الإضافة بنجاح')).toBeVisible()
	}
	await addProject('عيادة متنقلة', '800', 'قرى جنوب الرياض')
	await addProject('فحص السكري', '500', 'مراكز الأحياء')
	await addProject('التوعية بصحة الفم', '1200', 'المدارس')
	await expect(page.getByRole('heading', { name: 'مشاريع الجمعية (3)' })).toBeVisible()

	// «تغيير» is a link: the server fills the row's form in; «إلغاء» leaves it unchanged.
	await page.getByRole('link', { name: 'تغيير مشروع 2' }).click()
	await expect(page).toHaveURL(/\?row=[^#]+#row-form$/)
	await expect(page.getByRole('heading', { name: 'تغيير مشروع 2' })).toBeVisible()
	await expect(page.getByLabel('اسم المشروع')).toHaveValue('فحص السكري')
	await expect(page.getByLabel('عدد المستفيدين من المشروع')).toHaveValue('500')
	await expect(page.getByLabel('تاريخ نهاية المشروع')).toHaveValue('2026-12-31')
	await expectNoAxeViolationsWithoutJs(page)
	await page.getByRole('link', { name: 'إلغاء' }).click()
	await expect(page.getByRole('heading', { name: 'إضافة مشروع' })).toBeVisible()
	await expect(page.getByLabel('اسم المشروع')).toHaveValue('')

	await page.getByRole('link', { name: 'تغيير مشروع 2' }).click()
	await page.getByLabel('اسم المشروع').fill('الكشف المبكر عن السكري')
	await page.getByLabel('عدد المستفيدين من المشروع').fill('650')
	await page.getByRole('button', { name: 'حفظ التغيير' }).click()
	await expect(page.getByText('تم تحديث البيانات بنجاح')).toBeVisible()
	// Changed in place: three rows still, in their order.
	await expect(rowItems(page)).toHaveCount(3)
	await expect(rowItems(page).nth(0)).toContainText('عيادة متنقلة')
	await expect(rowItems(page).nth(1)).toContainText('الكشف المبكر عن السكري')
	await expect(rowItems(page).nth(1)).toContainText('650')
	await expect(rowItems(page).nth(2)).toContainText('التوعية بصحة الفم')

	await page.getByRole('button', { name: 'حذف مشروع 3' }).click()
	await expect(page.getByText('تم الحذف بنجاح')).toBeVisible()
	await expect(page.getByRole('heading', { name: 'مشاريع الجمعية (2)' })).toBeVisible()
	await expect(page.locator('#rows')).not.toContainText('التوعية بصحة الفم')
	await expectNoAxeViolationsWithoutJs(page)
	await next(page)

	// 6-3 the project asked for.
	await onStep(page, 'تفاصيل المشروع')
	await next(page)
	await expectErrors(page, 'الرجاء كتابة اسم المشروع', 'الرجاء كتابة مدير المشروع')
	await expectNoAxeViolationsWithoutJs(page)
	await page.getByLabel('اسم المشروع').fill('عيادة متنقلة')
	await page.getByLabel('مدة تنفيذ المشروع').fill('سنة')
	await page.getByLabel('أهداف المشروع').fill('إيصال الرعاية الأولية إلى القرى البعيدة.')
	await page.getByLabel('مراحل تنفيذ المشروع').fill('تجهيز العيادة، ثم الجدولة، ثم الزيارات.')
	await page.getByLabel('الفئة المستهدفة').fill('سكان القرى')
	await page.getByLabel('العدد المستهدف').fill('800')
	await page.getByLabel('مدير المشروع').fill('د. ريم العنزي')
	await next(page)

	// 6-4 the budget: the server renders the warning while the percentages do not add up to 100.
	await onStep(page, 'الميزانية التقديرية')
	await expectNoAxeViolationsWithoutJs(page)
	const addItem = async (item: string, price: string, percentage: string) => {
		await page.getByLabel('البند', { exact: true }).fill(item)
		await page.getByLabel('السعر التقريبي (ريال)').fill(price)
		await page.getByLabel('النسبة من الميزانية (%)').fill(percentage)
		await page.getByLabel('المبلغ حسب النسبة (ريال)').fill(price)
		await page.getByLabel('ملاحظات', { exact: true }).fill('حسب عرض السعر')
		await page.getByRole('button', { name: 'إضافة', exact: true }).click()
		await expect(page.getByText('تمت الإضافة بنجاح')).toBeVisible()
	}
	await addItem('تجهيز العيادة', '50000', '50')
	await addItem('رواتب الطاقم', '30000', '30')
	await addItem('أدوية', '5000', '5')
	const warning = page.locator('#rows').getByRole('status').filter({ hasText: 'مجموع النسب لا يساوي 100%. راجع نسب البنود.' })
	await expect(warning).toBeVisible()
	await expect(total(page, 'مجموع النسب')).toHaveText('85')
	await expect(total(page, 'مجموع الأسعار التقريبية')).toContainText('85,000.00')
	await expectNoAxeViolationsWithoutJs(page)
	// Deleting a row changes the sums as well.
	await page.getByRole('button', { name: 'حذف بند 3' }).click()
	await expect(page.getByText('تم الحذف بنجاح')).toBeVisible()
	await expect(total(page, 'مجموع النسب')).toHaveText('80')
	await expect(total(page, 'مجموع الأسعار التقريبية')).toContainText('80,000.00')
	await expect(warning).toBeVisible()
	await page.getByRole('link', { name: 'تغيير بند 2' }).click()
	await expect(page.getByLabel('النسبة من الميزانية (%)')).toHaveValue('30')
	await page.getByLabel('النسبة من الميزانية (%)').fill('50')
	await page.getByRole('button', { name: 'حفظ التغيير' }).click()
	await expect(page.getByText('تم تحديث البيانات بنجاح')).toBeVisible()
	await expect(total(page, 'مجموع النسب')).toHaveText('100')
	await expect(warning).toHaveCount(0)
	await page.getByLabel('ملاحظات على الميزانية (اختياري)').fill('الأسعار من عرضين لموردين مختلفين.')
	await next(page)

	// 6-5 the support wanted: any number of choices.
	await onStep(page, 'نوع الدعم المطلوب')
	await expect(page.getByText('طلب دعم جمعية صحية — الخطوة 5 من 5')).toBeVisible()
	await page.getByRole('checkbox', { name: 'الدعم اللوجستي' }).check()
	await page.getByRole('checkbox', { name: 'التدريب والتأهيل' }).check()
	await expectNoAxeViolationsWithoutJs(page)
	await next(page)

	// Check your answers: no attachments step; the lists, their totals and both choices.
	await onStep(page, 'راجع بياناتك قبل الإرسال')
	const main = page.locator('main')
	await expect(main).toContainText('جمعية عناية الصحية')
	await expect(main).toContainText('الكشف المبكر عن السكري')
	await expect(main).not.toContainText('التوعية بصحة الفم')
	await expect(main).not.toContainText('أدوية')
	await expect(main).toContainText('مجموع الأسعار التقريبية')
	await expect(main).toContainText('80,000.00')
	await expect(main).toContainText('الدعم اللوجستي')
	await expect(main).toContainText('التدريب والتأهيل')
	await expect(main).not.toContainText('الدعم الإعلامي')
	await expect(page.getByRole('heading', { name: 'المرفقات' })).toHaveCount(0)
	await expectNoAxeViolationsWithoutJs(page)
	await page.getByRole('button', { name: 'إرسال الطلب' }).click()
	await expectErrors(page, 'الرجاء الإقرار بصحة البيانات قبل إرسال الطلب')
	await page.getByLabel(/أقر بصفتي ممثلاً للجمعية/).check()
	await page.getByRole('button', { name: 'إرسال الطلب' }).click()
	await expect(page).toHaveURL(/\/done$/)
	await onStep(page, 'تم إرسال طلبك')
	await expect(main).toContainText('يدرس فريق المؤسسة طلب الجمعية ومشروعها ونوع الدعم المطلوب.')
	await expectNoAxeViolationsWithoutJs(page)

	// The lookup, still without JavaScript: as an organisation, by licence and the representative's mobile.
	await page.goto('/apply/status')
	await page.getByLabel('جمعية أو مؤسسة: برقم الترخيص أو التصريح').check()
	await page.getByLabel('رقم الهوية أو رقم الترخيص').fill(licence)
	await page.getByLabel('رقم الجوال').fill(mobile)
	await page.getByRole('button', { name: 'استعلام' }).click()
	const found = page.getByRole('listitem').filter({ hasText: 'جمعية عناية الصحية' })
	await expect(found).toContainText('طلب دعم جمعية صحية')
	await expect(found).toContainText('جديد')
	await expectNoAxeViolationsWithoutJs(page)
})
