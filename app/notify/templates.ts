import { caseStatuses, Status, type CaseStatus } from '#app/cases/case-statuses.ts'
import { countOf, type CountedNoun } from '#app/text/arabic-count.ts'
import { tooLong } from '#app/text/messages.ts'
import { formatClock, formatDate, formatMoney, formatWeekday } from '#app/text/format.ts'
import { smsSegments, stripDirectionMarks } from './sms-segments.ts'
import { unlinkable } from './unlinkable.ts'

// What the foundation says to applicants (and to itself of a new application), and when: one entry
// per event with the placeholders it offers and its default texts. Staff reword them at
// /admin/messages (a row in `message_templates`); these are the words until then. Pure, so the
// editor previews in the browser exactly what the server sends. No text holds a secret: links go to
// the lookup, where the applicant gets in with a code sent to their mobile
// (docs/decisions/016-messages-and-verified-mobile.md).

export const FOUNDATION = 'مؤسسة عطاء الخيرية'

/** The placeholders, written in a text between braces: {الاسم}. */
export const placeholders = {
	name: { token: 'الاسم', label: 'اسم مقدم الطلب' },
	reference: { token: 'رقم_الطلب', label: 'رقم الطلب' },
	programme: { token: 'البرنامج', label: 'اسم البرنامج' },
	status: { token: 'الحالة', label: 'حالة الطلب الآن' },
	link: { token: 'الرابط', label: 'رابط صفحة الاستعلام عن الطلب' },
	date: { token: 'التاريخ', label: 'التاريخ بالتقويمين الهجري والميلادي' },
	time: { token: 'الساعة', label: 'ساعة الموعد' },
	amount: { token: 'المبلغ', label: 'المبلغ بالريال' },
	sections: { token: 'الأقسام', label: 'الأقسام والمرفقات المطلوب استكمالها' },
	staffMessage: { token: 'رسالة_الموظف', label: 'ما كتبه الموظف إلى المتقدم' },
} as const satisfies Record<string, { token: string; label: string }>

export type PlaceholderKey = keyof typeof placeholders
/** `smsDate`: {التاريخ} as the SMS gives it, shorter than the e-mail's (`smsDay`). */
export type TemplateValues = Record<PlaceholderKey, string> & { smsDate?: string }

const keyOfToken = new Map<string, PlaceholderKey>(Object.entries(placeholders).map(([key, { token }]) => [token, key as PlaceholderKey]))

export type MessageEvent =
	| `status:${CaseStatus}`
	| 'applicant-message'
	| 'visit-scheduled'
	| 'payment-made'
	| 'payment-bounced'
	| 'payment-bounced-final'
	| 'reminder:incomplete'
	| 'reminder:draft'
	| 'closed-unanswered'
	| 'new-submission'

export type Channel = 'sms' | 'email'

export interface TemplateFields {
	sms: string
	emailSubject: string
	emailBody: string
}

export interface MessageEventDef {
	event: MessageEvent
	label: string
	/** The applicant (at the case's mobile and e-mail), or the foundation (its e-mail). */
	audience: 'applicant' | 'foundation'
	channels: readonly Channel[]
	offers: readonly PlaceholderKey[]
	/** What a placeholder means in this event, where it is more than its general label. */
	meanings?: Partial<Record<PlaceholderKey, string>>
	/** An e-mail-only event's `sms` is ''. */
	defaults: TemplateFields
}

const GREETING = 'السلام عليكم ورحمة الله،'
export const NOT_YOURS = 'إن لم تكن قدمت هذا الطلب فتجاهل هذه الرسالة.'
const LOOKUP = 'تتابع طلبك من صفحة «الاستعلام عن طلب»، وتدخلها برمز تحقق يصل إلى جوالك:'
const STAFF_LINE = 'رسالة من المؤسسة: {رسالة_الموظف}'

/** An applicant's e-mail: the greeting, the paragraphs, the lookup's link, and the line for whoever did not apply. */
const applicantMail = (...paragraphs: string[]) => [GREETING, ...paragraphs, `${LOOKUP}\n{الرابط}`, NOT_YOURS].join('\n\n')

const APPLICANT_OFFERS = ['name', 'reference', 'programme', 'status', 'link', 'staffMessage'] as const satisfies readonly PlaceholderKey[]

/** What happens next, as a status notice says it; «غير مكتمل» names what to complete and where, with no private link. */
const nextStep = (status: CaseStatus) =>
	status === Status.Incomplete ? 'طلبك بحاجة إلى استكمال: {الأقسام}. ادخل إلى طلبك من صفحة الاستعلام، وعدّل المطلوب ثم أرسله من جديد.' : caseStatuses[status].next

/** An SMS is signed short: each part of 67 Arabic characters is paid for. */
const SMS_SIGN = 'مؤسسة عطاء'

/** The SMS says less (two parts at most with the longest values: app/notify/templates.test.ts): the lookup says the rest. */
const smsStatusLine = (status: CaseStatus) =>
	status === Status.Incomplete
		? [`${SMS_SIGN}: طلبك {رقم_الطلب} ينقصه: {الأقسام}.`, STAFF_LINE, 'أكمله وأرسله من: {الرابط}']
		: [`${SMS_SIGN}: تغيرت حالة طلبك {رقم_الطلب} إلى «{الحالة}».`, STAFF_LINE, 'التفاصيل: {الرابط}']

function statusEvent(status: CaseStatus): MessageEventDef {
	const next = nextStep(status)
	return {
		event: `status:${status}`,
		label: `تغيير الحالة إلى «${caseStatuses[status].name}»`,
		audience: 'applicant',
		channels: ['sms', 'email'],
		offers: status === Status.Incomplete ? [...APPLICANT_OFFERS, 'sections'] : APPLICANT_OFFERS,
		defaults: {
			sms: smsStatusLine(status).join('\n'),
			emailSubject: `تحديث حالة طلبك رقم {رقم_الطلب} - ${FOUNDATION}`,
			emailBody: applicantMail(`تغيرت حالة طلبك «{البرنامج}» رقم {رقم_الطلب} لدى ${FOUNDATION} إلى: {الحالة}.\n${next}`, STAFF_LINE),
		},
	}
}

const statuses = Object.keys(caseStatuses).map(Number) as CaseStatus[]

const VISIT = 'يزوركم باحث المؤسسة لدراسة طلبكم رقم {رقم_الطلب} يوم {التاريخ} الساعة {الساعة}. نرجو أن يكون أحد أفراد الأسرة البالغين في المنزل، وإن لم يناسبكم الموعد فاتصلوا بالمؤسسة.'
const STILL_INCOMPLETE = 'طلبك رقم {رقم_الطلب} ما زال بحاجة إلى استكمال: {الأقسام}.'
const CLOSE_BY = 'يُغلق الطلب إن لم يُستكمل قبل {التاريخ}.'
const DRAFT = 'طلبك «{البرنامج}» رقم {رقم_الطلب} لم يُرسل بعد. أكمله وأرسله لندرسه.'
const CLOSED = 'أُغلق طلبك رقم {رقم_الطلب} لأنه لم يُستكمل في المدة المحددة. يمكنك التقدم بطلب جديد، أو التواصل مع المؤسسة للاستفسار.'

/** A transfer the bank returned: the same news and reason, then what the family is to do (another IBAN, or nothing: their aid was stopped). */
function bounced(event: 'payment-bounced' | 'payment-bounced-final', label: string, smsNext: string, emailNext: string): MessageEventDef {
	return {
		event,
		label,
		audience: 'applicant',
		channels: ['sms', 'email'],
		offers: ['name', 'reference', 'programme', 'staffMessage', 'link'],
		meanings: { staffMessage: 'سبب إعادة التحويل كما كتبه المسؤول المالي (في الرسالة النصية إن كان قصيراً)' },
		defaults: {
			sms: [`${SMS_SIGN}: أعاد البنك تحويل دعم طلبك {رقم_الطلب}.`, 'السبب: {رسالة_الموظف}', smsNext].join('\n'),
			emailSubject: `أعاد البنك تحويل دعمك لطلبك رقم {رقم_الطلب} - ${FOUNDATION}`,
			emailBody: applicantMail('أعاد البنك التحويل الذي صرفناه لطلبك «{البرنامج}» رقم {رقم_الطلب}، فلم يصل إلى حسابك.', 'السبب: {رسالة_الموظف}', emailNext),
		},
	}
}

export const messageEvents: readonly MessageEventDef[] = [
	...statuses.map(statusEvent),
	{
		event: 'applicant-message',
		label: 'رسالة من الموظف إلى المتقدم',
		audience: 'applicant',
		channels: ['sms', 'email'],
		offers: APPLICANT_OFFERS,
		defaults: {
			sms: [`${SMS_SIGN}: لديك رسالة بخصوص طلبك {رقم_الطلب}.`, STAFF_LINE, 'التفاصيل: {الرابط}'].join('\n'),
			emailSubject: `رسالة بخصوص طلبك رقم {رقم_الطلب} - ${FOUNDATION}`,
			emailBody: applicantMail(`لديك رسالة جديدة بخصوص طلبك «{البرنامج}» رقم {رقم_الطلب} لدى ${FOUNDATION}، وحالته: {الحالة}.`, STAFF_LINE),
		},
	},
	{
		event: 'visit-scheduled',
		label: 'تحديد موعد زيارة',
		audience: 'applicant',
		channels: ['sms', 'email'],
		offers: ['name', 'reference', 'programme', 'date', 'time', 'link'],
		meanings: { date: 'يوم الزيارة وتاريخه بالتقويمين' },
		defaults: {
			sms: `${SMS_SIGN}: يزوركم باحثنا لطلبكم {رقم_الطلب} {التاريخ} {الساعة}.\n{الرابط}`,
			emailSubject: `موعد زيارة لدراسة طلبك رقم {رقم_الطلب} - ${FOUNDATION}`,
			emailBody: applicantMail(VISIT),
		},
	},
	{
		event: 'payment-made',
		label: 'صرف الدعم',
		audience: 'applicant',
		channels: ['sms', 'email'],
		offers: ['name', 'reference', 'programme', 'amount', 'date', 'link'],
		meanings: { date: 'تاريخ الصرف أو التسليم بالتقويمين', amount: 'مبلغ التحويل أو قيمة المساعدة العينية' },
		defaults: {
			sms: `${SMS_SIGN}: صُرف لطلبك {رقم_الطلب} {المبلغ} بتاريخ {التاريخ}.\nالتفاصيل: {الرابط}`,
			emailSubject: `صرف الدعم لطلبك رقم {رقم_الطلب} - ${FOUNDATION}`,
			emailBody: applicantMail('صُرف الدعم لطلبك «{البرنامج}» رقم {رقم_الطلب} بقيمة {المبلغ} بتاريخ {التاريخ}.'),
		},
	},
	bounced('payment-bounced', 'تحويل أعاده البنك', 'أرسل آيباناً آخر من: {الرابط}', 'أرسل إلينا رقم آيبان لحساب آخر باسمك من صفحة طلبك، ونحوّل الدعم إليه بعد أن يتأكد منه مسؤول مالي.'),
	bounced('payment-bounced-final', 'تحويل أعاده البنك بعد إيقاف الدعم', 'لن يعاد لإيقاف دعمك: {الرابط}', 'ولأن صرف دعمك أُوقف قبل ذلك، فلا يُحوَّل هذا المبلغ مرة أخرى، ولا حاجة إلى إرسال آيبان آخر.'),
	{
		event: 'reminder:incomplete',
		label: 'تذكير بطلب غير مكتمل',
		audience: 'applicant',
		channels: ['sms', 'email'],
		offers: ['name', 'reference', 'programme', 'sections', 'date', 'link'],
		meanings: { date: 'آخر يوم للاستكمال، إن كانت الطلبات غير المكتملة تُغلق' },
		defaults: {
			sms: [`${SMS_SIGN}: طلبك {رقم_الطلب} لم يكتمل.`, 'يُغلق إن لم يكتمل قبل {التاريخ}.', 'أكمله من: {الرابط}'].join('\n'),
			emailSubject: `تذكير باستكمال طلبك رقم {رقم_الطلب} - ${FOUNDATION}`,
			emailBody: applicantMail(`${STILL_INCOMPLETE}\nعدّل المطلوب ثم أرسل الطلب من جديد.`, CLOSE_BY),
		},
	},
	{
		event: 'reminder:draft',
		label: 'تذكير بطلب لم يُرسل',
		audience: 'applicant',
		channels: ['sms', 'email'],
		offers: ['name', 'reference', 'programme', 'link'],
		defaults: {
			sms: `${SMS_SIGN}: تذكير: طلبك {رقم_الطلب} لم يُرسل بعد، أكمله وأرسله.\nادخله برمز يصل إلى جوالك: {الرابط}`,
			emailSubject: `تذكير بطلبك رقم {رقم_الطلب} - ${FOUNDATION}`,
			emailBody: applicantMail(DRAFT),
		},
	},
	{
		event: 'closed-unanswered',
		label: 'إغلاق طلب لم يُستكمل في موعده',
		audience: 'applicant',
		channels: ['sms', 'email'],
		offers: ['name', 'reference', 'programme', 'link'],
		defaults: {
			sms: `${SMS_SIGN}: أُغلق طلبك {رقم_الطلب} لأنه لم يُستكمل في موعده، ولك التقدم بطلب جديد.\nالتفاصيل: {الرابط}`,
			emailSubject: `إغلاق طلبك رقم {رقم_الطلب} - ${FOUNDATION}`,
			emailBody: applicantMail(CLOSED),
		},
	},
	{
		event: 'new-submission',
		label: 'إشعار المؤسسة بطلب جديد',
		audience: 'foundation',
		channels: ['email'],
		offers: ['reference', 'programme', 'name', 'link'],
		meanings: { link: 'رابط الطلب في لوحة التحكم' },
		defaults: {
			sms: '',
			emailSubject: 'طلب جديد رقم {رقم_الطلب}: {البرنامج}',
			emailBody: [`وصل طلب جديد «{البرنامج}» إلى ${FOUNDATION}.`, 'رقم الطلب: {رقم_الطلب}\nمقدم الطلب: {الاسم}', 'لفتحه في لوحة التحكم (بعد تسجيل الدخول):\n{الرابط}'].join('\n\n'),
		},
	},
]

const byEvent = new Map<string, MessageEventDef>(messageEvents.map((definition) => [definition.event, definition]))

export function messageEvent(event: string): MessageEventDef | undefined {
	return byEvent.get(event)
}

export const isMessageEvent = (event: string): event is MessageEvent => byEvent.has(event)

/** A case event's label for staff: «تغيير الحالة إلى «غير مكتمل»»; an unknown one as stored. */
export const messageEventLabel = (event: string) => byEvent.get(event)?.label ?? event

/**
 * The text with each placeholder replaced by its value. A line whose placeholders all come out empty
 * is left out («رسالة من المؤسسة: {رسالة_الموظف}» when staff wrote nothing), and so are the blank
 * lines it leaves behind. An unknown placeholder stays as written (templateProblems refuses it).
 */
export function renderTemplate(text: string, values: Partial<TemplateValues>): string {
	const lines = text.replace(/\r\n?/g, '\n').split('\n')
	const kept = lines.flatMap((line) => {
		let known = 0
		let empty = 0
		const rendered = line.replace(/\{([^{}\n]*)\}/g, (whole, token: string) => {
			const key = keyOfToken.get(token.trim())
			if (!key) return whole
			known += 1
			const value = values[key] ?? ''
			if (!value.trim()) empty += 1
			return value
		})
		return known > 0 && empty === known ? [] : [rendered]
	})
	return kept
		.join('\n')
		.replace(/\n{3,}/g, '\n\n')
		.trim()
}

/** An SMS's parts, after «تُرسل في»: «رسالتين», «3 رسائل». */
export const smsParts: CountedNoun = { one: 'رسالة واحدة', two: 'رسالتين', few: 'رسائل', many: 'رسالةً', other: 'رسالة' }

/** The most parts an SMS may be sent as (docs/decisions/016-messages-and-verified-mobile.md). */
export const MAX_SMS_SEGMENTS = 6

/** The first `length` UTF-16 units, without splitting a surrogate pair, ending in «…». */
function shorten(text: string, length: number): string {
	if (text.length <= length) return text
	const end = /[\uD800-\uDBFF]/.test(text.charAt(length - 2)) ? length - 2 : length - 1
	return `${text.slice(0, Math.max(0, end)).trimEnd()}…`
}

const fits = (text: string) => smsSegments(text).segments <= MAX_SMS_SEGMENTS

/**
 * An SMS as sent: one paragraph per line, the staff's message on one line and cut to what fits in
 * MAX_SMS_SEGMENTS (left out when less than a short sentence would fit: it is on the lookup anyway).
 */
export function renderSms(text: string, values: Partial<TemplateValues>): string {
	// Direction marks are paid for and show as nothing on a phone (the sending driver drops them too).
	text = stripDirectionMarks(text)
	values = Object.fromEntries(Object.entries(values).map(([key, value]) => [key, stripDirectionMarks(value ?? '')]))
	const staff = values.staffMessage?.replace(/\s+/g, ' ').trim() ?? ''
	const full = renderTemplate(text, { ...values, staffMessage: staff })
	if (fits(full)) return full
	const without = renderTemplate(text, { ...values, staffMessage: '' })
	const room = MAX_SMS_SEGMENTS * 67 - (renderTemplate(text, { ...values, staffMessage: '…' }).length - 1)
	const cut = staff && room >= 40 ? renderTemplate(text, { ...values, staffMessage: shorten(staff, room) }) : without
	// Only an absurdly long value gets here; the limit holds regardless.
	return fits(cut) ? cut : shorten(cut, MAX_SMS_SEGMENTS * 67)
}

export interface RenderedMessage {
	sms: string
	subject: string
	body: string
}

export function renderMessage(fields: TemplateFields, values: Partial<TemplateValues>): RenderedMessage {
	// The e-mail links every address it holds (templateMail in messages.ts), and mail programs link bare
	// ones: the name the applicant typed is made unlinkable first.
	const mailValues = values.name ? { ...values, name: unlinkable(values.name) } : values
	return {
		sms: renderSms(fields.sms, values.smsDate ? { ...values, date: values.smsDate } : values),
		// A subject is one line.
		subject: renderTemplate(fields.emailSubject, mailValues).replace(/\s+/g, ' '),
		body: renderTemplate(fields.emailBody, mailValues),
	}
}

const hijriDigits = new Intl.DateTimeFormat('ar-SA-u-nu-latn-ca-islamic-umalqura', { timeZone: 'Asia/Riyadh', year: 'numeric', month: 'numeric', day: 'numeric' })
const gregorianDigits = new Intl.DateTimeFormat('en-GB-u-ca-gregory', { timeZone: 'Asia/Riyadh', year: 'numeric', month: 'numeric', day: 'numeric' })

/**
 * A day as an SMS gives it, in both calendars but in digits: «21/10/2026م (10/5/1448هـ)», the weekday
 * first for a visit. The e-mail and the pages write the months in words; in an SMS they cost a part.
 */
export function smsDay(value: Date | string, { weekday = false } = {}): string {
	const date = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T12:00:00+03:00`) : new Date(value)
	const digits = (format: Intl.DateTimeFormat) => {
		const parts = format.formatToParts(date)
		const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((part) => part.type === type)?.value)
		return `${get('day')}/${get('month')}/${get('year')}`
	}
	return `${weekday && typeof value === 'string' ? `${formatWeekday(value)} ` : ''}${digits(gregorianDigits)}م (${digits(hijriDigits)}هـ)`
}

/** Values for a preview, as a real message would have them. */
export function sampleValues(event: MessageEventDef, origin: string, today = new Date()): TemplateValues {
	const status = event.event.startsWith('status:') ? caseStatuses[Number(event.event.slice(7)) as CaseStatus].name : caseStatuses[Status.New].name
	const day = today.toISOString().slice(0, 10)
	return {
		name: 'عبدالله محمد القحطاني',
		reference: 'K7M2-PX4R',
		programme: 'دعم الأسر المحتاجة',
		status,
		link: event.audience === 'foundation' ? `${origin}/admin/cases/K7M2-PX4R` : `${origin}/apply/status`,
		date: event.event === 'visit-scheduled' ? `${formatWeekday(day)} ${formatDate(day)}` : formatDate(day),
		smsDate: smsDay(day, { weekday: event.event === 'visit-scheduled' }),
		time: formatClock('10:30'),
		amount: formatMoney(1500),
		sections: '«بيانات الأسرة»، «صورة الهوية الوطنية»',
		staffMessage: 'نرجو إرفاق صورة واضحة من الهوية الوطنية.',
	}
}

/** Words that sell rather than inform: a message here only tells an applicant of their case. */
const PROMOTIONAL = ['عرض', 'عروض', 'خصم', 'خصومات', 'تخفيض', 'تخفيضات', 'اشترك', 'اشتركوا', 'سارع', 'سارعوا', 'تبرع الآن', 'تبرعوا الآن', 'مجانا', 'هدية', 'هدايا', 'لفترة محدودة']

/** Without short vowels and tatweel, so «مجاناً» is «مجانا». */
const plain = (text: string) => text.replace(/[\u064B-\u065F\u0670\u0640]/g, '')

function promotionalWords(text: string): string[] {
	const body = plain(text)
	return PROMOTIONAL.filter((word) => new RegExp(`(?:^|[^\\p{L}])(?:[وف]?(?:بال|لل|ال|ب|ل)?)${word}(?=$|[^\\p{L}])`, 'u').test(body))
}

export type TemplateField = keyof TemplateFields

const fieldNames: Record<TemplateField, string> = { sms: 'نص الرسالة النصية', emailSubject: 'عنوان البريد الإلكتروني', emailBody: 'نص البريد الإلكتروني' }

/** The fields an event's editor shows: an e-mail-only event has no SMS. */
export const fieldsOf = (event: MessageEventDef): TemplateField[] => (event.channels.includes('sms') ? ['sms', 'emailSubject', 'emailBody'] : ['emailSubject', 'emailBody'])

const MAX_LENGTH: Record<TemplateField, number> = { sms: 1000, emailSubject: 200, emailBody: 5000 }

/** Why these texts cannot be saved for the event, by field, in Arabic; {} when they can. */
export function templateProblems(event: MessageEventDef, fields: TemplateFields): Partial<Record<TemplateField, string[]>> {
	const problems: Partial<Record<TemplateField, string[]>> = {}
	const offered = event.offers.map((key) => `{${placeholders[key].token}}`).join('، ')
	const samples = sampleValues(event, 'https://ataa.org.sa')
	for (const field of fieldsOf(event)) {
		const text = fields[field]
		const found: string[] = []
		if (!text.trim()) found.push(`الرجاء كتابة ${fieldNames[field]}`)
		else if (text.length > MAX_LENGTH[field]) found.push(tooLong(fieldNames[field], MAX_LENGTH[field]))
		for (const [, token] of text.matchAll(/\{([^{}\n]*)\}/g)) {
			const key = keyOfToken.get(token!.trim())
			if (!key || !event.offers.includes(key)) found.push(`المتغير {${token}} لا تقدمه هذه الرسالة. المتغيرات المتاحة: ${offered}`)
		}
		if (field === 'emailSubject' && /\n/.test(text.trim())) found.push('عنوان البريد الإلكتروني سطر واحد')
		const selling = promotionalWords(text)
		if (selling.length) found.push(`الرسائل للإبلاغ عن الطلبات فقط، لا للترويج أو جمع التبرعات: احذف ${selling.map((word) => `«${word}»`).join('، ')}`)
		if (field === 'sms' && text.trim()) {
			const { segments } = smsSegments(renderTemplate(text, samples))
			if (segments > MAX_SMS_SEGMENTS) found.push(`الرسالة النصية تُرسل في ${countOf(segments, smsParts)} بالقيم التجريبية، والحد ${countOf(MAX_SMS_SEGMENTS, smsParts)}: اختصرها`)
		}
		if (found.length) problems[field] = found
	}
	return problems
}
