import { afterEach, expect, test, vi } from 'vitest'
import { createNotifier, logNotifier } from './notifier.server.ts'
import type { MailPart } from './mail.server.ts'
import { logger } from '#app/utils/log.server.ts'

afterEach(() => vi.restoreAllMocks())

const written = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.map((args) => args.join(' ')).join('\n')

test('the log notifier sends nothing and logs no link, text or address', async () => {
	const log = vi.spyOn(logger, 'info').mockImplementation(() => {})
	expect(logNotifier.emails).toBe(false)
	expect(logNotifier.mail).toBeUndefined()
	expect(await logNotifier.sendResumeLink({ to: 'family@example.org', reference: 'K7M2-PX4R', formTitle: 'طلب', link: 'http://localhost:3000/apply/r/secret-token' })).toBe(false)
	expect(await logNotifier.sendInquiry({ to: 'info@ataa.org.sa', name: 'أم محمد', email: 'um@example.org', mobile: '0551234567', subject: 'سؤال', message: 'رسالة خاصة' })).toBe(false)
	const lines = written(log)
	expect(log).toHaveBeenCalledTimes(2)
	for (const secret of ['secret-token', 'رسالة خاصة', 'family@', '551234567', 'أم محمد', 'info@ataa.org.sa']) expect(lines).not.toContain(secret)
	expect(lines).toContain('f…@example.org')
})

test('a copy of the log notifier can claim e-mail, as the page tests do', () => {
	const copy = { ...logNotifier, emails: true }
	expect(copy.emails).toBe(true)
	expect(typeof copy.sendResumeLink).toBe('function')
})

test('a notifier with a mail part offers it to the outbox', async () => {
	const sent: unknown[] = []
	const mail: MailPart = { from: 'no-reply@ataa.org.sa', transport: { sendMail: async (message) => (sent.push(message), { messageId: '<1@ataa>' }) } }
	const notifier = createNotifier({ mail })
	expect(notifier.emails).toBe(true)
	expect(notifier.mail).toBe(mail)
	expect(await notifier.sendResumeLink({ to: 'family@example.org', reference: 'K7M2-PX4R', formTitle: 'طلب', link: 'http://localhost:3000/apply/r/abc' })).toBe(true)
	expect(sent).toHaveLength(1)
})
