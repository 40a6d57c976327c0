import http from 'node:http'
import { expect, staffState, test, unique } from '../utils.ts'

// Headers and error pages (docs/security.md#headers, #errors): every answer carries helmet's
// headers and exactly one Content-Security-Policy; every error a visitor can cause is an Arabic
// page in the site's frame with nothing of the server in it.

const commonHeaders = {
	'x-content-type-options': 'nosniff',
	'referrer-policy': 'strict-origin-when-cross-origin',
	'cross-origin-opener-policy': 'same-origin',
	'cross-origin-resource-policy': 'same-origin',
	'x-permitted-cross-domain-policies': 'none',
	'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
	// The server runs as in production, with secure cookies: HTTPS only for a year.
	'strict-transport-security': 'max-age=31536000; includeSubDomains',
}

test('pages, redirects, assets and health checks all carry the security headers and one policy each', async ({ request, playwright, baseURL }) => {
	const home = await request.get('/')
	// The back office links its stylesheet (public pages carry theirs inline).
	const staff = await playwright.request.newContext({ baseURL, storageState: staffState('admin') })
	const css = /href="(\/assets\/[^"]+\.css)"/.exec(await (await staff.get('/admin')).text())?.[1]
	await staff.dispose()
	expect(css).toBeDefined()
	const answers = {
		'a kept public page': await request.get('/'),
		'a public page drawn for this request': await request.get(`/news?q=${unique()}`),
		'a redirect to sign in': await request.get('/admin/cases', { maxRedirects: 0 }),
		'a not-found page': await request.get('/no-such-page'),
		'the health check': await request.get('/healthz'),
		'the icon': await request.get('/favicon.svg'),
		'a stylesheet': await request.get(css!),
	}
	expect(home.status()).toBe(200)
	for (const [what, response] of Object.entries(answers)) {
		const headers = response.headers()
		for (const [name, value] of Object.entries(commonHeaders)) expect(headers[name], `${what}: ${name}`).toBe(value)
		expect(headers['x-frame-options'], what).toBe('DENY')
		expect(headers['x-powered-by'], what).toBeUndefined()
		const policies = response.headersArray().filter((header) => header.name.toLowerCase() === 'content-security-policy')
		expect(policies, `${what}: one policy`).toHaveLength(1)
		const policy = policies[0]!.value
		for (const directive of ["frame-ancestors 'none'", "base-uri 'none'"]) expect(policy, `${what}: ${directive}`).toContain(directive)
		if (headers['content-type']?.startsWith('text/html')) {
			expect(policy, what).toContain("object-src 'none'")
			expect(policy, what).toMatch(/script-src 'self'/)
		} else {
			expect(policy, `${what}: nothing may run`).toContain("default-src 'none'")
		}
	}
})

test('a missing page is a 404 in the site frame, in Arabic', async ({ page }) => {
	const response = await page.goto(`/no-such-page-${unique()}`)
	expect(response?.status()).toBe(404)
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('الصفحة غير موجودة')
	await expect(page.getByRole('banner').getByRole('link', { name: 'الرئيسية' }).first()).toBeVisible()
	await expect(page.getByRole('contentinfo')).toBeVisible()
	await expect(page).toHaveTitle('الصفحة غير موجودة | مؤسسة عطاء الخيرية')
})

test('a screen the role may not use is a 403 in the back-office frame, in Arabic', async ({ browser }) => {
	const context = await browser.newContext({ storageState: staffState('content_editor') })
	const page = await context.newPage()
	const response = await page.goto('/admin/users')
	expect(response?.status()).toBe(403)
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('غير مسموح')
	await expect(page.getByRole('main')).toContainText('ليست لديك صلاحية للوصول إلى هذه الصفحة')
	await expect(page.getByRole('link', { name: 'العودة إلى لوحة التحكم' })).toBeVisible()
	await context.close()
})

test('too many tries is a 429 with when to come back, in Arabic, in the site frame', async ({ page, baseURL }) => {
	const email = `locked-${unique()}@e2e.test`
	for (let attempt = 0; attempt < 5; attempt++) {
		const refused = await page.request.post('/login', { form: { email, password: `wrong-${attempt}` }, headers: { Origin: baseURL! } })
		expect(refused.status()).toBe(400)
	}
	await page.goto('/login')
	await page.getByLabel('البريد الإلكتروني').fill(email)
	await page.getByLabel('كلمة المرور').fill('still-wrong-password')
	const [response] = await Promise.all([page.waitForResponse((answer) => answer.request().method() === 'POST'), page.getByRole('button', { name: 'تسجيل الدخول' }).click()])
	expect(response.status()).toBe(429)
	expect(Number(response.headers()['retry-after'])).toBeGreaterThan(0)
	await expect(page.getByRole('alert')).toContainText('محاولات دخول كثيرة')
	await expect(page.getByRole('alert')).toContainText('دقيقة')
	await expect(page.getByRole('contentinfo')).toBeVisible()
})

test('a NUL byte in an address or a form is a 400 in Arabic that changes nothing, not a server error', async ({ request, baseURL }) => {
	for (const path of ['/news?q=%00', '/gallery/%00', '/apply/status?reference=%00']) {
		const response = await request.get(path)
		expect(response.status(), path).toBe(400)
		const html = await response.text()
		expect(html, path).toContain('طلب غير صالح')
		expect(html, path).not.toContain('Failed query')
	}
	const contact = await request.post('/contact', {
		headers: { Origin: baseURL!, 'Content-Type': 'application/x-www-form-urlencoded' },
		data: 'name=%D8%B3%D8%A7%D8%B1%D8%A9&email=a%40example.org&mobile=0551234567&subject=x%00y&message=hello',
	})
	expect(contact.status()).toBe(400)
	expect(await contact.text()).toContain('في الطلب رموز غير مسموح بها')
})

test('a connection left idle longer than Node\'s default 5 s is still open for the next request: a proxy reusing it meets no reset', async ({ baseURL }) => {
	const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
	const get = () =>
		new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
			const request = http.get(new URL('/healthz', baseURL), { agent }, (response) => {
				response.resume()
				response.on('end', () => resolve({ status: response.statusCode ?? 0, reused: request.reusedSocket }))
			})
			request.on('error', reject)
		})
	try {
		expect(await get()).toEqual({ status: 200, reused: false })
		// Idle past 5 s: a server that closed the connection by then would make the agent open another.
		await new Promise((resolve) => setTimeout(resolve, 6_000))
		expect(await get()).toEqual({ status: 200, reused: true })
	} finally {
		agent.destroy()
	}
})
