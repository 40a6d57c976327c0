// The first step's limits (docs/security.md#rate-limits), through the route's own action: a crowd of
// families behind one carrier address all start their applications; one national ID or
// e-mail starts only a handful a day, and a refusal keeps what was typed; a private link's saves are
// held per link. The same through the real server: tests/e2e/security/rate-limits.spec.ts.
import { and, eq, inArray, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { caseSections, cases } from '#app/db/schema.ts'
import { publicLimits } from '#app/http/ip-limit.server.ts'
import { hit } from '#app/http/rate-limit.server.ts'
import { basicAnswers, nationalIdFrom, randomNationalId, validIban } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { RouterContextProvider } from 'react-router'
import { startCase } from '#app/cases/case-store.server.ts'
import { hashResumeToken } from '#app/cases/tokens.server.ts'
import { needyFamilies } from '#app/forms/definitions/needy-families.ts'
import { saveConsent } from '#app/privacy/consent-store.server.ts'
import { action } from './new.tsx'
import { action as stepAction } from './step.tsx'

const app = withAppDatabase()

type Refused = { data: { result: { error: Record<string, string[]>; initialValue: Record<string, unknown> }; limited?: boolean }; init: { status: number; headers: Record<string, string> } }

function start(ip: string, answers: Record<string, string>) {
	const request = new Request('http://localhost/apply/needy-families/new', { method: 'POST', body: new URLSearchParams(answers), headers: { 'x-ataa-client-ip': ip } })
	return action({ request, params: { type: 'needy-families' }, context: {} } as Parameters<typeof action>[0])
}

const isStarted = (answer: unknown) => answer instanceof Response && answer.status === 302 && /^\/apply\/r\/[\w-]{43}$/.test(answer.headers.get('Location') ?? '')

describe('POST /apply/<type>/new', () => {
	test('300 families behind one address start and save their first step within the hour: every one is accepted', { timeout: 600_000 }, async () => {
		const ids = Array.from({ length: 300 }, (_, i) => nationalIdFrom(`1${String(i).padStart(8, '0')}`))
		for (const [i, nationalId] of ids.entries()) {
			const answer = await start('100.64.0.1', basicAnswers(nationalId, `0552${String(i).padStart(6, '0')}`))
			expect(isStarted(answer), `applicant ${i + 1}: ${answer instanceof Response ? answer.status : JSON.stringify(answer).slice(0, 300)}`).toBe(true)
		}
		// Each one's first step is stored.
		const [stored] = await app.handle.db
			.select({ count: sql<number>`count(distinct ${caseSections.caseId})::int` })
			.from(caseSections)
			.innerJoin(cases, eq(cases.id, caseSections.caseId))
			.where(and(inArray(cases.nationalId, ids), eq(caseSections.section, 'basic')))
		expect(stored!.count).toBe(300)
	})

	test('the 6th new draft for one national ID in a day is refused with why and when, and everything typed is kept', async () => {
		const nationalId = randomNationalId()
		// From different addresses and mobiles: the limit follows the national ID, not the connection.
		for (let i = 0; i < publicLimits.startPerId.limit; i++) {
			expect(isStarted(await start(`198.51.100.${i + 1}`, basicAnswers(nationalId, `0553${String(i).padStart(6, '0')}`))), `draft ${i + 1}`).toBe(true)
		}
		const typed = { ...basicAnswers(nationalId, '0553999999'), Email: 'family@example.org' }
		const refused = (await start('198.51.100.99', typed)) as unknown as Refused
		expect(refused.init.status).toBe(429)
		expect(refused.data.limited).toBe(true)
		expect(refused.data.result.error['']).toEqual(['بلغ رقم الهوية أو الإقامة هذا الحد المسموح به من الطلبات الجديدة: 5 طلبات في اليوم. حاول مرة أخرى بعد 24 ساعةً.'])
		expect(Number(refused.init.headers['Retry-After'])).toBeGreaterThan(23 * 60 * 60)
		expect(refused.data.result.initialValue).toMatchObject(typed)
		// No sixth draft was made; another family on the same address is not held back.
		expect(await app.handle.db.$count(cases, eq(cases.nationalId, nationalId))).toBe(publicLimits.startPerId.limit)
		expect(isStarted(await start('198.51.100.99', basicAnswers(randomNationalId(), '0553999998')))).toBe(true)
	})

	test('refused and mistyped posts do not use up a national ID allowance', async () => {
		const nationalId = randomNationalId()
		for (let i = 0; i < 10; i++) {
			const mistyped = (await start('198.51.100.120', { ...basicAnswers(nationalId, '0554000000'), Phone: '12' })) as unknown as Refused
			expect(mistyped.init.status).toBe(400)
		}
		expect(isStarted(await start('198.51.100.120', basicAnswers(nationalId, '0554000000')))).toBe(true)
	})

	test('one e-mail gets at most 30 new drafts a day; one mobile, an office phone, is not limited', async () => {
		for (let i = 0; i < publicLimits.startPerEmail.limit; i++) {
			expect(isStarted(await start('198.51.100.130', { ...basicAnswers(randomNationalId(), '0555000000'), Email: 'Office@Example.org' })), `draft ${i + 1}`).toBe(true)
		}
		const refused = (await start('198.51.100.131', { ...basicAnswers(randomNationalId(), '0555000001'), Email: 'office@example.org' })) as unknown as Refused
		expect(refused.init.status).toBe(429)
		expect(refused.data.result.error['']![0]).toMatch(/^بلغ هذا البريد الإلكتروني الحد المسموح به من الطلبات الجديدة: 30 طلباً في اليوم\. حاول مرة أخرى بعد/)
		expect(isStarted(await start('198.51.100.131', basicAnswers(randomNationalId(), '0555000000')))).toBe(true)
	})

	test('one address has a ceiling: past it, the form comes back with what was typed', async () => {
		for (let i = 0; i < publicLimits.start.limit; i++) await hit(app.handle.db, publicLimits.start, '192.0.2.77')
		const typed = basicAnswers(randomNationalId(), '0556000000')
		const refused = (await start('192.0.2.77', typed)) as unknown as Refused
		expect(refused.init.status).toBe(429)
		expect(refused.data.result.error['']![0]).toMatch(/^محاولات كثيرة جداً من عنوان اتصالك بالإنترنت\. حاول مرة أخرى بعد/)
		expect(refused.data.result.initialValue).toMatchObject(typed)
	})
})

describe('a private link\'s saves', () => {
	const save = (token: string) => {
		const request = new Request(`http://localhost/apply/r/${token}/bank`, { method: 'POST', body: new URLSearchParams({ Bank_Name_1: 'alrajhi', Bank_No_1: validIban }), headers: { 'x-ataa-client-ip': '100.64.0.2' } })
		return stepAction({ request, params: { token, step: 'bank' }, context: new RouterContextProvider() } as unknown as Parameters<typeof stepAction>[0])
	}

	test('one link is held at 300 posts an hour; another family on the same address is not', async () => {
		const held = await startCase(app.handle.db, needyFamilies, basicAnswers(randomNationalId()))
		const other = await startCase(app.handle.db, needyFamilies, basicAnswers(randomNationalId()))
		for (const { row } of [held, other]) await saveConsent(app.handle.db, row.id, 'given')
		for (let i = 0; i < publicLimits.savePerLink.limit; i++) await hit(app.handle.db, publicLimits.savePerLink, hashResumeToken(held.token))
		await expect(save(held.token)).rejects.toMatchObject({ data: expect.stringMatching(/^محاولات حفظ كثيرة جداً على رابط هذا الطلب\. حاول مرة أخرى بعد/), init: { status: 429 } })
		const saved = await save(other.token)
		expect(saved instanceof Response && saved.status).toBe(302)
	})
})

