import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { SMTPServer } from 'smtp-server'
import { mailNotifier } from './mail.server.ts'

const received: { to: string[]; body: string }[] = []
let server: SMTPServer
let port: number

beforeAll(async () => {
	server = new SMTPServer({
		authOptional: true,
		disabledCommands: ['STARTTLS'],
		logger: false,
		onData(stream, session, callback) {
			let body = ''
			stream.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
			stream.on('end', () => {
				received.push({ to: session.envelope.rcptTo.map((r) => r.address), body })
				callback()
			})
		},
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	port = (server.server.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

/** The message as a reader sees it: quoted-printable soft breaks and escapes undone. */
function decodeQuotedPrintable(body: string): string {
	const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
	return Buffer.from(bytes, 'latin1').toString('utf8')
}

const message = { to: 'family@example.org', reference: 'K7M2-PX4R', formTitle: 'طلب دعم الأسر المحتاجة', link: 'http://localhost:3000/apply/r/abc' }

test('the private link is e-mailed to the applicant when SMTP is configured', async () => {
	const notifier = mailNotifier(`smtp://127.0.0.1:${port}`, 'مؤسسة عطاء <no-reply@ataa.org.sa>')
	expect(await notifier.sendResumeLink(message)).toBe(true)
	expect(received).toHaveLength(1)
	expect(received[0]!.to).toEqual(['family@example.org'])
	const body = decodeQuotedPrintable(received[0]!.body)
	expect(body).toContain('http://localhost:3000/apply/r/abc')
	expect(body).toContain('رقم K7M2-PX4R')
	expect(body).toContain('dir="rtl"')
})

test('an unreachable mail server reports failure instead of throwing', async () => {
	const notifier = mailNotifier('smtp://127.0.0.1:1', 'no-reply@ataa.org.sa')
	expect(await notifier.sendResumeLink(message)).toBe(false)
})

test('a contact message is forwarded to the foundation with the sender as reply-to', async () => {
	const notifier = mailNotifier(`smtp://127.0.0.1:${port}`, 'no-reply@ataa.org.sa')
	const sent = await notifier.sendInquiry({ to: 'info@ataa.org.sa', name: 'أم محمد', email: 'um.mohammed@example.org', mobile: '0551234567', subject: 'استفسار', message: 'متى يفتح التسجيل؟' })
	expect(sent).toBe(true)
	const last = received.at(-1)!
	expect(last.to).toEqual(['info@ataa.org.sa'])
	expect(last.body).toMatch(/Reply-To: um\.mohammed@example\.org/i)
	expect(decodeQuotedPrintable(last.body)).toContain('متى يفتح التسجيل؟')
})
