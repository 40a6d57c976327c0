// The `setup` project: signs in once per staff role and stores each session for the other
// projects (staffState, pageAs in utils.ts). The server starts on an empty data directory, so the
// case officer and the content editor are added here, by the admin, through the users screen.
import { test as setup, type Browser } from '@playwright/test'
import { addUser, admin, contentEditor, expect, signIn, staffState, unique, type StaffRole } from './utils.ts'

const roleLabels = { admin: 'مدير النظام', case_officer: 'مسؤول الحالات', content_editor: 'محرر المحتوى' } as const satisfies Record<StaffRole, string>

/** Signs in through the form in a context of its own and stores that context's cookies for `role`. */
async function signInAndStore(browser: Browser, role: StaffRole, credentials: { email: string; password: string }) {
	const context = await browser.newContext()
	const page = await context.newPage()
	await signIn(page, credentials)
	await expect(page).toHaveURL('/admin')
	await expect(page.getByRole('banner')).toContainText(roleLabels[role])
	await context.storageState({ path: staffState(role) })
	await context.close()
}

setup('sign in once as each staff role and store the sessions', async ({ browser }) => {
	await signInAndStore(browser, 'admin', admin)

	const suffix = unique()
	const staff = [
		{ role: 'case_officer', name: 'منيرة القحطاني', email: `case-officer-${suffix}@e2e.test`, mobile: '0551000001', password: 'Case-Officer-Pass-1' },
		{ role: 'content_editor', name: 'خالد السبيعي', mobile: '0551000002', ...contentEditor },
	] as const
	// Side by side, each with an admin context of its own (a notice after saving is kept per browser).
	await Promise.all(
		staff.map(async (user) => {
			const adminContext = await browser.newContext({ storageState: staffState('admin') })
			await addUser(await adminContext.newPage(), user)
			await adminContext.close()
			await signInAndStore(browser, user.role, user)
		}),
	)
})
