import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createSession, sessionCookieName } from '#app/auth/session.server.ts'
import { auditLog, messageTemplates } from '#app/db/schema.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { setSmsDriver } from '#app/notify/notifier.server.ts'
import { notifyApplicant } from '#app/notify/outbox.server.ts'
import { messageEvent } from '#app/notify/templates.ts'
import { middleware as adminMiddleware } from '#app/routes/admin/layout.tsx'
import { submittedCase } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { runRoute } from '#tests/route.ts'
import MessageTemplates, { action, loader, middleware } from './messages.tsx'

// The templates page (/admin/messages) through the real admin middleware: admins only, a preview
// that changes nothing, a refused save that keeps what was typed, a save used by the next message,
// and the default text back.

const app = withAppDatabase()
const db = () => app.handle.db
let admin: PublicUser
let adminCookie = ''
let officerCookie = ''
const texts: string[] = []

beforeAll(async () => {
	admin = await createUser(db(), { name: 'المدير', email: `templates-admin-${Date.now()}@example.org`, mobile: '', roles: ['admin'], password: 'Templates-Admin-1234' })
	const officer = await createUser(db(), { name: 'الباحث', email: `templates-officer-${Date.now()}@example.org`, mobile: '', roles: ['case_officer'], password: 'Templates-Officer-1234' })
	adminCookie = `${sessionCookieName()}=${(await createSession(db(), admin.id)).token}`
	officerCookie = `${sessionCookieName()}=${(await createSession(db(), officer.id)).token}`
	setSmsDriver({ deliver: async (_to, text) => (texts.push(text), { ok: true, provider: 'fake' }) })
})
afterAll(() => setSmsDriver(undefined))

const url = (event = 'applicant-message') => `http://localhost/admin/messages?event=${encodeURIComponent(event)}`
const open = (cookie = adminCookie, event = 'applicant-message') => runRoute([...adminMiddleware, ...middleware], loader, { request: new Request(url(event), { headers: { Cookie: cookie } }) })
const post = (body: Record<string, string>) =>
	runRoute([...adminMiddleware, ...middleware], action, {
		request: new Request(url(body.event), { method: 'POST', body: new URLSearchParams(body), headers: { Cookie: adminCookie, 'Content-Type': 'application/x-www-form-urlencoded' } }),
	}) as Promise<Response & { data: { values: Record<string, string>; errors: Record<string, string[]> }; init: { status: number } }>
const audited = () => db().select().from(auditLog).where(and(eq(auditLog.action, 'messages.template'), eq(auditLog.actorId, admin.id)))

test('admins only: a case officer is refused', async () => {
	await expect(open(officerCookie)).rejects.toMatchObject({ status: 403 })
})

test('the editor lists every event, and shows the default texts, the placeholders offered and sample values', async () => {
	const page = await open()
	expect(page.events).toHaveLength(17)
	expect(page.editing).toMatchObject({ event: 'applicant-message', label: 'رسالة من الموظف إلى المتقدم', changed: false, fields: ['sms', 'emailSubject', 'emailBody'], saved: messageEvent('applicant-message')!.defaults })
	expect(page.editing!.placeholders.map((placeholder) => placeholder.token)).toEqual(['{الاسم}', '{رقم_الطلب}', '{البرنامج}', '{الحالة}', '{الرابط}', '{رسالة_الموظف}'])
	expect(page.editing!.samples.link).toMatch(/\/apply\/status$/)
	await expect(open(adminCookie, 'no-such-event')).rejects.toMatchObject({ init: { status: 404 } })
})

test('a preview changes nothing and is not audited; a refused save says why in Arabic and keeps what was typed', async () => {
	const defaults = messageEvent('applicant-message')!.defaults
	const typed = { event: 'applicant-message', sms: 'خصم خاص {الجوال}', emailSubject: defaults.emailSubject, emailBody: '' }
	const preview = (await post({ ...typed, intent: 'preview' })) as unknown as { values: Record<string, string>; errors: Record<string, string[]>; previewed: boolean }
	expect(preview).toMatchObject({ previewed: true, values: { sms: 'خصم خاص {الجوال}', emailBody: '' } })
	const refused = await post({ ...typed, intent: 'save' })
	expect(refused.init.status).toBe(400)
	expect(refused.data.values).toMatchObject({ sms: 'خصم خاص {الجوال}', emailSubject: defaults.emailSubject, emailBody: '' })
	expect(refused.data.errors.sms).toEqual([expect.stringContaining('المتغير {الجوال} لا تقدمه هذه الرسالة'), expect.stringContaining('احذف «خصم»')])
	expect(refused.data.errors.emailBody).toEqual(['الرجاء كتابة نص البريد الإلكتروني'])
	expect(await db().select().from(messageTemplates)).toEqual([])
	expect(await audited()).toEqual([])
})

test('a save is audited and used by the next message; «استعادة النص الافتراضي» brings the default back', async () => {
	const defaults = messageEvent('applicant-message')!.defaults
	const saved = await post({ intent: 'save', event: 'applicant-message', sms: 'طلبك {رقم_الطلب}: {رسالة_الموظف}\r\n{الرابط}', emailSubject: defaults.emailSubject, emailBody: defaults.emailBody })
	expect(saved.status).toBe(302)
	expect(saved.headers.get('Location')).toBe('/admin/messages?event=applicant-message')
	expect((await open()).editing).toMatchObject({ changed: true, saved: { sms: 'طلبك {رقم_الطلب}: {رسالة_الموظف}\n{الرابط}' } })
	expect(await audited()).toEqual([expect.objectContaining({ data: expect.objectContaining({ intent: 'save', event: 'applicant-message' }) })])

	const row = await submittedCase(db())
	const [sms] = await notifyApplicant(db(), row.id, 'applicant-message', { staffMessage: 'مرحباً' }, admin)
	expect(sms!.body).toMatch(new RegExp(`^طلبك ${row.reference}: مرحباً\\n.+/apply/status$`))

	const reset = await post({ intent: 'reset', event: 'applicant-message' })
	expect(reset.status).toBe(302)
	expect((await open()).editing).toMatchObject({ changed: false, saved: defaults })
	expect((await audited()).map((entry) => entry.data)).toEqual(expect.arrayContaining([expect.objectContaining({ intent: 'reset', reset: true })]))
})

test('the page as sent, without JavaScript: the texts in their fields, the placeholders listed, the preview with the SMS parts counted', async () => {
	const page = await open(adminCookie, 'status:4')
	const path = '/admin/messages'
	const Stub = createRoutesStub([{ id: 'messages', path, Component: MessageTemplates as never }])
	const html = renderToString(createElement(Stub, { initialEntries: [`${path}?event=status%3A4`], hydrationData: { loaderData: { messages: page } } })).replaceAll('<!-- -->', '')
	expect(html).toContain('name="sms"')
	expect(html).toContain('name="emailSubject"')
	expect(html).toContain('<code>{الأقسام}</code>')
	expect(html).toMatch(/value="preview"[^>]*>معاينة</)
	expect(html).toMatch(/تُرسل في (رسالتين|\d+ رسائل) \(ترميز UCS-2 للعربية، 67 حرفاً في كل رسالة\)/)
	// The sample values, rendered: no placeholder left in the preview.
	expect(html).toContain('«بيانات الأسرة»، «صورة الهوية الوطنية»')
})
