// Codes sent by SMS to prove a mobile (docs/security.md#verified-mobile), attacked over HTTP through the
// real route table, on a server of this file's own (PGlite) with codes on and a fake SMS provider
// (tests/fakes/sms-providers.ts) that keeps what it is given: a guesser gets five tries and then
// nothing, the right code included; a code used once opens no second browser; codes for one mobile are
// limited whatever national ID asks, with Retry-After and the reason in Arabic; and a private link
// without its code gets the page that asks for the code, nothing of the case, on every route under
// /apply/r/<token>. Each request context is a browser of its own (its own cookies). The codes
// themselves, against the database: app/verify/codes.db.test.ts. Run once (not on PostgreSQL too:
// its server is this file's own).
import { randomBytes } from 'node:crypto'
import { expect, request as requests, test, type APIRequestContext, type APIResponse } from '@playwright/test'
import { startAppServer, type AppServer } from '../../../scripts/lib/bench-app.ts'
import { stopService } from '../../../scripts/lib/bench-processes.ts'
import { preparedInstance, removeInstance, type Instance } from '../../../scripts/lib/prepared-instance.ts'
import { startFakeSmsProvider, type FakeSmsProvider } from '#tests/fakes/sms-providers.ts'
import { basicAnswers, randomNationalId, validIban } from '#tests/fixtures/needy-families.ts'
import { jpeg } from '#tests/fixtures/attack-files.ts'
import { minimalPdf } from '#tests/fixtures/pdf.ts'
import { codeLimits } from '#app/verify/codes.server.ts'
import { publicLimits } from '#app/http/ip-limit.server.ts'
import { submitCaseAsStaff } from '../case-fixtures.ts'
import { signIn, unique } from '../utils.ts'
import { manifest } from './route-table.ts'

const root = process.cwd()

// One server for the file: its tests run one after the other in one worker.
test.describe.configure({ mode: 'default' })

let instance: Instance | undefined
let server: AppServer | undefined
let fake: FakeSmsProvider | undefined
let origin = ''
/** The admin's session on this server: staff enter paper applications (no code is sent for them) and open any case. */
let staff: APIRequestContext | undefined
const opened: APIRequestContext[] = []

test.beforeAll(async ({ browser }) => {
	// A prepared instance (made first if no other test has), a start and a sign-in with the second step.
	test.setTimeout(600_000)
	const admin = { email: `codes-admin-${unique()}@e2e.test`, password: `Codes-Admin-${randomBytes(9).toString('base64url')}` }
	fake = await startFakeSmsProvider('http')
	instance = await preparedInstance('pglite', 'ataa-codes-')
	server = await startAppServer({
		root,
		dataDir: instance.dataDir,
		databaseUrl: undefined,
		settle: false,
		// The scheduler ticks each second: a code waiting for the SMS budget goes at once when there is room.
		env: { ...fake.env, SCHEDULER_INTERVAL_SECONDS: '1', APPLICANT_VERIFICATION: 'on', COOKIE_SECURE: 'false', ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password, FILE_ENCRYPTION_KEY: randomBytes(32).toString('hex') },
	})
	origin = server.origin
	const context = await browser.newContext({ baseURL: origin })
	try {
		await signIn(await context.newPage(), admin)
		staff = await requests.newContext({ baseURL: origin, storageState: await context.storageState() })
	} finally {
		await context.close()
	}
})

test.afterAll(async () => {
	await Promise.all([...opened, ...(staff ? [staff] : [])].map((context) => context.dispose()))
	if (server) await stopService(server.service)
	await fake?.close()
	if (instance) await removeInstance(instance)
})

/** A browser of its own: no cookie of any other. */
async function browserContext(): Promise<APIRequestContext> {
	const context = await requests.newContext({ baseURL: origin })
	opened.push(context)
	return context
}

let mobiles = 0
/** A mobile no other test here sends to (the limits count per mobile): 05XXXXXXXX. */
const freshMobile = () => `05${String((Date.now() * 10 + mobiles++) % 1e8).padStart(8, '0')}`
/** As the provider receives it. */
const international = (mobile: string) => `966${mobile.slice(1)}`

/** A POST as the page's form sends it (from our own origin). */
const post = (context: APIRequestContext, path: string, form: Record<string, string>) => context.post(path, { form, headers: { Origin: origin }, maxRedirects: 0 })

/** The code in the SMS to `mobile` among the messages after the first `since`. */
async function codeTexted(mobile: string, since: number): Promise<string> {
	const to = international(mobile)
	await expect.poll(() => fake!.messages.slice(since).some((message) => message.to === to), { timeout: 30_000 }).toBe(true)
	const sms = fake!.messages.slice(since).find((message) => message.to === to)!
	return /رمز التحقق: (\d{6})/.exec(sms.text)![1]!
}

/** A family starts an application on `applicant`: the first save sends a code and leads to the page that asks for it. */
async function startApplication(applicant: APIRequestContext, nationalId: string, mobile: string): Promise<{ token: string; code: string }> {
	const since = fake!.messages.length
	const response = await post(applicant, '/apply/needy-families/new', basicAnswers(nationalId, mobile))
	expect(response.status()).toBe(302)
	const token = /^\/apply\/r\/([\w-]{43})\/verify$/.exec(response.headers()['location'] ?? '')?.[1]
	expect(token, `the first save leads to the code's page (${response.headers()['location']})`).toBeTruthy()
	return { token: token!, code: await codeTexted(mobile, since) }
}

/** Whether the answer remembers the browser for a case (the cookie a right code sets). */
const remembers = (response: APIResponse) => response.headersArray().some((header) => header.name.toLowerCase() === 'set-cookie' && /ataa_verified=/.test(header.value))

const LOCKED = 'أخطأت في كتابة الرمز عدة مرات، فلم يعد صالحاً. اطلب رمزاً جديداً.'
const USED = 'انتهت صلاحية الرمز أو استُخدم من قبل. اطلب رمزاً جديداً.'

test('a guesser gets five tries: the fifth wrong code locks it, the sixth is refused, and the right code after them opens nothing', async () => {
	const guesser = await browserContext()
	const mobile = freshMobile()
	const { token, code } = await startApplication(guesser, randomNationalId(), mobile)
	const verify = `/apply/r/${token}/verify`
	const answers: string[] = []
	for (let i = 1; i <= 6; i++) {
		const wrong = String((Number(code) + i) % 1_000_000).padStart(6, '0')
		const response = await post(guesser, verify, { intent: 'check-code', code: wrong })
		expect(response.status(), `wrong code ${i}`).toBe(400)
		expect(remembers(response)).toBe(false)
		const html = await response.text()
		answers.push(html.includes(LOCKED) ? 'locked' : /الرمز غير صحيح\. بقيت لك/.test(html) ? 'wrong' : 'other')
	}
	expect(answers).toEqual(['wrong', 'wrong', 'wrong', 'wrong', 'locked', 'locked'])

	const right = await post(guesser, verify, { intent: 'check-code', code })
	expect(right.status()).toBe(400)
	expect(await right.text()).toContain(LOCKED)
	expect(remembers(right)).toBe(false)
	const overview = await guesser.get(`/apply/r/${token}`, { maxRedirects: 0 })
	expect(overview.status()).toBe(302)
	expect(overview.headers()['location']).toBe(verify)
})

test('a code used once opens nothing a second time: the private link’s code and the lookup’s, replayed from another browser', async () => {
	const first = await browserContext()
	const second = await browserContext()
	const mobile = freshMobile()
	const nationalId = randomNationalId()
	const { token, code } = await startApplication(first, nationalId, mobile)
	const verify = `/apply/r/${token}/verify`

	const proven = await post(first, verify, { intent: 'check-code', code })
	expect(proven.status()).toBe(302)
	expect(proven.headers()['location']).toBe(`/apply/r/${token}`)
	expect(remembers(proven)).toBe(true)
	expect((await first.get(`/apply/r/${token}`, { maxRedirects: 0 })).status()).toBe(200)

	const replayed = await post(second, verify, { intent: 'check-code', code })
	expect(replayed.status()).toBe(400)
	expect(await replayed.text()).toContain(USED)
	expect(remembers(replayed)).toBe(false)
	const refused = await second.get(`/apply/r/${token}`, { maxRedirects: 0 })
	expect(refused.status()).toBe(302)
	expect(refused.headers()['location']).toBe(verify)

	// The lookup's code: read once on the first browser, replayed on the second.
	const typed = { who: 'person', nationalId, mobile }
	const since = fake!.messages.length
	const asked = await post(first, '/apply/status', { ...typed, intent: 'lookup' })
	expect(asked.status()).toBe(200)
	const lookupCode = await codeTexted(mobile, since)
	const read = await post(first, '/apply/status', { ...typed, intent: 'check-code', code: lookupCode })
	expect(read.status()).toBe(200)
	expect(await read.text()).toContain('لم يُرسل بعد')
	const again = await post(second, '/apply/status', { ...typed, intent: 'check-code', code: lookupCode })
	expect(again.status()).toBe(400)
	const html = await again.text()
	expect(html).toContain(USED)
	for (const secret of ['عبدالله محمد سعد القحطاني', 'لم يُرسل بعد', 'إكمال الطلب']) expect(html, secret).not.toContain(secret)
})

test('codes for one mobile are limited: the lookup refuses with 429, Retry-After and why in Arabic, whatever national ID asks', async () => {
	const mobile = freshMobile()
	const to = international(mobile)
	// Families sharing a mobile (a son's phone for his parents, an office's): cases entered by staff, no code sent for them.
	const nationalIds = Array.from({ length: codeLimits.perMobileHour.limit + 2 }, () => randomNationalId())
	for (const nationalId of nationalIds) {
		const entered = await staff!.post('/apply/needy-families/new?paper=1', { form: basicAnswers(nationalId, mobile), headers: { Origin: origin }, maxRedirects: 0 })
		expect(entered.status()).toBe(302)
	}
	expect(fake!.messages.filter((message) => message.to === to)).toEqual([])

	const visitor = await browserContext()
	const sent: string[] = []
	let refusedAt = -1
	for (const [index, nationalId] of nationalIds.entries()) {
		const response = await post(visitor, '/apply/status', { who: 'person', nationalId, mobile, intent: 'lookup' })
		const html = await response.text()
		if (response.status() === 429) {
			refusedAt = index
			const retryAfter = Number(response.headers()['retry-after'])
			expect(retryAfter).toBeGreaterThan(0)
			expect(retryAfter).toBeLessThanOrEqual(codeLimits.perMobileHour.windowSeconds)
			expect(html).toContain('أُرسلت رموز كثيرة إلى رقم الجوال هذا في الساعة الأخيرة.')
			expect(html).toContain('حاول مرة أخرى بعد')
			break
		}
		expect(response.status(), `lookup ${index + 1}`).toBe(200)
		expect(html).toContain('تأكيد رقم الجوال')
		await expect.poll(() => fake!.messages.filter((message) => message.to === to).length, { timeout: 30_000 }).toBe(index + 1)
		sent.push(nationalId)
	}
	// As many codes as the limit, each for another national ID, then a refusal.
	expect(sent).toHaveLength(codeLimits.perMobileHour.limit)
	expect(refusedAt).toBe(codeLimits.perMobileHour.limit)

	// Another national ID with the same mobile, never asked for before: refused too, from another browser as well.
	const other = await post(await browserContext(), '/apply/status', { who: 'person', nationalId: nationalIds.at(-1)!, mobile, intent: 'lookup' })
	expect(other.status()).toBe(429)
	expect(Number(other.headers()['retry-after'])).toBeGreaterThan(0)
	expect(await other.text()).toContain('أُرسلت رموز كثيرة إلى رقم الجوال هذا في الساعة الأخيرة.')
	// Asking again on the code's step sends nothing either.
	const resend = await post(visitor, '/apply/status', { who: 'person', nationalId: sent[0]!, mobile, intent: 'send-code' })
	expect(resend.status()).toBe(429)
	expect(fake!.messages.filter((message) => message.to === to)).toHaveLength(codeLimits.perMobileHour.limit)
})

test('a private link without its code gets only the page asking for it, on every route under /apply/r/<token>: no name, no answers, no file, nothing saved', async () => {
	test.setTimeout(180_000)
	const id = unique()
	const name = `سلمان عبدالعزيز فهد آل${id}`
	const email = `codes-${id}@e2e.test`
	const mobile = freshMobile()
	// A draft with every step answered and two files: entered by staff, so no code has been sent to anyone.
	const entered = await submitCaseAsStaff(staff!, { name, email, mobile, submit: false })
	const { token, nationalId } = entered
	// A photo of the identity too: its page has a thumbnail of its own (/files/pages/<id>) once it is cleaned.
	const photo = await staff!.post(`/apply/r/${token}/files/upload`, { multipart: { slot: 'identity', file: { name: 'هوية.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(await jpeg()) } } })
	expect(photo.status()).toBeLessThan(400)
	const base = `/apply/r/${token}`
	let filesPage = ''
	await expect
		.poll(
			async () => {
				filesPage = await (await staff!.get(`${base}/files`)).text()
				return new RegExp(`${base}/files/pages/[0-9a-f-]{36}`).test(filesPage)
			},
			{ timeout: 60_000, message: 'the photo’s page cleaned and shown' },
		)
		.toBe(true)
	const fileId = new RegExp(`${base}/files/([0-9a-f-]{36})\\b(?!/)`).exec(filesPage)?.[1]
	const pageId = new RegExp(`${base}/files/pages/([0-9a-f-]{36})`).exec(filesPage)?.[1]
	expect(fileId, 'a file of the case').toBeTruthy()
	expect(pageId, 'a page of the case').toBeTruthy()

	const secrets = [name, nationalId, email, mobile, international(mobile), validIban, validIban.slice(4), 'الشيخ فهد العتيبي', 'نرجو النظر في حالتنا', 'هوية-المتقدم.pdf', 'سجل-الأسرة.pdf', 'هوية.jpg']
	const expectNothingOfTheCase = (what: string, body: string) => {
		for (const secret of secrets) expect(body.includes(secret), `${what} shows «${secret}»`).toBe(false)
	}
	const verify = `${base}/verify`
	const minimalPdfBuffer = Buffer.from(minimalPdf())
	/** What each route under the link is tried with: GETs of real pages and files, and POSTs as their forms send them. */
	const samples: Record<string, { get?: string[]; post?: { path: string; form?: Record<string, string>; multipart?: Record<string, string | { name: string; mimeType: string; buffer: Buffer }> } }> = {
		// The IBAN the family gives after a returned transfer (issue 38): a stranger's is not taken.
		'apply/r/:token': { get: [base], post: { path: base, form: { iban: 'SA0380000000608010167519' } } },
		'apply/r/:token/check': { get: [`${base}/check`], post: { path: `${base}/check`, form: { acknowledge: 'on' } } },
		'apply/r/:token/done': { get: [`${base}/done`] },
		'apply/r/:token/consent': { get: [`${base}/consent`], post: { path: `${base}/consent`, form: { consent: 'declined' } } },
		'apply/r/:token/:step': { get: [`${base}/basic`, `${base}/bank`, `${base}/financial`, `${base}/family`, `${base}/files`], post: { path: `${base}/financial`, form: { Net_Income: '9999' } } },
		'apply/r/:token/files/:fileId': { get: [`${base}/files/${fileId}`, `${base}/files/${fileId}?inline=1`] },
		'apply/r/:token/files/pages/:pageId': { get: [`${base}/files/pages/${pageId}`] },
		'apply/r/:token/files/upload': { post: { path: `${base}/files/upload`, multipart: { slot: 'family_report', file: { name: 'مزور.pdf', mimeType: 'application/pdf', buffer: minimalPdfBuffer } } } },
	}
	const routes = manifest.filter((route) => route.path === 'apply/r/:token' || route.path.startsWith('apply/r/:token/'))
	// Every route under the link is tried (the page asking for the code is tried below): a new one without a sample fails here.
	expect(
		routes
			.map((route) => route.path)
			.filter((path) => path !== 'apply/r/:token/verify')
			.sort(),
	).toEqual(Object.keys(samples).sort())

	// A verified browser (staff, here) opens each page: the samples are real pages, not 404s.
	for (const path of [base, `${base}/check`, `${base}/financial`, `${base}/files/${fileId}`, `${base}/files/pages/${pageId}`]) {
		expect((await staff!.get(path, { maxRedirects: 0 })).status(), `staff open ${path}`).toBe(200)
	}

	const stranger = await browserContext()
	for (const route of routes.filter((candidate) => candidate.path !== 'apply/r/:token/verify')) {
		const sample = samples[route.path]!
		for (const path of route.hasLoader ? (sample.get ?? []) : []) {
			const response = await stranger.get(path, { maxRedirects: 0 })
			expect(response.status(), `GET ${path}`).toBe(302)
			expect(response.headers()['location'], `GET ${path}`).toBe(verify)
			expectNothingOfTheCase(`GET ${path}`, await response.text())
			// The same page's data, as the client's navigation asks for it.
			if (!path.includes('/files/')) {
				const data = await stranger.get(`${path}.data`, { maxRedirects: 0 })
				const body = await data.text()
				expect(body, `GET ${path}.data`).toContain(verify)
				expectNothingOfTheCase(`GET ${path}.data`, body)
			}
		}
		if (route.hasAction) {
			expect(sample.post, `a POST sample for ${route.path}`).toBeTruthy()
			const { path, form, multipart } = sample.post!
			const response = await stranger.post(path, { ...(form ? { form } : { multipart }), headers: { Origin: origin }, maxRedirects: 0 })
			expect(response.status(), `POST ${path}`).toBe(302)
			expect(response.headers()['location'], `POST ${path}`).toBe(verify)
			expectNothingOfTheCase(`POST ${path}`, await response.text())
		}
	}

	// The page that asks for the code: the reference and the masked mobile, nothing else of the case.
	const page = await stranger.get(verify, { maxRedirects: 0 })
	expect(page.status()).toBe(200)
	const html = await page.text()
	expect(html).toContain('تأكيد رقم الجوال')
	expect(html).toContain('أرسل رمز التحقق')
	expect(html).toContain(entered.reference)
	expectNothingOfTheCase(`GET ${verify}`, html)
	const guessed = await post(stranger, verify, { intent: 'check-code', code: '000000' })
	expect(guessed.status()).toBe(400)
	expect(remembers(guessed)).toBe(false)
	expectNothingOfTheCase(`POST ${verify}`, await guessed.text())

	// Nothing the stranger posted was kept: the draft is as staff entered it, unsent, with its files.
	const financial = await (await staff!.get(`${base}/financial`)).text()
	expect(financial).toContain('value="2500"')
	expect(financial).not.toContain('9999')
	const files = await (await staff!.get(`${base}/files`)).text()
	expect(files).not.toContain('مزور.pdf')
	const overview = await (await staff!.get(base)).text()
	// Not sent (the check page's POST), and the consent not withdrawn (the consent page's).
	expect(overview).not.toContain('حالة الطلب:')
	expect(overview).not.toContain('لا يُطلب دون موافقتك')
	// And no code was sent for it: only the stranger asking for one would send one.
	expect(fake!.messages.filter((message) => message.to === international(mobile))).toEqual([])
})

test('an association’s private link names what the lookup asks of it: its licence and its representative’s mobile, not «رقم هويتك» (issue 37 §2.6)', async () => {
	const id = unique()
	const started = await post(staff!, '/apply/association-support/new?paper=1', {
		AssociationName: `جمعية الوفاء ${id}`,
		LicenseNumber: String(Date.now()).slice(-9),
		AssemblySpecialty: 'social',
		DateOfEstablishment: '2015-03-01',
		Email: `assoc-${id}@e2e.test`,
		RepresentativeName: 'سارة عبدالرحمن العتيبي',
		RepresentativeMobile: freshMobile(),
	})
	expect(started.status()).toBe(302)
	const base = /^\/apply\/r\/[\w-]{43}/.exec(started.headers()['location'] ?? '')?.[0]
	expect(base, `the first save leads to the private link (${started.headers()['location']})`).toBeTruthy()
	const overview = await (await staff!.get(base!)).text()
	expect(overview).toContain('«الاستعلام عن طلب» برقم ترخيص الجهة أو تصريحها ورقم جوال ممثلها')
	expect(overview).not.toContain('برقم هويتك')
})

/** The page as anyone else would get it: without the ID typed (sent back in the form) and the CSP nonce. */
const comparable = (html: string, typed: string) => html.replaceAll(typed, '«typed»').replace(/nonce="[^"]*"/g, 'nonce=""')

/** A draft entered by staff for a walk-in (no code is sent for it): a case the lookup finds. */
async function paperDraft(nationalId: string, mobile: string): Promise<void> {
	const entered = await staff!.post('/apply/needy-families/new?paper=1', { form: basicAnswers(nationalId, mobile), headers: { Origin: origin }, maxRedirects: 0 })
	expect(entered.status()).toBe(302)
}

test('the lookup answers the same whether or not a case matches: status and page of the lookup, a second code and a wrong one; an SMS only for the case', async () => {
	const mobile = freshMobile()
	const to = international(mobile)
	const withCase = randomNationalId()
	const withoutCase = randomNationalId()
	await paperDraft(withCase, mobile)

	const answers: Record<string, { status: number; body: string }[]> = { [withCase]: [], [withoutCase]: [] }
	for (const nationalId of [withCase, withoutCase]) {
		const visitor = await browserContext()
		const typed = { who: 'person', nationalId, mobile }
		// The lookup, asking for a code again at once, and a wrong code: each as the page's forms send them.
		for (const form of [
			{ ...typed, intent: 'lookup' },
			{ ...typed, intent: 'send-code' },
			{ ...typed, intent: 'check-code', code: '000000' },
		]) {
			const response = await post(visitor, '/apply/status', form)
			answers[nationalId]!.push({ status: response.status(), body: comparable(await response.text(), nationalId) })
		}
	}
	const [matching, other] = [answers[withCase]!, answers[withoutCase]!]
	expect(matching.map((answer) => answer.status)).toEqual([200, 429, 400])
	expect(other.map((answer) => answer.status)).toEqual([200, 429, 400])
	for (const [index, answer] of matching.entries()) expect(other[index]!.body, `answer ${index + 1}`).toBe(answer.body)
	expect(matching[1]!.body).toContain('أرسلنا إليك رمزاً قبل قليل')
	expect(matching[2]!.body).toContain('الرمز غير صحيح. بقيت لك')
	// Only the case's mobile got a code: one SMS, for the lookup that matched.
	await expect.poll(() => fake!.messages.filter((message) => message.to === to).length, { timeout: 30_000 }).toBe(1)
})

test('the lookup’s time does not wait for the SMS: a provider that never answers holds up no page', async () => {
	const mobile = freshMobile()
	const nationalId = randomNationalId()
	await paperDraft(nationalId, mobile)
	fake!.stallNext(1)
	const started = performance.now()
	const response = await post(await browserContext(), '/apply/status', { who: 'person', nationalId, mobile, intent: 'lookup' })
	expect(response.status()).toBe(200)
	expect(await response.text()).toContain('تأكيد رقم الجوال')
	// The provider's own timeout is 10 s: an answer that waited for it would take that long.
	expect(performance.now() - started).toBeLessThan(5_000)
})

test('every intent naming an ID counts against its limit: codes asked and checked on the lookup run into it as lookups do', async () => {
	const nationalId = randomNationalId()
	const visitor = await browserContext()
	const statuses: number[] = []
	let last = ''
	// Each post with another mobile: only the ID's own limit can stop them.
	for (let i = 0; i < publicLimits.lookupPerId.limit + 1; i++) {
		const response = await post(visitor, '/apply/status', { who: 'person', nationalId, mobile: freshMobile(), intent: i % 2 ? 'check-code' : 'send-code', code: '000000' })
		statuses.push(response.status())
		last = await response.text()
	}
	expect(statuses.slice(0, -1)).not.toContain(429)
	expect(statuses.at(-1)).toBe(429)
	expect(last).toContain('استعلامات كثيرة بهذا الرقم في الساعة الأخيرة.')
})

test('a new draft for an ID with an open case is told to nobody but the holder of that case’s mobile, once a code proves it', async () => {
	test.setTimeout(120_000)
	const owner = freshMobile()
	const { nationalId } = await submitCaseAsStaff(staff!, { mobile: owner })
	// A stranger who knows the ID, with a mobile of his own, gets what a new applicant gets: the code's page.
	const stranger = await browserContext()
	const strangerMobile = freshMobile()
	const { token, code } = await startApplication(stranger, nationalId, strangerMobile)
	await startApplication(await browserContext(), randomNationalId(), freshMobile())
	// Proving his own mobile tells him nothing either: his draft goes on.
	const proven = await post(stranger, `/apply/r/${token}/verify`, { intent: 'check-code', code })
	expect(proven.status()).toBe(302)
	expect(proven.headers()['location']).toBe(`/apply/r/${token}`)
	const draft = await (await stranger.get(`/apply/r/${token}`)).text()
	expect(draft).not.toContain('مسجل مسبقاً')
	expect(draft).not.toContain('طلب مفتوح')

	// The owner, with the case's own mobile, is told once the code proves it, and the new draft goes.
	const ownerBrowser = await browserContext()
	const mine = await startApplication(ownerBrowser, nationalId, owner)
	const told = await post(ownerBrowser, `/apply/r/${mine.token}/verify`, { intent: 'check-code', code: mine.code })
	expect(told.status()).toBe(302)
	expect(told.headers()['location']).toBe('/apply/needy-families/new?duplicate=1')
	const page = await (await ownerBrowser.get('/apply/needy-families/new?duplicate=1')).text()
	expect(page).toContain('المستفيد مسجل مسبقاً: تم تأكيد رقم جوالك، ولك طلب مفتوح في هذا البرنامج برقم الهوية أو الإقامة نفسه')
	expect((await ownerBrowser.get(`/apply/r/${mine.token}`, { maxRedirects: 0 })).status()).toBe(404)
})

test('a draft first proven through the lookup’s «إكمال الطلب» is held to what its own code page holds it to: a duplicate of an open case goes, told why (issue 37)', async () => {
	test.setTimeout(120_000)
	const owner = freshMobile()
	const { nationalId } = await submitCaseAsStaff(staff!, { mobile: owner })
	// The owner starts a second draft, leaves its code page, and comes back through the lookup.
	const applicant = await browserContext()
	const { token } = await startApplication(applicant, nationalId, owner)
	const reference = /<strong dir="ltr">([^<]+)<\/strong>/.exec(await (await applicant.get(`/apply/r/${token}/verify`)).text())?.[1]
	expect(reference, 'the code page names the draft’s reference').toBeTruthy()
	const typed = { who: 'person', nationalId, mobile: owner }
	const since = fake!.messages.length
	expect((await post(applicant, '/apply/status', { ...typed, intent: 'lookup' })).status()).toBe(200)
	const listed = await post(applicant, '/apply/status', { ...typed, intent: 'check-code', code: await codeTexted(owner, since) })
	expect(listed.status()).toBe(200)
	expect(await listed.text()).toContain(reference!)
	// «إكمال الطلب» proves the draft’s mobile: it is the duplicate its own code page would have withdrawn.
	const opened = await post(applicant, '/apply/status', { ...typed, intent: 'open', reference: reference! })
	expect(opened.status()).toBe(302)
	expect(opened.headers()['location']).toBe('/apply/needy-families/new?duplicate=1')
	expect(await (await applicant.get('/apply/needy-families/new?duplicate=1')).text()).toContain('المستفيد مسجل مسبقاً')
	expect((await applicant.get(`/apply/r/${token}`, { maxRedirects: 0 })).status()).toBe(404)
	const after = await post(applicant, '/apply/status', { ...typed, intent: 'lookup' })
	expect(await after.text(), 'the withdrawn draft is no longer listed').not.toContain(reference!)
})

test('drafts nobody proved do not lock an ID’s owner out: only drafts whose mobile is proven count against the ID', async () => {
	test.setTimeout(120_000)
	const nationalId = randomNationalId()
	// Strangers start more drafts with the ID than its daily limit, each with a mobile of their own, and prove none.
	for (let i = 0; i <= publicLimits.startPerId.limit; i++) {
		const response = await post(await browserContext(), '/apply/needy-families/new', basicAnswers(nationalId, freshMobile()))
		expect(response.status(), `a stranger’s draft ${i + 1}`).toBe(302)
	}
	// The owner still starts, gets a code for and proves as many as the limit; the next one is refused.
	for (let i = 0; i < publicLimits.startPerId.limit; i++) {
		const owner = await browserContext()
		const { token, code } = await startApplication(owner, nationalId, freshMobile())
		expect((await post(owner, `/apply/r/${token}/verify`, { intent: 'check-code', code })).status(), `the owner’s draft ${i + 1}`).toBe(302)
	}
	const refused = await post(await browserContext(), '/apply/needy-families/new', basicAnswers(nationalId, freshMobile()))
	expect(refused.status()).toBe(429)
	expect(await refused.text()).toContain('الحد المسموح به من الطلبات الجديدة')
})

test('past the per-address SMS budget a draft is still saved, its page says by when the code comes, and the scheduler sends it within the hourly budget', async () => {
	// Staff see the use and set the budgets: one code at once per address in the hour, already spent by the tests before.
	const intake = await staff!.get('/admin/intake')
	expect(await intake.text()).toContain('ميزانية رسائل رموز التحقق')
	const set = (perAddressHour: string) => staff!.post('/admin/intake', { form: { intent: 'sms-budget', perHour: '600', perDay: '5000', perAddressHour }, headers: { Origin: origin }, maxRedirects: 0 })
	expect((await set('1')).status()).toBe(302)
	try {
		const family = await browserContext()
		const mobile = freshMobile()
		const since = fake!.messages.length
		const started = await post(family, '/apply/needy-families/new', basicAnswers(randomNationalId(), mobile))
		expect(started.status()).toBe(302)
		const verify = started.headers()['location']!
		expect(verify).toMatch(/^\/apply\/r\/[\w-]{43}\/verify$/)
		// Not texted with the answer: it waits for the scheduler, and the page says by when it comes.
		const page = await (await family.get(verify)).text()
		expect(page).toContain('كثرت طلبات الرموز الآن، فيصلك رمز التحقق برسالة نصية قبل الساعة')
		expect(page).toContain('رمز التحقق المرسل إلى الجوال')
		// The scheduler's next tick sends it (the hourly budget has room), and it opens the draft.
		const code = await codeTexted(mobile, since)
		const proven = await post(family, verify, { intent: 'check-code', code })
		expect(proven.status()).toBe(302)
		expect(proven.headers()['location']).toBe(verify.replace(/\/verify$/, ''))
	} finally {
		expect((await set(String(100_000))).status()).toBe(302)
	}
})
