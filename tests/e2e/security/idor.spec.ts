// One person's case is never reached with another's key: two applicants (each a private link and
// uploaded files), two institutions (each an account and its cases), and staff of a role that does
// not handle cases. Every refusal reads the same whether the thing asked for exists or not.
import { expect, test, type APIRequestContext, type APIResponse } from '@playwright/test'
import { minimalPdf } from '#tests/fixtures/pdf.ts'
import { caseFileIds, referenceOn, registerInstitutionAsStaff, signInInstitution, startAccountRequest, submitCaseAsStaff, type RegisteredInstitution, type SubmittedCase } from '../case-fixtures.ts'
import { staffState, unique } from '../utils.ts'
import { comparable, missing } from './route-table.ts'

test.describe.configure({ mode: 'default' })

type Applicant = SubmittedCase & { fileId: string }
type Institution = RegisteredInstitution & { fileId: string; support: string }

let visitor: APIRequestContext
let admin: APIRequestContext
let caseOfficer: APIRequestContext
let contentEditor: APIRequestContext
const institutions: APIRequestContext[] = []
let applicants: [Applicant, Applicant]
let members: [Institution, Institution]

test.beforeAll(async ({ playwright }, testInfo) => {
	testInfo.setTimeout(120_000)
	const baseURL = testInfo.project.use.baseURL!
	const context = (storageState?: string) => playwright.request.newContext({ baseURL, storageState })
	;[visitor, admin, caseOfficer, contentEditor] = await Promise.all([context(), context(staffState('admin')), context(staffState('case_officer')), context(staffState('content_editor'))])
	institutions.push(await context(), await context())
	const marker = unique()
	const [a, b, first, second] = await Promise.all([
		submitCaseAsStaff(admin, { name: `مقدم أول ${marker}` }),
		submitCaseAsStaff(admin, { name: `مقدم ثان ${marker}` }),
		registerInstitutionAsStaff(admin),
		registerInstitutionAsStaff(admin),
	])
	const fileIds = await Promise.all([a, b, first, second].map(async (submitted) => (await caseFileIds(admin, submitted.reference))[0]!))
	applicants = [
		{ ...a, fileId: fileIds[0]! },
		{ ...b, fileId: fileIds[1]! },
	]
	// Each institution signs in; the first starts an association-support request from its account.
	await Promise.all([signInInstitution(institutions[0]!, first), signInInstitution(institutions[1]!, second)])
	const support = await referenceOn(institutions[0]!, await startAccountRequest(institutions[0]!, first))
	members = [
		{ ...first, fileId: fileIds[2]!, support },
		{ ...second, fileId: fileIds[3]!, support: '' },
	]
})

test.afterAll(async () => {
	await Promise.all([visitor, admin, caseOfficer, contentEditor, ...institutions].filter(Boolean).map((context) => context.dispose()))
})

/** Every answer is a 404, and all of them the same page. */
async function expectSameNotFound(responses: { what: string; response: APIResponse }[]) {
	const bodies = new Set<string>()
	for (const { what, response } of responses) {
		expect(response.status(), what).toBe(404)
		bodies.add(comparable(await response.text()))
	}
	expect(bodies.size, 'one and the same 404 for all of them').toBe(1)
}

test("a private link opens its own case only: another case's file, or a forged link, is a 404", async () => {
	const [a, b] = applicants
	// The holder of each link reads its own case and downloads its own file.
	for (const own of applicants) {
		const overview = await visitor.get(`/apply/r/${own.token}`)
		expect(overview.status()).toBe(200)
		const other = own === a ? b : a
		const html = await overview.text()
		expect(html).toContain(own.reference)
		expect(html).not.toContain(other.reference)
		expect(html).not.toContain(other.name)
		const file = await visitor.get(`/apply/r/${own.token}/files/${own.fileId}`)
		expect(file.status()).toBe(200)
		expect(file.headers()['content-type']).toBe('application/pdf')
	}
	// The other case's file under this link, both ways, reads as a file that does not exist.
	await expectSameNotFound(
		await Promise.all(
			[`/apply/r/${b.token}/files/${a.fileId}`, `/apply/r/${a.token}/files/${b.fileId}`, `/apply/r/${b.token}/files/${missing.uuid}`].map(async (path) => ({ what: path, response: await visitor.get(path) })),
		),
	)
	// A link that is not one (B's with a letter changed, A's reference, made up): every page under it.
	const last = b.token.at(-1) === 'A' ? 'B' : 'A'
	const forged = [`${b.token.slice(0, -1)}${last}`, a.reference, 'x'.repeat(43)]
	const pages = ['', '/basic', '/bank', '/check', '/done', `/files/${a.fileId}`, `/files/${b.fileId}`]
	for (const page of pages) {
		await expectSameNotFound(await Promise.all(forged.map(async (token) => ({ what: `/apply/r/${token}${page}`, response: await visitor.get(`/apply/r/${token}${page}`) }))))
	}
	// Nor does a forged link take an upload or a saved step.
	for (const token of forged) {
		const upload = await visitor.post(`/apply/r/${token}/files/upload`, {
			multipart: { slot: 'identity', file: { name: 'x.pdf', mimeType: 'application/pdf', buffer: Buffer.from(minimalPdf()) } },
			maxRedirects: 0,
		})
		expect(upload.status(), `upload under ${token}`).toBe(404)
		const step = await visitor.post(`/apply/r/${token}/financial`, { form: { Net_Income: '1' }, maxRedirects: 0 })
		expect(step.status(), `a step saved under ${token}`).toBe(404)
	}
})

test("an institution's account opens its own cases only; another's, or none, is the same 404", async () => {
	const [first, second] = members
	const [own, other] = institutions as [APIRequestContext, APIRequestContext]
	// Its own registration and request open (on a new private link).
	for (const reference of [first.reference, first.support]) {
		const opened = await own.get(`/account/cases/${reference}`, { maxRedirects: 0 })
		expect(opened.status(), reference).toBe(302)
		expect(opened.headers()['location']).toMatch(/^\/apply\/r\/[\w-]{43}$/)
	}
	const mine = await other.get(`/account/cases/${second.reference}`, { maxRedirects: 0 })
	expect(mine.status()).toBe(302)
	// The first institution's registration and request, an applicant's case, a case that does not exist.
	await expectSameNotFound(
		await Promise.all(
			[first.reference, first.support, applicants[0].reference, missing.reference].map(async (reference) => ({
				what: `/account/cases/${reference} as the second institution`,
				response: await other.get(`/account/cases/${reference}`, { maxRedirects: 0 }),
			})),
		),
	)
	const account = await (await other.get('/account')).text()
	expect(account).toContain(second.reference)
	for (const reference of [first.reference, first.support]) expect(account).not.toContain(reference)
	// The first institution's files under the second one's private link.
	const link = (await other.get(`/account/cases/${second.reference}`, { maxRedirects: 0 })).headers()['location']!
	await expectSameNotFound(
		await Promise.all([`${link}/files/${first.fileId}`, `${link}/files/${missing.uuid}`].map(async (path) => ({ what: path, response: await visitor.get(path) }))),
	)
	// A staff session is not an institution's.
	for (const path of ['/account', `/account/cases/${first.reference}`]) {
		const response = await admin.get(path, { maxRedirects: 0 })
		expect(response.status(), `${path} as staff`).toBe(302)
		expect(response.headers()['location']).toBe(`/account/login?${new URLSearchParams({ redirectTo: path })}`)
	}
})

test("an institution's sign-in code is turned off only with its password: its session alone is not enough", async () => {
	const [, second] = members
	const account = institutions[1]!
	const codeIs = async () => (await (await account.get('/account')).text()).includes('مفعّل: بعد كلمة المرور نرسل رمزاً')
	const turn = (form: Record<string, string>) => account.post('/account', { form: { intent: 'sign-in-code', ...form }, maxRedirects: 0 })
	expect((await turn({ on: 'on' })).status()).toBe(302)
	expect(await codeIs()).toBe(true)
	// The session alone, then a wrong password: refused beside the password field, the code still on.
	for (const [password, said] of [
		[undefined, 'الرجاء كتابة كلمة المرور الحالية'],
		['Not-The-Password-1', 'كلمة المرور الحالية غير صحيحة'],
	] as const) {
		const refused = await turn({ on: 'off', ...(password ? { password } : {}) })
		expect(refused.status(), `password ${password ?? 'not typed'}`).toBe(400)
		expect(await refused.text()).toContain(said)
		expect(await codeIs()).toBe(true)
	}
	expect((await turn({ on: 'off', password: second.password })).status()).toBe(302)
	expect(await codeIs()).toBe(false)
})

test('staff whose role does not handle cases get 403 on every address of a case, the same for a case that does not exist', async () => {
	const casePaths = (reference: string, section: string, fileId: string) => [
		`/admin/cases/${reference}`,
		`/admin/cases/${reference}/edit/${section}`,
		`/admin/cases/${reference}/files/${fileId}`,
		`/admin/cases/${reference}/print`,
	]
	const exports = (reference: string) => [`/admin/cases/export/csv?q=${reference}`, `/admin/cases/export/xlsx?q=${reference}`, `/admin/associations/export/csv?q=${reference}`]
	const real = [...casePaths(applicants[0].reference, 'basic', applicants[0].fileId), ...casePaths(members[0].reference, 'institution', members[0].fileId), ...exports(applicants[0].reference)]
	const absent = [...casePaths(missing.reference, 'basic', missing.uuid), ...casePaths(missing.reference, 'institution', missing.uuid), ...exports(missing.reference)]
	// The case officer opens each of them: the content editor is refused for what they hold, not for their absence.
	for (const path of real) expect((await caseOfficer.get(path, { maxRedirects: 0 })).status(), `${path} as the case officer`).toBe(200)
	for (const [index, path] of real.entries()) {
		const [refused, refusedAbsent] = await Promise.all([contentEditor.get(path, { maxRedirects: 0 }), contentEditor.get(absent[index]!, { maxRedirects: 0 })])
		expect(refused.status(), `${path} as the content editor`).toBe(403)
		expect(refusedAbsent.status(), `${absent[index]} as the content editor`).toBe(403)
		expect(comparable(await refused.text()), `${path}: the same refusal as for a case that does not exist`).toBe(comparable(await refusedAbsent.text()))
	}
	const note = await contentEditor.post(`/admin/cases/${applicants[0].reference}`, { form: { intent: 'note', note: 'ملاحظة' }, maxRedirects: 0 })
	expect(note.status()).toBe(403)
})
