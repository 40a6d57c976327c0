import nodemailer, { type SendMailOptions } from 'nodemailer'
import type { InquiryMessage, Notifier, ResumeLinkMessage } from './notifier.server.ts'

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

function resumeLinkMail(message: ResumeLinkMessage) {
	const text = [
		'السلام عليكم ورحمة الله،',
		'',
		`هذا رابط طلبك «${message.formTitle}» رقم ${message.reference} لدى مؤسسة عطاء الخيرية.`,
		'تكمل منه الطلب أو تعدله أو تتابع حالته. احتفظ به ولا تشاركه مع أحد:',
		'',
		message.link,
		'',
		'إن لم تكن قدمت هذا الطلب فتجاهل هذه الرسالة.',
	].join('\n')
	const html = `<div dir="rtl" lang="ar" style="font-family:Tahoma,Arial,sans-serif;line-height:1.8">
<p>السلام عليكم ورحمة الله،</p>
<p>هذا رابط طلبك «${escapeHtml(message.formTitle)}» رقم <strong dir="ltr">${escapeHtml(message.reference)}</strong> لدى مؤسسة عطاء الخيرية.
تكمل منه الطلب أو تعدله أو تتابع حالته. احتفظ به ولا تشاركه مع أحد:</p>
<p><a href="${escapeHtml(message.link)}" dir="ltr">${escapeHtml(message.link)}</a></p>
<p>إن لم تكن قدمت هذا الطلب فتجاهل هذه الرسالة.</p>
</div>`
	return { subject: `رابط طلبك رقم ${message.reference} - مؤسسة عطاء الخيرية`, text, html }
}

function inquiryMail(message: InquiryMessage) {
	const text = [`من: ${message.name}`, `البريد: ${message.email}`, `الجوال: ${message.mobile}`, `الموضوع: ${message.subject}`, '', message.message].join('\n')
	return { subject: `رسالة من نموذج التواصل: ${message.subject}`, text, replyTo: message.email }
}

/** E-mail through the SMTP server in `url` (smtp:// or smtps://, credentials in the URL). */
export function mailNotifier(url: string, from: string): Notifier {
	const transport = nodemailer.createTransport(url)
	// A mail failure never fails what the visitor did: the link is on screen, the message is stored.
	const send = async (what: string, mail: SendMailOptions) => {
		try {
			await transport.sendMail({ from, textEncoding: 'quoted-printable', ...mail })
			return true
		} catch (error) {
			console.error(`[notify] e-mail for ${what} failed:`, (error as Error).message)
			return false
		}
	}
	return {
		emails: true,
		sendResumeLink: (message) => send(message.reference, { to: message.to, ...resumeLinkMail(message) }),
		sendInquiry: (message) => send('a contact message', { to: message.to, ...inquiryMail(message) }),
	}
}
