import type { InquiryMessage, NewSubmissionMessage, ResumeLinkMessage, StatusUpdateMessage } from './notifier.server.ts'

// The texts of every message, as pure functions so they can be read and tested without a mail server or gateway.

const FOUNDATION = 'مؤسسة عطاء الخيرية'
const NOT_YOURS = 'إن لم تكن قدمت هذا الطلب فتجاهل هذه الرسالة.'

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
	const text = [`من: ${message.name}`, `البريد: ${message.email}`, `الجوال: ${message.mobile}`, `الموضوع: ${message.subject}`, '', message.message].join('\n')
	return { subject: `رسالة من نموذج التواصل: ${message.subject}`, text, replyTo: message.email }
}

export function statusUpdateMail(message: StatusUpdateMessage): MailContent {
	const staff = message.applicantMessage?.trim()
	const follow = 'تتابع طلبك أو تستكمله من رابطك الخاص. احتفظ به ولا تشاركه مع أحد:'
	// Without the private link the applicant can still look the case up by ID and mobile.
	const lookup = 'تتابع طلبك من صفحة «الاستعلام عن طلب» في موقع المؤسسة.'
	const text = [
		'السلام عليكم ورحمة الله،',
		'',
		message.messageOnly
			? `لديك رسالة جديدة بخصوص طلبك «${message.formTitle}» رقم ${message.reference} لدى ${FOUNDATION}، وحالته: ${message.statusName}.`
			: `تغيرت حالة طلبك «${message.formTitle}» رقم ${message.reference} لدى ${FOUNDATION} إلى: ${message.statusName}.`,
		message.next,
		...(staff ? ['', 'رسالة من المؤسسة:', staff] : []),
		'',
		...(message.link ? [follow, '', message.link] : [lookup]),
		'',
		NOT_YOURS,
	].join('\n')
	const html = htmlMail([
		'السلام عليكم ورحمة الله،',
		`${message.messageOnly ? 'لديك رسالة جديدة بخصوص طلبك' : 'تغيرت حالة طلبك'} «${escapeHtml(message.formTitle)}» رقم <strong dir="ltr">${escapeHtml(message.reference)}</strong> لدى ${FOUNDATION}${message.messageOnly ? '، وحالته' : ' إلى'}: <strong>${escapeHtml(message.statusName)}</strong>.<br>
${escapeHtml(message.next)}`,
		...(staff ? [`<strong>رسالة من المؤسسة:</strong><br>\n${htmlLines(staff)}`] : []),
		...(message.link ? [follow, linkHtml(message.link)] : [lookup]),
		NOT_YOURS,
	])
	return { subject: `${message.messageOnly ? 'رسالة بخصوص طلبك' : 'تحديث حالة طلبك'} رقم ${message.reference} - ${FOUNDATION}`, text, html }
}

export function newSubmissionMail(message: NewSubmissionMessage): MailContent {
	const intro = `وصل طلب جديد «${message.formTitle}» إلى ${FOUNDATION}.`
	const open = 'لعرضه في لوحة الإدارة (بعد تسجيل الدخول):'
	const text = [intro, '', `رقم الطلب: ${message.reference}`, `مقدم الطلب: ${message.applicantName}`, '', open, message.adminLink].join('\n')
	const html = htmlMail([
		escapeHtml(intro),
		`رقم الطلب: <strong dir="ltr">${escapeHtml(message.reference)}</strong><br>\nمقدم الطلب: ${escapeHtml(message.applicantName)}`,
		`${open}<br>\n${linkHtml(message.adminLink)}`,
	])
	return { subject: `طلب جديد رقم ${message.reference}: ${message.formTitle}`, text, html }
}

/** Arabic SMS are sent as UCS-2, 67 characters a part: 480 is about seven parts, the most worth paying for. */
export const SMS_MAX_LENGTH = 480

/** The first `length` UTF-16 units, without splitting a surrogate pair. */
function cut(text: string, length: number): string {
	const end = /[\uD800-\uDBFF]/.test(text.charAt(length - 1)) ? length - 1 : length
	return text.slice(0, Math.max(0, end))
}

/** Cut to `length` characters, the last being «…». */
function shorten(text: string, length: number): string {
	return text.length <= length ? text : `${cut(text, length - 1).trimEnd()}…`
}

export function statusUpdateSms(message: StatusUpdateMessage): string {
	const head = message.messageOnly
		? `${FOUNDATION}: لديك رسالة جديدة بخصوص طلبك رقم ${message.reference}.`
		: `${FOUNDATION}: تغيرت حالة طلبك رقم ${message.reference} إلى «${message.statusName}». ${message.next}`
	const tail = message.link ? ` رابط طلبك: ${message.link}` : ''
	// An SMS is one paragraph: the staff message's line breaks become spaces.
	const staff = message.applicantMessage?.replace(/\s+/g, ' ').trim()
	const label = ' رسالة من المؤسسة: '
	const room = SMS_MAX_LENGTH - head.length - label.length - tail.length
	// With less room than a short sentence, the staff message is left out rather than cut to a fragment.
	const text = staff && room >= 40 ? head + label + shorten(staff, room) + tail : head + tail
	// Only an absurdly long link or status text gets here; the limit holds regardless.
	return shorten(text, SMS_MAX_LENGTH)
}
