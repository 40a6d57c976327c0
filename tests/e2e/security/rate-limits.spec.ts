// Rate limits through the real server (docs/security.md#rate-limits): a crowd of families behind one
// address (these tests all post from this machine's one address) all start their applications; one
// national ID starts at most 5 new drafts a day, and the 6th is refused on the same form with what
// was typed kept; and a forged X-Forwarded-For does not make a request look like another address
// (TRUST_PROXY is not set on the test servers). The same limits in detail: app/routes/apply/new.db.test.ts.
import { expect, test } from '@playwright/test'
import { basicAnswers, nationalIdFrom, randomNationalId } from '#tests/fixtures/needy-families.ts'
import { fillBasic } from '../apply-steps.ts'
import { staffState, unique } from '../utils.ts'

const startPath = '/apply/needy-families/new'

test('300 families behind one address start and save their first step within the hour: every one is accepted', async ({ request, baseURL }) => {
	test.setTimeout(600_000)
	// National IDs and mobiles of this run's own (each server keeps its drafts until it stops).
	const base = 10_000_000 + Math.floor(Math.random() * 80_000_000)
	for (let i = 0; i < 300; i++) {
		const response = await request.post(startPath, {
			form: basicAnswers(nationalIdFrom(`1${base + i}`), `056${String(base + i).slice(-7)}`),
			headers: { Origin: baseURL! },
			maxRedirects: 0,
		})
		expect(response.status(), `applicant ${i + 1}`).toBe(302)
		expect(response.headers()['location'], `applicant ${i + 1}`).toMatch(/^\/apply\/r\/[\w-]{43}$/)
	}
})

test('the 6th new draft for one national ID in a day is refused on the same form, with why, when, and everything typed', async ({ page, baseURL }) => {
	test.setTimeout(120_000)
	const nationalId = randomNationalId()
	for (let i = 0; i < 5; i++) {
		const response = await page.request.post(startPath, { form: basicAnswers(nationalId, `0557${String(i).padStart(6, '0')}`), headers: { Origin: baseURL! }, maxRedirects: 0 })
		expect(response.status(), `draft ${i + 1}`).toBe(302)
	}
	await page.goto(startPath)
	await fillBasic(page, nationalId)
	await page.getByLabel('الحي').fill('السويدي')
	const [response] = await Promise.all([page.waitForResponse((answer) => answer.request().method() === 'POST'), page.getByRole('button', { name: 'حفظ ومتابعة' }).click()])
	expect(response.status()).toBe(429)
	expect(Number(response.headers()['retry-after'])).toBeGreaterThan(23 * 60 * 60)
	const alert = page.getByRole('alert')
	await expect(alert).toContainText('محاولات كثيرة')
	await expect(alert).toContainText('بلغ رقم الهوية أو الإقامة هذا الحد المسموح به من الطلبات الجديدة: 5 طلبات في اليوم. حاول مرة أخرى بعد 24 ساعةً.')
	// The same form, still filled in.
	await expect(page).toHaveURL(new RegExp(`${startPath}$`))
	await expect(page.getByLabel('الاسم الرباعي')).toHaveValue('عبدالله محمد سعد القحطاني')
	await expect(page.getByLabel('رقم الهوية أو الإقامة')).toHaveValue(nationalId)
	await expect(page.getByLabel('رقم الجوال', { exact: true })).toHaveValue('0551234567')
	await expect(page.getByLabel('المدينة')).toHaveValue('الرياض')
	await expect(page.getByLabel('الحي')).toHaveValue('السويدي')
	await expect(page.getByRole('contentinfo')).toBeVisible()
})

test('a forged X-Forwarded-For is not believed without TRUST_PROXY: the request keeps its own address', async ({ playwright, baseURL }) => {
	const visitor = await playwright.request.newContext({ baseURL })
	const admin = await playwright.request.newContext({ baseURL, storageState: staffState('admin') })
	try {
		const email = `forged-${unique()}@e2e.test`
		const refused = await visitor.post('/login', { form: { email, password: 'not-the-password' }, headers: { Origin: baseURL!, 'X-Forwarded-For': '203.0.113.99' } })
		expect(refused.status()).toBe(400)
		// The address every limit counts by is the one the audit trail records for the attempt.
		const html = await (await admin.get('/admin/audit?action=auth.sign-in-failed')).text()
		const row = html.split('<tr').find((cells) => cells.includes(email))
		expect(row, 'the failed sign-in in the audit trail').toBeTruthy()
		expect(row).not.toContain('203.0.113.99')
		expect(row).toMatch(/127\.0\.0\.1|::1/)
	} finally {
		await Promise.all([visitor.dispose(), admin.dispose()])
	}
})
