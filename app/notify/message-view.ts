import { formatDateTime, formatSaudiMobile } from '#app/text/format.ts'
import { messageEventLabel, type Channel } from './templates.ts'

// A stored message as staff read it on the case view (app/routes/admin/+case-messages.tsx): when,
// what, by which channel, to whom (masked), and what became of it, always in Arabic (the provider's
// reason as we understand it); the provider's own words are kept for whoever calls its support.

export const channelLabels: Record<Channel, string> = { sms: 'رسالة نصية', email: 'بريد إلكتروني' }

/** «0551234567» → «05•••••567»; «family@example.org» → «f…@example.org». */
export function maskRecipient(channel: string, recipient: string): string {
	if (channel === 'email') return recipient.replace(/^(.).*@/, '$1…@')
	const shown = formatSaudiMobile(recipient)
	return shown.length > 5 ? `${shown.slice(0, 2)}${'•'.repeat(shown.length - 5)}${shown.slice(-3)}` : shown
}

const reasons: [RegExp, string][] = [
	[/no SMS provider configured/i, 'لا توجد بوابة رسائل نصية مهيأة'],
	[/is not configured/i, 'بوابة الرسائل النصية المختارة غير مهيأة'],
	[/redirect/i, 'أجاب عنوان بوابة الرسائل بتحويل إلى عنوان آخر: راجِع العنوان في الإعدادات'],
	[/unreadable answer/i, 'أجاب مزود الخدمة برد لم نفهمه'],
	[/no mail transport configured/i, 'البريد الإلكتروني غير مهيأ'],
	[/credentials|HTTP 40[13]\b|EAUTH|SMTP 535/i, 'رفض مزود الخدمة بيانات حساب المؤسسة لديه'],
	[/balance|credit|insufficient/i, 'رصيد المؤسسة لدى مزود الخدمة لا يكفي'],
	[/sender/i, 'رفض مزود الخدمة اسم المرسل'],
	[/number|recipient|destination|mobile|SMTP 55[013]/i, 'رفض مزود الخدمة العنوان أو الرقم'],
	[/no answer|time ?out|timed out|ETIMEDOUT|TimeoutError/i, 'لم يُجب مزود الخدمة في الوقت المحدد'],
	[/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|ECONNECTION|ESOCKET|EDNS|network/i, 'تعذّر الاتصال بمزود الخدمة'],
	[/HTTP 429|SMTP 4\d\d/i, 'مزود الخدمة مشغول مؤقتاً'],
	[/HTTP 5\d\d/i, 'خطأ لدى مزود الخدمة'],
	[/SMTP 5\d\d/i, 'رفض خادم البريد الرسالة'],
	[/driver error/i, 'تعذّر على الخادم تسليم الرسالة إلى مزود الخدمة'],
]

/** A reason we do not recognise, said in Arabic all the same (its own words are under it). */
const UNKNOWN_REASON = 'سبب لم نتعرّف عليه'

/** A provider's reason in Arabic, when it is one we know; null otherwise (the technical reason is shown alone). */
export function describeDeliveryError(reason: string | null | undefined): string | null {
	if (!reason) return null
	return reasons.find(([pattern]) => pattern.test(reason))?.[1] ?? null
}

/** When, in both calendars: «22 نوفمبر 2026م (2 جمادى الآخرة 1448هـ) الساعة 10:30 صباحاً». */
const when = formatDateTime

export interface StoredMessage {
	id: string
	event: string
	channel: string
	recipient: string
	status: string
	attempts: number
	nextAttemptAt: Date | null
	lastError: string | null
	createdAt: Date
	sentAt: Date | null
}

export interface MessageView {
	id: string
	at: string
	label: string
	channel: string
	recipient: string
	state: 'sent' | 'pending' | 'failed'
	/** «أُرسلت في …», «قيد الإرسال، المحاولة التالية …؛ لم تنجح السابقة: …», «تعذّر الإرسال: …»: in Arabic whatever the provider said. */
	stateText: string
	/** The provider's reason in its own words (often English), for its support; the page keeps it folded under the Arabic one. */
	technical: string
	canResend: boolean
}

export function messageView(message: StoredMessage): MessageView {
	const state = message.status === 'sent' ? 'sent' : message.status === 'failed' ? 'failed' : 'pending'
	const arabic = message.lastError ? (describeDeliveryError(message.lastError) ?? UNKNOWN_REASON) : null
	const stateText =
		state === 'sent'
			? `أُرسلت${message.sentAt ? ` في ${when(message.sentAt)}` : ''}`
			: state === 'pending'
				? message.attempts > 0 && message.nextAttemptAt
					? `قيد الإرسال، المحاولة التالية ${when(message.nextAttemptAt)}${arabic ? `؛ لم تنجح السابقة: ${arabic}` : ''}`
					: 'قيد الإرسال'
				: `تعذّر الإرسال: ${arabic ?? 'رفض مزود الخدمة الرسالة'}`
	return {
		id: message.id,
		at: when(message.createdAt),
		label: messageEventLabel(message.event),
		channel: channelLabels[message.channel as Channel] ?? message.channel,
		recipient: maskRecipient(message.channel, message.recipient),
		state,
		stateText,
		technical: state === 'sent' ? '' : (message.lastError ?? ''),
		canResend: state === 'failed',
	}
}
