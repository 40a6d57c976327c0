// «أثرنا» read by subtraction (issue 37 §1.6, docs/product.md#our-impact): on a server of this file's
// own, first started from nothing with the demo cases (the demo's aid cycle pays some 13 needy
// families this year), with a clock the test moves (ATAA_CLOCK_FILE) and a scheduler ticking every
// second. One family's home restoration is studied, approved by a member of the committee and paid
// by an admin, as staff do it: the public page does not change; at the first tick of the next month
// (the clock moved) it shows the ledger through the end of this month, where the old page gave the
// one family's payment away (the year's total less the needy families'). Every year's table, read
// from the page, is checked: no withheld figure can be worked out from the figures shown
// (tests/fixtures/impact-disclosure.ts). Run once, on PGlite.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { startAppServer, type AppServer } from '../../../scripts/lib/bench-app.ts'
import { stopService } from '../../../scripts/lib/bench-processes.ts'
import { emptyInstance, removeInstance, type Instance } from '../../../scripts/lib/prepared-instance.ts'
import type { PublishedYear } from '#app/aid/impact-disclosure.ts'
import { disclosedFigures } from '#tests/fixtures/impact-disclosure.ts'
import { basicAnswers, randomNationalId, studyForm, validIban } from '#tests/fixtures/needy-families.ts'
import { jpeg } from '#tests/fixtures/attack-files.ts'
import { minimalPdf } from '#tests/fixtures/pdf.ts'
import { referenceOn } from '../case-fixtures.ts'
import { addUser, signIn, unique } from '../utils.ts'

const root = process.cwd()
const WITHHELD = 'لا يُنشر'

/** A figure as the page shows it: a number, or null when withheld. */
const figure = (text: string) => (text.trim() === WITHHELD ? null : Number(text.replace(/[^\d.]/g, '')))

/** Each year's table as the page shows it, its total (the footer row) last. */
async function publishedYears(page: Page): Promise<{ year: string; published: PublishedYear }[]> {
	const tables = await page.locator('main section').evaluateAll((sections) =>
		sections.map((section) => ({
			year: section.querySelector('h2')?.textContent ?? '',
			rows: [...section.querySelectorAll('tbody tr, tfoot tr')].map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? '')),
		})),
	)
	return tables.map(({ year, rows }) => {
		const body = rows.map(([programme, families, riyals]) => ({ programme: programme!, families: figure(families!), riyals: figure(riyals!) }))
		const total = body.pop()!
		expect(total.programme).toBe('المجموع')
		return { year, published: { rows: body, total: { families: total.families, riyals: total.riyals } } }
	})
}

/** A home restoration entered on paper by `staff` (signed in), sent: its reference. */
async function homeRestoration(staff: Page): Promise<string> {
	const request = staff.request
	const post = async (url: string, form: Record<string, string>) => expect((await request.post(url, { form })).status(), url).toBeLessThan(400)
	const started = await request.post('/apply/home-restoration/new?paper=1', { form: basicAnswers(randomNationalId(), `05${String(Date.now() % 1e8).padStart(8, '0')}`) })
	const token = /\/apply\/r\/([\w-]{43})/.exec(started.url())?.[1]
	expect(token, 'the private link after the first step').toBeTruthy()
	const base = `/apply/r/${token}`
	for (const [step, form] of [
		['consent', { consent: 'given' }],
		['bank', { Bank_Name_1: 'alrajhi', Bank_No_1: validIban }],
		['financial', { Net_Income: '2500' }],
		['housing', { Housing_Status: 'dilapidated', Housing_look: 'yes', Housing_Cost: '500-1500' }],
	] as const)
		await post(`${base}/${step}`, form)
	for (const [slot, file] of [
		['identity', { name: 'هوية.pdf', mimeType: 'application/pdf', buffer: Buffer.from(minimalPdf()) }],
		['ownership', { name: 'عقد.pdf', mimeType: 'application/pdf', buffer: Buffer.from(minimalPdf()) }],
		['house_photos', { name: 'منزل.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(await jpeg()) }],
	] as const) {
		const response = await request.post(`${base}/files/upload`, { multipart: { slot, file } })
		expect(response.status(), `upload to ${slot}`).toBeLessThan(400)
	}
	await post(`${base}/files`, { PatientMassage: '' })
	const done = await request.post(`${base}/check`, { form: { acknowledge: 'on' } })
	expect(done.url()).toContain('/done')
	return referenceOn(request, base)
}

let instance: Instance | undefined
let server: AppServer | undefined
let clockDir = ''

test.afterAll(async () => {
	if (server) await stopService(server.service)
	if (instance) await removeInstance(instance)
	if (clockDir) fs.rmSync(clockDir, { recursive: true, force: true })
})

test('«أثرنا» changes only at the monthly snapshot, not with a payment, and no withheld figure can be worked out from those shown', async ({ browser }) => {
	// A first start from nothing with the demo content, a sign-in with the second step, a batch paid: minutes on a busy two-core machine.
	test.setTimeout(600_000)
	clockDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-impact-clock-'))
	const clockFile = path.join(clockDir, 'offset')
	fs.writeFileSync(clockFile, '0')
	const admin = { email: `impact-admin-${unique()}@e2e.test`, password: `Impact-Admin-${randomBytes(9).toString('base64url')}` }
	instance = await emptyInstance('pglite', 'ataa-impact-')
	server = await startAppServer({
		root,
		dataDir: instance.dataDir,
		databaseUrl: undefined,
		settle: false,
		env: {
			// Outside production, where ATAA_CLOCK_FILE is allowed (app/bootstrap.server.ts) and the demo cases are seeded.
			NODE_ENV: 'development',
			ATAA_ENV: 'development',
			DEMO_CASES: 'true',
			ATAA_CLOCK_FILE: clockFile,
			SCHEDULER_INTERVAL_SECONDS: '1',
			COOKIE_SECURE: 'false',
			ADMIN_EMAIL: admin.email,
			ADMIN_PASSWORD: admin.password,
		},
	})
	const context = await browser.newContext({ baseURL: server.origin, locale: 'ar-SA' })
	try {
		const visitor = await context.newPage()
		const staff = await (await browser.newContext({ baseURL: server.origin, locale: 'ar-SA' })).newPage()
		const main = visitor.locator('main')

		// The first tick takes the month's snapshot: the ledger through the end of last month, and says so.
		await visitor.goto('/impact')
		await expect(main).toContainText('الأرقام كما في سجل الصرف حتى')
		const before = await main.innerText()

		await test.step('a home restoration is studied, approved and paid; the page does not change', async () => {
			await signIn(staff, admin)
			const reference = await homeRestoration(staff)
			expect((await staff.request.post(`/admin/cases/${reference}/study`, { form: studyForm({ aidAmount: '4321' }), maxRedirects: 0 })).status()).toBe(302)
			expect((await staff.request.post(`/admin/cases/${reference}`, { form: { intent: 'status', to: '2', note: 'زار الباحث المنزل' }, maxRedirects: 0 })).status()).toBe(302)
			// A member of the committee, not the admin who recommended it (four eyes), approves it.
			const member = { name: `عضو لجنة ${unique()}`, email: `impact-approver-${unique()}@e2e.test`, mobile: '0551000009', roles: ['approver' as const], password: `Impact-Approver-${unique()}` }
			await addUser(staff, member)
			const approver = await (await browser.newContext({ baseURL: server!.origin, locale: 'ar-SA' })).newPage()
			await signIn(approver, member)
			await approver.goto(`/admin/cases/${reference}`)
			await approver.locator('summary', { hasText: 'اعتماد الدعم' }).click()
			await approver.getByLabel('الصندوق').selectOption({ index: 1 })
			await approver.getByRole('button', { name: 'اعتماد الدعم' }).click()
			await expect(approver.locator('main header')).toContainText('معتمد بانتظار الصرف')
			// The admin pays it, alone in its batch.
			await staff.goto('/admin/payments')
			for (const box of await staff.getByRole('checkbox', { name: /./ }).all()) await box.setChecked(false)
			await staff.getByRole('listitem').filter({ has: staff.getByRole('link', { name: reference }) }).getByRole('checkbox').check()
			await staff.getByRole('button', { name: 'إنشاء دفعة صرف بالتحويلات المختارة' }).click()
			await expect(staff.getByRole('status')).toContainText('أُنشئت دفعة الصرف رقم')
			await staff.getByRole('button', { name: 'تسجيل الإرسال إلى البنك' }).click()
			await expect(staff.getByRole('status')).toContainText('سُجّل إرسال دفعة الصرف إلى البنك')
			await staff.getByLabel(/^مرجع البنك/).fill(`FT${unique()}`.slice(0, 30))
			await staff.getByRole('button', { name: /^تسجيل الصرف/ }).click()
			await expect(staff.getByRole('status')).toContainText('سُجّل صرف التحويل')
			// The scheduler ticks every second meanwhile: the month's snapshot is taken, and stays.
			for (let look = 0; look < 3; look++) {
				await visitor.reload()
				expect(await main.innerText()).toBe(before)
			}
		})

		await test.step('at the first tick of next month the page shows the ledger through the end of this month', async () => {
			const riyadh = new Date(Date.now() + 3 * 3_600_000)
			// An hour after midnight in Riyadh on the first of next month.
			const nextMonth = Date.UTC(riyadh.getUTCFullYear(), riyadh.getUTCMonth() + 1, 1) - 3 * 3_600_000 + 3_600_000
			fs.writeFileSync(clockFile, String(nextMonth - Date.now()))
			await expect
				.poll(
					async () => {
						await visitor.reload()
						return main.innerText()
					},
					{ timeout: 60_000 },
				)
				.not.toBe(before)
			await expect(main.getByRole('heading', { level: 2, name: new RegExp(`^${riyadh.getUTCFullYear()}م`) })).toBeVisible()
		})

		await test.step('no withheld figure can be worked out from the totals and the programmes shown', async () => {
			const years = await publishedYears(visitor)
			expect(years.length).toBeGreaterThan(0)
			// The one home restoration is withheld, and so is its complement: the year's total covers both.
			const thisYear = years.find(({ year }) => year.startsWith(String(new Date(Date.now() + 3 * 3_600_000).getUTCFullYear())))!.published
			expect(thisYear.rows.find((row) => row.programme === 'طلب ترميم منزل')).toEqual({ programme: 'طلب ترميم منزل', families: null, riyals: null })
			expect(thisYear.rows.filter((row) => row.families === null).length).toBeGreaterThan(1)
			expect(thisYear.total.families).toBeGreaterThan(5)
			for (const { year, published } of years) expect(disclosedFigures(published), `${year}: ${JSON.stringify(published)}`).toEqual([])
		})
	} finally {
		await context.close()
	}
})
