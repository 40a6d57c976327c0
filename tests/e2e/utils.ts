import fs from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { test as base, expect, type BrowserContext, type BrowserContextOptions, type Locator, type Page } from '@playwright/test'

export { expect }

export const admin = { email: 'admin@e2e.test', password: 'E2e-Admin-Pass-1' }

export type StaffRole = 'admin' | 'case_officer' | 'content_editor'

/**
 * Where auth.setup.ts keeps this run's sessions: tests/e2e/.auth/<port>/ (gitignored). The sessions
 * live in the database of this run's server, so each run, told apart by its server's port, has its
 * own folder; global-teardown.ts removes it at the end.
 */
export function staffStateDir(): string {
	return fileURLToPath(new URL(`.auth/${process.env.E2E_PORT}/`, import.meta.url))
}

/**
 * The file where auth.setup.ts keeps a signed-in session of `role`.
 * For a file whose tests all act as one role: `test.use({ storageState: staffState('admin') })`.
 */
export function staffState(role: StaffRole): string {
	return `${staffStateDir()}${role}.json`
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
 * a stopped account): every other test uses a stored session (staffState, pageAs).
 */
export async function signIn(page: Page, credentials = admin, redirectTo?: string) {
	await page.goto(redirectTo ? `/login?redirectTo=${encodeURIComponent(redirectTo)}` : '/login')
	await page.getByLabel('البريد الإلكتروني').fill(credentials.email)
	await page.getByLabel('كلمة المرور').fill(credentials.password)
	await page.getByRole('button', { name: 'تسجيل الدخول' }).click()
}

export interface UserFields {
	name?: string
	email?: string
	mobile?: string
	role?: StaffRole
	password?: string
	confirmPassword?: string
}

/** Types into the user form (/admin/users/new or …/edit) the fields given; others are left as they are. */
export async function fillUserForm(page: Page, fields: UserFields) {
	if (fields.name !== undefined) await page.getByLabel('الاسم').fill(fields.name)
	if (fields.email !== undefined) await page.getByLabel('البريد الإلكتروني').fill(fields.email)
	if (fields.mobile !== undefined) await page.getByLabel('رقم الجوال').fill(fields.mobile)
	if (fields.role !== undefined) await page.getByLabel('الصلاحية').selectOption(fields.role)
	if (fields.password !== undefined) await page.getByLabel('كلمة المرور', { exact: true }).fill(fields.password)
	const confirm = fields.confirmPassword ?? fields.password
	if (confirm !== undefined) await page.getByLabel('تأكيد كلمة المرور').fill(confirm)
}

/** Adds a user through /admin/users/new, as the admin signed in on `page`. */
export async function addUser(page: Page, user: Required<Pick<UserFields, 'name' | 'email' | 'mobile' | 'role' | 'password'>>) {
	await page.goto('/admin/users/new')
	await fillUserForm(page, user)
	await page.getByRole('button', { name: 'إضافة المستخدم' }).click()
	await expect(page.getByRole('status')).toHaveText('تم إضافة بنجاح')
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
