import { expect, test } from './utils.ts'
import { randomNationalId } from '#tests/fixtures/needy-families.ts'
import { answerConsent, fillBasic, next, onStep } from './apply-steps.ts'

// Issue 38, finding 3: «مصرف الراجحي» chosen with an IBAN of the Saudi National Bank (bank code 10)
// was accepted. The bank step refuses it on the server (no JavaScript: nothing checked in the
// browser), naming both banks, and keeps what was typed and chosen (app/forms/bank-account.ts).

const snbIban = 'SA1510000000608010167519'
const rajhiIban = 'SA0380000000608010167519'

test('finding 3: the bank step refuses an IBAN of another bank than the one chosen, naming both, and keeps what was typed', async ({ pageAs }) => {
	test.setTimeout(90_000)
	const page = await pageAs('visitor', { javaScriptEnabled: false })
	await page.goto('/apply/needy-families/new')
	await onStep(page, 'البيانات الأساسية')
	await fillBasic(page, randomNationalId())
	await next(page)
	await page.getByRole('link', { name: 'متابعة الطلب' }).click()
	await answerConsent(page)
	await onStep(page, 'البيانات البنكية')

	await page.getByLabel('البنك', { exact: true }).selectOption({ label: 'مصرف الراجحي' })
	await page.getByLabel('رقم الحساب (الآيبان)').fill(snbIban)
	await next(page)
	const message = 'الآيبان لحساب في «البنك الأهلي السعودي» (رمز البنك 10)، لا في «مصرف الراجحي» المختار: اختر البنك الذي فيه الحساب، أو اكتب آيبان حسابك في البنك المختار'
	await onStep(page, 'البيانات البنكية')
	await expect(page.getByRole('alert').filter({ hasText: 'يوجد خطأ في البيانات المدخلة' })).toContainText(message)
	await expect(page.getByLabel('رقم الحساب (الآيبان)')).toHaveValue(snbIban)
	await expect(page.getByLabel('البنك', { exact: true })).toHaveValue('alrajhi')

	// The IBAN of the chosen bank goes on.
	await page.getByLabel('رقم الحساب (الآيبان)').fill(rajhiIban)
	await next(page)
	await onStep(page, 'الوضع المالي')
})
