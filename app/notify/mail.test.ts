import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { SMTPServer } from 'smtp-server'
import { deliverMail, smtpMail } from './mail.server.ts'
import { templateMail } from './messages.ts'
import { createNotifier } from './notifier.server.ts'
import { logger } from '#app/utils/log.server.ts'

const received: { to: string[]; body: string }[] = []
let server: SMTPServer
let port: number

beforeAll(async () => {
	server = new SMTPServer({
		authOptional: true,
		disabledCommands: ['STARTTLS'],
		logger: false,
		// An address the server refuses for good (550), or for now (451).
		onRcptTo(address, _session, callback) {
			const code = address.address.startsWith('refused') ? 550 : address.address.startsWith('busy') ? 451 : 0
			callback(code ? Object.assign(new Error(code === 550 ? 'Mailbox unavailable' : 'Try again later'), { responseCode: code }) : undefined)
		},
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

/** The Subject header as a reader sees it: folded lines joined, RFC 2047 encoded words decoded. */
function subjectOf(body: string): string {
	const header = /^Subject: (.*(?:\r?\n[ \t].*)*)/im.exec(body)?.[1] ?? ''
	const words = [...header.replace(/\r?\n[ \t]+/g, ' ').matchAll(/=\?utf-8\?([bq])\?([^?]*)\?=/gi)]
	const bytes = words.map(([, encoding, data]) =>
		encoding!.toLowerCase() === 'b'
			? Buffer.from(data!, 'base64')
			: Buffer.from(data!.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1'),
	)
	return words.length ? Buffer.concat(bytes).toString('utf8') : header
}

/** Mail through the local server. */
const notifier = (url: string, from = 'no-reply@ataa.org.sa') => createNotifier({ mail: smtpMail(url, from) })

const message = { to: 'family@example.org', reference: 'K7M2-PX4R', formTitle: 'طلب دعم الأسر المحتاجة', link: 'http://localhost:3000/apply/r/abc' }

test('the private link is e-mailed to the applicant when SMTP is configured', async () => {
	expect(await notifier(`smtp://127.0.0.1:${port}`, 'مؤسسة عطاء <no-reply@ataa.org.sa>').sendResumeLink(message)).toBe(true)
	expect(received).toHaveLength(1)
	expect(received[0]!.to).toEqual(['family@example.org'])
	const body = decodeQuotedPrintable(received[0]!.body)
	expect(body).toContain('http://localhost:3000/apply/r/abc')
	expect(body).toContain('رقم K7M2-PX4R')
	expect(body).toContain('dir="rtl"')
})

test('an unreachable mail server reports failure instead of throwing', async () => {
	const error = vi.spyOn(logger, 'error').mockImplementation(() => {})
	expect(await notifier('smtp://127.0.0.1:1').sendResumeLink(message)).toBe(false)
	expect(error).toHaveBeenCalledTimes(1)
	error.mockRestore()
})

test('a contact message is forwarded to the foundation with the sender as reply-to', async () => {
	const sent = await notifier(`smtp://127.0.0.1:${port}`).sendInquiry({ to: 'info@ataa.org.sa', name: 'أم محمد', email: 'um.mohammed@example.org', mobile: '0551234567', subject: 'استفسار', message: 'متى يفتح التسجيل؟' })
	expect(sent).toBe(true)
	const last = received.at(-1)!
	expect(last.to).toEqual(['info@ataa.org.sa'])
	expect(last.body).toMatch(/Reply-To: um\.mohammed@example\.org/i)
	expect(decodeQuotedPrintable(last.body)).toContain('متى يفتح التسجيل؟')
})

const content = templateMail('تحديث حالة طلبك رقم K7M2-PX4R - مؤسسة عطاء الخيرية', 'السلام عليكم ورحمة الله،\n\nتتابع طلبك من:\nhttp://localhost:3000/apply/status')

test('an e-mail of the outbox goes out with its subject, a right-to-left HTML part and the message id', async () => {
	const result = await deliverMail(smtpMail(`smtp://127.0.0.1:${port}`, 'مؤسسة عطاء <no-reply@ataa.org.sa>'), 'family@example.org', content)
	expect(result).toMatchObject({ ok: true, provider: 'smtp', ref: expect.stringMatching(/^<.+>$/) })
	const last = received.at(-1)!
	expect(last.to).toEqual(['family@example.org'])
	expect(subjectOf(last.body)).toBe('تحديث حالة طلبك رقم K7M2-PX4R - مؤسسة عطاء الخيرية')
	const body = decodeQuotedPrintable(last.body)
	expect(body).toContain('dir="rtl"')
	expect(body).toContain('<a href="http://localhost:3000/apply/status" dir="ltr">')
})

test('an SMTP 5xx refusal is final, a 4xx one and no answer are worth trying again; the reason holds no text', async () => {
	const mail = smtpMail(`smtp://127.0.0.1:${port}`, 'no-reply@ataa.org.sa')
	const refused = await deliverMail(mail, 'refused@example.org', content)
	expect(refused).toMatchObject({ ok: false, provider: 'smtp', retry: false, reason: expect.stringMatching(/^SMTP 550/) })
	const busy = await deliverMail(mail, 'busy@example.org', content)
	expect(busy).toMatchObject({ ok: false, retry: true, reason: expect.stringMatching(/^SMTP 451/) })
	const down = await deliverMail(smtpMail('smtp://127.0.0.1:1', 'no-reply@ataa.org.sa'), 'family@example.org', content)
	expect(down).toMatchObject({ ok: false, retry: true, reason: expect.stringMatching(/^ECONNECTION|ESOCKET/) })
	for (const result of [refused, busy, down]) expect(JSON.stringify(result)).not.toContain('السلام')
})
