import fs from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { test as base, expect, type BrowserContext, type BrowserContextOptions, type Locator, type Page } from '@playwright/test'
import { Secret, TOTP } from 'otpauth'
import { roleLabels, userRoles, type UserRole } from '#app/db/roles.ts'

export { expect }

export const admin = { email: 'admin@e2e.test', password: 'E2e-Admin-Pass-1' }

/**
 * The content editor auth.setup.ts adds: a role that signs in with the password alone (by default),
 * for tests of signing in that are not about the second step. The admin's sign-ins need a code each,
 * and a code is taken once.
 */
export const contentEditor = { email: 'content-editor@e2e.test', password: 'Khalid-Writes-News-1' }

/** Every staff role has a signed-in session of its own (auth.setup.ts). */
export type StaffRole = UserRole

/**
 * The port of the server the current test talks to: its project's baseURL (the PGlite server, or
 * the PostgreSQL one for the *-pg projects). Outside a test — at a spec file's top level, as in
 * `test.use({ storageState: staffState(…) })`, or in the global teardown — the PGlite server's.
 */
function serverPort(): string {
	let baseURL: string | undefined
	try {
		baseURL = base.info().project.use.baseURL
	} catch {
		// Not inside a test: no project to ask.
	}
	return baseURL ? new URL(baseURL).port : process.env.E2E_PORT!
}

/**
 * Where auth.setup.ts keeps this run's sessions: tests/e2e/.auth/<port>/ (gitignored). The sessions
 * live in the database of the server on that port, so each server of each run has its own folder;
 * global-teardown.ts removes them at the end.
 */
export function staffStateDir(port = serverPort()): string {
	return fileURLToPath(new URL(`.auth/${port}/`, import.meta.url))
}

/**
 * The file where auth.setup.ts keeps a signed-in session of `role`, on the current test's server.
 * For a file whose tests all act as one role: `test.use({ storageState: staffState('admin') })` —
 * the PGlite server's, as `test.use` is read outside any test. A file that runs against both
 * servers (tests/e2e/security/) calls it inside its tests or hooks.
 */
export function staffState(role: StaffRole): string {
	return `${staffStateDir()}${role}.json`
}

/**
 * One committee meeting is open at a time on a server (docs/product.md#committee-meetings): the tests
 * that open one or change the quorum (tests/e2e/committee.spec.ts, the audit walk) take turns across
 * workers, by a lock file in this server's folder. Resolves with its release once it is this test's turn.
 */
export async function meetingTurn(): Promise<() => void> {
	const lock = `${staffStateDir()}meeting.lock`
	const started = Date.now()
	for (;;) {
		try {
			fs.writeFileSync(lock, String(process.pid), { flag: 'wx' })
			return () => fs.rmSync(lock, { force: true })
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
		}
		// A worker that died holding it leaves it behind: taken after three minutes.
		const held = fs.statSync(lock, { throwIfNoEntry: false })
		if (held && Date.now() - held.mtimeMs > 180_000) fs.rmSync(lock, { force: true })
		if (Date.now() - started > 240_000) throw new Error(`waited four minutes for ${lock}`)
		await new Promise((resolve) => setTimeout(resolve, 250))
	}
}

/** A storage state with nobody signed in. */
const signedOut = { cookies: [], origins: [] }

/**
 * `pageAs(role)` opens a page in a new browser context signed in as that staff role, from the
 * session auth.setup.ts stored; `pageAs('visitor')` opens one where nobody is signed in, even in
 * a file that signs `page` in with test.use. Options (javaScriptEnabled…) go to the context.
 * The contexts are closed when the test ends.
 */
export const test = base.extend<{ pageAs: (who: StaffRole | 'visitor', options?: BrowserContextOptions) => Promise<Page> }>({
	// The second argument is Playwright's `use`, named so that the React hooks lint leaves it alone.
	pageAs: async ({ browser }, provide) => {
		const contexts: BrowserContext[] = []
		await provide(async (who, options) => {
			const context = await browser.newContext({ ...options, storageState: who === 'visitor' ? signedOut : staffState(who) })
			contexts.push(context)
			return context.newPage()
		})
		await Promise.all(contexts.map((context) => context.close()))
	},
})

/** A suffix that no other test, and no earlier run against the same server, uses. */
export function unique(): string {
	return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
}

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** Runs axe-core (WCAG 2.x A/AA rules) on the page and fails with the list of violations. */
export async function expectNoAxeViolations(page: Page) {
	// After a form posted without JavaScript (sign-in), the URL changes before the new page's
	// stylesheet has arrived: axe must judge the page as drawn, not its unstyled first frame.
	await page.waitForLoadState('load')
	await page.addScriptTag({ content: axeSource })
	const violations = await page.evaluate(async () => {
		const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe
		const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] } })
		return result.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
	})
	expect(violations, `axe violations on ${page.url()}`).toEqual([])
}

/**
 * Signs in through the form. Only for tests about signing in, or that end a session (sign-out,
 * a stopped account): every other test uses a stored session (staffState, pageAs). When the
 * password is right and a second step follows (admins and case officers by default), it is passed
 * as a person would: the authenticator app set up from the page's key the first time, its code after.
 */
export async function signIn(page: Page, credentials = admin, redirectTo?: string) {
	await page.goto(redirectTo ? `/login?redirectTo=${encodeURIComponent(redirectTo)}` : '/login')
	await submitSignIn(page, credentials)
}

/** Fills and sends the sign-in form the page shows, then any second step (see signIn). */
export async function submitSignIn(page: Page, credentials: { email: string; password: string }) {
	const requested = new URL(page.url()).searchParams.get('redirectTo')
	const password = passwordNow(credentials)
	await page.getByLabel('البريد الإلكتروني').fill(credentials.email)
	await page.getByLabel('كلمة المرور').fill(password)
	await page.getByRole('button', { name: 'تسجيل الدخول' }).click()
	await page.waitForLoadState('domcontentloaded')
	const step = new URL(page.url()).pathname
	if (step === '/login/two-step/setup') {
		const secret = (await page.getByTestId('two-step-secret').textContent())!.replace(/\s/g, '')
		fs.mkdirSync(totpDir(), { recursive: true })
		fs.writeFileSync(`${totpDir()}${credentials.email}.secret`, secret)
		await passCode(page, credentials.email, secret, 'تفعيل التحقق بخطوتين')
		await page.getByRole('link', { name: /حفظت الرموز/ }).click()
	} else if (step === '/login/two-step') {
		await passCode(page, credentials.email, authenticatorKey(credentials.email), 'تحقق ودخول')
	}
	// A password an admin set is for the first sign-in only: replaced on «حسابي», as the page asks,
	// and remembered here so that the test's own password still signs this user in later.
	if (new URL(page.url()).pathname === '/admin/account' && (await page.getByText('كلمة مرورك الحالية وضعها غيرك').isVisible())) {
		const chosen = `${password}-Own-Choice`
		await page.getByLabel('كلمة المرور الحالية', { exact: true }).fill(password)
		await page.getByLabel('كلمة المرور الجديدة', { exact: true }).fill(chosen)
		await page.getByLabel('تأكيد كلمة المرور الجديدة').fill(chosen)
		await page.getByRole('button', { name: 'تغيير كلمة المرور' }).click()
		await expect(page.getByText('تم تغيير كلمة المرور').first()).toBeVisible()
		fs.mkdirSync(totpDir(), { recursive: true })
		fs.writeFileSync(`${totpDir()}${credentials.email}.password`, JSON.stringify({ from: credentials.password, to: chosen }))
		await page.goto(requested?.startsWith('/') && !/^\/[/\\]/.test(requested) ? requested : '/admin')
	}
}

/** The password that now signs this user in: the test's own, or what signIn changed it to. */
function passwordNow(credentials: { email: string; password: string }): string {
	try {
		const changed = JSON.parse(fs.readFileSync(`${totpDir()}${credentials.email}.password`, 'utf8')) as { from: string; to: string }
		return changed.from === credentials.password ? changed.to : credentials.password
	} catch {
		return credentials.password
	}
}

/** Where signIn keeps each user's authenticator key and the time steps this run has used (per server). */
const totpDir = () => `${staffStateDir()}totp/`

/** The authenticator key signIn set up for this user on this run's server. */
export const authenticatorKey = (email: string) => fs.readFileSync(`${totpDir()}${email}.secret`, 'utf8')

/**
 * Types a code the server has not yet taken and sends it. Each code is accepted once, and tests sign
 * the same admin in side by side: a time step is claimed by creating a file for it (atomic across
 * workers); the server takes this step or the next. Tried again if another sign-in got in first.
 */
async function passCode(page: Page, email: string, secret: string, button: string) {
	const totp = new TOTP({ secret: Secret.fromBase32(secret) })
	for (let attempt = 0; attempt < 3; attempt++) {
		await page.getByLabel('رمز التحقق').fill(totp.generate({ timestamp: (await claimStep(email)) * 30_000 }))
		await page.getByRole('button', { name: button }).click()
		await page.waitForLoadState('domcontentloaded')
		if (!(await page.getByText('الرمز غير صحيح').or(page.getByText('الرمز لا يطابق')).first().isVisible())) return
	}
	throw new Error(`the server refused three codes for ${email}`)
}

async function claimStep(email: string): Promise<number> {
	for (;;) {
		const now = Math.floor(Date.now() / 30_000)
		for (const step of [now, now + 1]) {
			try {
				fs.writeFileSync(`${totpDir()}${email}.${step}`, '', { flag: 'wx' })
				return step
			} catch {
				// Another sign-in has this step.
			}
		}
		await new Promise((resolve) => setTimeout(resolve, (now + 1) * 30_000 - Date.now() + 100))
	}
}

export interface UserFields {
	name?: string
	email?: string
	mobile?: string
	/** Ticked; every other role is unticked. */
	roles?: readonly StaffRole[]
	password?: string
	confirmPassword?: string
}

/** Types into the user form (/admin/users/new or …/edit) the fields given; others are left as they are. */
export async function fillUserForm(page: Page, fields: UserFields) {
	if (fields.name !== undefined) await page.getByLabel('الاسم').fill(fields.name)
	if (fields.email !== undefined) await page.getByLabel('البريد الإلكتروني').fill(fields.email)
	if (fields.mobile !== undefined) await page.getByLabel('رقم الجوال').fill(fields.mobile)
	if (fields.roles !== undefined) {
		for (const role of userRoles) await page.getByRole('group', { name: 'الصلاحيات' }).getByLabel(roleLabels[role], { exact: true }).setChecked(fields.roles.includes(role))
	}
	if (fields.password !== undefined) await page.getByLabel('كلمة المرور', { exact: true }).fill(fields.password)
	const confirm = fields.confirmPassword ?? fields.password
	if (confirm !== undefined) await page.getByLabel('تأكيد كلمة المرور').fill(confirm)
}

/** Adds a user through /admin/users/new, as the admin signed in on `page`. */
export async function addUser(page: Page, user: Required<Pick<UserFields, 'name' | 'email' | 'mobile' | 'roles' | 'password'>>) {
	await page.goto('/admin/users/new')
	await fillUserForm(page, user)
	await page.getByRole('button', { name: 'إضافة المستخدم' }).click()
	await expect(page.getByRole('status')).toHaveText('تمت الإضافة بنجاح')
}

/**
 * The row of the user with `email` in the users list, looked for page by page (five a page, oldest
 * first): other tests add users at the same time, so it need not be on the last page.
 */
export async function findUserRow(page: Page, email: string): Promise<Locator> {
	const row = page.getByRole('row', { name: email })
	for (let number = 1; ; number++) {
		await page.goto(`/admin/users?page=${number}`)
		const caption = (await page.getByRole('table').locator('caption').textContent()) ?? ''
		if ((await row.count()) > 0) return row
		const last = Number(/من (\d+)/.exec(caption)?.[1] ?? number)
		if (number >= last) throw new Error(`no row for ${email} on any of the ${last} pages of /admin/users`)
	}
}
