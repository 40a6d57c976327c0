import { expect, expectNoAxeViolations, test } from './utils.ts'

// Settings that every visitor meets, and that cannot be made anew for one test: the home page's
// announcement, and whether applications are open. The `site-wide` project runs this file once all
// other projects have finished (playwright.config.ts), so no other test sees these changes. Each
// test here changes a different setting and leaves it in a state the seed could also have had.

test('the announcement shows only inside its window, traps focus, and stays closed for the visit', async ({ pageAs }) => {
	const riyadh = (offsetDays: number) =>
		new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Riyadh', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(Date.now() + offsetDays * 86_400_000))
	const visitor = await pageAs('visitor')
	// The demo window (2025-09-22 to 2025-09-24) is over: no popup. The home page loads no script
	// bundle at all: only the slider's few inline lines.
	await visitor.goto('/')
	await expect(visitor.getByRole('dialog')).toHaveCount(0)
	expect(await visitor.locator('script[src], script[type="module"], link[rel="modulepreload"]').count()).toBe(0)
	expect(await visitor.locator('script').count()).toBe(1)

	const staff = await pageAs('content_editor')
	await staff.goto('/admin/content/announcement/edit')
	const setWindow = async (start: string, end: string) => {
		await staff.getByLabel('يظهر من تاريخ').fill(start)
		await staff.getByLabel('حتى تاريخ (شاملاً)').fill(end)
		await staff.getByRole('button', { name: 'حفظ' }).click()
		await expect(staff.getByRole('status')).toHaveText('تم تحديث البيانات بنجاح')
	}
	await setWindow(riyadh(-1), riyadh(0))
	await visitor.goto('/')
	const dialog = visitor.getByRole('dialog', { name: 'حملة اليوم الوطني: سلال غذائية لألف أسرة' })
	await expect(dialog).toBeVisible()
	// Modal: the page behind is inert, so Tab never reaches it (it may only pass to the browser's own UI).
	expect(await dialog.evaluate((element) => element.matches(':modal'))).toBe(true)
	for (let i = 0; i < 4; i++) {
		await visitor.keyboard.press('Tab')
		const outside = await visitor.evaluate(() => {
			const active = document.activeElement
			return Boolean(active && active !== document.body && !active.closest('dialog'))
		})
		expect(outside).toBe(false)
	}
	await expectNoAxeViolations(visitor)
	await dialog.getByRole('button', { name: 'إغلاق الإعلان' }).click()
	await expect(dialog).toBeHidden()
	await visitor.reload()
	await expect(visitor.getByRole('dialog')).toBeHidden()

	// Ended yesterday: gone for everyone.
	await setWindow(riyadh(-3), riyadh(-1))
	const fresh = await pageAs('visitor')
	await fresh.goto('/')
	await expect(fresh.getByRole('dialog')).toHaveCount(0)
})

test('an admin pauses and closes intake; applicants see the notice, then cannot start; reopening lets them start again', async ({ pageAs }) => {
	const staff = await pageAs('admin')
	await staff.goto('/admin/intake')
	await expectNoAxeViolations(staff)
	const programme = staff.locator('form').filter({ hasText: 'طلب دعم الأسر المحتاجة' })
	const setState = async (label: RegExp) => {
		await programme.getByRole('radio', { name: label }).check()
		await programme.getByRole('button', { name: /حفظ/ }).click()
		await expect(staff.getByRole('status')).toHaveText('تم تحديث البيانات بنجاح')
	}
	const visitor = await pageAs('visitor')
	await programme.getByRole('textbox', { name: /تنبيه التوقف المؤقت/ }).fill('الدعم متوقف حالياً حتى نهاية الربع، وستُراجع الطلبات عند استئنافه.')
	await setState(/موقوف مؤقتاً/)
	await visitor.goto('/apply/needy-families')
	await expect(visitor.getByRole('status')).toHaveText('الدعم متوقف حالياً حتى نهاية الربع، وستُراجع الطلبات عند استئنافه.')
	await expect(visitor.getByRole('link', { name: 'ابدأ الطلب' })).toBeVisible()

	await setState(/مغلق/)
	await visitor.goto('/apply/needy-families')
	await expect(visitor.getByText('التقديم على هذا البرنامج مغلق حالياً')).toBeVisible()
	await expect(visitor.getByRole('link', { name: 'ابدأ الطلب' })).toHaveCount(0)
	await visitor.goto('/apply/needy-families/new')
	await expect(visitor).toHaveURL('/apply/needy-families')

	await setState(/مفتوح/)
	await visitor.goto('/apply/needy-families')
	await expect(visitor.getByRole('link', { name: 'ابدأ الطلب' })).toBeVisible()
	await visitor.getByRole('link', { name: 'ابدأ الطلب' }).click()
	await expect(visitor.getByRole('heading', { level: 1 })).toHaveText('البيانات الأساسية')
})
