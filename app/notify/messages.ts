import type { InquiryMessage, ResumeLinkMessage } from './notifier.server.ts'
import { FOUNDATION, NOT_YOURS } from './templates.ts'
import { unlinkable } from './unlinkable.ts'

// The e-mails that are not kept (the private link, a contact message) and the HTML part of every
// e-mail, as pure functions so they can be read and tested without a mail server. What is said to
// applicants about their case is in templates.ts.

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** Escaped, with the writer's line breaks kept. */
const htmlLines = (text: string) => escapeHtml(text).replace(/\r?\n/g, '<br>\n')

const htmlMail = (paragraphs: string[]) =>
	`<div dir="rtl" lang="ar" style="font-family:Tahoma,Arial,sans-serif;line-height:1.8">\n${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}\n</div>`

const linkHtml = (link: string) => `<a href="${escapeHtml(link)}" dir="ltr">${escapeHtml(link)}</a>`

export interface MailContent {
	subject: string
	text: string
	html?: string
	replyTo?: string
}

export function resumeLinkMail(message: ResumeLinkMessage): MailContent {
	const text = [
		'السلام عليكم ورحمة الله،',
		'',
		`هذا رابط طلبك «${message.formTitle}» رقم ${message.reference} لدى ${FOUNDATION}.`,
		'تكمل منه الطلب أو تعدله أو تتابع حالته. احتفظ به ولا تشاركه مع أحد:',
		'',
		message.link,
		'',
		NOT_YOURS,
	].join('\n')
	const html = htmlMail([
		'السلام عليكم ورحمة الله،',
		`هذا رابط طلبك «${escapeHtml(message.formTitle)}» رقم <strong dir="ltr">${escapeHtml(message.reference)}</strong> لدى ${FOUNDATION}.
تكمل منه الطلب أو تعدله أو تتابع حالته. احتفظ به ولا تشاركه مع أحد:`,
		linkHtml(message.link),
		NOT_YOURS,
	])
	return { subject: `رابط طلبك رقم ${message.reference} - ${FOUNDATION}`, text, html }
}

export function inquiryMail(message: InquiryMessage): MailContent {
	// All of it typed by a visitor: no address in it becomes a link (the reply goes to their e-mail by Reply-To).
	const text = [`من: ${unlinkable(message.name)}`, `البريد: ${message.email}`, `الجوال: ${message.mobile}`, `الموضوع: ${unlinkable(message.subject)}`, '', unlinkable(message.message)].join('\n')
	return { subject: `رسالة من نموذج التواصل: ${unlinkable(message.subject)}`, text, replyTo: message.email }
}

/** A bare address in a text: its lookup link, a case's link in the back office. */
const URL_PATTERN = /https?:\/\/[^\s<>"']*[^\s<>"'.,،؛:!?)»]/g

/**
 * An e-mail of a template's subject and text: the text as its plain part, and a right-to-left HTML
 * part with a paragraph per blank-line-separated block, the writer's line breaks kept, and each
 * address a link read left to right.
 */
export function templateMail(subject: string, text: string): MailContent {
	const paragraphs = text
		.split(/\n{2,}/)
		.filter((block) => block.trim())
		.map((block) => {
			let html = ''
			let last = 0
			for (const { index, 0: url } of block.matchAll(URL_PATTERN)) {
				html += htmlLines(block.slice(last, index)) + linkHtml(url)
				last = index + url.length
			}
			return html + htmlLines(block.slice(last))
		})
	return { subject, text, html: htmlMail(paragraphs) }
}
