// The contact form's limits (docs/security.md#rate-limits), through the route's own action: an office
// full of people behind one address all send their messages; one sender (e-mail or mobile) sends at
// most 5 an hour, and the refusal keeps what was typed.
import { beforeAll, describe, expect, test } from 'vitest'
import { seedDemoContent } from '#app/seed.server.ts'
import { countInquiries } from '#app/domain/contact-messages.server.ts'
import { hit } from '#app/http/rate-limit.server.ts'
import { withAppDatabase } from '#tests/db.ts'
import { action, contactLimits } from './contact.tsx'

const app = withAppDatabase()
// The foundation's details (the message is forwarded to its e-mail), without demo cases.
beforeAll(() => seedDemoContent(app.handle.db, { cases: false }))

type Refused = { data: { result: { error: Record<string, string[]>; initialValue: Record<string, string> } }; init: { status: number; headers: Record<string, string> } }

const message = (i: number, email = `sender${i}@example.org`, mobile = `0561${String(i).padStart(6, '0')}`) => ({
	UserName: 'أم محمد',
	Email: email,
	Mobile: mobile,
	Subject: `موعد الصرف ${i}`,
	InquiryText: 'متى يبدأ صرف السلال الغذائية؟',
})

function send(ip: string, form: Record<string, string>) {
	const request = new Request('http://localhost/contact', { method: 'POST', body: new URLSearchParams(form), headers: { 'x-ataa-client-ip': ip } })
	return action({ request, params: {}, context: {} } as Parameters<typeof action>[0])
}

const isSent = (answer: unknown) => answer instanceof Response && answer.status === 302

describe('POST /contact', () => {
	test('30 people behind one address each send a message: every one is sent', async () => {
		const before = (await countInquiries(app.handle.db)).total
		for (let i = 0; i < 30; i++) expect(isSent(await send('100.64.1.1', message(i))), `message ${i + 1}`).toBe(true)
		expect((await countInquiries(app.handle.db)).total).toBe(before + 30)
	})

	test('the 6th message from one e-mail in an hour is refused with why and when, keeping what was typed', async () => {
		for (let i = 0; i < contactLimits.email.limit; i++) expect(isSent(await send(`198.51.100.${i + 1}`, message(100 + i, 'Same@Example.org')))).toBe(true)
		const typed = message(200, 'same@example.org')
		const refused = (await send('198.51.100.50', typed)) as unknown as Refused
		expect(refused.init.status).toBe(429)
		expect(refused.data.result.error['']).toEqual(['رسائل كثيرة من هذا البريد الإلكتروني في الساعة الأخيرة. حاول مرة أخرى بعد ساعة واحدة.'])
		expect(refused.data.result.initialValue).toMatchObject(typed)
		expect(Number(refused.init.headers['Retry-After'])).toBeGreaterThan(3500)
	})

	test('one mobile, and one address past its ceiling, are refused the same way', async () => {
		for (let i = 0; i < contactLimits.mobile.limit; i++) expect(isSent(await send('198.51.100.60', message(300 + i, undefined, '0569999999')))).toBe(true)
		const byMobile = (await send('198.51.100.61', message(310, undefined, '0569999999'))) as unknown as Refused
		expect(byMobile.init.status).toBe(429)
		expect(byMobile.data.result.error['']).toEqual(['رسائل كثيرة من رقم الجوال هذا في الساعة الأخيرة. حاول مرة أخرى بعد ساعة واحدة.'])

		for (let i = 0; i < contactLimits.address.limit; i++) await hit(app.handle.db, contactLimits.address, '192.0.2.90')
		const byAddress = (await send('192.0.2.90', message(320))) as unknown as Refused
		expect(byAddress.init.status).toBe(429)
		expect(byAddress.data.result.error['']![0]).toMatch(/^محاولات كثيرة جداً من عنوان اتصالك بالإنترنت\. حاول مرة أخرى بعد/)
		expect(byAddress.data.result.initialValue).toMatchObject(message(320))
	})
})
