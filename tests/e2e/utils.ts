import fs from 'node:fs'
import { createRequire } from 'node:module'
import { expect, type Page } from '@playwright/test'

export const admin = { email: 'admin@e2e.test', password: 'E2e-Admin-Pass-1' }

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** Runs axe-core (WCAG 2.x A/AA rules) on the page and fails with the list of violations. */
export async function expectNoAxeViolations(page: Page) {
	await page.addScriptTag({ content: axeSource })
	const violations = await page.evaluate(async () => {
		const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe
		const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] } })
		return result.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
	})
	expect(violations, `axe violations on ${page.url()}`).toEqual([])
}

export async function signIn(page: Page, credentials = admin, redirectTo?: string) {
	await page.goto(redirectTo ? `/login?redirectTo=${encodeURIComponent(redirectTo)}` : '/login')
	await page.getByLabel('البريد الإلكتروني').fill(credentials.email)
	await page.getByLabel('كلمة المرور').fill(credentials.password)
	await page.getByRole('button', { name: 'تسجيل الدخول' }).click()
}
