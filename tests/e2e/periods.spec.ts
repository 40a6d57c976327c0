// The financial periods' screen (docs/product.md#periods), in a browser without JavaScript: finance
// closes a month after confirming on a page of its own, an admin reopens it with a reason (kept,
// and shown on the year's report), at a phone's width and a desk's. The month is one of 2022, a
// year no other test records money in; it ends open again, so the test runs again on the same data.
import { expect, test } from './utils.ts'

const month = '2022-05'

test('finance closes a month after confirming it; an admin reopens it with a reason the report shows', async ({ pageAs }, testInfo) => {
	const finance = await pageAs('finance', { javaScriptEnabled: false, viewport: { width: 375, height: 740 } })
	await finance.goto('/admin/payments')
	await finance.getByRole('link', { name: 'الفترات المالية: إقفال الشهر بعد مطابقة صرفه مع البنك' }).click()
	await finance.getByLabel('السنة', { exact: true }).selectOption('2022')
	await finance.getByRole('button', { name: 'عرض' }).click()
	const row = finance.locator(`#month-${month}`)
	await expect(row).toContainText('مفتوح')
	await row.getByRole('link', { name: 'إقفال الشهر' }).click()
	const confirm = finance.getByRole('region', { name: /^إقفال شهر مايو 2022م/ })
	await expect(confirm).toContainText('لا يُسجَّل في هذا الشهر صرف ولا تسليم ولا دعم')
	await finance.screenshot({ path: testInfo.outputPath('periods-confirm-375.png'), fullPage: true })
	await confirm.getByRole('button', { name: 'تأكيد إقفال الشهر' }).click()
	await expect(finance.getByRole('status')).toContainText('أُقفل شهر مايو 2022م')
	await expect(row).toContainText('مقفل')
	await expect(row).toContainText('الإقفال: هند الدوسري')
	// Reopening is not finance's: no link for it.
	await expect(row.getByRole('link', { name: 'إعادة فتح' })).toHaveCount(0)
	await finance.screenshot({ path: testInfo.outputPath('periods-375.png'), fullPage: true })

	const admin = await pageAs('admin', { javaScriptEnabled: false, viewport: { width: 1280, height: 900 } })
	await admin.goto('/admin/periods?year=2022')
	await admin.locator(`#month-${month}`).getByRole('link', { name: 'إعادة فتح' }).click()
	const reopen = admin.getByRole('region', { name: /^إعادة فتح شهر مايو 2022م/ })
	// A reason of fewer than five letters is refused by the server, the words typed kept.
	await reopen.getByLabel('سبب إعادة الفتح').fill('خطأ')
	await reopen.getByRole('button', { name: 'إعادة فتح الشهر' }).click()
	await expect(reopen).toContainText('الرجاء كتابة سبب إعادة فتح الشهر')
	await expect(reopen.getByLabel('سبب إعادة الفتح')).toHaveValue('خطأ')
	await reopen.getByLabel('سبب إعادة الفتح').fill('إيصال تسليم وصل بعد الإقفال')
	await reopen.getByRole('button', { name: 'إعادة فتح الشهر' }).click()
	await expect(admin.getByRole('status')).toContainText('أُعيد فتح شهر مايو 2022م')
	await expect(admin.locator(`#month-${month}`)).toContainText('إعادة الفتح: مدير النظام')
	await expect(admin.locator(`#month-${month}`)).toContainText('السبب: إيصال تسليم وصل بعد الإقفال')
	await admin.screenshot({ path: testInfo.outputPath('periods-1280.png'), fullPage: true })

	// The year's report lists the reopening with its reason.
	await admin.goto('/admin/reports?year=2022&by=month')
	const periods = admin.getByRole('region', { name: 'الفترات المالية في 2022' })
	await expect(periods).toContainText('أشهر أُعيد فتحها بعد إقفالها')
	await expect(periods).toContainText('السبب: إيصال تسليم وصل بعد الإقفال')
	await admin.screenshot({ path: testInfo.outputPath('reports-1280.png'), fullPage: true })
})
