import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { SMTPServer } from 'smtp-server'
import { smtpMail } from './mail.server.ts'
import { createNotifier } from './notifier.server.ts'
import type { SmsDriver } from './sms.server.ts'
import { logger } from '#app/utils/log.server.ts'

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

/** Mail through the local server; SMS to the log. */
const notifier = (url: string, from = 'no-reply@ataa.org.sa', sms?: SmsDriver) =>
	createNotifier({ mail: smtpMail(url, from), sms: sms ?? { name: 'log', send: async () => false } })

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

const update = {
	email: 'family@example.org',
	mobile: '+966551234567',
	reference: 'K7M2-PX4R',
	formTitle: 'طلب دعم الأسر المحتاجة',
	statusName: 'غير مكتمل',
	next: 'طلبك بحاجة إلى استكمال. افتح رابط طلبك الخاص لتعديله ثم أرسله من جديد.',
	applicantMessage: 'نرجو إرفاق صورة صك الإعالة.',
	link: 'http://localhost:3000/apply/r/abc',
}

test('a status change is e-mailed to the applicant and sent by SMS', async () => {
	const texts: { to: string; text: string }[] = []
	const sms: SmsDriver = {
		name: 'http',
		async send(to, text) {
			texts.push({ to, text })
			return true
		},
	}
	const result = await notifier(`smtp://127.0.0.1:${port}`, 'مؤسسة عطاء <no-reply@ataa.org.sa>', sms).sendStatusUpdate(update)
	expect(result).toEqual({ email: true, sms: true })
	const last = received.at(-1)!
	expect(last.to).toEqual(['family@example.org'])
	expect(subjectOf(last.body)).toBe('تحديث حالة طلبك رقم K7M2-PX4R - مؤسسة عطاء الخيرية')
	const body = decodeQuotedPrintable(last.body)
	expect(body).toContain('dir="rtl"')
	expect(body).toContain('<a href="http://localhost:3000/apply/r/abc" dir="ltr">')
	expect(body).toContain('غير مكتمل')
	expect(body).toContain('نرجو إرفاق صورة صك الإعالة.')
	expect(texts).toHaveLength(1)
	expect(texts[0]!.to).toBe('+966551234567')
	expect(texts[0]!.text).toContain('K7M2-PX4R')
})

test('without an e-mail address only the SMS is sent; a failing mail server still lets the SMS through', async () => {
	const sms: SmsDriver = { name: 'http', send: async () => true }
	const before = received.length
	expect(await notifier(`smtp://127.0.0.1:${port}`, undefined, sms).sendStatusUpdate({ ...update, email: '' })).toEqual({ email: false, sms: true })
	expect(received).toHaveLength(before)
	const error = vi.spyOn(logger, 'error').mockImplementation(() => {})
	expect(await notifier('smtp://127.0.0.1:1', undefined, sms).sendStatusUpdate(update)).toEqual({ email: false, sms: true })
	error.mockRestore()
})

test('a new application is e-mailed to the foundation with the admin link', async () => {
	const sent = await notifier(`smtp://127.0.0.1:${port}`).sendNewSubmission({
		to: 'cases@ataa.org.sa',
		reference: 'K7M2-PX4R',
		formTitle: 'طلب دعم الأسر المحتاجة',
		applicantName: 'أم محمد',
		adminLink: 'https://ataa.org.sa/admin/cases/K7M2-PX4R',
	})
	expect(sent).toBe(true)
	const last = received.at(-1)!
	expect(last.to).toEqual(['cases@ataa.org.sa'])
	expect(subjectOf(last.body)).toBe('طلب جديد رقم K7M2-PX4R: طلب دعم الأسر المحتاجة')
	const body = decodeQuotedPrintable(last.body)
	expect(body).toContain('أم محمد')
	expect(body).toContain('https://ataa.org.sa/admin/cases/K7M2-PX4R')
	expect(body).toContain('dir="rtl"')
})
