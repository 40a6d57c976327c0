// Institution accounts walked again through the real server (issue 37, §2.15): the earlier fixes of
// issue 24 hold — staff correct a registration's user without a password (§5.3), the account shows
// staff's message (§5.22), the printable report lists the files in the form's slot order (§5.23).
// Opening «طلب دعم جمعية جديد» from /account stores no empty draft (§5.10): tests/e2e/institution.mobile.spec.ts.
import { expect, test, type APIRequestContext } from '@playwright/test'
import { registerInstitutionAsStaff, signInInstitution, type RegisteredInstitution } from '../case-fixtures.ts'
import { staffState, unique } from '../utils.ts'

test.describe.configure({ mode: 'default' })

let officer: APIRequestContext
let account: APIRequestContext
let institution: RegisteredInstitution

test.beforeAll(async ({ playwright }, testInfo) => {
	testInfo.setTimeout(120_000)
	const baseURL = testInfo.project.use.baseURL!
	officer = await playwright.request.newContext({ baseURL, storageState: staffState('case_officer'), extraHTTPHeaders: { Origin: baseURL } })
	account = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL } })
	// Its documents uploaded last slot first: the report must still list them in the form's order.
	institution = await registerInstitutionAsStaff(officer, { uploadOrder: ['ceo_appointment', 'institution_statement', 'bank_certificate', 'authorization_letter'] })
	await signInInstitution(account, institution)
})

test.afterAll(async () => {
	await Promise.all([officer?.dispose(), account?.dispose()])
})

const form = (fields: Record<string, string>) => ({ headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, data: new URLSearchParams(fields).toString(), maxRedirects: 0 })

test("staff correct the registration's user without a password, and the institution still signs in with its own", async ({ playwright }, testInfo) => {
	const path = `/admin/cases/${institution.reference}/edit/user`
	const page = await (await officer.get(path)).text()
	expect(page).toContain(institution.userName)
	expect(page).not.toMatch(/type="password"/)
	const corrected = await officer.post(path, form({ fullName: 'سارة عبدالرحمن المطيري', userName: institution.userName, email: institution.email, phone: institution.mobile }))
	expect(corrected.status(), await corrected.text().catch(() => '')).toBe(302)
	expect((await (await officer.get(`/admin/cases/${institution.reference}`)).text())).toContain('سارة عبدالرحمن المطيري')
	const again = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL!, extraHTTPHeaders: { Origin: testInfo.project.use.baseURL! } })
	await signInInstitution(again, institution)
	await again.dispose()
})

test("staff's message to the institution shows on its account, under its registration", async () => {
	const message = `نرجو تحديث خطاب التفويض (${unique()})`
	expect((await officer.post(`/admin/cases/${institution.reference}`, form({ intent: 'message', message }))).status()).toBe(302)
	const page = await (await account.get('/account')).text()
	const registration = page.slice(page.indexOf('تسجيل المؤسسة'))
	expect(registration).toContain(institution.reference)
	expect(registration).toContain(message)
})

test("the printable report lists the registration's documents in the form's order, not the upload's", async () => {
	const print = await (await officer.get(`/admin/cases/${institution.reference}/print`)).text()
	const at = (slot: string) => print.indexOf(`${slot}.pdf`)
	const order = ['authorization_letter', 'bank_certificate', 'institution_statement', 'ceo_appointment']
	for (const slot of order) expect(at(slot), `${slot}.pdf on the report`).toBeGreaterThan(-1)
	expect(order.map(at)).toEqual(order.map(at).toSorted((a, b) => a - b))
})
