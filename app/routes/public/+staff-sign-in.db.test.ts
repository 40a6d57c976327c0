import { eq, sql } from 'drizzle-orm'
import { TOTP, Secret } from 'otpauth'
import { RouterContextProvider } from 'react-router'
import { beforeEach, describe, expect, test } from 'vitest'
import { auditLog, sessions, users } from '#app/db/schema.ts'
import { createUser, findUserByEmail, softDeleteUser } from '#app/domain/staff-users.server.ts'
import { action as loginAction } from '#app/routes/public/login.tsx'
import { action as codeAction, loader as codeLoader } from '#app/routes/public/two-step.tsx'
import { action as setupAction, loader as setupLoader } from '#app/routes/public/two-step-setup.tsx'
import { withAppDatabase } from '#tests/db.ts'
import { createSession, getStaffSession, getUser, sessionCookieName } from '#app/auth/session.server.ts'
import { setTwoStepRoles } from '#app/auth/totp.server.ts'

// Signing in as staff, through the real routes: the password, then the authenticator's code when
// the user has one or their role requires one (docs/security.md#two-step-sign-in).

const app = withAppDatabase()
const db = () => app.handle.db
const PASSWORD = 'Two-Step-Pass-2026'
let counter = 0

const form = (path: string, body: Record<string, string>, cookie = '') =>
	new Request(`http://localhost${path}`, {
		method: 'POST',
		body: new URLSearchParams(body),
		headers: { Cookie: cookie, 'x-ataa-client-ip': '198.51.100.4', 'User-Agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/140.0' },
	})
const get = (path: string, cookie: string) => new Request(`http://localhost${path}`, { headers: { Cookie: cookie } })
const args = (request: Request) => ({ request, params: {}, context: new RouterContextProvider(), pattern: new URL(request.url).pathname }) as never

/** The session cookie a response sets, as the browser would send it back. */
function cookieOf(response: Response): string {
	const set = response.headers.get('Set-Cookie') ?? ''
	const match = new RegExp(`${sessionCookieName()}=([^;]*)`).exec(set)
	if (!match) throw new Error(`no session cookie in ${set}`)
	return `${sessionCookieName()}=${match[1]}`
}

async function thrownBy(promise: Promise<unknown>): Promise<Response> {
	try {
		await promise
	} catch (error) {
		if (error instanceof Response) return error
		throw error
	}
	throw new Error('nothing was thrown')
}

async function newStaff(role: 'admin' | 'case_officer' | 'content_editor') {
	const email = `staff-${++counter}-${Date.now()}@example.org`
	const user = await createUser(db(), { name: 'موظف', email, mobile: '', roles: [role], password: PASSWORD })
	return { ...user, email }
}

const signIn = (email: string, redirectTo = '/admin/cases') => loginAction(args(form('/login', { email, password: PASSWORD, redirectTo }))) as Promise<Response>
const codeFor = (secret: string, email: string, at = Date.now()) => new TOTP({ issuer: 'Ataa', label: email, secret: Secret.fromBase32(secret) }).generate({ timestamp: at })
const actions = async (userId: number) => (await db().select().from(auditLog).where(eq(auditLog.actorId, userId)).orderBy(auditLog.id)).map((row) => row.action)

beforeEach(async () => {
	await db().execute(sql`delete from rate_limits`)
	await setTwoStepRoles(db(), ['admin', 'case_officer'])
})

describe('two-step sign-in', () => {
	test('a case officer without an app is sent to set one up; the session between opens nothing else', async () => {
		const officer = await newStaff('case_officer')
		const response = await signIn(officer.email)
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe('/login/two-step/setup?redirectTo=%2Fadmin%2Fcases')
		const pending = cookieOf(response)
		expect(await getUser(get('/admin', pending))).toBeNull()

		const setup = (await setupLoader(args(get('/login/two-step/setup', pending)))) as { secret: string; qr: string }
		expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/)
		expect(setup.qr).toMatch(/^data:image\/svg\+xml;base64,/)

		const wrong = (await setupAction(args(form('/login/two-step/setup', { secret: setup.secret, code: '000000', redirectTo: '/admin/cases' }, pending)))) as { init: { status: number } }
		expect(wrong.init.status).toBe(400)
		const done = (await setupAction(args(form('/login/two-step/setup', { secret: setup.secret, code: codeFor(setup.secret, officer.email), redirectTo: '/admin/cases' }, pending)))) as {
			data: { codes: string[]; to: string }
			init: { headers: Record<string, string> }
		}
		expect(done.data.codes).toHaveLength(10)
		expect(new Set(done.data.codes).size).toBe(10)
		for (const code of done.data.codes) expect(code).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){5}$/)
		expect(done.data.to).toBe('/admin/cases')
		// A new session id, fully signed in; the one between the steps is gone.
		const signedIn = cookieOf(new Response(null, { headers: done.init.headers }))
		expect(signedIn).not.toBe(pending)
		expect((await getUser(get('/admin', signedIn)))?.id).toBe(officer.id)
		expect(await getStaffSession(get('/admin', pending))).toBeNull()
		// The key is kept; the recovery codes only as hashes.
		const [stored] = await db().select().from(users).where(eq(users.id, officer.id))
		expect(stored!.totpSecret).toBe(setup.secret)
		expect(JSON.stringify(await db().execute(sql`select * from recovery_codes where user_id = ${officer.id}`))).not.toContain(done.data.codes[0]!.replace(/-/g, ''))
		expect(await actions(officer.id)).toEqual(['auth.two-step-enabled', 'auth.sign-in'])
	})

	test('with an app set up: a right code signs in once; the same code again, a wrong one, and a sixth try are refused', async () => {
		const admin = await newStaff('admin')
		const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'
		await db().update(users).set({ totpSecret: secret }).where(eq(users.id, admin.id))

		const first = await signIn(admin.email)
		expect(first.headers.get('Location')).toBe('/login/two-step?redirectTo=%2Fadmin%2Fcases')
		const pending = cookieOf(first)
		expect(await codeLoader(args(get('/login/two-step', pending)))).toBeNull()
		const code = codeFor(secret, admin.email)
		const ok = (await codeAction(args(form('/login/two-step', { code: code.replace(/(\d{3})/, '$1 '), redirectTo: '/admin/cases' }, pending)))) as Response
		expect(ok.status).toBe(302)
		expect(ok.headers.get('Location')).toBe('/admin/cases')
		expect((await getUser(get('/admin', cookieOf(ok))))?.id).toBe(admin.id)

		// The same code a second time (someone who saw it over a shoulder): refused.
		const again = cookieOf(await signIn(admin.email))
		const replay = (await codeAction(args(form('/login/two-step', { code }, again)))) as { init: { status: number }; data: { error: { message: string } } }
		expect(replay.init.status).toBe(400)
		expect(replay.data.error.message).toContain('الرمز غير صحيح')
		for (let i = 0; i < 4; i++) await codeAction(args(form('/login/two-step', { code: '123456' }, again)))
		const limited = (await codeAction(args(form('/login/two-step', { code: codeFor(secret, admin.email, Date.now() + 30_000) }, again)))) as {
			init: { status: number; headers: Record<string, string> }
		}
		expect(limited.init.status).toBe(429)
		expect(Number(limited.init.headers['Retry-After'])).toBeGreaterThan(0)
		expect((await actions(admin.id)).filter((action) => action === 'auth.two-step-failed')).toHaveLength(5)
	})

	test('a recovery code signs in once and is then spent', async () => {
		const officer = await newStaff('case_officer')
		const pending = cookieOf(await signIn(officer.email))
		const { secret } = (await setupLoader(args(get('/login/two-step/setup', pending)))) as { secret: string }
		const done = (await setupAction(args(form('/login/two-step/setup', { secret, code: codeFor(secret, officer.email) }, pending)))) as { data: { codes: string[] } }
		const recovery = done.data.codes[3]!

		const next = cookieOf(await signIn(officer.email))
		const used = (await codeAction(args(form('/login/two-step', { recoveryCode: ` ${recovery.toUpperCase()} ` }, next)))) as Response
		expect(used.status).toBe(302)
		const later = cookieOf(await signIn(officer.email))
		const spent = (await codeAction(args(form('/login/two-step', { recoveryCode: recovery }, later)))) as { init: { status: number }; data: { error: { message: string } } }
		expect(spent.init.status).toBe(400)
		expect(spent.data.error.message).toBe('رمز الاسترداد غير صحيح أو استُعمل من قبل. كل رمز يصلح مرة واحدة.')
		// Six digits typed as a recovery code are not the app's code: refused too.
		const digits = (await codeAction(args(form('/login/two-step', { recoveryCode: codeFor(secret, officer.email) }, later)))) as { init: { status: number } }
		expect(digits.init.status).toBe(400)
		expect(await actions(officer.id)).toContain('auth.recovery-code-used')
	})

	test('a role that does not require it signs in with the password alone; a required role cannot skip the step', async () => {
		const editor = await newStaff('content_editor')
		const response = await signIn(editor.email, '/admin')
		expect(response.headers.get('Location')).toBe('/admin')
		expect((await getUser(get('/admin', cookieOf(response))))?.id).toBe(editor.id)
		expect(await actions(editor.id)).toEqual(['auth.sign-in'])

		const officer = await newStaff('case_officer')
		const pending = cookieOf(await signIn(officer.email))
		// Going straight to the code page without an app set up leads back to setting one up.
		const toSetup = await thrownBy(codeLoader(args(get('/login/two-step?redirectTo=%2Fadmin', pending))) as Promise<unknown>)
		expect(toSetup.headers.get('Location')).toBe('/login/two-step/setup?redirectTo=%2Fadmin')
		// Without any session, both pages send the visitor to sign in.
		const out = await thrownBy(codeLoader(args(get('/login/two-step', ''))) as Promise<unknown>)
		expect(out.headers.get('Location')).toBe('/login?redirectTo=%2Fadmin')
	})
})

describe('sessions', () => {
	test('a session unused for longer than the idle limit has ended; use keeps it going', async () => {
		const editor = await newStaff('content_editor')
		const { token } = await createSession(db(), editor.id)
		const cookie = `${sessionCookieName()}=${token}`
		expect((await getUser(get('/admin', cookie)))?.id).toBe(editor.id)
		await db()
			.update(sessions)
			.set({ lastSeenAt: sql`now() - interval '59 minutes'` })
			.where(eq(sessions.userId, editor.id))
		expect((await getUser(get('/admin', cookie)))?.id).toBe(editor.id)
		// That use moved the idle clock on.
		const [seen] = await db()
			.select({ recent: sql<boolean>`${sessions.lastSeenAt} > now() - interval '1 minute'` })
			.from(sessions)
			.where(eq(sessions.userId, editor.id))
		expect(seen!.recent).toBe(true)
		await db()
			.update(sessions)
			.set({ lastSeenAt: sql`now() - interval '61 minutes'` })
			.where(eq(sessions.userId, editor.id))
		expect(await getUser(get('/admin', cookie))).toBeNull()
	})

	test('a deleted user cannot sign in, their sessions have ended, and their e-mail can be given to someone new', async () => {
		const editor = await newStaff('content_editor')
		const cookie = cookieOf(await signIn(editor.email, '/admin'))
		await softDeleteUser(db(), editor.id)
		expect(await getUser(get('/admin', cookie))).toBeNull()
		const refused = (await signIn(editor.email)) as unknown as { init: { status: number } }
		expect(refused.init.status).toBe(400)
		expect(await findUserByEmail(db(), editor.email)).toBeUndefined()
		const successor = await createUser(db(), { name: 'موظف جديد', email: editor.email, mobile: '', roles: ['content_editor'], password: PASSWORD })
		expect(successor.id).not.toBe(editor.id)
		expect((await findUserByEmail(db(), editor.email))?.id).toBe(successor.id)
	})
})

describe('a password someone else set', () => {
	test('opens only «حسابي» until the user chooses their own (ASVS 6.4.1)', async () => {
		const { requireUser } = await import('#app/auth/session.server.ts')
		const { setPassword } = await import('#app/domain/staff-users.server.ts')
		const user = await createUser(db(), { name: 'موظف جديد', email: `temporary-${Date.now()}@example.org`, mobile: '', roles: ['content_editor'], password: PASSWORD, temporary: true })
		const cookie = cookieOf(await signIn(user.email, '/admin'))
		const redirected = await thrownBy(requireUser(get('/admin/cases', cookie)))
		expect(redirected.headers.get('Location')).toBe('/admin/account')
		expect((await requireUser(get('/admin/account', cookie))).id).toBe(user.id)
		expect((await requireUser(get('/admin/account.data', cookie))).id).toBe(user.id)
		await setPassword(db(), user.id, 'A-Phrase-Of-Their-Own', { temporary: false })
		expect((await requireUser(get('/admin/cases', cookie))).id).toBe(user.id)
	})
})
