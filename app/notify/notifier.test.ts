import { afterEach, expect, test, vi } from 'vitest'
import { createNotifier, logNotifier } from './notifier.server.ts'
import type { SmsDriver } from './sms.server.ts'
import { logger } from '#app/utils/log.server.ts'

afterEach(() => vi.restoreAllMocks())

const update = {
	email: 'family@example.org',
	mobile: '+966551234567',
	reference: 'K7M2-PX4R',
	formTitle: 'طلب دعم الأسر المحتاجة',
	statusName: 'تمت الدراسة',
	next: 'دُرس طلبك وهو بانتظار قرار الصرف.',
	applicantMessage: 'رسالة خاصة',
	link: 'http://localhost:3000/apply/r/secret-token',
}

const written = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.map((args) => args.join(' ')).join('\n')

test('the log notifier sends nothing and logs no link, text, address or number', async () => {
	const log = vi.spyOn(logger, 'info').mockImplementation(() => {})
	expect(logNotifier.emails).toBe(false)
	expect(await logNotifier.sendStatusUpdate(update)).toEqual({ email: false, sms: false })
	expect(await logNotifier.sendNewSubmission({ to: 'info@ataa.org.sa', reference: 'K7M2-PX4R', formTitle: 'طلب', applicantName: 'أم محمد', adminLink: 'https://ataa.org.sa/admin/cases/K7M2-PX4R' })).toBe(false)
	expect(await logNotifier.sendResumeLink({ to: 'family@example.org', reference: 'K7M2-PX4R', formTitle: 'طلب', link: update.link })).toBe(false)
	const lines = written(log)
	expect(log).toHaveBeenCalledTimes(4)
	for (const secret of ['secret-token', 'رسالة خاصة', 'family@', '551234567', 'أم محمد', 'info@ataa.org.sa']) expect(lines).not.toContain(secret)
	expect(lines).toContain('+9665•••••567')
})

test('a copy of the log notifier can claim e-mail, as the page tests do', () => {
	const copy = { ...logNotifier, emails: true }
	expect(copy.emails).toBe(true)
	expect(typeof copy.sendStatusUpdate).toBe('function')
})

test('no e-mail address and no mobile: nothing is attempted', async () => {
	const send = vi.fn<SmsDriver['send']>(async () => true)
	const notifier = createNotifier({ sms: { name: 'http', send } })
	expect(await notifier.sendStatusUpdate({ ...update, email: '', mobile: '' })).toEqual({ email: false, sms: false })
	expect(send).not.toHaveBeenCalled()
})

test('an SMS driver that throws does not fail the status change', async () => {
	const error = vi.spyOn(logger, 'error').mockImplementation(() => {})
	const notifier = createNotifier({ sms: { name: 'http', send: () => Promise.reject(new Error('boom')) } })
	expect(await notifier.sendStatusUpdate({ ...update, email: undefined })).toEqual({ email: false, sms: false })
	expect(written(error)).toContain('boom')
})
