import type { Page } from '@playwright/test'
import { expect, expectNoAxeViolations, staffState, test } from './utils.ts'

// Notices after a save are shown once, by the page the save leads to, and never travel in the URL.

test.use({ storageState: staffState('admin') })

async function addUser(page: Page, email: string) {
	await page.getByLabel('الاسم').fill('ريم القحطاني')
	await page.getByLabel('البريد الإلكتروني').fill(email)
	await page.getByLabel('رقم الجوال').fill('0551234567')
	await page.getByRole('group', { name: 'الصلاحيات' }).getByLabel('الباحث الاجتماعي', { exact: true }).uncheck()
	await page.getByRole('group', { name: 'الصلاحيات' }).getByLabel('محرر المحتوى', { exact: true }).check()
	await page.getByLabel('كلمة المرور', { exact: true }).fill('Editor-Pass-7')
	await page.getByLabel('تأكيد كلمة المرور').fill('Editor-Pass-7')
	await page.getByRole('button', { name: 'إضافة المستخدم' }).click()
}

test('a notice after adding a user shows once: not in the address, gone on reload and on the next page', async ({ page }) => {
	const email = `flash-${Date.now()}@e2e.test`
	await page.goto('/admin/users/new')
	await addUser(page, email)
	await expect(page).toHaveURL(/\/admin\/users$/)
	await expect(page.getByRole('status')).toHaveText('تمت الإضافة بنجاح')
	await page.reload()
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('المستخدمون')
	await expect(page.getByText('تمت الإضافة بنجاح')).toHaveCount(0)
})

test('the same works without JavaScript', async ({ pageAs }) => {
	const page = await pageAs('admin', { javaScriptEnabled: false })
	await page.goto('/admin/users/new')
	await addUser(page, `flash-nojs-${Date.now()}@e2e.test`)
	await expect(page).toHaveURL(/\/admin\/users$/)
	await expect(page.getByRole('status')).toHaveText('تمت الإضافة بنجاح')
	await page.reload()
	await expect(page.getByText('تمت الإضافة بنجاح')).toHaveCount(0)
})

test('the users list does not offer to stop the signed-in admin’s own account, and offers it on others', async ({ page }) => {
	await page.goto('/admin/users')
	const mine = page.getByRole('row').filter({ hasText: 'admin@e2e.test' })
	await expect(mine).toContainText('حسابك')
	await expect(mine.getByRole('button', { name: /إيقاف/ })).toHaveCount(0)
	const others = page.getByRole('row').filter({ has: page.getByRole('button', { name: /^(إيقاف|تفعيل)/ }) })
	await expect(others.first()).toBeVisible()
	await expectNoAxeViolations(page)
})

test('the first admin, made without a mobile number, can save their own profile', async ({ page }) => {
	await page.goto('/admin/users')
	await page.getByRole('row').filter({ hasText: 'admin@e2e.test' }).getByRole('link', { name: /تعديل/ }).click()
	await expect(page.getByLabel('رقم الجوال (اختياري)')).toHaveValue('')
	await page.getByRole('button', { name: 'حفظ التعديلات' }).click()
	await expect(page).toHaveURL(/\/admin\/users$/)
	await expect(page.getByRole('status')).toHaveText('تم تحديث البيانات بنجاح')
})

test('old back-office addresses open their own screens', async ({ page }) => {
	for (const [old, now, heading] of [
		['/backend/company/update', '/admin/foundation', 'بيانات المؤسسة'],
		['/backend/member/list', '/admin/content/members', 'أعضاء مجلس الإدارة'],
		['/backend/CEOSpeach/update', '/admin/content/chairman-speech/edit', 'كلمة رئيس مجلس الإدارة'],
	] as const) {
		await page.goto(old)
		await expect(page).toHaveURL(now)
		await expect(page.getByRole('heading', { level: 1 })).toContainText(heading)
	}
})

test('a programme’s page shows its summary once', async ({ page }) => {
	await page.goto('/services')
	const card = page.getByRole('link', { name: /ترميم المنازل/ }).first()
	await card.click()
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('ترميم المنازل')
	await expect(page.getByText('ترميم مساكن الأسر المتعففة وتأهيلها لتكون آمنة وصالحة للسكن.')).toHaveCount(1)
	await expect(page.getByRole('listitem').filter({ hasText: 'إصلاح الأسقف والجدران والتسربات' })).toBeVisible()
})
