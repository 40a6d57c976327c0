import { expect, test, type Page } from '@playwright/test'
import { expectNoAxeViolations, signIn } from './utils.ts'

interface UserFields {
	name?: string
	email?: string
	mobile?: string
	role?: 'admin' | 'case_officer' | 'content_editor'
	password?: string
	confirmPassword?: string
}

/** Types into the user form the fields given (others are left as they are). */
async function fillUserForm(page: Page, fields: UserFields) {
	if (fields.name !== undefined) await page.getByLabel('الاسم').fill(fields.name)
	if (fields.email !== undefined) await page.getByLabel('البريد الإلكتروني').fill(fields.email)
	if (fields.mobile !== undefined) await page.getByLabel('رقم الجوال').fill(fields.mobile)
	if (fields.role !== undefined) await page.getByLabel('الصلاحية').selectOption(fields.role)
	if (fields.password !== undefined) await page.getByLabel('كلمة المرور', { exact: true }).fill(fields.password)
	const confirm = fields.confirmPassword ?? fields.password
	if (confirm !== undefined) await page.getByLabel('تأكيد كلمة المرور').fill(confirm)
}

test('an admin adds a user: errors are explained, nothing is stored until valid, then the user can sign in', async ({ page, browser }) => {
	const email = `officer-${Date.now()}@e2e.test`
	await signIn(page, undefined, '/admin/users/new')
	await expect(page).toHaveURL('/admin/users/new')
	await expect(page.getByRole('navigation', { name: 'مسار التنقل' }).getByRole('link', { name: 'لوحة التحكم' })).toHaveAttribute('href', '/admin')
	await expectNoAxeViolations(page)

	await fillUserForm(page, { name: 'فهد الدوسري', email, mobile: '05512', password: 'weakpass', confirmPassword: 'different' })
	await page.getByRole('button', { name: 'إضافة المستخدم' }).click()
	await expect(page.getByText('رقم الجوال يجب أن يكون 10 أرقام ويبدأ بـ 05').first()).toBeVisible()
	await expect(page.getByText('كلمة المرور يجب أن تحتوي على حرف كبير وحرف صغير ورقم').first()).toBeVisible()
	await expect(page.getByText('كلمتا المرور غير متطابقتين').first()).toBeVisible()
	await expect(page).toHaveURL('/admin/users/new')

	await fillUserForm(page, { mobile: '0551234567', role: 'case_officer', password: 'Officer-Pass-7' })
	await page.getByRole('button', { name: 'إضافة المستخدم' }).click()
	await expect(page).toHaveURL(/\/admin\/users\?notice=added/)
	await expect(page.getByRole('status')).toHaveText('تم إضافة بنجاح')

	const other = await browser.newContext()
	const officer = await other.newPage()
	await signIn(officer, { email, password: 'Officer-Pass-7' })
	await expect(officer).toHaveURL('/admin')
	// A case officer may not manage users.
	const forbidden = await officer.goto('/admin/users')
	expect(forbidden?.status()).toBe(403)
	await expect(officer.getByRole('heading', { level: 1 })).toHaveText('غير مسموح')
	await other.close()
})

test('server-side validation holds without JavaScript: the error summary links to each field', async ({ browser }) => {
	const context = await browser.newContext({ javaScriptEnabled: false })
	const page = await context.newPage()
	await signIn(page, undefined, '/admin/users/new')
	await page.getByLabel('البريد الإلكتروني').fill('admin@e2e.test')
	await page.getByRole('button', { name: 'إضافة المستخدم' }).click()
	await expect(page).toHaveTitle(/^خطأ: /)
	const summary = page.getByRole('alert')
	await expect(summary.getByRole('link', { name: 'الرجاء كتابة الاسم' })).toHaveAttribute('href', /^#/)
	await expect(summary.getByRole('link', { name: 'الرجاء كتابة رقم الجوال' })).toBeVisible()
	await expect(summary.getByRole('link', { name: 'الرجاء كتابة كلمة المرور' })).toBeVisible()
	await expect(page.getByLabel('البريد الإلكتروني')).toHaveValue('admin@e2e.test')

	// A duplicate e-mail is refused by the server.
	await fillUserForm(page, { name: 'مكرر', mobile: '0551234567', password: 'Dup-Pass-123' })
	await page.getByRole('button', { name: 'إضافة المستخدم' }).click()
	await expect(page.getByRole('alert')).toContainText('هذا البريد الإلكتروني مسجل لمستخدم آخر')
	await context.close()
})

test('a stopped account is signed out and cannot sign in; the admin cannot stop their own account', async ({ page, browser }) => {
	const email = `editor-${Date.now()}@e2e.test`
	await signIn(page, undefined, '/admin/users/new')
	await fillUserForm(page, { name: 'ريم الشهري', email, mobile: '0509876543', role: 'content_editor', password: 'Editor-Pass-3' })
	await page.getByRole('button', { name: 'إضافة المستخدم' }).click()
	await expect(page.getByRole('status')).toHaveText('تم إضافة بنجاح')

	const other = await browser.newContext()
	const editor = await other.newPage()
	await signIn(editor, { email, password: 'Editor-Pass-3' })
	await expect(editor).toHaveURL('/admin')

	// Find the new user's row across pages (5 per page) and stop the account.
	await page.goto('/admin/users?page=99')
	const row = page.getByRole('row', { name: new RegExp(email) })
	await expect(row).toBeVisible()
	await row.getByRole('button', { name: /إيقاف/ }).click()
	await expect(page.getByRole('status')).toHaveText('تم تحديث بيانات بنجاح')
	await expect(page.getByRole('row', { name: new RegExp(email) })).toContainText('موقوف')

	await editor.goto('/admin')
	await expect(editor).toHaveURL(/\/login/)
	await signIn(editor, { email, password: 'Editor-Pass-3' })
	await expect(editor.getByRole('alert')).toContainText('الرجاء التحقق من بيانات الدخول')
	await other.close()

	await page.goto('/admin/users')
	await page.getByRole('row', { name: /admin@e2e\.test/ }).getByRole('button', { name: /إيقاف/ }).click()
	await expect(page.getByRole('status')).toHaveText('لا يمكنك إيقاف حسابك أنت.')
})

test('editing a user keeps the password unless a new one is typed; every users screen passes axe-core', async ({ page, browser }) => {
	const email = `edit-${Date.now()}@e2e.test`
	await signIn(page, undefined, '/admin/users/new')
	await fillUserForm(page, { name: 'سلمان العنزي', email, mobile: '0541112233', password: 'First-Pass-1' })
	await page.getByRole('button', { name: 'إضافة المستخدم' }).click()
	await expect(page.getByRole('status')).toHaveText('تم إضافة بنجاح')
	await expectNoAxeViolations(page)

	await page.goto('/admin/users?page=99')
	await page.getByRole('row', { name: new RegExp(email) }).getByRole('link', { name: /تعديل/ }).click()
	await expect(page.getByLabel('الاسم')).toHaveValue('سلمان العنزي')
	await expect(page.getByLabel('رقم الجوال')).toHaveValue('0541112233')
	await expect(page.getByRole('navigation', { name: 'مسار التنقل' })).toContainText('المستخدمون')
	await expectNoAxeViolations(page)
	await page.getByLabel('الاسم').fill('سلمان بن فهد العنزي')
	await page.getByRole('button', { name: 'حفظ التعديلات' }).click()
	await expect(page.getByRole('status')).toHaveText('تم تحديث بيانات بنجاح')
	await page.goto('/admin/users?page=99')
	await expect(page.getByRole('row', { name: new RegExp(email) })).toContainText('سلمان بن فهد العنزي')

	const other = await browser.newContext()
	const user = await other.newPage()
	await signIn(user, { email, password: 'First-Pass-1' })
	await expect(user).toHaveURL('/admin')
	await other.close()

	await page.goto('/admin/cases')
	await expect(page.getByRole('heading', { level: 1 })).toContainText('الطلبات المرسلة')
	await expectNoAxeViolations(page)
	const missing = await page.goto('/admin/users/999999/edit')
	expect(missing?.status()).toBe(404)
})
