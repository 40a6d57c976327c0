// The `setup` project: signs in once per staff role and stores each session for the other
// projects (staffState, pageAs in utils.ts). The server starts on an empty data directory, so the
// case officer and the content editor are added here, by the admin, through the users screen.
import { test as setup, type Browser } from '@playwright/test'
import { roleLabels } from '#app/db/roles.ts'
import { addUser, admin, contentEditor, expect, signIn, staffState, unique, type StaffRole } from './utils.ts'

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
		{ roles: ['case_officer'], name: 'منيرة القحطاني', email: `case-officer-${suffix}@e2e.test`, mobile: '0551000001', password: 'Case-Officer-Pass-1' },
		{ roles: ['content_editor'], name: 'خالد السبيعي', mobile: '0551000002', ...contentEditor },
		{ roles: ['approver'], name: 'سعد العتيبي', email: `approver-${suffix}@e2e.test`, mobile: '0551000003', password: 'Approver-Decides-1' },
		{ roles: ['finance'], name: 'هند الدوسري', email: `finance-${suffix}@e2e.test`, mobile: '0551000004', password: 'Finance-Pays-Well-1' },
	] as const
	// Side by side, each with an admin context of its own (a notice after saving is kept per browser).
	await Promise.all(
		staff.map(async (user) => {
			const adminContext = await browser.newContext({ storageState: staffState('admin') })
			await addUser(await adminContext.newPage(), user)
			await adminContext.close()
			await signInAndStore(browser, user.roles[0], user)
		}),
	)
})
