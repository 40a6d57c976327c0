import { describe, expect, test } from 'vitest'
import { caseStatuses } from '#app/cases/case-statuses.ts'
import { newSubmissionMail, SMS_MAX_LENGTH, statusUpdateMail, statusUpdateSms } from './messages.ts'
import type { StatusUpdateMessage } from './notifier.server.ts'

const update: StatusUpdateMessage = {
	email: 'family@example.org',
	mobile: '+966551234567',
	reference: 'K7M2-PX4R',
	formTitle: 'طلب دعم الأسر المحتاجة',
	statusName: caseStatuses[2].name,
	next: caseStatuses[2].next,
	link: 'https://ataa.org.sa/apply/r/0123456789abcdef0123456789abcdef',
}

describe('statusUpdateSms', () => {
	test('names the foundation, the reference, the new status, what happens next and the link', () => {
		const sms = statusUpdateSms(update)
		expect(sms).toBe(
			'مؤسسة عطاء الخيرية: تغيرت حالة طلبك رقم K7M2-PX4R إلى «تمت الدراسة». دُرس طلبك وهو بانتظار قرار الصرف. رابط طلبك: https://ataa.org.sa/apply/r/0123456789abcdef0123456789abcdef',
		)
		expect(sms.length).toBeLessThan(300)
	})

	test('without a link there is no link sentence', () => {
		const sms = statusUpdateSms({ ...update, link: undefined })
		expect(sms).toContain('K7M2-PX4R')
		expect(sms).toContain('«تمت الدراسة»')
		expect(sms).not.toContain('رابط')
	})

	test('includes the staff message on one line', () => {
		const sms = statusUpdateSms({ ...update, applicantMessage: '  نرجو إرفاق صورة الصك.\nشكرًا لكم  ' })
		expect(sms).toContain('رسالة من المؤسسة: نرجو إرفاق صورة الصك. شكرًا لكم رابط طلبك:')
	})

	test.each(Object.values(caseStatuses))('every status fits with a long staff message: $name', (status) => {
		const sms = statusUpdateSms({ ...update, statusName: status.name, next: status.next, applicantMessage: 'ب'.repeat(2000) })
		expect(sms.length).toBeLessThanOrEqual(SMS_MAX_LENGTH)
		expect(sms).toContain('K7M2-PX4R')
		expect(sms).toContain(`«${status.name}»`)
		// The staff message is what is shortened: the link stays whole at the end.
		expect(sms.endsWith(`… رابط طلبك: ${update.link}`)).toBe(true)
	})

	test('a shortened staff message does not split a character made of two code units', () => {
		const sms = statusUpdateSms({ ...update, applicantMessage: '🌙'.repeat(1000) })
		expect(sms.length).toBeLessThanOrEqual(SMS_MAX_LENGTH)
		expect(sms).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/)
	})

	test('the limit holds even when the fixed parts alone are too long', () => {
		const sms = statusUpdateSms({ ...update, link: `https://ataa.org.sa/${'x'.repeat(600)}`, applicantMessage: 'نص' })
		expect(sms.length).toBeLessThanOrEqual(SMS_MAX_LENGTH)
		expect(sms).not.toContain('رسالة من المؤسسة')
	})
})

describe('statusUpdateMail', () => {
	test('subject, status, what happens next, the link and the not-yours line, right to left', () => {
		const mail = statusUpdateMail(update)
		expect(mail.subject).toBe('تحديث حالة طلبك رقم K7M2-PX4R - مؤسسة عطاء الخيرية')
		for (const body of [mail.text, mail.html!]) {
			expect(body).toContain('تمت الدراسة')
			expect(body).toContain(caseStatuses[2].next)
			expect(body).toContain(update.link)
			expect(body).toContain('إن لم تكن قدمت هذا الطلب فتجاهل هذه الرسالة')
			expect(body).not.toContain('رسالة من المؤسسة')
		}
		expect(mail.html).toContain('dir="rtl"')
		expect(mail.html).toContain(`<a href="${update.link}" dir="ltr">`)
	})

	test('the staff message is escaped in the HTML and kept as written in the text', () => {
		const applicantMessage = 'يرجى مراجعة المؤسسة <script>alert("x")</script>\nمع الشكر & التقدير'
		const mail = statusUpdateMail({ ...update, applicantMessage })
		expect(mail.html).not.toContain('<script>')
		expect(mail.html).toContain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;<br>')
		expect(mail.html).toContain('مع الشكر &#38; التقدير')
		expect(mail.text).toContain(applicantMessage)
	})

	test('without a link it points to the status lookup instead', () => {
		const mail = statusUpdateMail({ ...update, link: undefined })
		expect(mail.text).toContain('الاستعلام عن طلب')
		expect(mail.html).not.toContain('<a ')
	})
})

test('newSubmissionMail tells the foundation the reference, programme, applicant and admin link, escaped', () => {
	const mail = newSubmissionMail({ to: 'info@ataa.org.sa', reference: 'K7M2-PX4R', formTitle: 'طلب دعم الأسر المحتاجة', applicantName: 'أم <محمد>', adminLink: 'https://ataa.org.sa/admin/cases/K7M2-PX4R' })
	expect(mail.subject).toContain('K7M2-PX4R')
	expect(mail.text).toContain('أم <محمد>')
	expect(mail.text).toContain('https://ataa.org.sa/admin/cases/K7M2-PX4R')
	expect(mail.html).toContain('dir="rtl"')
	expect(mail.html).toContain('أم &#60;محمد&#62;')
	expect(mail.html).toContain('<a href="https://ataa.org.sa/admin/cases/K7M2-PX4R" dir="ltr">')
})

test('a message without a status change does not say the status changed', () => {
	const base = { mobile: '+966551234567', reference: 'K7M2-PX4R', formTitle: 'طلب', statusName: 'جديد', next: 'التالي', applicantMessage: 'أرفق السجل', messageOnly: true }
	expect(statusUpdateSms(base)).toContain('لديك رسالة جديدة بخصوص طلبك رقم K7M2-PX4R')
	expect(statusUpdateSms(base)).not.toContain('تغيرت حالة')
	const mail = statusUpdateMail(base)
	expect(mail.subject).toBe('رسالة بخصوص طلبك رقم K7M2-PX4R - مؤسسة عطاء الخيرية')
	expect(mail.text).not.toContain('تغيرت حالة')
})
