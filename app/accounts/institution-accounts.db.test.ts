import { randomBytes } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { RouterContextProvider } from 'react-router'
import { beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { hashPassword } from '#app/utils/password.server.ts'
import { createSession, requireUser, sessionCookieName } from '#app/auth/session.server.ts'
import { attemptSignIn, signInLimits } from '#app/auth/sign-in.server.ts'
import { hit } from '#app/http/rate-limit.server.ts'
import { findCaseByToken, startCase } from '#app/cases/case-store.server.ts'
import { newReference } from '#app/cases/tokens.server.ts'
import { cases, institutionAccounts, institutionSessions } from '#app/db/schema.ts'
import { createUser } from '#app/domain/staff-users.server.ts'
import { needyFamilies } from '#app/forms/definitions/needy-families.ts'
import { middleware as adminMiddleware } from '#app/routes/admin/layout.tsx'
import { basicAnswers, randomNationalId } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import {
	accountCases,
	accountCookieName,
	accountRedirect,
	accountSessionCookie,
	accountSignInLimits,
	AccountTakenError,
	attemptAccountSignIn,
	clearedAccountSessionCookie,
	createAccountSession,
	createInstitutionAccount,
	deleteAccountSession,
	getInstitution,
	isAccountNameTaken,
	openAccountCase,
	purgeExpiredAccountSessions,
	requireInstitution,
	setInstitutionAccountActive,
	startAccountCase,
} from './institution-accounts.server.ts'

const app = withAppDatabase()
const db = () => app.handle.db

const PASSWORD = 'Jameya-Pass-7'
let passwordHash: string

/** A case row as the registration (or any) application would leave it. */
async function addCase(type: string, values: Partial<typeof cases.$inferInsert> = {}) {
	const [row] = await db()
		.insert(cases)
		.values({
			type,
			reference: newReference(),
			applicantName: 'جمعية',
			nationalId: randomNationalId(),
			mobile: '+966551234567',
			resumeTokenHash: randomBytes(32).toString('hex'),
			submittedAt: new Date(),
			...values,
		})
		.returning()
	return row!
}

let counter = 0
/** An institution with its submitted registration case. */
async function addInstitution(name = 'جمعية البر') {
	counter++
	const registration = await addCase('institution-registration')
	const userName = `Jameya${counter}${randomBytes(2).toString('hex')}`
	const email = `${userName}@Example.org`
	const { id } = await createInstitutionAccount(db(), { registrationCaseId: registration.id, name, userName, email, mobile: '0551234567', passwordHash })
	return { id, userName, email, registration }
}

const ip = () => `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`
const requestWith = (cookie: string, url = 'http://localhost/account') => new Request(url, { headers: { Cookie: cookie } })

beforeAll(async () => {
	passwordHash = await hashPassword(PASSWORD)
})
beforeEach(async () => {
	await db().execute(sql`delete from rate_limits`)
})

describe('creating an account', () => {
	test('stores the name, the e-mail in lower case and the mobile as +9665…, tied to its registration', async () => {
		const registration = await addCase('institution-registration')
		const { id } = await createInstitutionAccount(db(), {
			registrationCaseId: registration.id,
			name: ' جمعية الخير ',
			userName: ' AlKhair ',
			email: ' Info@AlKhair.org ',
			mobile: '٠٥٥ ١٢٣ ٤٥٦٧',
			passwordHash,
		})
		const [row] = await db().select().from(institutionAccounts).where(eq(institutionAccounts.id, id))
		expect(row).toMatchObject({ name: 'جمعية الخير', userName: 'AlKhair', email: 'info@alkhair.org', mobile: '+966551234567', registrationCaseId: registration.id, active: true, lastSignInAt: null })
	})

	test('a user name or an e-mail already used, in any letter case, is refused and said which', async () => {
		const first = await addInstitution()
		const taken = (userName: string, email: string) =>
			createInstitutionAccount(db(), { registrationCaseId: null, name: 'أخرى', userName, email, mobile: '0559876543', passwordHash }).then(
				() => null,
				(error: unknown) => error,
			)
		const byName = await taken(first.userName.toUpperCase(), 'new-1@example.org')
		expect(byName).toBeInstanceOf(AccountTakenError)
		expect((byName as AccountTakenError).taken).toEqual({ userName: true, email: false })
		const byEmail = await taken('someone-new', first.email.toUpperCase())
		expect((byEmail as AccountTakenError).taken).toEqual({ userName: false, email: true })
		// One account's e-mail cannot become another's user name (a typed name leads to one account): a user name holds no «@».
		const crossed = await taken(first.email.toLowerCase(), 'new-2@example.org')
		expect(crossed).toBeInstanceOf(RangeError)
		expect(await db().$count(institutionAccounts, sql`lower(${institutionAccounts.userName}) = lower(${first.userName})`)).toBe(1)
	})

	test('a user name outside 3 to 40 English letters, digits, «.», «-» or «_» opens no account', async () => {
		const attempt = (userName: string) =>
			createInstitutionAccount(db(), { registrationCaseId: null, name: 'قصيرة', userName, email: `${randomBytes(3).toString('hex')}@example.org`, mobile: '0559876543', passwordHash }).then(
				() => null,
				(error: unknown) => error,
			)
		for (const userName of ['ab', ' ab ', 'x'.repeat(41), 'جمعية', 'a b']) expect(await attempt(userName), userName).toBeInstanceOf(RangeError)
		expect(await db().$count(institutionAccounts, eq(institutionAccounts.name, 'قصيرة'))).toBe(0)
		expect(await attempt('abc')).toBeNull()
	})

	test('the registration form can ask first', async () => {
		const first = await addInstitution()
		expect(await isAccountNameTaken(db(), { userName: first.userName.toLowerCase(), email: 'free@example.org' })).toEqual({ userName: true, email: false })
		expect(await isAccountNameTaken(db(), { userName: 'free-name', email: ` ${first.email.toUpperCase()} ` })).toEqual({ userName: false, email: true })
		expect(await isAccountNameTaken(db(), { userName: 'free-name', email: 'free@example.org' })).toEqual({ userName: false, email: false })
	})

	test('two registrations at once with the same user name: one account, one AccountTakenError', async () => {
		const userName = `Race${randomBytes(3).toString('hex')}`
		const results = await Promise.allSettled(
			[1, 2].map((n) =>
				createInstitutionAccount(db(), {
					registrationCaseId: null,
					name: 'سباق',
					userName: n === 1 ? userName : userName.toUpperCase(),
					email: `race-${n}-${userName}@example.org`,
					mobile: '0551234567',
					passwordHash,
				}),
			),
		)
		expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
		const rejected = results.find((result) => result.status === 'rejected')
		expect(rejected?.reason).toBeInstanceOf(AccountTakenError)
	})
})

describe('signing in', () => {
	test('by user name or by e-mail, any letter case, and the time is recorded', async () => {
		const institution = await addInstitution()
		const byName = await attemptAccountSignIn(db(), { name: ` ${institution.userName.toUpperCase()} `, password: PASSWORD, ip: ip() })
		expect(byName).toMatchObject({ ok: true, account: { id: institution.id } })
		const byEmail = await attemptAccountSignIn(db(), { name: institution.email.toUpperCase(), password: PASSWORD, ip: ip() })
		expect(byEmail).toMatchObject({ ok: true, account: { id: institution.id } })
		if (byEmail.ok) {
			expect(byEmail.account.lastSignInAt).toBeInstanceOf(Date)
			expect(byEmail.account).not.toHaveProperty('passwordHash')
		}
	})

	test('a wrong password, an unknown name and an inactive account fail the same way', async () => {
		const institution = await addInstitution()
		expect(await attemptAccountSignIn(db(), { name: institution.userName, password: 'wrong', ip: ip() })).toEqual({ ok: false, reason: 'invalid' })
		expect(await attemptAccountSignIn(db(), { name: 'nobody-at-all', password: PASSWORD, ip: ip() })).toEqual({ ok: false, reason: 'invalid' })
		expect(await attemptAccountSignIn(db(), { name: '', password: PASSWORD, ip: ip() })).toEqual({ ok: false, reason: 'invalid' })
		await setInstitutionAccountActive(db(), institution.id, false)
		expect(await attemptAccountSignIn(db(), { name: institution.userName, password: PASSWORD, ip: ip() })).toEqual({ ok: false, reason: 'invalid' })
	})

	test('staff credentials do not sign in here, and an institution cannot sign in as staff', async () => {
		const institution = await addInstitution()
		await createUser(db(), { name: 'موظف', email: 'staff-x@example.org', mobile: '', roles: ['admin'], password: PASSWORD })
		expect(await attemptAccountSignIn(db(), { name: 'staff-x@example.org', password: PASSWORD, ip: ip() })).toEqual({ ok: false, reason: 'invalid' })
		expect(await attemptSignIn(db(), { email: institution.email, password: PASSWORD, ip: ip() })).toEqual({ ok: false, reason: 'invalid' })
	})

	test('after 5 failures for a name, even the right password is refused for a while; a success before that clears the count', async () => {
		const institution = await addInstitution()
		expect(accountSignInLimits.name.limit).toBe(signInLimits.email.limit)
		for (let i = 0; i < accountSignInLimits.name.limit - 1; i++) {
			await attemptAccountSignIn(db(), { name: institution.userName, password: `bad-${i}`, ip: ip() })
		}
		expect((await attemptAccountSignIn(db(), { name: institution.userName, password: PASSWORD, ip: ip() })).ok).toBe(true)
		for (let i = 0; i < accountSignInLimits.name.limit; i++) {
			expect((await attemptAccountSignIn(db(), { name: institution.userName.toUpperCase(), password: `bad-${i}`, ip: ip() })).ok).toBe(false)
		}
		const limited = await attemptAccountSignIn(db(), { name: institution.userName, password: PASSWORD, ip: ip() })
		expect(limited).toMatchObject({ ok: false, reason: 'limited' })
		if (!limited.ok && limited.reason === 'limited') expect(limited.retryAfter).toBeGreaterThan(0)
	})

	test('failures from one IP address are limited per address, together with the staff sign-in', async () => {
		const institution = await addInstitution()
		// The ceiling's first failures counted as a failure counts them (a slow password check each), the last one for real.
		for (let i = 0; i < signInLimits.ip.limit - 1; i++) await hit(db(), signInLimits.ip, '10.20.0.1')
		await attemptSignIn(db(), { email: 'guess@example.org', password: 'x', ip: '10.20.0.1' })
		expect(await attemptAccountSignIn(db(), { name: institution.userName, password: PASSWORD, ip: '10.20.0.1' })).toMatchObject({ ok: false, reason: 'limited' })
		expect((await attemptAccountSignIn(db(), { name: institution.userName, password: PASSWORD, ip: '10.20.0.2' })).ok).toBe(true)
	})
})

describe('sessions', () => {
	test('the cookie is HttpOnly, SameSite=Lax, named apart from staff; the session finds its account until it ends', async () => {
		const institution = await addInstitution('جمعية الجلسات')
		const { token, expiresAt } = await createAccountSession(db(), institution.id)
		const cookie = accountSessionCookie(token, expiresAt)
		expect(accountCookieName()).toBe('ataa_account')
		expect(cookie).toMatch(/^ataa_account=[\w-]{43}; Path=\/; SameSite=Lax; HttpOnly; Max-Age=\d+$/)
		expect(clearedAccountSessionCookie()).toMatch(/^ataa_account=; .*Max-Age=0$/)
		// Only the token's hash is stored.
		expect(await db().$count(institutionSessions, eq(institutionSessions.id, token))).toBe(0)

		const request = requestWith(`${accountCookieName()}=${token}`)
		expect(await getInstitution(request)).toMatchObject({ id: institution.id, name: 'جمعية الجلسات' })
		expect(await requireInstitution(request)).toMatchObject({ id: institution.id })
		await deleteAccountSession(db(), token)
		expect(await getInstitution(request)).toBeNull()
	})

	test('signed out, /account/… redirects to the sign-in page and back', async () => {
		const thrown = await requireInstitution(new Request('http://localhost/account/cases/ABCD-EFGH?x=1')).catch((error: unknown) => error)
		expect(thrown).toBeInstanceOf(Response)
		expect((thrown as Response).status).toBe(302)
		expect((thrown as Response).headers.get('Location')).toBe(`/account/login?${new URLSearchParams({ redirectTo: '/account/cases/ABCD-EFGH?x=1' })}`)
	})

	test('expired sessions and the sessions of a deactivated account do not count', async () => {
		const institution = await addInstitution()
		const { token } = await createAccountSession(db(), institution.id)
		await db()
			.update(institutionSessions)
			.set({ expiresAt: new Date(Date.now() - 1000) })
		expect(await getInstitution(requestWith(`${accountCookieName()}=${token}`))).toBeNull()
		await purgeExpiredAccountSessions(db())
		expect(await db().$count(institutionSessions)).toBe(0)

		const fresh = await createAccountSession(db(), institution.id)
		await setInstitutionAccountActive(db(), institution.id, false)
		expect(await getInstitution(requestWith(`${accountCookieName()}=${fresh.token}`))).toBeNull()
		expect(await db().$count(institutionSessions, eq(institutionSessions.accountId, institution.id))).toBe(0)
	})

	test('an institution session never opens /admin, and a staff session is no institution', async () => {
		const institution = await addInstitution()
		const { token } = await createAccountSession(db(), institution.id)
		const accountOnly = requestWith(`${accountCookieName()}=${token}`, 'http://localhost/admin/cases')
		const refused = await requireUser(accountOnly).catch((error: unknown) => error)
		expect((refused as Response).headers.get('Location')).toBe('/login?redirectTo=%2Fadmin%2Fcases')
		// The /admin layout's middleware, which runs before every back-office loader and action.
		const viaLayout = await Promise.resolve(
			adminMiddleware[0]!({ request: accountOnly, context: new RouterContextProvider(), params: {}, unstable_pattern: '/admin/cases' } as never, async () => new Response('admin')),
		).catch((error: unknown) => error)
		expect((viaLayout as Response).status).toBe(302)
		expect((viaLayout as Response).headers.get('Location')).toBe('/login?redirectTo=%2Fadmin%2Fcases')
		// Even a token copied into the staff cookie's name finds no staff session.
		const renamed = await requireUser(requestWith(`${sessionCookieName()}=${token}`, 'http://localhost/admin')).catch((error: unknown) => error)
		expect((renamed as Response).headers.get('Location')).toBe('/login?redirectTo=%2Fadmin')

		const staff = await createUser(db(), { name: 'مدير', email: `admin-${randomBytes(3).toString('hex')}@example.org`, mobile: '', roles: ['admin'], password: PASSWORD })
		const staffSession = await createSession(db(), staff.id)
		expect(await getInstitution(requestWith(`${sessionCookieName()}=${staffSession.token}`))).toBeNull()
		expect(await getInstitution(requestWith(`${accountCookieName()}=${staffSession.token}`))).toBeNull()
	})

	test('only paths of the account area are followed after signing in', () => {
		expect(accountRedirect('/account/cases/ABCD-EFGH')).toBe('/account/cases/ABCD-EFGH')
		expect(accountRedirect('/account?x=1')).toBe('/account?x=1')
		expect(accountRedirect('/admin')).toBe('/account')
		expect(accountRedirect('/accounting')).toBe('/account')
		expect(accountRedirect('/account/login')).toBe('/account')
		expect(accountRedirect('//evil.example/account')).toBe('/account')
		expect(accountRedirect('https://evil.example/account')).toBe('/account')
		expect(accountRedirect(null)).toBe('/account')
	})
})

describe("an institution's cases", () => {
	test("each institution sees only its registration and its own requests; another's reference opens nothing", async () => {
		const a = await addInstitution('جمعية أ')
		const b = await addInstitution('جمعية ب')
		const aRequest = await startAccountCase(db(), a.id, { ...needyFamilies, type: 'association-support' })
		const bRequest = await startAccountCase(db(), b.id, { ...needyFamilies, type: 'association-support' })
		// Someone else's application, started without an account.
		const stranger = await addCase('association-support')
		const aDeleted = await addCase('association-support', { accountId: a.id, deletedAt: new Date() })

		const aCases = await accountCases(db(), a.id)
		expect(aCases.map((row) => row.reference).sort()).toEqual([a.registration.reference, aRequest.row.reference].sort())
		expect(aCases[0]).toEqual({ id: aRequest.row.id, reference: aRequest.row.reference, type: 'association-support', status: 1, submittedAt: null, createdAt: expect.any(Date) })
		expect((await accountCases(db(), b.id)).map((row) => row.reference).sort()).toEqual([b.registration.reference, bRequest.row.reference].sort())

		for (const reference of [b.registration.reference, bRequest.row.reference, stranger.reference, aDeleted.reference, 'NOPE-NOPE', 'not a reference']) {
			expect(await openAccountCase(db(), a.id, reference)).toBeNull()
		}
		// Nothing of b's changed: its link still works.
		expect((await findCaseByToken(db(), bRequest.token))?.id).toBe(bRequest.row.id)
	})

	test('opening its own case gives a new private link; the one before stops working', async () => {
		const a = await addInstitution()
		const started = await startAccountCase(db(), a.id, { ...needyFamilies, type: 'association-support' })
		const token = await openAccountCase(db(), a.id, started.row.reference.toLowerCase().replace('-', ' '))
		expect(token).toMatch(/^[\w-]{43}$/)
		expect((await findCaseByToken(db(), token!))?.id).toBe(started.row.id)
		expect(await findCaseByToken(db(), started.token)).toBeUndefined()
		const registration = await openAccountCase(db(), a.id, a.registration.reference)
		expect((await findCaseByToken(db(), registration!))?.id).toBe(a.registration.id)
	})

	test("a request started with one button is an empty draft in the institution's name, tied to the account", async () => {
		const a = await addInstitution('جمعية المسودة')
		const { row, token } = await startAccountCase(db(), a.id, { ...needyFamilies, type: 'association-support' })
		expect(row).toMatchObject({ type: 'association-support', accountId: a.id, applicantName: 'جمعية المسودة', mobile: '+966551234567', email: a.email.toLowerCase(), submittedAt: null, status: 1 })
		expect((await findCaseByToken(db(), token))?.id).toBe(row.id)
	})

	test('with first-step answers, it is started as every application is (validated, one open case per programme)', async () => {
		const a = await addInstitution()
		const { row } = await startAccountCase(db(), a.id, needyFamilies, basicAnswers(randomNationalId()))
		expect(row).toMatchObject({ type: 'needy-families', accountId: a.id, applicantName: 'عبدالله محمد سعد القحطاني' })
		await expect(startAccountCase(db(), a.id, needyFamilies, { ...basicAnswers(randomNationalId()), Identify_Id: '' })).rejects.toThrow('invalid answers')
		// Nothing of the refused start is left behind.
		expect((await accountCases(db(), a.id)).filter((item) => item.type === 'needy-families')).toHaveLength(1)
		// startCase itself still works for an applicant without an account.
		const plain = await startCase(db(), needyFamilies, basicAnswers(randomNationalId()))
		expect(plain.row.accountId).toBeNull()
	})
})
