// Messages and verified mobiles through a browser (docs/security.md#verified-mobile, docs/product.md#messages),
// on a server of the test's own (PGlite) with mobiles verified by code, a fake SMS provider
// (tests/fakes/sms-providers.ts), a local SMTP server (tests/fakes/smtp.ts), the foundation's notice
// address (NOTIFY_EMAIL), a clock the test moves (ATAA_CLOCK_FILE) and a scheduler ticking every second.
// A family applies: the first save asks for the code texted to its mobile, the code opens the case and
// e-mails its link (on APP_ORIGIN, whatever Host a request forges); the link on a second browser asks
// for a code of its own; the lookup shows nothing before its code. Staff send the case back as
// incomplete: the family gets an SMS and an e-mail with the lookup's link and no secret, and staff see
// them sent. Three days later (the clock moved) a reminder goes. Then the server is started again on
// the same data with each Saudi provider in turn (Unifonic, Taqnyat, Msegat): a staff message and a status change reach
// each provider's fake; one refused by Unifonic shows as failed with its reason and goes on «إعادة الإرسال».
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { BrowserContext, Locator, Page } from '@playwright/test'
import { startAppServer, type AppServer } from '../../../scripts/lib/bench-app.ts'
import { stopService } from '../../../scripts/lib/bench-processes.ts'
import { preparedInstance, removeInstance, type Instance } from '../../../scripts/lib/prepared-instance.ts'
import { startFakeSmsProvider, type FakeSmsKind, type FakeSmsMessage, type FakeSmsProvider } from '#tests/fakes/sms-providers.ts'
import { startFakeSmtp, type FakeMail, type FakeSmtpServer } from '#tests/fakes/smtp.ts'
import { plantedApplicant, type Planted } from '../apply-journey.ts'
import { markedPdf } from '#tests/fixtures/marked-pdf.ts'
import { fillReferrer, next } from '../apply-steps.ts'
import { expect, signIn, test, unique } from '../utils.ts'
import { smsSegments } from '#app/notify/sms-segments.ts'

/** LRM, RLM, ALM, embeddings, overrides and isolates. */
const DIRECTION_MARKS = /[\u200E\u200F\u061C\u202A-\u202E\u2066-\u2069]/

const root = process.cwd()
const DAY_MS = 24 * 60 * 60 * 1000
const FORGED_HOST = 'evil.example'

/** The number as the providers receive it: 0551234567 → 966551234567. */
const international = (mobile: string) => `966${mobile.slice(1)}`

/** The six digits of a code texted to `to`, among the messages received after the first `since`. */
async function codeTexted(fake: FakeSmsProvider, to: string, since: number): Promise<string> {
	const sms = await waitForSms(fake, (message) => message.to === to && /رمز التحقق: \d{6}/.test(message.text), since)
	return /رمز التحقق: (\d{6})/.exec(sms.text)![1]!
}

/** The first SMS after the first `since` ones that matches; the fake is polled (up to a minute on a busy machine). */
async function waitForSms(fake: FakeSmsProvider, match: (message: FakeSmsMessage) => boolean, since = 0, timeout = 60_000): Promise<FakeSmsMessage> {
	await expect.poll(() => fake.messages.slice(since).some(match), { timeout, message: `an SMS at the ${fake.kind} fake (${fake.messages.length} received)` }).toBe(true)
	return fake.messages.slice(since).find(match)!
}

/** Every absolute address in a text. */
const addresses = (text: string) => [...text.matchAll(/https?:\/\/[^\s<>"']+/g)].map((match) => match[0])

/** What no message may carry: the applicant's secrets, the private link, a forged host. */
function expectNothingSecret(what: string, text: string, planted: Planted, token: string) {
	for (const [name, value] of Object.entries({
		'national ID': planted.nationalId,
		IBAN: planted.iban,
		'IBAN without its check digits': planted.iban.slice(4),
		'private link token': token,
		'forged host': FORGED_HOST,
	})) {
		expect(text.includes(value), `${what} holds the ${name}`).toBe(false)
	}
}

/** The «الرسائل» panel's entries about one event (its label), as staff read them. */
const messagesAbout = (page: Page, label: string): Locator => page.getByRole('region', { name: 'الرسائل', exact: true }).getByRole('listitem').filter({ hasText: label })

/** Asks for a code on a page whose «send» button is `button`; waits out the minute between two codes if the page says so. */
async function askForCode(page: Page, button: RegExp | string) {
	for (let attempt = 0; attempt < 5; attempt++) {
		await page.getByRole('button', { name: button }).click()
		const tooSoon = page.getByText('أرسلنا إليك رمزاً قبل قليل')
		const asked = page.getByRole('textbox', { name: /رمز التحقق المرسل إلى الجوال/ })
		await expect(tooSoon.or(asked)).toBeVisible()
		if (!(await tooSoon.isVisible())) return
		// A second code for the same thing within a minute is refused, with how long to wait: waited here.
		const seconds = Number(/بعد (\d+)/.exec((await tooSoon.textContent()) ?? '')?.[1] ?? '5')
		await page.waitForTimeout((Math.min(seconds, 60) + 1) * 1000)
	}
	throw new Error('no code could be asked for in five tries')
}

/** The application from its private link's page to «تم إرسال طلبك», step by step as the pages come (as apply-journey.ts fills them). */
async function completeApplication(page: Page, planted: Planted) {
	const heading = page.getByRole('heading', { level: 1 })
	for (let pages = 0; pages < 20; pages++) {
		await page.waitForLoadState('domcontentloaded')
		const address = new URL(page.url()).pathname
		const title = (await heading.textContent())?.trim() ?? ''
		const consent = page.locator('button[name="consent"][value="given"]')
		if (await consent.count()) {
			await consent.click()
		} else if (title === 'البيانات البنكية') {
			// The planted IBAN is at Al Rajhi (bank code 80): the bank chosen beside it must be that bank.
			await page.getByLabel('البنك', { exact: true }).selectOption({ label: 'مصرف الراجحي' })
			await page.getByLabel('رقم الحساب (الآيبان)').fill(planted.iban)
			await next(page)
		} else if (title === 'الوضع المالي') {
			await page.getByLabel(/صافي دخل الأسرة الشهري/).fill('2500')
			await next(page)
		} else if (title === 'أفراد الأسرة') {
			await page.getByLabel('الاسم').fill('نورة')
			await page.getByLabel('صلة القرابة').selectOption({ label: 'زوجة' })
			await page.getByRole('button', { name: 'إضافة', exact: true }).click()
			await expect(page.getByText('أفراد الأسرة (1)')).toBeVisible()
			await next(page)
		} else if (title === 'بيانات المعرّفين') {
			await fillReferrer(page, 1, 'الشيخ فهد العتيبي', 'شيخ القبيلة')
			await fillReferrer(page, 2, 'صديق العائلة', 'أخرى')
			await fillReferrer(page, 3, 'قريب', 'أخرى')
			await next(page)
		} else if (title === 'الخدمات المطلوبة') {
			await page.getByLabel('سلة غذائية').check()
			await next(page)
		} else if (title === 'المرفقات ورسالة المستفيد') {
			for (const [slot, name, marker] of [
				[/صورة الهوية أو الإقامة/, 'هوية.pdf', planted.identityMarker],
				[/سجل الأسرة/, 'سجل.pdf', planted.familyMarker],
			] as const) {
				const region = page.getByRole('region', { name: slot })
				await region.getByLabel(/اختر ملف PDF/).setInputFiles({ name, mimeType: 'application/pdf', buffer: markedPdf(marker) })
				await region.getByRole('button', { name: 'رفع الملف' }).click()
				await expect(region.getByRole('listitem').filter({ hasText: name })).toBeVisible()
			}
			await next(page)
		} else if (title === 'راجع بياناتك قبل الإرسال') {
			await page.getByLabel(/أقر بأن جميع البيانات/).check()
			await page.getByRole('button', { name: 'إرسال الطلب' }).click()
		} else if (title === 'تم إرسال طلبك') {
			return
		} else if (await page.getByRole('link', { name: 'متابعة الطلب' }).count()) {
			await page.getByRole('link', { name: 'متابعة الطلب' }).click()
		} else {
			throw new Error(`an application page this test does not know: «${title}» at ${page.url()}`)
		}
		await page.waitForURL((url) => url.pathname !== address)
		await expect(heading).not.toHaveText(title)
	}
	throw new Error('the application did not end in 20 pages')
}

test('codes by SMS open a case, its link is e-mailed on APP_ORIGIN, status notices and reminders reach the applicant through every provider, and a refused one is sent again', async ({ browser }) => {
	// A prepared instance, four starts, an application and a staff sign-in: minutes on a busy two-core machine.
	test.setTimeout(900_000)
	const id = unique()
	const planted = plantedApplicant(id)
	const to = international(planted.mobile)
	const admin = { email: `messages-admin-${id}@e2e.test`, password: `Messages-Admin-${randomBytes(9).toString('base64url')}` }
	const foundationAddress = `cases-${id}@e2e.test`
	const clockFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-messages-clock-')), 'offset')
	fs.writeFileSync(clockFile, '0')

	const smtp: FakeSmtpServer = await startFakeSmtp()
	const fakes: FakeSmsProvider[] = []
	const contexts: BrowserContext[] = []
	let instance: Instance | undefined
	let server: AppServer | undefined
	const shared = {
		// Outside production, where ATAA_CLOCK_FILE is allowed (app/bootstrap.server.ts); server.mjs keeps it as ATAA_ENV.
		NODE_ENV: 'development',
		ATAA_ENV: 'development',
		// The prepared instance has no demo cases; none are to be added either (their mobiles would be texted reminders).
		DEMO_CASES: 'false',
		APPLICANT_VERIFICATION: 'on',
		SMTP_URL: smtp.url,
		NOTIFY_EMAIL: foundationAddress,
		ATAA_CLOCK_FILE: clockFile,
		SCHEDULER_INTERVAL_SECONDS: '1',
		// Behind a "proxy": Express reads X-Forwarded-Host, so a forged one has a way in that the links must not take.
		TRUST_PROXY: 'true',
		ADMIN_EMAIL: admin.email,
		ADMIN_PASSWORD: admin.password,
		// The same key at every start: the family's files are read after each.
		FILE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
	}
	/** The server on the instance's data, sending SMS through a new fake of `kind`. */
	const startWith = async (kind: FakeSmsKind) => {
		const fake = await startFakeSmsProvider(kind)
		fakes.push(fake)
		server = await startAppServer({ root, dataDir: instance!.dataDir, databaseUrl: undefined, settle: false, env: { ...shared, ...fake.env } })
		return { fake, origin: server.origin }
	}
	const newPage = async (origin: string) => {
		const context = await browser.newContext({ baseURL: origin, locale: 'ar-SA' })
		contexts.push(context)
		return context.newPage()
	}

	try {
		instance = await preparedInstance('pglite', 'ataa-messages-')
		let { fake, origin } = await startWith('http')
		let token = ''
		let reference = ''

		const applicant = await newPage(origin)
		await test.step('the first save asks for the code texted to the mobile; typed, it opens the case and e-mails its link, on APP_ORIGIN', async () => {
			await applicant.goto('/apply/needy-families')
			await applicant.getByRole('link', { name: 'ابدأ الطلب' }).click()
			await expect(applicant.getByRole('heading', { level: 1 })).toHaveText('البيانات الأساسية')
			await applicant.getByLabel('الاسم الرباعي').fill(planted.name)
			await applicant.getByLabel('رقم الهوية أو الإقامة').fill(planted.nationalId)
			await applicant.getByLabel('رقم الجوال', { exact: true }).fill(planted.mobile)
			await applicant.getByLabel('البريد الإلكتروني (اختياري)').fill(planted.email)
			await applicant.getByLabel('المدينة').fill('الرياض')
			await next(applicant)
			await expect(applicant).toHaveURL(/\/apply\/r\/[\w-]{43}\/verify$/)
			await expect(applicant.getByRole('heading', { level: 1 })).toHaveText('تأكيد رقم الجوال')
			token = /\/apply\/r\/([\w-]{43})\/verify$/.exec(applicant.url())![1]!
			await expect(applicant.getByRole('status')).toContainText('أرسلنا رمز تحقق برسالة نصية إلى جوالك')
			// Nothing e-mailed yet: the link is issued once the mobile is proven.
			expect(smtp.messages.filter((mail) => mail.to.includes(planted.email))).toEqual([])
			const code = await codeTexted(fake, to, 0)
			expect(fake.messages[0]!.text).toContain('مؤسسة عطاء الخيرية')

			await applicant.getByRole('textbox', { name: /رمز التحقق المرسل إلى الجوال/ }).fill(code)
			await applicant.getByRole('button', { name: 'تأكيد', exact: true }).click()
			await expect(applicant).toHaveURL(new RegExp(`/apply/r/${token}$`))
			await expect(applicant.getByRole('status')).toContainText('تم تأكيد رقم جوالك. أرسلنا رابط طلبك الخاص إلى بريدك الإلكتروني.')
			reference = (await applicant.locator('strong[dir="ltr"]').first().textContent())!.trim()
			expect(reference).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/)
			await expect(applicant.getByText(`${origin}/apply/r/${token}`)).toBeVisible()

			const mail = await smtp.waitForMail((candidate) => candidate.to.includes(planted.email), 30_000)
			expect(mail.subject).toBe(`رابط طلبك رقم ${reference} - مؤسسة عطاء الخيرية`)
			expect(mail.text).toContain(`${origin}/apply/r/${token}`)
			expect(mail.text).toContain('السلام عليكم ورحمة الله')
			expect(mail.html).toContain('dir="rtl"')
			expect(mail.html).toContain(`href="${origin}/apply/r/${token}"`)
			for (const part of [mail.text, mail.html, mail.raw]) expect(part).not.toContain(FORGED_HOST)
			for (const address of [...addresses(mail.text), ...addresses(mail.html)]) expect(address.startsWith(`${origin}/`), address).toBe(true)
		})

		await test.step('the family completes and sends the application; the foundation is told by e-mail (NOTIFY_EMAIL)', async () => {
			await completeApplication(applicant, planted)
			await expect(applicant.getByRole('heading', { level: 1 })).toHaveText('تم إرسال طلبك')
			const notice = await smtp.waitForMail((mail) => mail.to.includes(foundationAddress), 30_000)
			expect(notice.subject.startsWith(`طلب جديد رقم ${reference}`), notice.subject).toBe(true)
			expect(notice.text).toContain(`${origin}/admin/cases/${reference}`)
			expect(notice.html).toContain('dir="rtl"')
			expectNothingSecret('the foundation notice', notice.raw + notice.text + notice.html, planted, token)
		})

		// Signed in here: hashing a password and the second step take a while, and the next steps' codes
		// then come more than a minute after the first (a second code for a thing waits a minute).
		const staff = await newPage(origin)
		await test.step('the admin signs in', async () => {
			await signIn(staff, admin)
			await staff.goto(`/admin/cases/${reference}`)
			await expect(staff.getByRole('heading', { level: 1 })).toHaveText(planted.name)
			const sent = messagesAbout(staff, 'إشعار المؤسسة بطلب جديد')
			await expect(sent).toHaveCount(1)
			await expect(sent).toContainText('أُرسلت')
		})

		await test.step('the messages screen gives each SMS its parts, every default within two (issue 37, §2.7)', async () => {
			await staff.goto('/admin/messages')
			const events = staff.getByRole('navigation', { name: 'الرسائل' }).getByRole('listitem')
			await expect(events).toHaveCount(17)
			// Every event to the applicant texts; the foundation's notice is e-mail only.
			await expect(events.filter({ hasText: /الرسالة النصية في (رسالة واحدة|رسالتين)( دون رسالة الموظف)?$/ })).toHaveCount(16)
			await staff.goto('/admin/messages?event=visit-scheduled')
			await expect(staff.getByText(/تُرسل في (رسالة واحدة|رسالتين) \(ترميز UCS-2/)).toBeVisible()
		})

		await test.step('the private link on a second browser asks for a new code; a new SMS comes, and its code opens the case', async () => {
			const second = await newPage(origin)
			await second.goto(`/apply/r/${token}`)
			await expect(second).toHaveURL(new RegExp(`/apply/r/${token}/verify$`))
			await expect(second.getByRole('heading', { level: 1 })).toHaveText('تأكيد رقم الجوال')
			// The code typed on the first browser was used: nothing to type yet, a code to ask for.
			await expect(second.getByRole('textbox', { name: /رمز التحقق المرسل إلى الجوال/ })).toHaveCount(0)
			const html = await second.content()
			for (const secret of [planted.name, planted.nationalId, planted.email, planted.iban]) expect(html).not.toContain(secret)
			const before = fake.messages.length
			await askForCode(second, 'أرسل رمز التحقق')
			const code = await codeTexted(fake, to, before)
			await second.getByRole('textbox', { name: /رمز التحقق المرسل إلى الجوال/ }).fill(code)
			await second.getByRole('button', { name: 'تأكيد', exact: true }).click()
			await expect(second).toHaveURL(new RegExp(`/apply/r/${token}$`))
			await expect(second.getByText(reference, { exact: true })).toBeVisible()
			await expect(second.getByText('حالة الطلب:')).toBeVisible()
		})

		await test.step('the lookup on a third browser shows no status, name or reference before its code; after it, the case', async () => {
			const lookup = await newPage(origin)
			await lookup.goto('/apply/status')
			await lookup.getByLabel('رقم الهوية أو رقم الترخيص').fill(planted.nationalId)
			await lookup.getByLabel('رقم الجوال').fill(planted.mobile)
			const before = fake.messages.length
			await lookup.getByRole('button', { name: 'استعلام' }).click()
			await expect(lookup.getByRole('heading', { name: 'تأكيد رقم الجوال' })).toBeVisible()
			await expect(lookup.getByRole('textbox', { name: /رمز التحقق المرسل إلى الجوال/ })).toBeVisible()
			await expect(lookup.getByRole('heading', { name: 'النتائج' })).toHaveCount(0)
			const html = await lookup.content()
			for (const secret of [planted.name, reference, planted.email, 'فتح الطلب', 'إكمال الطلب', 'تاريخ الإرسال']) expect(html, secret).not.toContain(secret)
			await expect(lookup.getByText('جديد', { exact: true })).toHaveCount(0)

			const code = await codeTexted(fake, to, before)
			await lookup.getByRole('textbox', { name: /رمز التحقق المرسل إلى الجوال/ }).fill(code)
			await lookup.getByRole('button', { name: 'تأكيد', exact: true }).click()
			const result = lookup.getByRole('listitem').filter({ hasText: reference })
			await expect(result).toBeVisible()
			await expect(result).toContainText(planted.name)
			await expect(result.getByText('جديد', { exact: true })).toBeVisible()
			await expect(result.getByRole('button', { name: 'فتح الطلب' })).toBeVisible()

			// «أرسل رابط الطلب إلى بريدي» from this browser (its proof of the code), posted with a forged Host and
			// X-Forwarded-Host (TRUST_PROXY=true: Express believes the latter): the new link is on APP_ORIGIN. No Origin
			// header, as a script sends it: a browser's Origin would not match the forged host, and React Router's own
			// check refuses such a POST before the app sees it.
			const mailsBefore = smtp.messages.length
			const sent = await lookup.request.post(`${origin}/apply/status`, {
				form: { who: 'person', nationalId: planted.nationalId, mobile: planted.mobile, reference, intent: 'send-link' },
				headers: { Host: FORGED_HOST, 'X-Forwarded-Host': FORGED_HOST },
			})
			expect(sent.status()).toBe(200)
			expect(await sent.text()).toContain('أرسلنا رابطاً جديداً')
			const mail = await smtp.waitForMail((candidate) => smtp.messages.indexOf(candidate) >= mailsBefore && candidate.to.includes(planted.email), 30_000)
			expect(mail.subject).toBe(`رابط طلبك رقم ${reference} - مؤسسة عطاء الخيرية`)
			const link = /https?:\/\/\S+\/apply\/r\/[\w-]{43}/.exec(mail.text)?.[0]
			expect(link?.startsWith(`${origin}/apply/r/`), link).toBe(true)
			for (const part of [mail.text, mail.html, mail.raw]) expect(part).not.toContain(FORGED_HOST)
			// The link before stops working (as designed): the new one is the family's now.
			token = /\/apply\/r\/([\w-]{43})/.exec(link!)![1]!
		})

		await test.step('staff send the case back as incomplete: an SMS and an e-mail with the lookup link and no secret, shown as sent', async () => {
			const smsBefore = fake.messages.length
			const mailsBefore = smtp.messages.length
			await staff.goto(`/admin/cases/${reference}`)
			const form = staff.locator('details', { has: staff.locator('summary', { hasText: 'إلى «غير مكتمل»' }) })
			await form.locator('summary').click()
			await form.getByRole('checkbox', { name: 'الوضع المالي' }).check()
			await form.getByLabel('ملاحظة داخلية (سبب التغيير)').fill('الدخل غير موثق')
			// Direction marks, as a browser or a pasted text may carry them: none reaches the provider (issue 37, §2.7).
			await form.getByLabel('رسالة إلى المتقدم (ما المطلوب منه)').fill('\u200Fنرجو تحديث صافي الدخل الشهري\u200E (\u20662026\u2069)\u061C')
			await form.getByRole('button', { name: 'تغيير الحالة إلى «غير مكتمل»' }).click()
			await expect(staff.getByRole('status')).toContainText('تم تغيير الحالة إلى «غير مكتمل»')

			const sms = await waitForSms(fake, (message) => message.to === to && message.text.includes(reference), smsBefore)
			expect(sms.text).not.toMatch(DIRECTION_MARKS)
			expect(sms.text).toContain('نرجو تحديث صافي الدخل الشهري (2026)')
			expect(sms.text).toContain('ينقصه')
			expect(sms.text).toContain('«الوضع المالي»')
			expect(sms.text).toContain('نرجو تحديث صافي الدخل الشهري')
			expect(sms.text).toContain(`${origin}/apply/status`)
			expectNothingSecret('the status SMS', sms.text, planted, token)
			for (const address of addresses(sms.text)) expect(address).toBe(`${origin}/apply/status`)

			const mail = await smtp.waitForMail((candidate) => smtp.messages.indexOf(candidate) >= mailsBefore && candidate.to.includes(planted.email), 30_000)
			expect(mail.subject).toBe(`تحديث حالة طلبك رقم ${reference} - مؤسسة عطاء الخيرية`)
			expect(mail.text).toContain('غير مكتمل')
			expect(mail.text).toContain('«الوضع المالي»')
			expect(mail.text).toContain('نرجو تحديث صافي الدخل الشهري')
			expect(mail.text).toContain(`${origin}/apply/status`)
			expect(mail.html).toContain('dir="rtl"')
			expect(mail.html).toContain(`href="${origin}/apply/status"`)
			expectNothingSecret('the status e-mail', mail.raw + mail.text + mail.html, planted, token)
			for (const address of [...addresses(mail.text), ...addresses(mail.html)]) expect(address.startsWith(`${origin}/apply/status`), address).toBe(true)

			const shown = messagesAbout(staff, 'تغيير الحالة إلى «غير مكتمل»')
			await expect(shown).toHaveCount(2)
			await expect(shown.filter({ hasText: 'رسالة نصية' })).toContainText('أُرسلت')
			await expect(shown.filter({ hasText: 'بريد إلكتروني' })).toContainText('أُرسلت')
		})

		await test.step('three days later (the server clock moved) a reminder goes, and the case history says so', async () => {
			const smsBefore = fake.messages.length
			const mailsBefore = smtp.messages.length
			fs.writeFileSync(clockFile, String(3 * DAY_MS + 60 * 60 * 1000))
			const reminder = await waitForSms(fake, (message) => message.to === to && message.text.includes('لم يكتمل.') && message.text.includes(reference), smsBefore)
			expect(reminder.text).toContain(`${origin}/apply/status`)
			expect(reminder.text).not.toMatch(DIRECTION_MARKS)
			expect(smsSegments(reminder.text).segments).toBeLessThanOrEqual(2)
			expectNothingSecret('the reminder SMS', reminder.text, planted, token)
			const mail = await smtp.waitForMail((candidate) => smtp.messages.indexOf(candidate) >= mailsBefore && candidate.to.includes(planted.email), 30_000)
			expect(mail.subject).toBe(`تذكير باستكمال طلبك رقم ${reference} - مؤسسة عطاء الخيرية`)
			// Back to the real time: one reminder is all this test waits for, and the next messages are tried at once, not as due ones.
			fs.writeFileSync(clockFile, '0')
			await staff.reload()
			await expect(staff.getByRole('region', { name: 'سجل الطلب' })).toContainText('تذكير المتقدم باستكمال طلبه (التذكير الأول)')
			await expect(messagesAbout(staff, 'تذكير بطلب غير مكتمل').filter({ hasText: 'رسالة نصية' })).toContainText('أُرسلت')
			// Once: the scheduler ticks every second, and the first reminder is not sent again.
			expect(fake.messages.filter((message) => message.text.includes('لم يكتمل.'))).toHaveLength(1)
		})

		/** «غير مكتمل» again from the case page's status form, asking for the financial section with `text`. */
		const sendBackIncomplete = async (text: string) => {
			await staff.goto(`${origin}/admin/cases/${reference}`)
			const form = staff.locator('details', { has: staff.locator('summary', { hasText: 'إلى «غير مكتمل»' }) })
			await form.locator('summary').click()
			await form.getByRole('checkbox', { name: 'الوضع المالي' }).check()
			await form.getByLabel('ملاحظة داخلية (سبب التغيير)').fill('الكشف قديم')
			await form.getByLabel('رسالة إلى المتقدم (ما المطلوب منه)').fill(text)
			await form.getByRole('button', { name: 'تغيير الحالة إلى «غير مكتمل»' }).click()
			await expect(staff.getByRole('status')).toContainText('تم تغيير الحالة إلى «غير مكتمل»')
		}

		/** A staff message to the applicant from the case page; resolves once the page says it was sent. */
		const messageApplicant = async (text: string) => {
			await staff.goto(`${origin}/admin/cases/${reference}`)
			const panel = staff.getByRole('region', { name: 'رسائل إلى المتقدم' })
			await panel.getByLabel('رسالة جديدة').fill(text)
			await panel.getByRole('button', { name: 'إرسال الرسالة' }).click()
			await expect(staff.getByRole('status')).toContainText('تم إرسال الرسالة بنجاح')
		}

		for (const kind of ['unifonic', 'taqnyat', 'msegat'] as const) {
			await test.step(`restarted on the same data with ${kind}: a staff message reaches ${kind}'s API${kind === 'unifonic' ? '; one it refuses shows as failed with its reason and goes on «إعادة الإرسال»' : ''}`, async () => {
				await stopService(server!.service)
				;({ fake, origin } = await startWith(kind))
				const text = `نرجو مراجعة المؤسسة (${kind} ${id})`
				const mailsBefore = smtp.messages.length
				if (kind === 'unifonic') {
					fake.refuseNext()
					await messageApplicant(text)
					const failed = messagesAbout(staff, 'رسالة من الموظف إلى المتقدم').filter({ hasText: 'رسالة نصية' })
					await expect(failed).toHaveCount(1)
					await expect(failed).toContainText('تعذّر الإرسال')
					await expect(failed).toContainText('نص مزود الخدمة كما أرسله')
					await expect(failed).toContainText('ER-07')
					expect(fake.messages.filter((message) => message.text.includes(text))).toEqual([])
					await failed.getByRole('button', { name: /إعادة الإرسال/ }).click()
					await expect(staff.getByRole('status')).toContainText('أُعيد إرسال الرسالة')
					await expect(staff.getByRole('region', { name: 'سجل الطلب' })).toContainText('إعادة إرسال رسالة إلى المتقدم')
					const again = messagesAbout(staff, 'رسالة من الموظف إلى المتقدم').filter({ hasText: 'رسالة نصية' })
					await expect(again).toHaveCount(2)
					await expect(again.filter({ hasText: 'أُرسلت' })).toHaveCount(1)
					await expect(again.filter({ hasText: 'تعذّر الإرسال' })).toHaveCount(1)
				} else {
					await messageApplicant(text)
				}
				const sms = await waitForSms(fake, (message) => message.text.includes(text))
				expect(sms.to).toBe(to)
				expect(sms.sender).toBe('ATAA')
				expect(sms.text).toContain(reference)
				expect(sms.text).toContain(`${origin}/apply/status`)
				expectNothingSecret(`the ${kind} SMS`, sms.text, planted, token)
				// Sent once, whatever the provider answered.
				expect(fake.messages.filter((message) => message.text.includes(text))).toHaveLength(1)
				// A status change («غير مكتمل» again, asking for something else) through this provider too.
				const asked = `أرفق كشف حساب حديثاً (${kind} ${id})`
				await sendBackIncomplete(asked)
				const notice = await waitForSms(fake, (message) => message.text.includes(asked))
				expect(notice.to).toBe(to)
				expect(notice.text).toContain('ينقصه')
				expect(notice.text).toContain(`${origin}/apply/status`)
				expectNothingSecret(`the ${kind} status SMS`, notice.text, planted, token)
				const mail: FakeMail = await smtp.waitForMail((candidate) => smtp.messages.indexOf(candidate) >= mailsBefore && candidate.to.includes(planted.email), 30_000)
				expect(mail.subject).toBe(`رسالة بخصوص طلبك رقم ${reference} - مؤسسة عطاء الخيرية`)
				expect(mail.text).toContain(text)
				expect(mail.text).toContain(`${origin}/apply/status`)
			})
		}
	} catch (error) {
		if (server) console.log(`The server's last lines:\n  ${server.service.log.slice(-40).join('\n  ')}`)
		throw error
	} finally {
		await Promise.all(contexts.map((context) => context.close().catch(() => {})))
		if (server) await stopService(server.service)
		await Promise.all(fakes.map((fake) => fake.close()))
		await smtp.close()
		if (instance) await removeInstance(instance)
		fs.rmSync(path.dirname(clockFile), { recursive: true, force: true })
	}
})
