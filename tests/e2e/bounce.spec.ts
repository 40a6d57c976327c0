import { expect, staffState, test, unique } from './utils.ts'
import { approvedMonthly, dueLine, payLine } from './aid-fixtures.ts'
import { saudiIbanFromBban } from '#app/domain/validators.ts'
import { validIban } from '#tests/fixtures/needy-families.ts'

// Issue 38, finding 7: a bounced transfer is no longer silent (docs/product.md#a-bounced-payment).
// The family reads on its link that the bank returned it and why, and gives another IBAN there (a
// plain form, without JavaScript); finance's list holds the line until a finance member confirms it.
test.use({ storageState: staffState('finance') })

test('finding 7: a bounce tells the family, asks another IBAN on its link, and the line is offered again only once finance confirms it', async ({ page, pageAs }) => {
	test.setTimeout(120_000)
	const marker = unique()
	const family = await approvedMonthly({ officer: (await pageAs('case_officer')).request, admin: (await pageAs('admin')).request, approver: (await pageAs('approver')).request }, { name: `أم فهد ${marker}`, amount: 900, months: 2 })
	const line = await dueLine(page.request, family.reference)
	expect(line, 'the first month is due').not.toBe('')
	const batchUrl = await payLine(page.request, line, `FT${marker}`.slice(0, 30))
	expect((await page.request.post(batchUrl, { form: { intent: 'reopen', instalment: line, reason: 'الحساب مغلق' }, maxRedirects: 0 })).status()).toBe(302)

	// Finance's list holds it, with why.
	await page.goto('/admin/payments')
	const held = page.getByRole('listitem').filter({ hasText: family.reference }).first()
	await expect(held).toContainText('أعاد البنك التحويل: بانتظار آيبان آخر من الأسرة')
	await expect(page.locator(`#line-${line}`)).toBeDisabled()

	// The family's link says it and asks for another account; the same one is refused, what was typed stays.
	const phone = await pageAs('visitor', { javaScriptEnabled: false })
	await phone.goto(`/apply/r/${family.token}`)
	await expect(phone.getByRole('heading', { name: 'أعاد البنك التحويل: أرسل آيباناً آخر' })).toBeVisible()
	await expect(phone.locator('main')).toContainText('السبب: الحساب مغلق')
	await phone.getByLabel('رقم الآيبان لحساب آخر باسمك').fill(validIban)
	await phone.getByRole('button', { name: 'إرسال الآيبان' }).click()
	await expect(phone.locator('main')).toContainText('هذا هو الآيبان الذي أعاد البنك التحويل إليه: يلزم آيبان حساب آخر')
	await expect(phone.getByLabel('رقم الآيبان لحساب آخر باسمك')).toHaveValue(validIban)
	// An IBAN of another bank than the one chosen (it starts on the family's bank, «مصرف الراجحي»): refused, both banks named, what was typed kept.
	await expect(phone.getByLabel('البنك الذي فيه الحساب')).toHaveValue('alrajhi')
	const snb = saudiIbanFromBban(`10${'0'.repeat(12)}${String(Date.now()).slice(-6)}`)
	await phone.getByLabel('رقم الآيبان لحساب آخر باسمك').fill(snb)
	await phone.getByRole('button', { name: 'إرسال الآيبان' }).click()
	await expect(phone.locator('main')).toContainText('الآيبان لحساب في «البنك الأهلي السعودي» (رمز البنك 10)، لا في «مصرف الراجحي» المختار')
	await expect(phone.getByLabel('رقم الآيبان لحساب آخر باسمك')).toHaveValue(snb)
	const other = saudiIbanFromBban(`80${'0'.repeat(12)}${String(Date.now()).slice(-6)}`)
	await phone.getByLabel('رقم الآيبان لحساب آخر باسمك').fill(other)
	await phone.getByRole('button', { name: 'إرسال الآيبان' }).click()
	await expect(phone.getByRole('status')).toContainText('استلمنا رقم الآيبان الجديد، ونحوّل الدعم إليه بعد أن يتأكد منه مسؤول مالي.')

	// Finance sees it waiting for confirmation, confirms it, and the line is offered again, to the new account.
	await page.goto('/admin/payments')
	await expect(page.getByRole('listitem').filter({ hasText: family.reference }).first()).toContainText('بانتظار تأكيد الآيبان')
	await expect(page.locator(`#line-${line}`)).toBeDisabled()
	await page.getByRole('button', { name: `تأكيد الآيبان لـ${family.name}` }).click()
	await expect(page.getByRole('status')).toContainText('تأكد الآيبان: تُعرض تحويلاته للصرف')
	await expect(page.locator(`#line-${line}`)).toBeEnabled()
	await expect(page.getByRole('listitem').filter({ hasText: family.reference }).first()).toContainText(other)
})
