import { expect, test } from 'vitest'
import { resumeLinkMail, templateMail } from './messages.ts'

test('the resume link e-mail holds the private link, right to left', () => {
	const mail = resumeLinkMail({ to: 'family@example.org', reference: 'K7M2-PX4R', formTitle: 'طلب <دعم>', link: 'https://ataa.org.sa/apply/r/abc' })
	expect(mail.subject).toBe('رابط طلبك رقم K7M2-PX4R - مؤسسة عطاء الخيرية')
	expect(mail.text).toContain('https://ataa.org.sa/apply/r/abc')
	expect(mail.html).toContain('dir="rtl" lang="ar"')
	expect(mail.html).toContain('طلب &#60;دعم&#62;')
})

test('a template e-mail: the text as its plain part, and an escaped right-to-left HTML part with paragraphs, line breaks and the links', () => {
	const text = 'السلام عليكم ورحمة الله،\n\nرسالة من المؤسسة: أرفق <السجل>\nشكراً\n\nتتابع طلبك من:\nhttps://ataa.org.sa/apply/status.'
	const mail = templateMail('تحديث حالة طلبك رقم K7M2-PX4R', text)
	expect(mail.subject).toBe('تحديث حالة طلبك رقم K7M2-PX4R')
	expect(mail.text).toBe(text)
	expect(mail.html).toMatch(/^<div dir="rtl" lang="ar"/)
	expect(mail.html!.match(/<p>/g)).toHaveLength(3)
	expect(mail.html).toContain('أرفق &#60;السجل&#62;<br>\nشكراً')
	// The full stop after the address is not part of the link.
	expect(mail.html).toContain('<a href="https://ataa.org.sa/apply/status" dir="ltr">https://ataa.org.sa/apply/status</a>.')
})
