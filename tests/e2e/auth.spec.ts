import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test } from '@playwright/test'
import { admin, contentEditor, expectNoAxeViolations, signIn, submitSignIn } from './utils.ts'

test('a wrong password and an unknown e-mail get the same message, and what was typed stays', async ({ page }) => {
	await signIn(page, { email: admin.email, password: 'Wrong-Password-1' })
	await expect(page.getByRole('alert')).toContainText('الرجاء التحقق من بيانات الدخول')
	await expect(page).toHaveTitle(/^خطأ: /)
	await expect(page.getByLabel('البريد الإلكتروني')).toHaveValue(admin.email)
	await expectNoAxeViolations(page)

	await signIn(page, { email: 'nobody@e2e.test', password: 'Wrong-Password-1' })
	await expect(page.getByRole('alert')).toContainText('الرجاء التحقق من بيانات الدخول')
})

test('empty and malformed fields are explained by the server, in a summary that takes the focus', async ({ page }) => {
	// The page ships no JavaScript: every message below comes back from the server with the page.
	await page.goto('/login')
	await page.getByRole('button', { name: 'تسجيل الدخول' }).click()
	await expect(page.getByText('الرجاء كتابة البريد الإلكتروني').first()).toBeVisible()
	await expect(page.getByText('الرجاء كتابة كلمة المرور').first()).toBeVisible()
	const summary = page.getByRole('alert')
	await expect(summary.getByRole('link', { name: 'الرجاء كتابة البريد الإلكتروني' })).toHaveAttribute('href', '#login-email')
	await expect(summary).toBeFocused()
	await expect(page).toHaveTitle(/^خطأ: /)
	await expect(page.getByLabel('البريد الإلكتروني')).toHaveAttribute('aria-invalid', 'true')

	await page.getByLabel('البريد الإلكتروني').fill('not-an-email')
	await page.getByLabel('كلمة المرور').fill('x')
	await page.getByRole('button', { name: 'تسجيل الدخول' }).click()
	await expect(page.getByRole('alert').getByRole('link', { name: 'صيغة البريد الإلكتروني غير صحيحة' })).toHaveAttribute('href', '#login-email')
	await expect(page.getByRole('alert')).toBeFocused()
	await expect(page.getByRole('alert')).not.toContainText('الرجاء كتابة كلمة المرور')
	// What was typed stays, except the password.
	await expect(page.getByLabel('البريد الإلكتروني')).toHaveValue('not-an-email')
	await expect(page.getByLabel('البريد الإلكتروني')).toHaveAttribute('aria-invalid', 'true')
	await expect(page.getByLabel('كلمة المرور')).toHaveValue('')
	await expectNoAxeViolations(page)
})

test('signing in reaches the dashboard; signing out ends the session on the server', async ({ page, context }) => {
	await signIn(page, contentEditor)
	await expect(page).toHaveURL('/admin')
	await expect(page.getByRole('heading', { level: 1 })).toContainText('أهلاً')
	await expectNoAxeViolations(page)

	const cookie = (await context.cookies()).find((c) => c.name.includes('ataa_session'))
	expect(cookie?.httpOnly).toBe(true)
	expect(cookie?.sameSite).toBe('Lax')

	// The public header now leads to the dashboard.
	await page.goto('/')
	await expect(page.getByRole('link', { name: 'لوحة التحكم' }).first()).toHaveAttribute('href', '/admin')
	await page.getByRole('contentinfo').getByRole('button', { name: 'تسجيل الخروج' }).click()
	await expect(page).toHaveURL('/')
	await expect(page.getByRole('link', { name: 'بوابة الموظفين' }).first()).toBeVisible()

	// The old cookie no longer opens anything, even if a copy of it was kept.
	await context.addCookies([{ ...cookie! }])
	await page.goto('/admin')
	await expect(page).toHaveURL(/\/login\?redirectTo=%2Fadmin$/)
})

test('the back office sends a signed-out visitor to sign in, then back where they were going', async ({ page, request }) => {
	for (const path of ['/admin', '/admin/users', '/admin/users/new', '/admin/cases', '/admin/whatever']) {
		const response = await request.get(path, { maxRedirects: 0 })
		expect(response.status(), path).toBe(302)
		expect(response.headers()['location']).toBe(`/login?redirectTo=${encodeURIComponent(path)}`)
	}
	const write = await request.post('/admin/users/new', {
		form: { name: 'متسلل', email: 'x@e2e.test', mobile: '0550000000', roles: 'admin', password: 'Abcdefg1', confirmPassword: 'Abcdefg1' },
		maxRedirects: 0,
	})
	expect(write.status()).toBe(302)

	await page.goto('/admin/users')
	await expect(page).toHaveURL(/\/login\?redirectTo=%2Fadmin%2Fusers$/)
	// The admin's second step keeps where they were going.
	await submitSignIn(page, admin)
	await expect(page).toHaveURL('/admin/users')
})

test('a redirectTo pointing to another site is ignored', async ({ page }) => {
	await signIn(page, contentEditor, '//evil.example/steal')
	await expect(page).toHaveURL('/admin')
})

test('signing in works with JavaScript turned off', async ({ browser }) => {
	const context = await browser.newContext({ javaScriptEnabled: false })
	const page = await context.newPage()
	await signIn(page, { email: admin.email, password: 'bad' })
	await expect(page.getByRole('alert')).toContainText('الرجاء التحقق من بيانات الدخول')
	await signIn(page, contentEditor)
	await expect(page).toHaveURL('/admin')
	await page.getByRole('button', { name: 'تسجيل الخروج' }).click()
	await expect(page).toHaveURL('/')
	await context.close()
})

test('a POST from another origin is refused with 403 and changes nothing', async ({ page, request, baseURL }) => {
	const forged = await request.post('/login', {
		headers: { Origin: 'http://evil.example' },
		form: { email: admin.email, password: admin.password },
		maxRedirects: 0,
	})
	expect(forged.status()).toBe(403)
	expect(forged.headers()['set-cookie']).toBeUndefined()

	// A real cross-site form in the browser: a page on another origin posts sign-out to us.
	await signIn(page, contentEditor)
	await expect(page).toHaveURL('/admin')
	const evil = http.createServer((_req, res) => {
		res.setHeader('Content-Type', 'text/html; charset=utf-8')
		res.end(`<form method="post" action="${baseURL}/logout"><button>go</button></form>`)
	})
	await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve))
	try {
		await page.goto(`http://127.0.0.1:${(evil.address() as AddressInfo).port}/`)
		const [response] = await Promise.all([page.waitForResponse(`${baseURL}/logout`), page.getByRole('button', { name: 'go' }).click()])
		expect(response.status()).toBe(403)
		await page.goto('/admin')
		await expect(page).toHaveURL('/admin')
	} finally {
		evil.close()
	}
})

test('repeated failures for one e-mail lock it for a while, even with the right password', async ({ page, request }) => {
	const email = `locked-${Date.now()}@e2e.test`
	for (let i = 0; i < 5; i++) {
		const response = await request.post('/login', { form: { email, password: `bad-${i}` }, maxRedirects: 0 })
		expect(response.status()).toBe(400)
	}
	await signIn(page, { email, password: 'whatever' })
	await expect(page.getByRole('alert')).toContainText('محاولات دخول كثيرة')
})
