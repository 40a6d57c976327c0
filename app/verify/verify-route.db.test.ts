import { eq } from 'drizzle-orm'
import { RouterContextProvider } from 'react-router'
import { caseEvents } from '#app/db/schema.ts'
import { afterAll, expect, test } from 'vitest'
import { startCase } from '#app/cases/case-store.server.ts'
import { needyFamilies } from '#app/forms/definitions/needy-families.ts'
import { smsDriver } from '#app/notify/sms.server.ts'
import { loader as overview } from '#app/routes/apply/overview.tsx'
import { action as verify } from '#app/routes/apply/verify.tsx'
import { action as lookup } from '#app/routes/apply/status.tsx'
import { basicAnswers, randomNationalId } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { setSmsDriver } from '#app/notify/notifier.server.ts'

// The routes with codes on (the other route tests run with them off): a private link opens only on a
// browser that typed the code sent to the case's mobile, and the lookup shows nothing before one.
// Through the real server and route table: tests/e2e/security/verification-codes.spec.ts.

process.env.APPLICANT_VERIFICATION = 'on'
const app = withAppDatabase()
const inbox: { to: string; text: string }[] = []
setSmsDriver(smsDriver('taqnyat', async (to, text) => (inbox.push({ to, text }), { ok: true, provider: 'fake' })))
afterAll(() => setSmsDriver(undefined))
const lastCode = () => /رمز التحقق: (\d{6})/.exec(inbox.at(-1)!.text)![1]!

const args = (request: Request, params: Record<string, string>) => ({ request, params, context: new RouterContextProvider() }) as never
const post = (url: string, fields: Record<string, string>, cookie = '') => new Request(url, { method: 'POST', body: new URLSearchParams(fields), headers: { 'x-ataa-client-ip': '203.0.113.40', ...(cookie ? { Cookie: cookie } : {}) } })

async function thrown(promise: Promise<unknown>): Promise<Response> {
	try {
		await promise
	} catch (error) {
		if (error instanceof Response) return error
		throw error
	}
	throw new Error('the loader did not refuse')
}

test('a private link without the code is sent to the code page; the code opens it, on that browser only', async () => {
	const mobile = `05${String(Date.now()).slice(-8)}`
	const { token } = await startCase(app.handle.db, needyFamilies, basicAnswers(randomNationalId(), mobile))
	const url = `http://localhost/apply/r/${token}`
	const refused = await thrown(overview(args(new Request(url), { token })))
	expect(refused.status).toBe(302)
	expect(refused.headers.get('Location')).toBe(`/apply/r/${token}/verify`)

	const sent = await verify(args(post(`${url}/verify`, { intent: 'send-code' }), { token }))
	expect(sent).toEqual({ error: null, sent: true })
	expect(inbox.at(-1)!.to).toBe(`+966${mobile.slice(1)}`)
	const wrong = (await verify(args(post(`${url}/verify`, { intent: 'check-code', code: lastCode() === '123456' ? '654321' : '123456' }), { token }))) as { data: { error: string }; init: { status: number } }
	expect(wrong.init.status).toBe(400)
	expect(wrong.data.error).toContain('الرمز غير صحيح')
	const opened = (await verify(args(post(`${url}/verify`, { intent: 'check-code', code: lastCode() }), { token }))) as Response
	expect(opened.status).toBe(302)
	expect(opened.headers.get('Location')).toBe(`/apply/r/${token}`)
	const remembered = opened.headers.get('Set-Cookie')!.split(/,(?=\s*\w+=)/).find((cookie) => cookie.includes('ataa_verified'))!.split(';')[0]!
	const page = await overview(args(new Request(url, { headers: { Cookie: remembered } }), { token }))
	expect(page.reference).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/)
	// Another browser still gets the code page.
	expect((await thrown(overview(args(new Request(url), { token })))).status).toBe(302)
})

test('the lookup shows no case before the code sent to the mobile, and the case after it', async () => {
	const mobile = `05${String(Date.now() + 7).slice(-8)}`
	const nationalId = randomNationalId()
	await startCase(app.handle.db, needyFamilies, basicAnswers(nationalId, mobile))
	const fields = { who: 'person', nationalId, mobile, intent: 'lookup' }
	const asked = (await lookup(args(post('http://localhost/apply/status', fields), {}))) as { data: { cases: unknown; code: { sent: boolean } } }
	expect(asked.data.cases).toBeNull()
	expect(asked.data.code.sent).toBe(true)
	expect(JSON.stringify(asked)).not.toContain('عبدالله')
	const shown = (await lookup(args(post('http://localhost/apply/status', { ...fields, intent: 'check-code', code: lastCode() }), {}))) as { data: { cases: { name: string }[] }; init: { headers: Record<string, string> } }
	expect(shown.data.cases).toHaveLength(1)
	// The proof lasts a quarter of an hour for this browser: «open» needs no second code.
	const proof = shown.init.headers['Set-Cookie']!.split(';')[0]!
	const again = (await lookup(args(post('http://localhost/apply/status', fields, proof), {}))) as { cases: unknown[] }
	expect(again.cases).toHaveLength(1)
	// «فتح الطلب»: a new link, on this browser, and the history says how it was opened.
	const opened = (await lookup(args(post('http://localhost/apply/status', { ...fields, intent: 'open', reference: (again.cases[0] as { reference: string }).reference }, proof), {}))) as Response
	expect(opened.status).toBe(302)
	expect(opened.headers.get('Location')).toMatch(/^\/apply\/r\/[\w-]{43}$/)
	const events = await app.handle.db.select().from(caseEvents).where(eq(caseEvents.kind, 'link_sent'))
	expect(events.some((event) => (event.data as { to?: string }).to === 'browser')).toBe(true)
	// A stranger with the same two numbers but no code sees nothing.
	const stranger = (await lookup(args(post('http://localhost/apply/status', { ...fields, intent: 'open', reference: 'ABCD-EFGH' }), {}))) as { data: { cases: unknown } }
	expect(stranger.data.cases).toBeNull()
})
