import { createElement, type ComponentType } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub, RouterContextProvider } from 'react-router'
import { eq, sql } from 'drizzle-orm'
import { beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { hashPassword } from '#app/utils/password.server.ts'
import { createSession, sessionCookieName } from '#app/auth/session.server.ts'
import { findCaseByToken } from '#app/cases/case-store.server.ts'
import { setIntake } from '#app/cases/intake-state.server.ts'
import { newReference } from '#app/cases/tokens.server.ts'
import { caseEvents, cases, institutionSessions } from '#app/db/schema.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import type { ApplicationDef } from '#app/forms/definition.ts'
import type * as Registry from '#app/forms/registry.ts'
import { randomNationalId } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { accountCookieName, createAccountSession, createInstitutionAccount, getInstitution, startAccountCase } from '#app/accounts/institution-accounts.server.ts'
import Account, { action as accountAction, loader as accountLoader, SUPPORT_TYPE } from './index.tsx'
import { loader as caseLoader } from './case.ts'
import AccountLogin, { action as loginAction, loader as loginLoader } from './login.tsx'
import { action as logoutAction, loader as logoutLoader } from './logout.ts'
import { action as codeAction, loader as codeLoader } from './login-code.tsx'
import { smsDriver } from '#app/notify/sms.server.ts'
import { setSmsDriver } from '#app/notify/notifier.server.ts'

// The registry answers for association support with a stand-in definition, or with none: the real
// one is not needed to test the account area, and the area must cope with it missing.
const registry = vi.hoisted(() => ({ support: true }))

vi.mock('#app/forms/registry.ts', async (importOriginal) => {
	const original = await importOriginal<typeof Registry>()
	const { needyFamilies } = await import('#app/forms/definitions/needy-families.ts')
	const support: ApplicationDef = { ...needyFamilies, type: 'association-support', title: 'طلب دعم جمعية (تجريبي)' }
	const registration: ApplicationDef = { ...needyFamilies, type: 'institution-registration', title: 'تسجيل مؤسسة (تجريبي)' }
	return {
		...original,
		findDefinition: (type: string) => {
			if (type === support.type) return registry.support ? support : undefined
			if (type === registration.type) return registration
			return original.findDefinition(type)
		},
	}
})

const app = withAppDatabase()
const db = () => app.handle.db

const PASSWORD = 'Jameya-Pass-7'
let passwordHash: string
let staff: PublicUser
let staffCookie: string

interface Institution {
	id: number
	userName: string
	email: string
	registration: { id: string; reference: string }
	cookie: string
}

let n = 0
async function addInstitution(name: string): Promise<Institution> {
	n++
	const [registration] = await db()
		.insert(cases)
		.values({
			type: 'institution-registration',
			reference: newReference(),
			applicantName: name,
			nationalId: randomNationalId(),
			mobile: '+966551234567',
			resumeTokenHash: `registration-${n}-${Math.random()}`,
			submittedAt: new Date('2025-03-01T09:00:00Z'),
			status: 2,
		})
		.returning()
	const userName = `Jameya${n}x${Math.floor(Math.random() * 1e6)}`
	const email = `${userName.toLowerCase()}@example.org`
	const { id } = await createInstitutionAccount(db(), { registrationCaseId: registration!.id, name, userName, email, mobile: '0551234567', passwordHash })
	const { token } = await createAccountSession(db(), id)
	return { id, userName, email, registration: registration!, cookie: `${accountCookieName()}=${token}` }
}

const args = <T>(request: Request, params: Record<string, string> = {}) => ({ request, params, context: new RouterContextProvider() }) as unknown as T
const get = (path: string, cookie = '') => new Request(`http://localhost${path}`, { headers: cookie ? { Cookie: cookie } : {} })
const post = (path: string, form: Record<string, string>, cookie = '', ip = '198.51.100.1') =>
	new Request(`http://localhost${path}`, { method: 'POST', body: new URLSearchParams(form), headers: { 'x-ataa-client-ip': ip, ...(cookie ? { Cookie: cookie } : {}) } })

/** What a loader or action threw (a redirect, a 404), or what it returned. */
async function settle(run: () => unknown): Promise<unknown> {
	try {
		return await run()
	} catch (error) {
		return error
	}
}

type Reply = {
	type: 'DataWithResponseInit'
	data: { result: { status?: string; error?: Record<string, string[]> }; limited?: boolean; error?: string }
	init: { status: number; headers?: Record<string, string> }
}

function renderPage(id: string, path: string, Component: unknown, loaderData: unknown, actionData?: unknown) {
	const Stub = createRoutesStub([{ id, path, Component: Component as ComponentType }])
	return renderToString(createElement(Stub, { initialEntries: [path], hydrationData: { loaderData: { [id]: loaderData }, actionData: actionData ? { [id]: actionData } : undefined } })).replaceAll(
		'<!-- -->',
		'',
	)
}

beforeAll(async () => {
	passwordHash = await hashPassword(PASSWORD)
	staff = await createUser(db(), { name: 'مدير النظام', email: 'admin@example.org', mobile: '', roles: ['admin'], password: PASSWORD })
	staffCookie = `${sessionCookieName()}=${(await createSession(db(), staff.id)).token}`
})
beforeEach(async () => {
	registry.support = true
	await db().execute(sql`delete from rate_limits`)
	await db().execute(sql`delete from intake_settings`)
})

describe('/account/login', () => {
	test('the page names itself, asks for a user name or e-mail, and links to registration; it ships no script', async () => {
		const module = await import('./login.tsx')
		expect('handle' in module).toBe(false)
		expect(await loginLoader(args(get('/account/login')))).toBeNull()
		const html = renderPage('login', '/account/login', AccountLogin, null)
		expect(html).toContain('دخول المؤسسات')
		expect(html).toContain('اسم المستخدم أو البريد الإلكتروني')
		expect(html).toMatch(/<form [^>]*action="\/account\/login" method="post">/)
		expect(html).toContain('href="/apply/institution-registration"')
		expect(html).toContain('لم تسجل مؤسستك بعد؟ سجّل الآن')
		expect(html).toContain('name="website"')
	})

	test('signing in by user name sets the account cookie and opens /account; a safe redirectTo is followed', async () => {
		const institution = await addInstitution('جمعية الدخول')
		const response = (await loginAction(args(post('/account/login', { name: institution.userName, password: PASSWORD })))) as Response
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe('/account')
		const cookie = response.headers.get('Set-Cookie')!
		expect(cookie).toMatch(/^ataa_account=[\w-]{43}; Path=\/; SameSite=Lax; HttpOnly; Max-Age=\d+$/)
		expect(await getInstitution(get('/account', cookie.split(';')[0]))).toMatchObject({ id: institution.id })

		const back = (await loginAction(args(post('/account/login', { name: institution.email.toUpperCase(), password: PASSWORD, redirectTo: '/account/cases/ABCD-EFGH' })))) as Response
		expect(back.headers.get('Location')).toBe('/account/cases/ABCD-EFGH')
		for (const redirectTo of ['https://evil.example/', '//evil.example', '/admin']) {
			const response = (await loginAction(args(post('/account/login', { name: institution.userName, password: PASSWORD, redirectTo })))) as Response
			expect(response.headers.get('Location')).toBe('/account')
		}
	})

	test('an institution that asks for a code at sign-in: the password alone opens nothing; the code sent to its mobile does', async () => {
		const institution = await addInstitution('جمعية الرمز')
		const inbox: string[] = []
		setSmsDriver(smsDriver('msegat', async (_to, text) => (inbox.push(text), { ok: true, provider: 'fake' })))
		try {
			// Turned on from its own page (audited).
			const turned = (await accountAction(args(post('/account', { intent: 'sign-in-code', on: 'on' }, institution.cookie)))) as Response
			expect(turned.status).toBe(302)
			const password = (await loginAction(args(post('/account/login', { name: institution.userName, password: PASSWORD })))) as Response
			expect(password.headers.get('Location')).toMatch(/^\/account\/login\/code\?redirectTo=%2Faccount$/)
			const cookies = password.headers.get('Set-Cookie')!
			expect(cookies).not.toContain(`${accountCookieName()}=`)
			const pending = cookies.split(';')[0]!
			const code = /رمز التحقق: (\d{6})/.exec(inbox.at(-1)!)![1]!
			// Without the pending cookie the code page is not there; a wrong code opens nothing.
			expect(((await settle(() => codeLoader(args(get('/account/login/code'))))) as Response).headers.get('Location')).toBe('/account/login')
			const wrong = (await codeAction(args(post('/account/login/code', { intent: 'check-code', code: code === '000000' ? '111111' : '000000' }, pending)))) as { init: { status: number } }
			expect(wrong.init.status).toBe(400)
			const opened = (await codeAction(args(post('/account/login/code?redirectTo=%2Faccount', { intent: 'check-code', code }, pending)))) as Response
			expect(opened.headers.get('Location')).toBe('/account')
			const session = opened.headers.get('Set-Cookie')!.split(/,(?=\s*\w+=)/).find((cookie) => cookie.trim().startsWith(accountCookieName()))!.trim().split(';')[0]!
			expect(await getInstitution(get('/account', session))).toMatchObject({ id: institution.id })
			// The same code again: nothing.
			const replay = (await codeAction(args(post('/account/login/code', { intent: 'check-code', code }, pending)))) as { init: { status: number } }
			expect(replay.init.status).toBe(400)
		} finally {
			setSmsDriver(undefined)
		}
	})

	test('signing in again ends the session this browser had', async () => {
		const institution = await addInstitution('جمعية الجلسة السابقة')
		const response = (await loginAction(args(post('/account/login', { name: institution.userName, password: PASSWORD }, institution.cookie)))) as Response
		expect(response.status).toBe(302)
		expect(await getInstitution(get('/account', institution.cookie))).toBeNull()
	})

	test('already signed in, the page sends the institution on', async () => {
		const institution = await addInstitution('جمعية مسجلة الدخول')
		const thrown = (await settle(() => loginLoader(args(get('/account/login?redirectTo=%2Faccount%2Fcases%2FABCD-EFGH', institution.cookie))))) as Response
		expect(thrown.headers.get('Location')).toBe('/account/cases/ABCD-EFGH')
		// A staff session is not an institution's.
		expect(await loginLoader(args(get('/account/login', staffCookie)))).toBeNull()
	})

	test('wrong details, a filled honeypot and empty fields are refused in Arabic, never saying which part was wrong', async () => {
		const institution = await addInstitution('جمعية الأخطاء')
		const wrong = (await loginAction(args(post('/account/login', { name: institution.userName, password: 'wrong-password' })))) as unknown as Reply
		expect(wrong.init.status).toBe(400)
		expect(wrong.data.result.error?.['']).toEqual(['الرجاء التحقق من بيانات الدخول'])
		const unknown = (await loginAction(args(post('/account/login', { name: 'nobody', password: PASSWORD })))) as unknown as Reply
		expect(unknown.data.result.error?.['']).toEqual(['الرجاء التحقق من بيانات الدخول'])
		const bot = (await loginAction(args(post('/account/login', { name: institution.userName, password: PASSWORD, website: 'spam' })))) as unknown as Reply
		expect(bot.init.status).toBe(400)
		expect(bot.data.result.error?.['']).toEqual(['الرجاء التحقق من بيانات الدخول'])
		const empty = (await loginAction(args(post('/account/login', { name: '', password: '' })))) as unknown as Reply
		expect(empty.init.status).toBe(400)
		expect(empty.data.result.error).toMatchObject({ name: ['الرجاء كتابة اسم المستخدم أو البريد الإلكتروني'], password: ['الرجاء كتابة كلمة المرور'] })

		const html = renderPage('login', '/account/login', AccountLogin, null, wrong.data)
		expect(html).toContain('<title>خطأ: دخول المؤسسات | مؤسسة عطاء الخيرية</title>')
		expect(html).toContain('الرجاء التحقق من بيانات الدخول')
		// The password typed is never sent back.
		expect(html).not.toContain('wrong-password')
	})

	test("after 5 failures the sign-in is refused with 429 and the staff page's words, even with the right password", async () => {
		const institution = await addInstitution('جمعية المحاولات')
		for (let i = 0; i < 5; i++) await loginAction(args(post('/account/login', { name: institution.userName, password: `bad-${i}` }, '', `198.51.100.${10 + i}`)))
		const limited = (await loginAction(args(post('/account/login', { name: institution.userName, password: PASSWORD }, '', '198.51.100.99')))) as unknown as Reply
		expect(limited.init.status).toBe(429)
		expect(Number(limited.init.headers?.['Retry-After'])).toBeGreaterThan(800)
		expect(limited.data.result.error?.['']).toEqual(['محاولات دخول كثيرة. حاول مرة أخرى بعد 15 دقيقةً.'])
		const html = renderPage('login', '/account/login', AccountLogin, null, limited.data)
		expect(html).toContain('محاولات كثيرة')
	})
})

describe('/account', () => {
	test("signed out, or signed in as staff only, it sends to the institutions' sign-in", async () => {
		for (const cookie of ['', staffCookie]) {
			const thrown = (await settle(() => accountLoader(args(get('/account', cookie))))) as Response
			expect(thrown.status).toBe(302)
			expect(thrown.headers.get('Location')).toBe('/account/login?redirectTo=%2Faccount')
			const posted = (await settle(() => accountAction(args(post('/account', { intent: 'start' }, cookie))))) as Response
			expect(posted.headers.get('Location')).toBe('/account/login?redirectTo=%2Faccount')
		}
	})

	test('shows the institution, its registration and only its own requests', async () => {
		const a = await addInstitution('جمعية النور')
		const b = await addInstitution('جمعية الضياء')
		const support = { ...(await import('#app/forms/definitions/needy-families.ts')).needyFamilies, type: SUPPORT_TYPE }
		const draft = await startAccountCase(db(), a.id, support)
		const sent = await startAccountCase(db(), a.id, support)
		await db()
			.update(cases)
			.set({ submittedAt: new Date('2025-04-02T09:00:00Z'), status: 3 })
			.where(eq(cases.id, sent.row.id))
		const other = await startAccountCase(db(), b.id, support)

		const data = await accountLoader(args(get('/account', a.cookie)))
		expect(data.name).toBe('جمعية النور')
		expect(data.registration).toMatchObject({
			reference: a.registration.reference,
			title: 'تسجيل مؤسسة (تجريبي)',
			draft: false,
			status: { name: 'تمت الدراسة' },
			to: `/account/cases/${a.registration.reference}`,
		})
		expect(data.requests.map((item) => item.reference).sort()).toEqual([draft.row.reference, sent.row.reference].sort())
		expect(data.start).toEqual({ open: true, notice: null })

		const html = renderPage('account', '/account', Account, data)
		expect(html).toContain('جمعية النور')
		expect(html).toContain(a.registration.reference)
		expect(html).toContain('تمت الدراسة')
		expect(html).toContain('طلب دعم جمعية (تجريبي)')
		expect(html).toContain('متابعة التعبئة')
		expect(html).toContain('لم يُرسل بعد')
		expect(html).toContain('تم تقديم الدعم')
		expect(html).toContain(`href="/account/cases/${draft.row.reference}"`)
		expect(html).toContain('طلب دعم جمعية جديد')
		expect(html).toContain('action="/account/logout"')
		expect(html).toContain('تسجيل الخروج')
		expect(html).not.toContain(other.row.reference)
		expect(html).not.toContain(b.registration.reference)
	})

	test("a case that needs completing shows staff's message to the institution, the registration as every request", async () => {
		const a = await addInstitution('جمعية الوفاء')
		const support = { ...(await import('#app/forms/definitions/needy-families.ts')).needyFamilies, type: SUPPORT_TYPE }
		const request = await startAccountCase(db(), a.id, support)
		// Staff asked for completion on 4 April, then wrote to the institution (a message counts only after the status it goes with).
		await db().update(cases).set({ status: 4, submittedAt: new Date('2025-04-02T09:00:00Z'), statusChangedAt: new Date('2025-04-04T09:00:00Z') }).where(eq(cases.id, a.registration.id))
		await db().update(cases).set({ status: 4, submittedAt: new Date('2025-04-03T09:00:00Z') }).where(eq(cases.id, request.row.id))
		await db()
			.insert(caseEvents)
			.values([
				{ caseId: a.registration.id, kind: 'applicant_message', note: 'الرجاء إرفاق تصريح المؤسسة ساري المفعول', actorId: staff.id, at: new Date('2025-04-05T09:00:00Z') },
				{ caseId: a.registration.id, kind: 'internal_note', note: 'ملاحظة داخلية لا تظهر', actorId: staff.id, at: new Date('2025-04-06T09:00:00Z') },
				{ caseId: request.row.id, kind: 'applicant_message', note: 'الرجاء تحديث ميزانية المشروع', actorId: staff.id },
			])
		const data = await accountLoader(args(get('/account', a.cookie)))
		expect(data.registration).toMatchObject({ status: { name: 'غير مكتمل' }, message: 'الرجاء إرفاق تصريح المؤسسة ساري المفعول' })
		const html = renderPage('account', '/account', Account, data)
		expect(html).toContain('رسالة من المؤسسة')
		expect(html).toContain('الرجاء إرفاق تصريح المؤسسة ساري المفعول')
		expect(html).toContain('الرجاء تحديث ميزانية المشروع')
		expect(html).not.toContain('ملاحظة داخلية لا تظهر')
	})

	test('«طلب دعم جمعية جديد» opens the form\'s first step and stores nothing: clicking it twice makes no empty drafts (issue 24 part 5.10)', async () => {
		const a = await addInstitution('جمعية البداية')
		const html = renderPage('account', '/account', Account, await accountLoader(args(get('/account', a.cookie))))
		expect(html).toMatch(new RegExp(`<a[^>]*href="/apply/${SUPPORT_TYPE}/new"[^>]*>طلب دعم جمعية جديد</a>`))
		for (let click = 0; click < 2; click++) {
			const thrown = (await settle(() => accountAction(args(post('/account', { intent: 'start' }, a.cookie))))) as { init: { status: number } }
			expect(thrown.init.status).toBe(400)
		}
		expect(await db().$count(cases, eq(cases.accountId, a.id))).toBe(0)
	})

	test('while a support request is open, the account offers no new one and says which is open', async () => {
		const a = await addInstitution('جمعية الانتظار')
		const support = { ...(await import('#app/forms/definitions/needy-families.ts')).needyFamilies, type: SUPPORT_TYPE }
		const open = await startAccountCase(db(), a.id, support)
		await db().update(cases).set({ submittedAt: new Date('2025-04-02T09:00:00Z'), status: 2 }).where(eq(cases.id, open.row.id))
		const data = await accountLoader(args(get('/account', a.cookie)))
		expect(data.openRequest).toBe(open.row.reference)
		const html = renderPage('account', '/account', Account, data)
		expect(html).not.toContain('طلب دعم جمعية جديد')
		expect(html).toContain('لمؤسستك طلب دعم مفتوح')
		expect(html).toContain('لم يُبتّ فيه بعد')
		// Once it is decided (here: support given), a new one is offered again.
		await db().update(cases).set({ status: 3 }).where(eq(cases.id, open.row.id))
		const after = await accountLoader(args(get('/account', a.cookie)))
		expect(after.openRequest).toBeNull()
		expect(renderPage('account', '/account', Account, after)).toContain('طلب دعم جمعية جديد')
	})

	test('an unsent draft is deleted once confirmed; a sent request, another account\'s draft and an unconfirmed delete are refused (issue 24 part 5.10)', async () => {
		const a = await addInstitution('جمعية الحذف')
		const b = await addInstitution('جمعية أخرى')
		const support = { ...(await import('#app/forms/definitions/needy-families.ts')).needyFamilies, type: SUPPORT_TYPE }
		const draft = await startAccountCase(db(), a.id, support)
		const sent = await startAccountCase(db(), a.id, support)
		await db().update(cases).set({ submittedAt: new Date('2025-04-02T09:00:00Z') }).where(eq(cases.id, sent.row.id))
		const others = await startAccountCase(db(), b.id, support)

		const page = renderPage('account', '/account', Account, await accountLoader(args(get('/account', a.cookie))))
		expect(page).toContain(`أؤكد حذف الطلب ${draft.row.reference}`)
		expect(page).not.toContain(`أؤكد حذف الطلب ${sent.row.reference}`)

		const unconfirmed = (await accountAction(args(post('/account', { intent: 'delete-draft', reference: draft.row.reference }, a.cookie)))) as unknown as { data: { error: string }; init: { status: number } }
		expect(unconfirmed.init.status).toBe(400)
		expect(unconfirmed.data.error).toBe('لم يُحذف الطلب: الرجاء تأكيد الحذف بوضع علامة في المربع.')
		for (const reference of [sent.row.reference, others.row.reference]) {
			const refused = (await accountAction(args(post('/account', { intent: 'delete-draft', reference, confirm: 'on' }, a.cookie)))) as unknown as { init: { status: number } }
			expect(refused.init.status, reference).toBe(409)
		}
		expect((await findCaseByToken(db(), draft.token))?.deletedAt).toBeNull()

		const deleted = (await accountAction(args(post('/account', { intent: 'delete-draft', reference: draft.row.reference, confirm: 'on' }, a.cookie)))) as Response
		expect(deleted.status).toBe(302)
		expect(deleted.headers.get('Location')).toBe('/account')
		expect((await findCaseByToken(db(), draft.token))?.deletedAt).not.toBeNull()
		const after = await accountLoader(args(get('/account', a.cookie)))
		expect(after.requests.map((item) => item.reference)).toEqual([sent.row.reference])
		expect((await findCaseByToken(db(), others.token))?.deletedAt).toBeNull()
	})

	test('without the association-support programme the button is not shown', async () => {
		const a = await addInstitution('جمعية بلا برنامج')
		registry.support = false
		const data = await accountLoader(args(get('/account', a.cookie)))
		expect(data.start).toBeNull()
		expect(renderPage('account', '/account', Account, data)).not.toContain('طلب دعم جمعية جديد')
	})

	test('with intake closed the button is not shown and the notice is (the form itself refuses to start: app/routes/apply/new.tsx)', async () => {
		const a = await addInstitution('جمعية الإغلاق')
		await setIntake(db(), SUPPORT_TYPE, { state: 'closed', pausedNotice: 'متوقف', closedNotice: 'التقديم مغلق الآن.' }, staff.id)
		const data = await accountLoader(args(get('/account', a.cookie)))
		expect(data.start).toEqual({ open: false, notice: 'التقديم مغلق الآن.' })
		const html = renderPage('account', '/account', Account, data)
		expect(html).not.toContain('طلب دعم جمعية جديد')
		expect(html).toContain('التقديم مغلق الآن.')
		expect(await db().$count(cases, eq(cases.accountId, a.id))).toBe(0)
	})

	test('any other intent is a 400', async () => {
		const a = await addInstitution('جمعية النية')
		const thrown = (await settle(() => accountAction(args(post('/account', { intent: 'delete' }, a.cookie))))) as { init: { status: number } }
		expect(thrown.init.status).toBe(400)
	})
})

describe('/account/cases/:reference', () => {
	test("its own case opens through a new private link; another institution's is a 404 like a missing one", async () => {
		const a = await addInstitution('جمعية أ')
		const b = await addInstitution('جمعية ب')
		const support = { ...(await import('#app/forms/definitions/needy-families.ts')).needyFamilies, type: SUPPORT_TYPE }
		const own = await startAccountCase(db(), a.id, support)
		const others = await startAccountCase(db(), b.id, support)

		const opened = (await caseLoader(args(get(`/account/cases/${own.row.reference}`, a.cookie), { reference: own.row.reference }))) as Response
		expect(opened.status).toBe(302)
		const token = /^\/apply\/r\/([\w-]{43})$/.exec(opened.headers.get('Location') ?? '')?.[1]
		expect((await findCaseByToken(db(), token!))?.id).toBe(own.row.id)
		const registration = (await caseLoader(args(get('/', a.cookie), { reference: a.registration.reference }))) as Response
		expect(registration.headers.get('Location')).toMatch(/^\/apply\/r\/[\w-]{43}$/)

		for (const reference of [others.row.reference, b.registration.reference, 'ABCD-EFGH']) {
			const thrown = (await settle(() => caseLoader(args(get(`/account/cases/${reference}`, a.cookie), { reference })))) as Response
			expect(thrown.status).toBe(404)
			expect(await thrown.text()).toBe('الصفحة غير موجودة')
		}
		// b's link still works: nothing was rotated.
		expect((await findCaseByToken(db(), others.token))?.id).toBe(others.row.id)

		const signedOut = (await settle(() => caseLoader(args(get(`/account/cases/${own.row.reference}`), { reference: own.row.reference })))) as Response
		expect(signedOut.headers.get('Location')).toBe(`/account/login?${new URLSearchParams({ redirectTo: `/account/cases/${own.row.reference}` })}`)
		const asStaff = (await settle(() => caseLoader(args(get(`/account/cases/${own.row.reference}`, staffCookie), { reference: own.row.reference })))) as Response
		expect(asStaff.status).toBe(302)
		expect(asStaff.headers.get('Location')).toMatch(/^\/account\/login\?/)
	})
})

describe('forged requests', () => {
	test('a POST to the account area from another site is refused before any action runs', async () => {
		const { middleware } = await import('#app/root.tsx')
		for (const path of ['/account/login', '/account', '/account/logout']) {
			const forged = new Request(`http://localhost${path}`, { method: 'POST', body: new URLSearchParams({ intent: 'start' }), headers: { Origin: 'https://evil.example' } })
			const thrown = (await settle(() => middleware[0]!({ request: forged, params: {}, context: new RouterContextProvider() } as never, async () => new Response('ran')))) as Response
			expect(thrown.status).toBe(403)
			const own = new Request(`http://localhost${path}`, { method: 'POST', headers: { Origin: 'http://localhost' } })
			expect(await middleware[0]!({ request: own, params: {}, context: new RouterContextProvider() } as never, async () => new Response('ran'))).toBeUndefined()
		}
	})
})

describe('/account/logout', () => {
	test('a POST ends the session and clears the cookie; a GET only goes back', async () => {
		const a = await addInstitution('جمعية الخروج')
		const response = await logoutAction({ request: post('/account/logout', {}, a.cookie) })
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe('/account/login')
		expect(response.headers.get('Set-Cookie')).toMatch(/^ataa_account=; .*Max-Age=0$/)
		expect(await getInstitution(get('/account', a.cookie))).toBeNull()
		expect(await db().$count(institutionSessions, eq(institutionSessions.accountId, a.id))).toBe(0)
		expect(logoutLoader().headers.get('Location')).toBe('/account')
	})
})
