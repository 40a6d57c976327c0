import type { Page } from '@playwright/test'
import { Secret, TOTP } from 'otpauth'
import { addUser, authenticatorKey, expect, expectNoAxeViolations, findUserRow, signIn, staffState, test, unique } from './utils.ts'

// Staff accounts hardened (docs/security.md): two-step sign-in, one's own sessions and password,
// deleting a user, and the audit trail that records it all. `page` is the admin of auth.setup.ts.
test.use({ storageState: staffState('admin') })

test('a new case officer sets up the authenticator at first sign-in, keeps recovery codes, and manages their own sessions and password', async ({ page, pageAs }) => {
	test.slow()
	const officer = { name: 'ريم العنزي', email: `officer-2fa-${unique()}@e2e.test`, mobile: '0551000003', roles: ['case_officer'], password: 'Reem-Officer-Pass-7' } as const
	await addUser(page, officer)

	// First sign-in: the set-up page, checked for accessibility, with a wrong code first.
	const first = await pageAs('visitor')
	await first.goto('/login')
	await first.getByLabel('البريد الإلكتروني').fill(officer.email)
	await first.getByLabel('كلمة المرور').fill(officer.password)
	await first.getByRole('button', { name: 'تسجيل الدخول' }).click()
	await expect(first).toHaveURL('/login/two-step/setup?redirectTo=%2Fadmin')
	await expect(first.getByRole('img', { name: /رمز QR/ })).toBeVisible()
	await expectNoAxeViolations(first)
	// The page between the steps opens nothing in the back office.
	await first.goto('/admin/cases')
	await expect(first).toHaveURL(/\/login\?redirectTo=/)
	await first.goto('/login/two-step/setup')
	await first.getByLabel('رمز التحقق').fill('000000')
	await first.getByRole('button', { name: 'تفعيل التحقق بخطوتين' }).click()
	await expect(first.getByRole('alert')).toContainText('الرمز لا يطابق')
	const secret = (await first.getByTestId('two-step-secret').textContent())!.replace(/\s/g, '')
	await first.getByLabel('رمز التحقق').fill(new TOTP({ secret: Secret.fromBase32(secret) }).generate())
	await first.getByRole('button', { name: 'تفعيل التحقق بخطوتين' }).click()
	// Read once the page that shows them has come (allTextContents does not wait for it).
	await expect(first.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10)
	const codes = (await first.getByTestId('recovery-codes').getByRole('listitem').allTextContents()).map((code) => code.trim())
	expect(codes).toHaveLength(10)
	await expectNoAxeViolations(first)
	await first.getByRole('link', { name: /حفظت الرموز/ }).click()
	// The password the admin chose is for this first sign-in only: «حسابي» asks for one of their own first.
	await expect(first).toHaveURL('/admin/account')
	await expect(first.getByRole('alert')).toContainText('كلمة مرورك الحالية وضعها غيرك')
	await first.goto('/admin/cases')
	await expect(first).toHaveURL('/admin/account')
	const own = 'Reem-Officer-Own-2027'
	await first.getByLabel('كلمة المرور الحالية', { exact: true }).fill(officer.password)
	await first.getByLabel('كلمة المرور الجديدة', { exact: true }).fill(own)
	await first.getByLabel('تأكيد كلمة المرور الجديدة').fill(own)
	await first.getByRole('button', { name: 'تغيير كلمة المرور' }).click()
	await expect(first.getByRole('status').first()).toContainText('تم تغيير كلمة المرور')
	await first.goto('/admin/cases')
	await expect(first).toHaveURL('/admin/cases')

	// A second device: a recovery code instead of the app's code.
	const second = await pageAs('visitor')
	await second.goto('/login')
	await second.getByLabel('البريد الإلكتروني').fill(officer.email)
	await second.getByLabel('كلمة المرور').fill(own)
	await second.getByRole('button', { name: 'تسجيل الدخول' }).click()
	await expect(second).toHaveURL('/login/two-step?redirectTo=%2Fadmin')
	await expectNoAxeViolations(second)
	await second.getByText('فقدت جوالي: الدخول برمز استرداد').click()
	await second.getByLabel('رمز الاسترداد').fill(codes[0]!)
	await second.getByRole('button', { name: 'الدخول برمز الاسترداد' }).click()
	await expect(second).toHaveURL('/admin')

	// Their account lists both devices; the second ends the first.
	await second.goto('/admin/account')
	await expect(second.getByRole('heading', { level: 1 })).toHaveText('حسابي')
	await expect(second.getByText('مفعّل: يُطلب عند الدخول رمز')).toContainText('بقي لديك 9 رموز استرداد')
	const devices = second.getByRole('region', { name: 'الأجهزة التي دخلت منها' }).getByRole('listitem')
	await expect(devices).toHaveCount(2)
	await expect(devices.filter({ hasText: 'هذا الجهاز' })).toHaveCount(1)
	await expectNoAxeViolations(second)
	await second.getByRole('button', { name: 'إنهاء الجلسات الأخرى' }).click()
	await expect(second.getByRole('status').first()).toHaveText('تم إنهاء جلساتك الأخرى.')
	await expect(devices).toHaveCount(1)
	await first.goto('/admin')
	await expect(first).toHaveURL(/\/login\?redirectTo=/)

	// Changing the password asks for the current one, and refuses a common one.
	await second.getByLabel('كلمة المرور الحالية', { exact: true }).fill('not-my-password')
	await second.getByLabel('كلمة المرور الجديدة', { exact: true }).fill('Reem-New-Pass-2027')
	await second.getByLabel('تأكيد كلمة المرور الجديدة').fill('Reem-New-Pass-2027')
	await second.getByRole('button', { name: 'تغيير كلمة المرور' }).click()
	await expect(second.getByText('كلمة المرور الحالية غير صحيحة').first()).toBeVisible()
	await second.getByLabel('كلمة المرور الحالية', { exact: true }).fill(own)
	await second.getByLabel('كلمة المرور الجديدة', { exact: true }).fill('Reem-New-Pass-2027')
	await second.getByLabel('تأكيد كلمة المرور الجديدة').fill('Reem-New-Pass-2027')
	await second.getByRole('button', { name: 'تغيير كلمة المرور' }).click()
	await expect(second.getByRole('status').first()).toContainText('تم تغيير كلمة المرور')
	await expect(second).toHaveURL('/admin/account')

	// The admin sees it all in the audit trail, filtered by this user, and can export it.
	await page.goto('/admin/audit')
	await expectNoAxeViolations(page)
	await page.getByLabel('المستخدم').selectOption({ label: officer.name })
	await page.getByRole('button', { name: 'تصفية' }).click()
	const trail = page.getByRole('table', { name: 'سجل التدقيق' })
	for (const action of ['تغيير كلمة المرور', 'إنهاء جلسة', 'الدخول برمز احتياطي', 'تفعيل التحقق بخطوتين', 'تسجيل دخول'])
		await expect(trail.getByRole('cell', { name: action, exact: true }).first()).toBeVisible()
	const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'تصدير CSV' }).click()])
	const csv = await (await download.createReadStream()).toArray()
	expect(Buffer.concat(csv).toString('utf8')).toContain('تغيير كلمة المرور')
})

test('an admin deletes a user after confirming: gone from the list, cannot sign in; never themselves', async ({ page, pageAs }) => {
	const email = `deleted-${unique()}@e2e.test`
	await addUser(page, { name: 'سامي المطيري', email, mobile: '0551000004', roles: ['content_editor'], password: 'Sami-Editor-Pass-4' })
	const row = await findUserRow(page, email)
	await row.locator('summary', { hasText: 'حذف' }).click()
	// Sent without the box ticked (as a script-less browser could): refused, nothing deleted.
	await row.getByRole('checkbox', { name: 'أؤكد حذف هذا المستخدم' }).evaluate((box: HTMLInputElement) => (box.required = false))
	await row.getByRole('button', { name: /حذف المستخدم/ }).click()
	await expect(page.getByRole('status')).toHaveText('الرجاء تأكيد الحذف بوضع علامة في المربع ثم الضغط على «حذف».')
	const again = await findUserRow(page, email)
	await again.locator('summary', { hasText: 'حذف' }).click()
	await again.getByRole('checkbox', { name: 'أؤكد حذف هذا المستخدم' }).check()
	await again.getByRole('button', { name: /حذف المستخدم/ }).click()
	await expect(page.getByRole('status')).toHaveText('تم الحذف بنجاح')
	await expect(page.getByRole('row', { name: email })).toHaveCount(0)

	const gone = await pageAs('visitor')
	await signIn(gone, { email, password: 'Sami-Editor-Pass-4' })
	await expect(gone.getByRole('alert')).toContainText('الرجاء التحقق من بيانات الدخول')

	// One's own row offers no deletion, and a hand-made request is refused.
	const own = page.getByRole('row', { name: 'admin@e2e.test' })
	const response = await page.request.post('/admin/users', { form: { intent: 'delete', userId: await adminId(page), confirm: 'on' }, headers: { Origin: new URL(page.url()).origin } })
	// Followed to the list, which says why.
	expect(response.status()).toBe(200)
	expect(await response.text()).toContain('لا يمكنك حذف حسابك أنت.')
	await page.goto('/admin/users')
	await expect(own.locator('summary')).toHaveCount(0)
	expect(authenticatorKey('admin@e2e.test')).toMatch(/^[A-Z2-7]{32}$/)
})

/** The signed-in admin's own id, from their row's edit link. */
async function adminId(page: Page): Promise<string> {
	const row = await findUserRow(page, 'admin@e2e.test')
	const href = await row.getByRole('link', { name: /تعديل/ }).getAttribute('href')
	return /\/admin\/users\/(\d+)\/edit/.exec(href!)![1]!
}
