import { eq, sql } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { accountCases, accountCookieName, attemptAccountSignIn, createAccountSession, startAccountCase } from '#app/accounts/institution-accounts.server.ts'
import { loadSavedState, saveSection, startCase, submitCase, addAttachment } from '#app/cases/case-store.server.ts'
import { cases, institutionAccounts } from '#app/db/schema.ts'
import { associationSupport } from '#app/forms/definitions/association-support.ts'
import { institutionRegistration } from '#app/forms/definitions/institution-registration.ts'
import { sampleAnswers, sampleFiles } from '#app/forms/sample-answers.ts'
import { sectionSchema } from '#app/forms/schema.ts'
import { withAppDatabase } from '#tests/db.ts'
import { sealPasswords } from '#app/runner/answers.server.ts'
import { openAccountFor, prefillFor } from '#app/runner/institution.server.ts'
import { ACCOUNT_DUPLICATE_MESSAGE, action as newAction, loader as newLoader } from './new.tsx'
import { action as checkAction } from './check.tsx'

const app = withAppDatabase()

/** A registration as the steps save it: each section parsed, the password sealed; ready to send. */
async function readyRegistration(seed: number) {
	const db = app.handle.db
	const answers = sampleAnswers(institutionRegistration, { seed })
	const parsed = (key: string) => sectionSchema(institutionRegistration.sections.find((section) => section.key === key)!).parse(answers[key])
	const [first, ...rest] = institutionRegistration.sections
	const { row, token } = await startCase(db, institutionRegistration, await sealPasswords(first!, parsed(first!.key), undefined))
	for (const section of rest) await saveSection(db, institutionRegistration, row, section.key, parsed(section.key))
	for (const file of sampleFiles(institutionRegistration)) {
		await addAttachment(db, institutionRegistration, row, { slot: file.slot, originalName: `${file.slot}.pdf`, contentType: 'application/pdf', size: 10, sha256: 'x', storageKey: `k-${seed}-${file.slot}` })
	}
	return { row, token, answers }
}

/** A registration sent and its account opened. */
async function register(seed: number) {
	const db = app.handle.db
	const { row, answers } = await readyRegistration(seed)
	await submitCase(db, institutionRegistration, row)
	await openAccountFor(db, institutionRegistration, row, (await loadSavedState(db, row.id)).answers)
	return { row, answers }
}

test('a sent registration opens its account: the password as typed signs in, and only its hash is stored', async () => {
	const db = app.handle.db
	const { row, answers } = await register(11)
	const user = answers.user!
	const [account] = await db.select().from(institutionAccounts).where(eq(institutionAccounts.registrationCaseId, row.id))
	expect(account).toMatchObject({ name: answers.institution!.name, userName: user.userName })
	expect(account!.passwordHash).toMatch(/^scrypt\$/)
	const stored = (await loadSavedState(db, row.id)).answers.user!
	expect(JSON.stringify(stored)).not.toContain(String(user.password))
	const signedIn = await attemptAccountSignIn(db, { name: String(user.userName), password: String(user.password), ip: '198.51.100.40' })
	expect(signedIn.ok).toBe(true)
	expect((await accountCases(db, account!.id)).map((item) => item.reference)).toEqual([row.reference])
})

test('a request started from the account starts filled in from the registration, until its step is saved', async () => {
	const db = app.handle.db
	const { row, answers } = await register(12)
	const [account] = await db.select().from(institutionAccounts).where(eq(institutionAccounts.registrationCaseId, row.id))
	const { row: request } = await startAccountCase(db, account!.id, associationSupport)
	const basic = await prefillFor(db, associationSupport, request, 'basic', undefined)
	expect(basic).toMatchObject({ AssociationName: answers.institution!.name, LicenseNumber: answers.institution!.permitNo, Email: answers.user!.email, RepresentativeName: answers.user!.fullName })
	expect(await prefillFor(db, associationSupport, request, 'bank', undefined)).toMatchObject({ Bank_No_1: expect.stringMatching(/^SA\d{22}$/) })
	// Once saved, the step shows what was saved; a case not started from an account is never filled in.
	expect(await prefillFor(db, associationSupport, request, 'basic', { AssociationName: 'x' })).toBeNull()
	expect(await prefillFor(db, associationSupport, row, 'basic', undefined)).toBeNull()
})

test('an institution whose support request is still open is refused a second one from its account, told so, and nothing is stored', async () => {
	const db = app.handle.db
	const { row, answers } = await register(14)
	const [account] = await db.select().from(institutionAccounts).where(eq(institutionAccounts.registrationCaseId, row.id))
	const { token } = await createAccountSession(db, account!.id)
	const headers = { cookie: `${accountCookieName()}=${token}`, 'x-ataa-client-ip': '198.51.100.78' }
	const url = 'http://localhost/apply/association-support/new'
	const args = (request: Request) => ({ request, params: { type: 'association-support' }, context: {} }) as Parameters<typeof newAction>[0]
	expect(await newLoader(args(new Request(url, { headers })) as Parameters<typeof newLoader>[0])).toMatchObject({ fromAccount: true })
	const body = new URLSearchParams({
		AssociationName: String(answers.institution!.name),
		LicenseNumber: String(answers.institution!.permitNo),
		AssemblySpecialty: 'social',
		DateOfEstablishment: '2015-03-01',
		Email: String(answers.user!.email),
		RepresentativeName: 'سارة عبدالرحمن العتيبي',
		RepresentativeMobile: '0551234567',
	})
	const started = (await newAction(args(new Request(url, { method: 'POST', body, headers })))) as unknown as Response
	expect(started.status).toBe(302)
	// Sent and not yet studied: still open.
	await db.update(cases).set({ submittedAt: new Date(), status: 2 }).where(eq(cases.accountId, account!.id))
	const answer = (await newAction(args(new Request(url, { method: 'POST', body, headers })))) as unknown as { data: { duplicate: boolean }; init: { status: number } }
	expect(answer.init.status).toBe(409)
	expect(answer.data.duplicate).toBe(true)
	expect(JSON.stringify(answer.data)).toContain(ACCOUNT_DUPLICATE_MESSAGE)
	expect(JSON.stringify(answer.data)).toContain('سارة عبدالرحمن العتيبي')
	expect(await db.$count(cases, eq(cases.accountId, account!.id))).toBe(1)
})

test('a refused first step never sends the typed password back to the browser', async () => {
	const body = new URLSearchParams({ fullName: 'سعد الدوسري', password: 'Probe-Secret-1', passwordConfirm: 'Probe-Secret-2' })
	const request = new Request('http://localhost/apply/institution-registration/new', { method: 'POST', body, headers: { 'x-ataa-client-ip': '198.51.100.77' } })
	const answer = (await newAction({ request, params: { type: 'institution-registration' }, context: {} } as Parameters<typeof newAction>[0])) as unknown as { data: unknown; init: { status: number } }
	expect(answer.init.status).toBe(400)
	const sent = JSON.stringify(answer.data)
	expect(sent).toContain('الرجاء كتابة اسم المستخدم')
	expect(sent).toContain('سعد الدوسري')
	expect(sent).not.toContain('Probe-Secret')
})

test('a user name taken by another institution while the registration is sent: nothing is sent, the check page says what to change', async () => {
	const db = app.handle.db
	const { row, token, answers } = await readyRegistration(13)
	const userName = String(answers.user!.userName)
	expect(userName).toMatch(/^[A-Za-z0-9]+$/)
	// Another registration takes the name between the case being marked sent and its account opening.
	await db.execute(
		sql.raw(`create function take_name_d3() returns trigger language plpgsql as $$ begin
			if new.kind = 'submitted' then insert into institution_accounts (name, user_name, email, mobile, password_hash) values ('جمعية أخرى', '${userName}', 'other-d3@example.org', '+966500000009', 'x'); end if;
			return new; end $$`),
	)
	await db.execute(sql.raw(`create trigger take_name_d3 after insert on case_events for each row execute function take_name_d3()`))
	try {
		const request = new Request(`http://localhost/apply/r/${token}/check`, { method: 'POST', body: new URLSearchParams({ acknowledge: 'on' }), headers: { 'x-ataa-client-ip': '198.51.100.78' } })
		const answer = (await checkAction({ request, params: { token }, context: {} } as Parameters<typeof checkAction>[0])) as unknown as { data: { error: string; change: { to: string } }; init: { status: number } }
		expect(answer.init.status).toBe(409)
		expect(answer.data.error).toBe('اسم المستخدم صار لحساب مؤسسة أخرى، فلم يُرسل الطلب. غيّره في خطوة «بيانات مستخدم المؤسسة» ثم أرسل الطلب؛ بقية بياناتك ومرفقاتك محفوظة.')
		expect(answer.data.change.to).toBe(`/apply/r/${token}/user?return=check`)
	} finally {
		await db.execute(sql.raw('drop trigger take_name_d3 on case_events'))
		await db.execute(sql.raw('drop function take_name_d3()'))
	}
	// Not sent, no account for it, and every answer still there to change and send again.
	const [stored] = await db.select({ submittedAt: cases.submittedAt, status: cases.status }).from(cases).where(eq(cases.id, row.id))
	expect(stored!.submittedAt).toBeNull()
	expect(await db.$count(institutionAccounts, eq(institutionAccounts.registrationCaseId, row.id))).toBe(0)
	expect(Object.keys((await loadSavedState(db, row.id)).answers).sort()).toEqual(institutionRegistration.sections.map((section) => section.key).sort())
})
