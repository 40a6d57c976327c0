import { describe, expect, test } from 'vitest'
import { describeDeliveryError, maskRecipient, messageView } from './message-view.ts'
import { smsSegments } from './sms-segments.ts'
import { BOUNCE_REASON_SMS } from './case-notices.server.ts'
import { MAX_SMS_SEGMENTS, messageEvent, messageEvents, renderMessage, renderSms, renderTemplate, sampleValues, smsDay, templateProblems, type TemplateValues } from './templates.ts'
import { caseStatuses } from '#app/cases/case-statuses.ts'
import { applicationDefinitions } from '#app/forms/registry.ts'
import { formatClock, formatDate, formatMoney, formatWeekday } from '#app/text/format.ts'

const origin = 'https://ataa.org.sa'

describe('the events and their defaults', () => {
	test('every status, the staff message, the visit, the payment, both reminders, the closing and the new application', () => {
		expect(messageEvents.map((event) => event.event)).toEqual([
			'status:1',
			'status:2',
			'status:3',
			'status:4',
			'status:5',
			'status:6',
			'status:7',
			'status:8',
			'applicant-message',
			'visit-scheduled',
			'payment-made',
			'payment-bounced',
			'payment-bounced-final',
			'reminder:incomplete',
			'reminder:draft',
			'closed-unanswered',
			'new-submission',
		])
		expect(messageEvent('status:4')?.label).toBe('تغيير الحالة إلى «غير مكتمل»')
		expect(messageEvent('new-submission')?.channels).toEqual(['email'])
	})

	test.each(messageEvents.map((event) => [event.event, event] as const))('%s: the default texts pass their own checks, fit the SMS limit and hold no private link', (_event, event) => {
		expect(templateProblems(event, event.defaults)).toEqual({})
		const rendered = renderMessage(event.defaults, sampleValues(event, origin))
		for (const text of [rendered.sms, rendered.subject, rendered.body]) expect(text).not.toMatch(/\/apply\/r\/|\{/)
		if (event.audience === 'applicant') {
			expect(rendered.sms).toContain(`${origin}/apply/status`)
			expect(rendered.body).toContain(`${origin}/apply/status`)
			expect(smsSegments(rendered.sms).segments).toBeLessThanOrEqual(MAX_SMS_SEGMENTS)
		} else expect(rendered.body).toContain(`${origin}/admin/cases/K7M2-PX4R`)
	})

	test('«غير مكتمل» says what to complete and where, without a private link', () => {
		const event = messageEvent('status:4')!
		const rendered = renderMessage(event.defaults, { reference: 'K7M2-PX4R', status: 'غير مكتمل', sections: '«بيانات الأسرة»، «صورة الهوية»', link: `${origin}/apply/status`, staffMessage: 'أرفق الصك' })
		expect(rendered.sms).toContain('طلبك K7M2-PX4R ينقصه: «بيانات الأسرة»، «صورة الهوية».')
		expect(rendered.body).toContain('إلى: غير مكتمل.\nطلبك بحاجة إلى استكمال: «بيانات الأسرة»، «صورة الهوية».')
		expect(rendered.sms).toContain('رسالة من المؤسسة: أرفق الصك')
		expect(rendered.body).not.toContain('رابط طلبك الخاص')
	})
})

describe('the default SMS within two parts (issue 37, §2.7)', () => {
	const longest = (values: string[]) => values.reduce((a, b) => (b.length > a.length ? b : a), '')
	const days = Array.from({ length: 2 * 366 }, (_, i) => new Date(Date.UTC(2026, 0, 1) + i * 86_400_000).toISOString().slice(0, 10))
	// The longest each value runs to: the foundation's domain with www, the longest status and programme names, the
	// longest day in both calendars, an amount in six figures, two sections to complete.
	const values = (event: string): Partial<TemplateValues> => ({
		name: 'عبدالرحمن بن عبدالعزيز بن عبدالله آل عبدالمحسن',
		reference: 'K7M2-PX4R',
		programme: longest(applicationDefinitions.map((definition) => definition.title)),
		status: longest(Object.values(caseStatuses).map((status) => status.name)),
		link: 'https://www.ataa.org.sa/apply/status',
		date: event === 'visit-scheduled' ? longest(days.map((day) => `${formatWeekday(day)} ${formatDate(day)}`)) : longest(days.map(formatDate)),
		smsDate: longest(days.map((day) => smsDay(day, { weekday: event === 'visit-scheduled' }))),
		time: longest(['10:30', '12:45', '23:59'].map(formatClock)),
		amount: formatMoney(999_999.99),
		sections: '«بيانات الأسرة»، «صورة الهوية الوطنية»',
		staffMessage: '',
	})

	test.each(messageEvents.filter((event) => event.defaults.sms).map((event) => [event.event, event] as const))('%s', (event, definition) => {
		const { sms } = renderMessage(definition.defaults, values(event))
		expect(sms).not.toMatch(/[\u200E\u200F\u061C\u202A-\u202E\u2066-\u2069]/)
		expect(smsSegments(sms).segments, `${sms} (${smsSegments(sms).characters})`).toBeLessThanOrEqual(2)
	})

	// A bounced transfer's reason rides in the SMS up to BOUNCE_REASON_SMS characters (app/notify/case-notices.server.ts).
	test.each(['payment-bounced', 'payment-bounced-final'] as const)('%s with its reason', (event) => {
		const { sms } = renderMessage(messageEvent(event)!.defaults, { ...values(event), staffMessage: 'ب'.repeat(BOUNCE_REASON_SMS) })
		expect(sms).toContain(`السبب: ${'ب'.repeat(BOUNCE_REASON_SMS)}`)
		expect(smsSegments(sms).segments, `${sms} (${smsSegments(sms).characters})`).toBeLessThanOrEqual(2)
	})

	test('a day in an SMS: both calendars in digits, the weekday for a visit', () => {
		expect(smsDay('2026-11-29')).toBe('29/11/2026م (19/6/1448هـ)')
		expect(smsDay('2026-11-29', { weekday: true })).toBe(`${formatWeekday('2026-11-29')} 29/11/2026م (19/6/1448هـ)`)
	})
})

describe('renderTemplate', () => {
	test('replaces each placeholder; a line whose placeholders are all empty is left out, and the blank lines it leaves', () => {
		const text = 'طلبك رقم {رقم_الطلب}.\n\nرسالة من المؤسسة: {رسالة_الموظف}\n\nتابع طلبك: {الرابط}'
		expect(renderTemplate(text, { reference: 'K7M2-PX4R', link: 'https://x/apply/status', staffMessage: '' })).toBe('طلبك رقم K7M2-PX4R.\n\nتابع طلبك: https://x/apply/status')
		expect(renderTemplate(text, { reference: 'K7M2-PX4R', link: 'L', staffMessage: 'أرفق الصك' })).toContain('رسالة من المؤسسة: أرفق الصك')
	})

	test('an unknown placeholder stays as written', () => {
		expect(renderTemplate('مرحباً {الجوال}', {})).toBe('مرحباً {الجوال}')
	})
})

describe('renderSms', () => {
	const event = messageEvent('applicant-message')!
	const values = { reference: 'K7M2-PX4R', link: `${origin}/apply/status` }

	test('a long staff message is cut to fit the limit, ending in «…», on one line', () => {
		const sms = renderSms(event.defaults.sms, { ...values, staffMessage: `سطر أول\n${'ب'.repeat(2000)}` })
		expect(smsSegments(sms).segments).toBe(MAX_SMS_SEGMENTS)
		expect(sms).toContain('رسالة من المؤسسة: سطر أول ببب')
		expect(sms).toMatch(/…\n/)
		expect(sms).toContain(`${origin}/apply/status`)
	})

	test('emoji are not split, and the limit holds', () => {
		const sms = renderSms(event.defaults.sms, { ...values, staffMessage: '🌙'.repeat(1000) })
		expect(smsSegments(sms).segments).toBeLessThanOrEqual(MAX_SMS_SEGMENTS)
		expect(sms).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/)
	})

	test('with no room for a short sentence the staff message is left out, not cut to a fragment', () => {
		const sms = renderSms('{الرابط}\n{رسالة_الموظف}', { link: `https://ataa.org.sa/${'x'.repeat(380)}`, staffMessage: 'نص طويل '.repeat(50) })
		expect(sms).not.toContain('نص')
	})
})

describe('templateProblems', () => {
	const event = messageEvent('status:2')!
	const ok = event.defaults

	test('an unknown placeholder, or one this event does not offer', () => {
		expect(templateProblems(event, { ...ok, sms: 'طلبك {رقم_الطلب} {الجوال}' }).sms).toEqual([expect.stringContaining('المتغير {الجوال} لا تقدمه هذه الرسالة')])
		expect(templateProblems(event, { ...ok, emailBody: 'الأقسام: {الأقسام}' }).emailBody?.[0]).toContain('{الأقسام}')
	})

	test('an empty text', () => {
		expect(templateProblems(event, { ...ok, emailSubject: '  ' })).toEqual({ emailSubject: ['الرجاء كتابة عنوان البريد الإلكتروني'] })
	})

	test('an SMS of more than six parts', () => {
		const problems = templateProblems(event, { ...ok, sms: `{رقم_الطلب} ${'ب'.repeat(500)}` })
		expect(problems.sms).toEqual(['الرسالة النصية تُرسل في 8 رسائل بالقيم التجريبية، والحد 6 رسائل: اختصرها'])
	})

	test('promotional wording, whatever its vowels or prefixes; «لفتحه» or «عرضه» are not', () => {
		const problems = templateProblems(event, { ...ok, sms: 'خصم خاص! تبرع الآن {الرابط}', emailBody: 'وبالمجانِ مجاناً {الرابط}' })
		expect(problems.sms).toEqual(['الرسائل للإبلاغ عن الطلبات فقط، لا للترويج أو جمع التبرعات: احذف «خصم»، «تبرع الآن»'])
		expect(problems.emailBody).toEqual(['الرسائل للإبلاغ عن الطلبات فقط، لا للترويج أو جمع التبرعات: احذف «مجانا»'])
		expect(templateProblems(event, { ...ok, emailBody: `${ok.emailBody}\nنعتذر عن تأخر عرضه على اللجنة.` })).toEqual({})
	})

	test('an e-mail-only event has no SMS to check', () => {
		const submission = messageEvent('new-submission')!
		expect(templateProblems(submission, { ...submission.defaults, sms: '' })).toEqual({})
	})
})

describe('a stored message as staff read it', () => {
	const base = { id: 'm1', event: 'status:4', channel: 'sms', recipient: '+966551234567', attempts: 1, nextAttemptAt: null, lastError: null, createdAt: new Date('2026-01-10T09:00:00Z'), sentAt: null }

	test('masked recipients', () => {
		expect(maskRecipient('sms', '+966551234567')).toBe('05•••••567')
		expect(maskRecipient('email', 'family@example.org')).toBe('f…@example.org')
	})

	test('sent, pending with its next try, failed with the reason in Arabic and as the provider said it', () => {
		expect(messageView({ ...base, status: 'sent', sentAt: base.createdAt })).toMatchObject({ label: 'تغيير الحالة إلى «غير مكتمل»', channel: 'رسالة نصية', state: 'sent', stateText: expect.stringMatching(/^أُرسلت في 10\u00a0يناير\u00a02026م \(.+1447هـ\) الساعة 12:00\u00a0مساءً$/), canResend: false })
		expect(messageView({ ...base, status: 'pending', nextAttemptAt: new Date('2026-01-10T09:01:00Z'), lastError: 'HTTP 503' }).stateText).toMatch(/^قيد الإرسال، المحاولة التالية 10\u00a0يناير\u00a02026م .+؛ لم تنجح السابقة: خطأ لدى مزود الخدمة$/)
		const failed = messageView({ ...base, channel: 'email', recipient: 'family@example.org', status: 'failed', lastError: 'SMTP 550: 5.1.1 Mailbox unavailable' })
		expect(failed).toMatchObject({ channel: 'بريد إلكتروني', recipient: 'f…@example.org', stateText: 'تعذّر الإرسال: رفض مزود الخدمة العنوان أو الرقم', technical: 'SMTP 550: 5.1.1 Mailbox unavailable', canResend: true })
	})

	test('every state in Arabic, whatever the provider said (issue 37 §2.8)', () => {
		const reasons = ['no SMS provider configured', 'unifonic is not configured', 'unreadable answer (HTTP 200)', 'the gateway answered with a redirect (check SMS_URL)', 'driver error: boom', 'ER-07 refused', 'unknown error']
		for (const lastError of reasons)
			for (const status of ['pending', 'failed']) {
				const view = messageView({ ...base, status, nextAttemptAt: new Date('2026-01-10T09:01:00Z'), lastError })
				expect(view.stateText, `${status}: ${lastError}`).not.toMatch(/[A-Za-z]/)
				expect(view.technical).toBe(lastError)
			}
		expect(messageView({ ...base, status: 'failed', lastError: 'no SMS provider configured' }).stateText).toBe('تعذّر الإرسال: لا توجد بوابة رسائل نصية مهيأة')
		expect(messageView({ ...base, status: 'failed', lastError: 'ER-07 refused' }).stateText).toBe('تعذّر الإرسال: سبب لم نتعرّف عليه')
	})

	test('known reasons in Arabic; an unknown one is not guessed', () => {
		expect(describeDeliveryError('no SMS provider configured')).toBe('لا توجد بوابة رسائل نصية مهيأة')
		expect(describeDeliveryError('no answer within 10000 ms')).toBe('لم يُجب مزود الخدمة في الوقت المحدد')
		expect(describeDeliveryError('credentials refused (HTTP 401)')).toBe('رفض مزود الخدمة بيانات حساب المؤسسة لديه')
		expect(describeDeliveryError('ECONNREFUSED')).toBe('تعذّر الاتصال بمزود الخدمة')
		expect(describeDeliveryError('HTTP 502')).toBe('خطأ لدى مزود الخدمة')
		expect(describeDeliveryError('something odd')).toBeNull()
	})
})
