import type { Page } from '@playwright/test'
import { minimalPdf } from '#tests/fixtures/pdf.ts'
import { expect, expectNoAxeViolations, test } from './utils.ts'
import { expectErrors, next, onStep } from './apply-steps.ts'

const pdf = (name: string) => ({ name, mimeType: 'application/pdf', buffer: Buffer.from(minimalPdf()) })
const fakePdf = { name: 'ترخيص.pdf', mimeType: 'application/pdf', buffer: Buffer.from('only text pretending to be a PDF') }

/**
 * A licence number no other test or earlier run used, as the duplicate rule is on it: twelve digits
 * (a licence is 1 to 20 digits), the last ten from the clock and chance. Not ten, the length of a
 * national ID: staff must find an association by its whole licence number, whatever its length.
 */
const randomLicence = () => `77${String(Date.now() % 1e6).padStart(6, '0')}${String(Math.floor(Math.random() * 1e4)).padStart(4, '0')}`

/** The sum shown under a list's rows beside its label («مجموع النسب» → «90»). */
const total = (page: Page, label: string) =>
	page
		.locator('#rows dl > div')
		.filter({ has: page.locator('dt', { hasText: label }) })
		.locator('dd')
const rowItems = (page: Page) => page.locator('#rows li')

test('an association applies on a phone: its details, projects and budget as growing lists, files, submit, lookup, staff', async ({ page, pageAs }) => {
	// Six steps, two lists changed row by row, three uploads (one refused), then the lookup and the staff list.
	test.setTimeout(180_000)
	const licence = randomLicence()
	const mobile = '0559876543'

	await page.goto('/apply/association-support')
	await expectNoAxeViolations(page)
	await page.getByRole('link', { name: 'ابدأ الطلب' }).click()

	// 5-1 the association: every required field is named in the summary, each exactly once.
	await onStep(page, 'بيانات الجمعية')
	await expect(page.getByText('طلب دعم جمعية — الخطوة 1 من 6')).toBeVisible()
	await next(page)
	const required = [
		'الرجاء كتابة اسم الجمعية',
		'الرجاء كتابة رقم الترخيص',
		'الرجاء اختيار تخصص الجمعية',
		'الرجاء كتابة تاريخ التأسيس',
		'الرجاء كتابة البريد الإلكتروني',
		'الرجاء كتابة اسم ممثل الجمعية',
		'الرجاء كتابة رقم الجوال',
	]
	await expectErrors(page, ...required)
	const summary = page.getByRole('alert').filter({ hasText: 'يوجد خطأ في البيانات المدخلة' })
	await expect(summary).toHaveCount(1)
	await expect(summary.getByRole('listitem')).toHaveCount(required.length)
	for (const message of required) await expect(summary.getByRole('link', { name: message, exact: true })).toHaveCount(1)
	await expectNoAxeViolations(page)
	await page.getByLabel('اسم الجمعية').fill('جمعية البر الخيرية بالرياض')
	await page.getByLabel('رقم الترخيص').fill(licence)
	await page.getByLabel('تخصص الجمعية').selectOption({ label: 'اجتماعية' })
	await page.getByLabel('تاريخ التأسيس').fill('2012-09-15')
	await page.getByLabel('البريد الإلكتروني للجمعية').fill(`assoc-${licence}@e2e.test`)
	await page.getByLabel('اسم ممثل الجمعية').fill('سلمان عبدالعزيز الدوسري')
	await page.getByLabel('جوال ممثل الجمعية').fill(mobile)
	await page.getByLabel('عدد مشاريع العام الماضي (اختياري)').fill('4')
	await next(page)
	await expect(page.getByText(/تم حفظ بياناتك وإنشاء طلبك\./)).toBeVisible()
	await expectNoAxeViolations(page)
	await page.getByRole('link', { name: 'متابعة الطلب' }).click()

	// 5-2 the association's bank account.
	await onStep(page, 'البيانات البنكية')
	await expectNoAxeViolations(page)
	await page.getByLabel('البنك', { exact: true }).selectOption({ label: 'مصرف الراجحي' })
	await page.getByLabel('رقم الحساب (الآيبان)').fill('SA0380000000608010167519')
	await next(page)

	// 5-3 projects: the list may not be empty; two added, the first changed in place, the second deleted.
	await onStep(page, 'المشاريع حسب التخصص')
	await expect(page.getByText('لم تُضف مشروعاً بعد.')).toBeVisible()
	await next(page)
	// tooFewRows with min 1 and the group's `counted.one`.
	await expectErrors(page, 'الرجاء إضافة مشروع واحد على الأقل')
	await expectNoAxeViolations(page)
	const addProject = async (name: string, beneficiaries: string, place: string) => {
		await expect(page.getByRole('heading', { name: 'إضافة مشروع' })).toBeVisible()
		await page.getByLabel('اسم المشروع').fill(name)
		await page.getByLabel('عدد المستفيدين من المشروع').fill(beneficiaries)
		await page.getByLabel('مكان تنفيذ المشروع').fill(place)
		await page.getByLabel('تاريخ بداية المشروع').fill('2026-01-10')
		await page.getByLabel('تاريخ نهاية المشروع').fill('2026-06-30')
		await page.getByRole('button', { name: 'إضافة', exact: true }).click()
		await expect(page.getByText('تمت الإضافة بنجاح')).toBeVisible()
	}
	await addProject('السلة الرمضانية', '300', 'حي النسيم')
	await expect(page.getByRole('heading', { name: 'مشاريع الجمعية (1)' })).toBeVisible()
	// The add form is empty again for the next project.
	await expect(page.getByLabel('اسم المشروع')).toHaveValue('')
	await addProject('كسوة العيد', '150', 'حي الشفا')
	await expect(page.getByRole('heading', { name: 'مشاريع الجمعية (2)' })).toBeVisible()

	// «تغيير» opens the row's form filled in with what was saved.
	await page.getByRole('link', { name: 'تغيير مشروع 1' }).click()
	await expect(page).toHaveURL(/\?row=[^#]+#row-form$/)
	await expect(page.getByRole('heading', { name: 'تغيير مشروع 1' })).toBeVisible()
	await expect(page.getByLabel('اسم المشروع')).toHaveValue('السلة الرمضانية')
	await expect(page.getByLabel('عدد المستفيدين من المشروع')).toHaveValue('300')
	await expect(page.getByLabel('مكان تنفيذ المشروع')).toHaveValue('حي النسيم')
	await expect(page.getByLabel('تاريخ بداية المشروع')).toHaveValue('2026-01-10')
	await expect(page.getByLabel('تاريخ نهاية المشروع')).toHaveValue('2026-06-30')
	await expectNoAxeViolations(page)
	await page.getByLabel('اسم المشروع').fill('السلة الغذائية الرمضانية')
	await page.getByRole('button', { name: 'حفظ التغيير' }).click()
	await expect(page.getByText('تم تحديث البيانات بنجاح')).toBeVisible()
	// Changed in place: still two rows, in the same order, the first under its new name.
	await expect(page.getByRole('heading', { name: 'مشاريع الجمعية (2)' })).toBeVisible()
	await expect(rowItems(page)).toHaveCount(2)
	await expect(rowItems(page).nth(0)).toContainText('السلة الغذائية الرمضانية')
	await expect(rowItems(page).nth(1)).toContainText('كسوة العيد')
	await expect(page.locator('#rows')).not.toContainText(/السلة الرمضانية/)
	// The form is back to adding.
	await expect(page.getByRole('heading', { name: 'إضافة مشروع' })).toBeVisible()
	await expect(page.getByLabel('اسم المشروع')).toHaveValue('')

	await page.getByRole('button', { name: 'حذف مشروع 2' }).click()
	await expect(page.getByText('تم الحذف بنجاح')).toBeVisible()
	await expect(page.getByRole('heading', { name: 'مشاريع الجمعية (1)' })).toBeVisible()
	await expect(page.locator('#rows')).not.toContainText('كسوة العيد')
	await expect(rowItems(page).nth(0)).toContainText('السلة الغذائية الرمضانية')
	// Twenty projects would be needed to see the add form go away at the list's maximum: not tested here.
	await next(page)

	// 5-4 the project asked for.
	await onStep(page, 'تفاصيل المشروع')
	await expectNoAxeViolations(page)
	await page.getByLabel('اسم المشروع').fill('السلة الغذائية الرمضانية')
	await page.getByLabel('مدة تنفيذ المشروع').fill('شهر رمضان')
	await page.getByLabel('أهداف المشروع').fill('توفير الغذاء للأسر المتعففة طوال الشهر.')
	await page.getByLabel('مراحل تنفيذ المشروع').fill('الحصر، ثم الشراء، ثم التوزيع.')
	await page.getByLabel('الفئة المستهدفة').fill('الأسر المتعففة')
	await page.getByLabel('العدد المستهدف').fill('300')
	await page.getByLabel('مدير المشروع').fill('خالد الشمري')
	await next(page)

	// 5-5 the budget: percentages that do not add up to 100 are warned about, not refused.
	await onStep(page, 'الميزانية التقديرية')
	await expectNoAxeViolations(page)
	const addItem = async (item: string, price: string, percentage: string, notes: string) => {
		await page.getByLabel('البند', { exact: true }).fill(item)
		await page.getByLabel('السعر التقريبي (ريال)').fill(price)
		await page.getByLabel('النسبة من الميزانية (%)').fill(percentage)
		await page.getByLabel('المبلغ حسب النسبة (ريال)').fill(price)
		await page.getByLabel('ملاحظات', { exact: true }).fill(notes)
		await page.getByRole('button', { name: 'إضافة', exact: true }).click()
		await expect(page.getByText('تمت الإضافة بنجاح')).toBeVisible()
	}
	await addItem('مواد غذائية', '12000', '60', 'أرز وزيت وسكر')
	await addItem('تغليف ونقل', '6000', '30', 'سيارة نقل لأسبوع')
	await expect(page.getByRole('heading', { name: 'بنود الميزانية (2)' })).toBeVisible()
	const warning = page.locator('#rows').getByRole('status').filter({ hasText: 'مجموع النسب لا يساوي 100%. راجع نسب البنود.' })
	await expect(warning).toBeVisible()
	await expect(total(page, 'مجموع الأسعار التقريبية')).toContainText('18,000.00')
	await expect(total(page, 'مجموع النسب')).toHaveText('90')
	await expect(total(page, 'مجموع المبالغ')).toContainText('18,000.00')
	await expectNoAxeViolations(page)

	await page.getByRole('link', { name: 'تغيير بند 2' }).click()
	await expect(page.getByRole('heading', { name: 'تغيير بند 2' })).toBeVisible()
	await expect(page.getByLabel('النسبة من الميزانية (%)')).toHaveValue('30')
	await page.getByLabel('النسبة من الميزانية (%)').fill('40')
	await page.getByRole('button', { name: 'حفظ التغيير' }).click()
	await expect(page.getByText('تم تحديث البيانات بنجاح')).toBeVisible()
	await expect(total(page, 'مجموع النسب')).toHaveText('100')
	await expect(warning).toHaveCount(0)
	await expect(rowItems(page)).toHaveCount(2)
	await expect(rowItems(page).nth(1)).toContainText('تغليف ونقل')

	// The notes beside the list are saved with «حفظ ومتابعة», and are there on coming back.
	await page.getByLabel('ملاحظات على الميزانية (اختياري)').fill('الأسعار تقديرية حسب عروض الموردين.')
	await next(page)
	await onStep(page, 'المرفقات')
	await page.getByRole('link', { name: 'رجوع' }).click()
	await onStep(page, 'الميزانية التقديرية')
	await expect(page.getByLabel('ملاحظات على الميزانية (اختياري)')).toHaveValue('الأسعار تقديرية حسب عروض الموردين.')
	await next(page)

	// 5-6 the files: two are required; a text file named .pdf is refused.
	await onStep(page, 'المرفقات')
	await next(page)
	await expectErrors(page, 'الرجاء إرفاق ترخيص وزارة الموارد البشرية', 'الرجاء إرفاق قرار تشكيل مجلس الإدارة')
	await expectNoAxeViolations(page)
	const licenceSlot = page.getByRole('region', { name: /ترخيص وزارة الموارد البشرية/ })
	await licenceSlot.getByLabel(/اختر ملف PDF/).setInputFiles(fakePdf)
	await licenceSlot.getByRole('button', { name: 'رفع الملف' }).click()
	await expect(licenceSlot.getByRole('alert')).toHaveText(/الملف ليس صورة ولا PDF\. صوّر المستند بالكاميرا/)
	for (const [slot, file] of [
		['ترخيص وزارة الموارد البشرية', pdf('ترخيص.pdf')],
		['قرار تشكيل مجلس الإدارة', pdf('قرار المجلس.pdf')],
	] as const) {
		const region = page.getByRole('region', { name: new RegExp(slot) })
		await region.getByLabel(/اختر ملف PDF/).setInputFiles(file)
		await region.getByRole('button', { name: 'رفع الملف' }).click()
		await expect(region.getByRole('listitem').filter({ hasText: file.name })).toBeVisible()
	}
	await expectNoAxeViolations(page)
	await next(page)

	// Check your answers: the budget's totals are shown there too.
	await onStep(page, 'راجع بياناتك قبل الإرسال')
	const main = page.locator('main')
	await expect(main).toContainText('جمعية البر الخيرية بالرياض')
	await expect(main).toContainText('السلة الغذائية الرمضانية')
	await expect(main).toContainText('مجموع الأسعار التقريبية')
	await expect(main).toContainText('18,000.00')
	await expect(main).toContainText('الأسعار تقديرية حسب عروض الموردين.')
	await expect(main).not.toContainText('مجموع النسب لا يساوي 100%')
	await expectNoAxeViolations(page)
	await page.getByLabel(/أقر بصفتي ممثلاً للجمعية/).check()
	await page.getByRole('button', { name: 'إرسال الطلب' }).click()
	await expect(page).toHaveURL(/\/done$/)
	await onStep(page, 'تم إرسال طلبك')
	await expect(main).toContainText('يدرس فريق المؤسسة طلب الجمعية ومشروعها وميزانيته التقديرية.')
	await expectNoAxeViolations(page)

	// The lookup as an organisation: the licence number and the representative's mobile.
	const visitor = await pageAs('visitor')
	await visitor.goto('/apply/status')
	await visitor.getByLabel('جمعية أو مؤسسة: برقم الترخيص أو التصريح').check()
	await visitor.getByLabel('رقم الهوية أو رقم الترخيص').fill(licence)
	await visitor.getByLabel('رقم الجوال').fill(mobile)
	await visitor.getByRole('button', { name: 'استعلام' }).click()
	const found = visitor.getByRole('listitem').filter({ hasText: 'جمعية البر الخيرية بالرياض' })
	await expect(found).toContainText('طلب دعم جمعية')
	await expect(found).toContainText('جديد')

	// A case officer finds it among the associations by its whole licence number.
	const officer = await pageAs('case_officer')
	await officer.goto(`/admin/associations?q=${licence}`)
	const listed = officer.getByRole('row', { name: new RegExp(licence) })
	await expect(listed).toContainText('طلب دعم جمعية')
	await expectNoAxeViolations(officer)
	await listed.getByRole('link', { name: 'جمعية البر الخيرية بالرياض' }).click()
	await expect(officer.getByRole('heading', { level: 1 })).toHaveText('جمعية البر الخيرية بالرياض')
	await expect(officer.getByRole('region', { name: 'جدول بنود الميزانية' })).toContainText('تغليف ونقل')
})
