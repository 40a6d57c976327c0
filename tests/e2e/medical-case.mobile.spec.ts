import { minimalPdf } from '#tests/fixtures/pdf.ts'
import { randomNationalId } from '#tests/fixtures/needy-families.ts'
import { expect, expectNoAxeViolations, test } from './utils.ts'
import { expectErrors, lookUp, next, onStep, startWithSharedSteps } from './apply-steps.ts'

const pdf = (name: string) => ({ name, mimeType: 'application/pdf', buffer: Buffer.from(minimalPdf()) })

test('a patient applies on a phone: ten steps, the health questions and their defaults, files, submit, lookup', async ({ page, pageAs }) => {
	test.setTimeout(150_000)
	const nationalId = randomNationalId()
	await startWithSharedSteps(page, 'medical-case', { nationalId, netIncome: '3200', firstStepLabel: 'طلب دعم حالة مرضية — الخطوة 1 من 11' })

	// 4-4: no member field is required, but the list may not be empty.
	await onStep(page, 'أفراد الأسرة')
	await next(page)
	await expectErrors(page, 'الرجاء إضافة فرد واحد على الأقل')
	await page.getByLabel('الاسم').fill('والدة المريض')
	await page.getByRole('button', { name: 'إضافة', exact: true }).click()
	await expect(page.getByText('أفراد الأسرة (1)')).toBeVisible()
	await next(page)

	// 4-5: the disease is required; the other choices start on their first option.
	await onStep(page, 'الحالة الصحية للمريض')
	await expectNoAxeViolations(page)
	await expect(page.getByLabel('حالة المريض')).toHaveValue('good')
	await next(page)
	await expectErrors(page, 'الرجاء كتابة نوع المرض')
	await page.getByLabel('نوع المرض').fill('فشل كلوي')
	await page.getByLabel('حالة المريض').selectOption({ label: 'طريح / طريحة الفراش' })
	await next(page)

	await onStep(page, 'احتياجات المريض')
	await next(page)
	await expectErrors(page, 'الرجاء اختيار الاحتياجات التعليمية', 'الرجاء اختيار المواعيد خارج المدينة')
	await page.getByLabel('الاحتياجات التعليمية').selectOption({ label: 'لا يوجد' })
	await page.getByLabel('المواعيد خارج المدينة').selectOption({ label: 'نقل فقط' })
	await next(page)

	await onStep(page, 'ظروف المريض الأخرى')
	await page.getByLabel('وضع المنزل').selectOption({ label: 'ضيق' })
	await page.getByLabel('مستلزمات المريض الخاصة').selectOption({ label: 'ضعيفة' })
	await next(page)

	await onStep(page, 'خدمات المؤسسة المطلوبة')
	await page.getByLabel('مستلزمات طبية').check()
	await next(page)
	await onStep(page, 'الجهات الأخرى المقدمة للخدمة')
	await page.getByLabel('الضمان الاجتماعي').check()
	await next(page)

	await onStep(page, 'ملفات المريض ورسالة المستفيد')
	await expect(page.getByRole('link', { name: /نموذج تعريف شيخ القبيلة للطباعة/ })).toHaveAttribute('href', '/apply/referrer-form')
	await next(page)
	await expectErrors(page, 'الرجاء إرفاق صورة الهوية أو الإقامة', 'الرجاء إرفاق التقرير الطبي')
	for (const [slot, file] of [
		['صورة الهوية أو الإقامة', pdf('هوية.pdf')],
		['التقرير الطبي', pdf('تقرير.pdf')],
	] as const) {
		const region = page.getByRole('region', { name: new RegExp(slot) })
		await region.getByLabel(/اختر ملف PDF/).setInputFiles(file)
		await region.getByRole('button', { name: 'رفع الملف' }).click()
		await expect(region.getByRole('listitem').filter({ hasText: file.name })).toBeVisible()
	}
	await expectNoAxeViolations(page)
	await next(page)

	await expect(page.getByRole('heading', { level: 1 })).toHaveText('راجع بياناتك قبل الإرسال')
	await expect(page.locator('main')).toContainText('فشل كلوي')
	await expect(page.locator('main')).toContainText('طريح / طريحة الفراش')
	await page.getByLabel(/أقر بأن جميع البيانات/).check()
	await page.getByRole('button', { name: 'إرسال الطلب' }).click()
	await expect(page).toHaveURL(/\/done$/)

	const visitor = await pageAs('visitor')
	await lookUp(visitor, nationalId)
	await expect(visitor.locator('main')).toContainText('طلب دعم حالة مرضية')

	// Health data is for staff who handle cases only.
	const officer = await pageAs('case_officer')
	await officer.goto(`/admin/cases?q=${nationalId}`)
	await officer.getByRole('link', { name: 'عبدالله محمد سعد القحطاني' }).click()
	await expect(officer.getByRole('region', { name: 'الحالة الصحية للمريض' })).toContainText('فشل كلوي')
	const editor = await pageAs('content_editor')
	const refused = await editor.request.get(officer.url())
	expect(refused.status()).toBe(403)
})
