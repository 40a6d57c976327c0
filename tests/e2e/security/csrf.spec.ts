// A POST forged by another site is refused (403) before it does anything, on every route that has
// an action: the back office's (the samples of route-table.ts, sent with the session of a role
// that may post them) and every public one, sign-in and sign-out included. The same POST from our
// own origin then does what it does, so each check could fail. The session cookies stay
// SameSite=Lax, HttpOnly and Path=/.
import { expect, test, type APIRequestContext, type APIResponse } from '@playwright/test'
import { basicAnswers, randomNationalId, validIban } from '#tests/fixtures/needy-families.ts'
import { minimalPdf } from '#tests/fixtures/pdf.ts'
import { referenceOn, signInInstitution, startAccountRequest, submitCaseAsStaff } from '../case-fixtures.ts'
import { staffState, unique, type StaffRole } from '../utils.ts'
import { addUser, createAdminFixtures, expectStatus, inputValue, manifest, routeTable, send, type AdminFixtures, type PostSample } from './route-table.ts'

test.describe.configure({ mode: 'default' })

/** Three ways a browser marks a request another site made it send. */
const forgeries = [
	{ name: 'Origin: https://evil.example', headers: { Origin: 'https://evil.example' } },
	{ name: 'Origin: null (a sandboxed frame)', headers: { Origin: 'null' } },
	{ name: 'Sec-Fetch-Site: cross-site, no Origin', headers: { 'Sec-Fetch-Site': 'cross-site' } },
] as const

let baseURL: string
let contexts: APIRequestContext[] = []
let as: Record<StaffRole | 'visitor' | 'institution', APIRequestContext>
let f: AdminFixtures
/** A staff account only these tests sign in and out with. */
let staff: { email: string; password: string }
/** A new request context with no session: a browser of its own. */
let fresh: () => Promise<APIRequestContext>

test.beforeAll(async ({ playwright }, testInfo) => {
	testInfo.setTimeout(120_000)
	baseURL = testInfo.project.use.baseURL!
	const context = async (storageState?: string) => {
		const created = await playwright.request.newContext({ baseURL, storageState })
		contexts.push(created)
		return created
	}
	fresh = () => context()
	as = {
		visitor: await context(),
		institution: await context(),
		admin: await context(staffState('admin')),
		case_officer: await context(staffState('case_officer')),
		content_editor: await context(staffState('content_editor')),
		approver: await context(staffState('approver')),
		finance: await context(staffState('finance')),
	}
	staff = { email: `csrf-${unique()}@e2e.test`, password: `Only-For-Tests-${unique()}` }
	;[f] = await Promise.all([createAdminFixtures(as.admin, 'رسالة لاختبار الطلبات المزورة'), addUser(as.admin, staff.email, 'content_editor', staff.password)])
	await signInInstitution(as.institution, f.institution)
})

test.afterAll(async () => {
	await Promise.all(contexts.map((context) => context.dispose()))
	contexts = []
})

const own = () => ({ Origin: baseURL })

/** Each forgery of `post` is refused by the cross-site guard, with its own words. */
async function expectRefused(post: (headers: Record<string, string>) => Promise<APIResponse>) {
	for (const forgery of forgeries) {
		const response = await post(forgery.headers)
		expect(response.status(), forgery.name).toBe(403)
		expect(await response.text(), forgery.name).toContain('مصدر الطلب غير موثوق')
		expect(response.headers()['set-cookie'], `${forgery.name}: no cookie is set`).toBeUndefined()
	}
}

/** A form as a browser posts it (repeated names for lists). */
const formPost = (request: APIRequestContext, path: string, form: Record<string, string>) => (headers: Record<string, string>) =>
	send(request, { path, form, status: 0 } satisfies PostSample, headers)

/** A session cookie from a sign-in's answer: HttpOnly, SameSite=Lax, for the whole site. */
function expectSessionCookie(response: APIResponse, name: RegExp) {
	const cookie = response.headersArray().find((header) => header.name.toLowerCase() === 'set-cookie' && name.test(header.value))?.value
	expect(cookie, `a ${name} cookie`).toBeTruthy()
	const attributes = cookie!.split(';').map((part) => part.trim().toLowerCase())
	expect(attributes).toContain('samesite=lax')
	expect(attributes).toContain('httponly')
	expect(attributes).toContain('path=/')
}

/** The cases the status lookup lists for a national ID and mobile (drafts included). */
async function lookedUp(request: APIRequestContext, nationalId: string, mobile: string): Promise<number> {
	const response = await send(request, { path: '/apply/status', form: { who: 'person', nationalId, mobile }, status: 200 }, own())
	expect(response.status(), 'the status lookup').toBe(200)
	const html = await response.text()
	return new Set(html.slice(html.indexOf('<body')).match(/[A-HJ-NP-Y2-9]{4}-[A-HJ-NP-Y2-9]{4}/g) ?? []).size
}

/**
 * The routes outside the back office that take a POST, each with its forged requests and, where
 * something could change, the stored state read before and after; then the same POST from our
 * origin, which works.
 */
const publicSamples: Record<string, () => Promise<void>> = {
	'routes/logout': async () => {
		const browser = await fresh()
		const signedIn = await formPost(browser, '/login', staff)(own())
		expect(signedIn.status(), 'staff sign in').toBe(302)
		expectSessionCookie(signedIn, /^(__Host-)?ataa_session=/)
		await expectRefused(formPost(browser, '/logout', {}))
		expect((await browser.get('/admin/account', { maxRedirects: 0 })).status(), 'still signed in').toBe(200)
		const out = await formPost(browser, '/logout', {})(own())
		expect(out.status()).toBe(302)
		expect((await browser.get('/admin/account', { maxRedirects: 0 })).status(), 'signed out').toBe(302)
	},
	'routes/public/login': async () => {
		const browser = await fresh()
		await expectRefused(formPost(browser, '/login', staff))
		expect((await browser.get('/admin/account', { maxRedirects: 0 })).status(), 'not signed in').toBe(302)
		expect((await formPost(browser, '/login', staff)(own())).status()).toBe(302)
		expect((await browser.get('/admin/account', { maxRedirects: 0 })).status(), 'signed in').toBe(200)
	},
	'routes/account/login': async () => {
		const browser = await fresh()
		const credentials = { name: f.institution.userName, password: f.institution.password }
		await expectRefused(formPost(browser, '/account/login', credentials))
		expect((await browser.get('/account', { maxRedirects: 0 })).status(), 'not signed in').toBe(302)
		const signedIn = await formPost(browser, '/account/login', credentials)(own())
		expect(signedIn.status()).toBe(302)
		expectSessionCookie(signedIn, /^(__Host-)?ataa_account=/)
		expect((await browser.get('/account', { maxRedirects: 0 })).status(), 'signed in').toBe(200)
	},
	'routes/account/logout': async () => {
		const browser = await fresh()
		await signInInstitution(browser, f.institution)
		await expectRefused(formPost(browser, '/account/logout', {}))
		expect((await browser.get('/account', { maxRedirects: 0 })).status(), 'still signed in').toBe(200)
		expect((await formPost(browser, '/account/logout', {})(own())).headers()['location']).toBe('/account/login')
		expect((await browser.get('/account', { maxRedirects: 0 })).status(), 'signed out').toBe(302)
	},
	// The account's one action deletes an unsent draft.
	'routes/account/index': async () => {
		const draft = await referenceOn(as.institution, await startAccountRequest(as.institution, f.institution))
		// Listed with its delete form (the flash after deleting names it too).
		const listed = async () => (await (await as.institution.get('/account')).text()).includes(`name="reference" value="${draft}"`)
		expect(await listed()).toBe(true)
		const remove = formPost(as.institution, '/account', { intent: 'delete-draft', reference: draft, confirm: 'on' })
		await expectRefused(remove)
		expect(await listed(), 'the draft was not deleted').toBe(true)
		expect((await remove(own())).status()).toBe(302)
		expect(await listed()).toBe(false)
	},
	// The second step of a staff sign-in takes a code for a session signed in with a password only.
	// Without such a session nothing can change: the forgery is refused all the same, before the
	// route sends the caller back to the sign-in.
	'routes/public/two-step': async () => {
		await expectRefused(formPost(as.visitor, '/login/two-step', { code: '123456' }))
		expect((await formPost(as.visitor, '/login/two-step', { code: '123456' })(own())).headers()['location']).toMatch(/^\/login/)
	},
	'routes/public/two-step-setup': async () => {
		await expectRefused(formPost(as.visitor, '/login/two-step/setup', { secret: '', code: '123456' }))
		expect((await formPost(as.visitor, '/login/two-step/setup', { secret: '', code: '123456' })(own())).headers()['location']).toMatch(/^\/login/)
	},
	'routes/public/contact': async () => {
		const subject = `رسالة مزورة ${unique()}`
		await expectRefused(formPost(as.visitor, '/contact', { UserName: 'سائل', Email: 'asker@example.org', Mobile: '0551234567', Subject: subject, InquiryText: 'نص' }))
		const inbox = await (await as.admin.get(`/admin/inquiries?${new URLSearchParams({ q: subject })}`)).text()
		expect(inbox, 'no message was stored').not.toMatch(/\/admin\/inquiries\/[0-9a-f-]{36}/)
		// Not sent from our origin here: the form takes 5 messages an address in 10 minutes (route-table.ts, inquiry).
	},
	'routes/public/not-found': async () => {
		await expectRefused(formPost(as.visitor, '/no-such-page', { x: '1' }))
		expect((await formPost(as.visitor, '/no-such-page', { x: '1' })(own())).status()).toBe(404)
	},
	'routes/apply/new': async () => {
		// As staff, who are not held to the visitors' limit on new applications.
		const nationalId = randomNationalId()
		const mobile = '0557000001'
		const start = formPost(as.case_officer, '/apply/needy-families/new', basicAnswers(nationalId, mobile))
		await expectRefused(start)
		expect(await lookedUp(as.visitor, nationalId, mobile), 'no case was started').toBe(0)
		const started = await start(own())
		expect(started.status()).toBe(302)
		expect(started.headers()['location']).toMatch(/^\/apply\/r\/[\w-]{43}$/)
		expect(await lookedUp(as.visitor, nationalId, mobile)).toBe(1)
	},
	'routes/apply/step': async () => {
		const started = await formPost(as.case_officer, '/apply/needy-families/new', basicAnswers(randomNationalId()))(own())
		const link = started.headers()['location']!
		// The consent step comes before the bank details (routes/apply/consent, below).
		expect((await formPost(as.visitor, `${link}/consent`, { consent: 'given' })(own())).status()).toBe(302)
		const iban = async () => inputValue(await (await as.visitor.get(`${link}/bank`)).text(), 'Bank_No_1')
		const before = await iban()
		expect(before).not.toBe(validIban)
		await expectRefused(formPost(as.visitor, `${link}/bank`, { Bank_Name_1: 'alrajhi', Bank_No_1: validIban }))
		expect(await iban(), 'the step is as it was').toBe(before)
		expect((await formPost(as.visitor, `${link}/bank`, { Bank_Name_1: 'alrajhi', Bank_No_1: validIban })(own())).status()).toBe(302)
		expect(await iban()).toBe(validIban)
	},
	'routes/apply/consent': async () => {
		const started = await formPost(as.case_officer, '/apply/needy-families/new', basicAnswers(randomNationalId()))(own())
		const link = started.headers()['location']!
		const answered = async () => (await (await as.visitor.get(`${link}/consent`)).text()).includes('إجابتك المحفوظة')
		await expectRefused(formPost(as.visitor, `${link}/consent`, { consent: 'given' }))
		expect(await answered(), 'no answer was recorded').toBe(false)
		expect((await formPost(as.visitor, `${link}/consent`, { consent: 'given' })(own())).headers()['location']).toBe(`${link}/bank`)
		expect(await answered()).toBe(true)
	},
	'routes/apply/upload': async () => {
		const draft = await submitCaseAsStaff(as.case_officer, { submit: false })
		const name = `مرفق-${unique()}.pdf`
		const upload = (headers: Record<string, string>) =>
			as.visitor.post(`/apply/r/${draft.token}/files/upload`, {
				multipart: { slot: 'identity', file: { name, mimeType: 'application/pdf', buffer: Buffer.from(minimalPdf()) } },
				headers,
				maxRedirects: 0,
			})
		// A page of the identity's document: its card on the attachments step names it.
		const listed = async () => (await (await as.visitor.get(`/apply/r/${draft.token}/files`)).text()).includes(name)
		await expectRefused(upload)
		expect(await listed(), 'no file was added').toBe(false)
		expect((await upload(own())).status()).toBe(302)
		expect(await listed()).toBe(true)
	},
	'routes/apply/overview': async () => {
		// The IBAN the family gives after a returned transfer (issue 38): a forged one is refused; the
		// allowed one is judged on its own (a mistyped IBAN, a 400 that changes nothing).
		const draft = await submitCaseAsStaff(as.case_officer, { submit: false })
		const give = formPost(as.visitor, `/apply/r/${draft.token}`, { iban: 'SA12' })
		await expectRefused(give)
		expect((await give(own())).status()).toBe(400)
	},
	'routes/apply/verify': async () => {
		// This server opens links without codes (playwright.config.ts): an allowed POST goes on to the case;
		// the codes themselves are verification-codes.spec.ts's, on a server of its own.
		const draft = await submitCaseAsStaff(as.case_officer, { submit: false })
		const link = `/apply/r/${draft.token}`
		await expectRefused(formPost(as.visitor, `${link}/verify`, { intent: 'send-code' }))
		expect((await formPost(as.visitor, `${link}/verify`, { intent: 'send-code' })(own())).headers()['location']).toBe(link)
	},
	'routes/account/login-code': async () => {
		// Without a password given first there is no code to ask for: the allowed POST goes back to the sign-in.
		await expectRefused(formPost(as.visitor, '/account/login/code', { intent: 'check-code', code: '123456' }))
		expect((await formPost(as.visitor, '/account/login/code', { intent: 'check-code', code: '123456' })(own())).headers()['location']).toBe('/account/login')
	},
	'routes/apply/check': async () => {
		const draft = await submitCaseAsStaff(as.case_officer, { submit: false })
		const sent = async () => (await as.visitor.get(`/apply/r/${draft.token}/done`, { maxRedirects: 0 })).status() === 200
		expect(await sent()).toBe(false)
		await expectRefused(formPost(as.visitor, `/apply/r/${draft.token}/check`, { acknowledge: 'on' }))
		expect(await sent(), 'the application was not sent').toBe(false)
		expect((await formPost(as.visitor, `/apply/r/${draft.token}/check`, { acknowledge: 'on' })(own())).headers()['location']).toBe(`/apply/r/${draft.token}/done`)
		expect(await sent()).toBe(true)
	},
	'routes/apply/status': async () => {
		const lookup = formPost(as.visitor, '/apply/status', { who: 'person', nationalId: f.case.nationalId, mobile: f.case.mobile })
		await expectRefused(lookup)
		const found = await lookup(own())
		expect(found.status()).toBe(200)
		expect(await found.text()).toContain(f.case.reference)
	},
}

test('every route with an action has a forged-POST check', () => {
	const withAction = manifest.filter((route) => route.hasAction).map((route) => route.id)
	const covered = [...Object.entries(routeTable).flatMap(([id, entry]) => (entry.post ? [id] : [])), ...Object.keys(publicSamples)]
	expect(withAction.filter((id) => !covered.includes(id)), 'routes with an action and no check').toEqual([])
	expect(Object.keys(publicSamples).filter((id) => !withAction.includes(id)), 'checks of routes that no longer take a POST').toEqual([])
})

for (const [id, check] of Object.entries(publicSamples)) {
	test(`${id}: a cross-site POST is refused and changes nothing`, check)
}

for (const [id, entry] of Object.entries(routeTable)) {
	if (!entry.post) continue
	test(`${id}: a cross-site POST is refused and changes nothing, even for a role that may post it`, async () => {
		const role = entry.roles[0]!
		const sample = entry.post!(f, role)
		const before = await sample.state?.(as.admin)
		await expectRefused((headers) => send(as[role], sample, headers))
		if (sample.state) expect(await sample.state(as.admin), 'nothing changed').toEqual(before)
		const response = await send(as[role], sample, own())
		expectStatus(response, sample.status, `the same POST from our origin, as ${role}`)
		if (sample.state) expect(await sample.state(as.admin), 'and from our origin it changes').not.toEqual(before)
	})
}
