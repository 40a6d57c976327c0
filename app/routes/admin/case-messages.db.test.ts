import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createSession, sessionCookieName } from '#app/auth/session.server.ts'
import { auditLog, caseMessages } from '#app/db/schema.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { setSmsDriver } from '#app/notify/notifier.server.ts'
import type { SmsResult } from '#app/notify/sms.server.ts'
import { publicOrigin } from '#app/utils/env.server.ts'
import { middleware as adminMiddleware } from '#app/routes/admin/layout.tsx'
import { submittedCase } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { runRoute } from '#tests/route.ts'
import CaseView, { action as caseAction, loader as caseLoader, middleware as caseMiddleware } from './case.tsx'

// «الرسائل» on the staff case view, through the real admin middleware and the case route: each
// message with what became of it, and «إعادة الإرسال» for one that failed.

const app = withAppDatabase()
const db = () => app.handle.db
let officer: PublicUser
let cookie = ''
let answers: SmsResult[] = []
const texts: string[] = []

beforeAll(async () => {
	officer = await createUser(db(), { name: 'الباحثة نورة', email: `case-messages-${Date.now()}@example.org`, mobile: '', roles: ['case_officer'], password: 'Case-Messages-1234' })
	cookie = `${sessionCookieName()}=${(await createSession(db(), officer.id)).token}`
	setSmsDriver({ deliver: async (_to, text) => (texts.push(text), answers.shift() ?? { ok: true, provider: 'fake', ref: 'r1' }) })
})
afterAll(() => setSmsDriver(undefined))

const at = (reference: string) => `http://localhost/admin/cases/${reference}`
const post = (reference: string, body: Record<string, string>) =>
	runRoute([...adminMiddleware, ...caseMiddleware], caseAction, {
		request: new Request(at(reference), { method: 'POST', body: new URLSearchParams(body), headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' } }),
		params: { reference },
	}) as Promise<Response & { data: { form: string; errors: Record<string, string[]> }; init: { status: number } }>
const view = (reference: string) => runRoute([...adminMiddleware, ...caseMiddleware], caseLoader, { request: new Request(at(reference), { headers: { Cookie: cookie } }), params: { reference } })

test('a message to the applicant is sent and listed; a refused one says why in Arabic, with the provider’s reason, and is sent again from the page', async () => {
	const row = await submittedCase(db())
	answers = [{ ok: false, provider: 'fake', reason: 'invalid destination number', retry: false }]
	const written = await post(row.reference, { intent: 'message', message: 'نرجو إرفاق صك الإعالة' })
	expect(written.status).toBe(302)
	expect(texts.at(-1)).toContain(`${publicOrigin()}/apply/status`)

	const shown = await view(row.reference)
	expect(shown.messages).toEqual([
		expect.objectContaining({ label: 'رسالة من الموظف إلى المتقدم', channel: 'رسالة نصية', recipient: expect.stringMatching(/^05•+\d{3}$/), state: 'failed', stateText: 'تعذّر الإرسال: رفض مزود الخدمة العنوان أو الرقم', technical: 'invalid destination number', canResend: true }),
	])
	expect(shown.messages[0]!.at).toMatch(/^\d{1,2}\u00a0\S+\u00a0\d{4}م \(.+\d{4}هـ\) الساعة /)
	const path = `/admin/cases/${row.reference}`
	const Stub = createRoutesStub([{ id: 'case', path, Component: CaseView as never }])
	const html = renderToString(createElement(Stub, { initialEntries: [path], hydrationData: { loaderData: { case: shown } } })).replaceAll('<!-- -->', '')
	expect(html).toContain('>الرسائل<')
	expect(html).toContain(`name="messageId" value="${shown.messages[0]!.id}"`)
	expect(html).toContain('name="intent" value="resend"')
	expect(html).toContain('إعادة الإرسال')

	const resent = await post(row.reference, { intent: 'resend', messageId: shown.messages[0]!.id })
	expect(resent.status).toBe(302)
	expect(resent.headers.get('Location')).toBe(`${path}#sent-messages`)
	const after = await view(row.reference)
	expect(after.messages.map((message) => message.state)).toEqual(expect.arrayContaining(['sent', 'failed']))
	expect(after.history.some((event) => event.kind === 'message_resent')).toBe(true)
	const [entry] = await db().select().from(auditLog).where(and(eq(auditLog.action, 'case.resend'), eq(auditLog.caseReference, row.reference)))
	expect(entry).toMatchObject({ actorId: officer.id, data: expect.objectContaining({ intent: 'resend', message: shown.messages[0]!.id }) })

	// A message sent already, or one of another case, is not sent again.
	const sent = after.messages.find((message) => message.state === 'sent')!
	const again = await post(row.reference, { intent: 'resend', messageId: sent.id })
	expect(again.init.status).toBe(409)
	expect(again.data.errors['']).toEqual(['أُرسلت هذه الرسالة من قبل'])
	const other = await submittedCase(db())
	const elsewhere = await post(other.reference, { intent: 'resend', messageId: sent.id })
	expect(elsewhere.init.status).toBe(404)
	expect(await db().select().from(caseMessages).where(eq(caseMessages.caseId, row.id))).toHaveLength(2)
})

test('a status change is told through the outbox: the message shows in the list as sent', async () => {
	const row = await submittedCase(db())
	const changed = await post(row.reference, { intent: 'status', to: '6', from: '1', note: 'مكرر', message: 'أُغلق لأنه مكرر' })
	expect(changed.status).toBe(302)
	const shown = await view(row.reference)
	expect(shown.messages).toEqual([expect.objectContaining({ label: 'تغيير الحالة إلى «مغلق»', state: 'sent', stateText: expect.stringMatching(/^أُرسلت في /), canResend: false })])
})
