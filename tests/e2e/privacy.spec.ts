import { randomNationalId } from '#tests/fixtures/needy-families.ts'
import { expect, expectNoAxeViolations, test, unique } from './utils.ts'
import { answerConsent, fillBasic, next, onStep } from './apply-steps.ts'
import { submitCaseAsStaff } from './case-fixtures.ts'

// The privacy notice and the consent step for health and bank data (docs/product.md#privacy-and-consent).

test('/privacy shows the current version, and the footer and the start of every application link to it', async ({ pageAs }) => {
	const page = await pageAs('visitor')
	await page.goto('/')
	await page.getByRole('contentinfo').getByRole('link', { name: 'إشعار الخصوصية' }).click()
	await expect(page).toHaveURL(/\/privacy$/)
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('إشعار الخصوصية')
	await expect(page.getByText(/^الإصدار \d+ — نُشر في /)).toBeVisible()
	await expect(page.getByRole('heading', { name: 'جهة التحكم في بياناتك' })).toBeVisible()
	await expect(page.getByRole('region', { name: 'جهة التحكم في بياناتك' })).toContainText('مؤسسة عطاء')
	await expect(page.getByRole('heading', { name: 'حقوقك', exact: true })).toBeVisible()
	await expectNoAxeViolations(page)
	// No JavaScript needed: the page, and the links to it at the start of every application.
	const plain = await pageAs('visitor', { javaScriptEnabled: false })
	for (const path of ['/apply/medical-case', '/apply/needy-families/new']) {
		await plain.goto(path)
		await expect(plain.getByText('نستخدم بياناتك لدراسة طلبك')).toBeVisible()
		await plain.getByRole('main').getByRole('link', { name: 'إشعار الخصوصية' }).click()
		await expect(plain).toHaveURL(/\/privacy$/)
		await expect(plain.getByText(/^الإصدار \d+ — نُشر في /)).toBeVisible()
	}
})

test('a content editor publishes a new version and /privacy shows it at once; earlier versions stay readable', async ({ pageAs }) => {
	const editor = await pageAs('content_editor')
	await editor.goto('/admin/privacy')
	await expect(editor.getByRole('heading', { level: 1 })).toHaveText('إشعار الخصوصية')
	await expectNoAxeViolations(editor)
	const current = Number((await editor.getByText(/^الإصدار الحالي: \d+$/).textContent())!.replace(/\D/g, ''))

	// Without JavaScript the editor is the notice's HTML in a text area: the new paragraph goes at its end.
	const plain = await pageAs('content_editor', { javaScriptEnabled: false })
	await plain.goto('/admin/privacy')
	const body = plain.getByLabel('نص الإشعار')
	const marker = `تحديث ${unique()}: أضفنا وسيلة جديدة لطلب نسخة من بياناتك.`
	await body.fill(`${await body.inputValue()}<p>${marker}</p><script>alert(1)</script>`)
	await plain.getByRole('button', { name: 'نشر إصدار جديد' }).click()
	await expect(plain.getByText(/^نُشر الإصدار \d+ من إشعار الخصوصية/)).toBeVisible()
	const published = Number((await plain.getByText(/^الإصدار الحالي: \d+$/).textContent())!.replace(/\D/g, ''))
	expect(published).toBeGreaterThan(current)
	// An empty text is refused in words, and nothing is published.
	await plain.getByLabel('نص الإشعار').fill('<p> </p>')
	await plain.getByRole('button', { name: 'نشر إصدار جديد' }).click()
	await expect(plain.getByRole('alert').filter({ hasText: 'الرجاء كتابة نص الإشعار' })).toBeVisible()

	const visitor = await pageAs('visitor')
	await visitor.goto('/privacy')
	await expect(visitor.getByText(new RegExp(`^الإصدار ${published} — نُشر في `))).toBeVisible()
	await expect(visitor.getByText(marker)).toBeVisible()
	expect(await visitor.locator('main script').count()).toBe(0)

	// The list names who published each version; an earlier one opens to read.
	await editor.goto('/admin/privacy')
	const row = editor.getByRole('row').filter({ hasText: `${published} (الحالي)` })
	await expect(row).toContainText('خالد')
	await editor.getByRole('link', { name: `عرض النص (الإصدار ${current})` }).click()
	await expect(editor.getByRole('heading', { name: `نص الإصدار ${current}` })).toBeVisible()
	await expect(editor.getByRole('region', { name: `نص الإصدار ${current}` })).not.toContainText(marker)
})

test('the consent step: it comes before the bank details; declined, they are skipped', async ({ pageAs }) => {
	const page = await pageAs('visitor')
	await page.goto('/apply/needy-families/new')
	await fillBasic(page, randomNationalId())
	await next(page)
	await expect(page.getByText('تم حفظ بياناتك وإنشاء طلبك.')).toBeVisible()
	const overview = page.url()
	await expect(page.getByRole('link', { name: /الموافقة على البيانات المالية/ })).toBeVisible()
	await page.getByRole('link', { name: 'متابعة الطلب' }).click()
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('الموافقة على البيانات المالية')
	await expect(page.getByText('طلب دعم الأسر المحتاجة (الدعم المقطوع) — الخطوة 2 من 8')).toBeVisible()
	await expect(page.getByRole('listitem').filter({ hasText: 'البيانات البنكية' })).toBeVisible()
	await expect(page.getByRole('listitem').filter({ hasText: 'كشف حساب بنكي' })).toBeVisible()
	await expect(page.getByRole('link', { name: /اقرأ إشعار الخصوصية كاملاً \(الإصدار \d+\)/ })).toBeVisible()
	await expectNoAxeViolations(page)
	// The bank step cannot be reached before the answer.
	await page.goto(`${overview}/bank`)
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('الموافقة على البيانات المالية')

	await answerConsent(page, 'declined')
	await onStep(page, 'الوضع المالي')
	// The map does not change under the applicant: the bank step keeps its place, not asked.
	await expect(page.getByText('الخطوة 4 من 8')).toBeVisible()
	// Declined, the bank step is not offered at all.
	await page.goto(`${overview}/bank`)
	await onStep(page, 'الوضع المالي')
	// The applicant changes their mind: the bank details follow.
	await page.goto(`${overview}/consent`)
	await expect(page.getByRole('status')).toHaveText('إجابتك المحفوظة: لا أوافق. يمكنك تغييرها.')
	await answerConsent(page, 'given')
	await onStep(page, 'البيانات البنكية')
})

test('declined: the check page says so, the case sends without the bank details, and staff see the answer', async ({ pageAs }) => {
	const staff = await pageAs('case_officer')
	const draft = await submitCaseAsStaff(staff.request, { consent: 'declined', submit: false, name: `متقدم لم يوافق ${unique()}` })
	const page = await pageAs('visitor')
	await page.goto(`/apply/r/${draft.token}/check`)
	const consent = page.getByRole('region', { name: 'الموافقة على البيانات المالية' })
	await expect(consent).toContainText('لا أوافق')
	await expect(consent).toContainText('لن تُجمع هذه البيانات ولن تُرسل مع طلبك: البيانات البنكية، كشف حساب بنكي.')
	await expect(page.getByRole('region', { name: 'البيانات البنكية' })).toHaveCount(0)
	await expectNoAxeViolations(page)
	await page.getByLabel(/أقر بأن جميع البيانات/).check()
	await page.getByRole('button', { name: 'إرسال الطلب' }).click()
	await onStep(page, 'تم إرسال طلبك')
	// Sent: the answer stays as sent.
	await page.goto(`/apply/r/${draft.token}/consent`)
	await expect(page).toHaveURL(new RegExp(`/apply/r/${draft.token}$`))

	await staff.goto(`/admin/cases/${draft.reference}`)
	await expect(staff.getByText('الموافقة على البيانات المالية: لم يوافق: لم تُجمع هذه البيانات')).toBeVisible()
	await expect(staff.getByRole('region', { name: 'البيانات البنكية' })).toHaveCount(0)
	await expect(staff.getByText('عدم الموافقة على جمع البيانات المالية')).toBeVisible()
	await staff.goto(`/admin/cases/${draft.reference}/print`)
	await expect(staff.getByText('لم يوافق: لم تُجمع هذه البيانات')).toBeVisible()

	// A case whose applicant agreed: the date and the notice's version.
	const agreed = await submitCaseAsStaff(staff.request)
	await staff.goto(`/admin/cases/${agreed.reference}`)
	await expect(staff.getByText(/^الموافقة على البيانات المالية: أُعطيت في .+ \(إشعار الخصوصية، الإصدار \d+\)$/)).toBeVisible()
})
