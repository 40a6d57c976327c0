import type { ApplicationDef } from '#app/forms/definition.ts'
import { formatClock, formatDate, formatMoney, formatWeekday } from '#app/text/format.ts'
import { aidKindLabel } from './aid.ts'
import { staffStatusName, Status } from '#app/cases/case-statuses.ts'
import { monthsCount, sensitiveDataName } from '#app/privacy/consent-rules.ts'
import { recommendationLabel } from './studies.ts'
import { staffSlotLabel } from './staff-files.ts'
import { aidActionLabels, aidStateLabels, instalmentsNoun, type AidAction, type AidState } from './aid.ts'
import { countOf } from '#app/text/arabic-count.ts'

// A case's history in words, for the staff case view (app/routes/admin/case.tsx).

export interface HistoryEvent {
	kind: string
	note: string
	data: Record<string, unknown>
}

const sectionTitle = (definition: ApplicationDef | undefined, key: unknown) => definition?.sections.find((section) => section.key === key)?.title ?? String(key ?? '')
const slotLabel = (definition: ApplicationDef | undefined, slot: unknown) =>
	definition?.sections.flatMap((section) => section.files ?? []).find((file) => file.slot === slot)?.label ?? staffSlotLabel(String(slot ?? '')) ?? String(slot ?? '')

/** What happened, in one line (the note, when any, is shown beside it). */
/** The day aid was given (yyyy-mm-dd), written as every other date; anything else as stored. */
const givenOn = (value: unknown) => (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? formatDate(value) : String(value))

export function describeEvent(event: HistoryEvent, definition: ApplicationDef | undefined): string {
	const { data } = event
	switch (event.kind) {
		case 'created':
			return 'بدء الطلب'
		case 'section_saved':
			// The consent step is recorded as a step saved (app/privacy/notice.server.ts saveConsent).
			if (data.section === 'consent') {
				const what = definition ? sensitiveDataName(definition) : 'البيانات الصحية والمالية'
				return data.consent === 'given' ? `الموافقة على جمع ${what} (إشعار الخصوصية، الإصدار ${String(data.noticeVersion ?? '')})` : `عدم الموافقة على جمع ${what}`
			}
			return `حفظ «${sectionTitle(definition, data.section)}»`
		case 'file_added':
			return `إرفاق «${String(data.name ?? '')}» في «${slotLabel(definition, data.slot)}»`
		case 'file_removed':
			return `حذف المرفق «${String(data.name ?? '')}» من «${slotLabel(definition, data.slot)}»`
		case 'submitted':
			return data.resubmitted ? `أعاد المتقدم إرسال الطلب بعد الاستكمال: من «${staffStatusName(Number(data.from ?? Status.Incomplete))}» إلى «${staffStatusName(Status.New)}»` : 'إرسال الطلب'
		case 'status_changed': {
			const reopened = data.reopened as { sections?: string[]; slots?: string[] } | undefined
			const asked = reopened ? [...(reopened.sections ?? []).map((key) => sectionTitle(definition, key)), ...(reopened.slots ?? []).map((slot) => slotLabel(definition, slot))] : []
			return `تغيير الحالة من «${staffStatusName(Number(data.from))}» إلى «${staffStatusName(Number(data.to))}»${asked.length ? ` — المطلوب: ${asked.join('، ')}` : ''}`
		}
		case 'internal_note':
			return 'ملاحظة داخلية'
		case 'applicant_message':
			return 'رسالة إلى المتقدم'
		case 'link_sent':
			return data.to === 'browser' ? 'فتح المتقدم طلبه من «الاستعلام عن طلب» برابط جديد بعد تأكيد جواله' : 'إرسال رابط جديد للطلب إلى المتقدم'
		case 'assigned':
			return data.officerName ? `إسناد الطلب إلى ${String(data.officerName)}` : 'إلغاء إسناد الطلب'
		case 'aid_recorded':
			return `تسجيل دعم: ${formatMoney(Number(data.amount))} — ${aidKindLabel(String(data.kind))} بتاريخ ${givenOn(data.givenOn)}`
		case 'study_recorded': {
			const aid = data.aidKind ? ` — ${aidKindLabel(String(data.aidKind))}، ${formatMoney(Number(data.amount))}${data.months ? ` شهرياً لمدة ${monthsCount(Number(data.months))}` : ''}` : ''
			return `تسجيل الدراسة: التوصية «${recommendationLabel(String(data.recommendation))}»${aid}`
		}
		case 'decided': {
			if (data.outcome === 'approve') return `قرار لجنة الصرف: اعتماد ${aidKindLabel(String(data.aidKind))}، ${formatMoney(Number(data.amount))}${data.months ? ` شهرياً لمدة ${monthsCount(Number(data.months))}` : ''}${data.fund ? ` من «${String(data.fund)}»` : ''}`
			if (data.outcome === 'reject') return `قرار لجنة الصرف: رفض الطلب — ${String(data.reason ?? '')}`
			return 'قرار لجنة الصرف: إعادة الطلب لدراسة أكثر'
		}
		case 'aid_proposed':
			return `${data.purpose === 'additional' ? 'اقتراح دعم إضافي' : 'اقتراح دعم'} على لجنة الصرف: ${aidKindLabel(String(data.aidKind))}، ${formatMoney(Number(data.amount))}`
		case 'proposal_settled':
			return `${data.outcome === 'first-approval' ? `اعتماد أول بانتظار اعتماد ثانٍ: ${aidKindLabel(String(data.aidKind))}، ${formatMoney(Number(data.amount))}${data.months ? ` شهرياً لمدة ${monthsCount(Number(data.months))}` : ''}${data.fund ? ` من «${String(data.fund)}»` : ''}` : `رفض لجنة الصرف اقتراح الدعم (${aidKindLabel(String(data.aidKind))}، ${formatMoney(Number(data.amount))}) — ${String(data.reason ?? '')}`}`
		case 'payment_recorded':
			return `${data.delivered ? 'تسليم مساعدة عينية' : 'صرف تحويل'}: ${aidKindLabel(String(data.kind))}، ${formatMoney(Number(data.amount))} بتاريخ ${givenOn(data.on)}`
		case 'payment_reopened':
			return `إعادة تحويل أعاده البنك (${formatMoney(Number(data.amount))}): يعود القسط إلى «بانتظار الصرف»`
		case 'visit_scheduled':
			return `تحديد موعد زيارة: ${formatWeekday(String(data.visitOn))} ${givenOn(data.visitOn)} الساعة ${formatClock(String(data.visitAt))}${data.visitorName ? ` — يزور: ${String(data.visitorName)}` : ''}`
		case 'visit_cancelled':
			return `إلغاء موعد الزيارة: ${formatWeekday(String(data.visitOn))} ${givenOn(data.visitOn)} الساعة ${formatClock(String(data.visitAt))}`
		case 'answers_corrected': {
			const changes = (data.changes ?? []) as { label: string; before: string; after: string }[]
			return `تصحيح «${sectionTitle(definition, data.section)}»: ${changes.map((change) => `${change.label}: «${change.before || '—'}» ← «${change.after || '—'}»`).join('؛ ')}`
		}
		case 'printed':
			return 'طباعة تقرير الطلب'
		case 'deleted':
			return 'حذف الطلب'
		case 'restored':
			return 'استعادة الطلب المحذوف'
		case 'notified': {
			const said = [data.email ? 'بالبريد الإلكتروني' : '', data.sms ? 'برسالة نصية' : ''].filter(Boolean)
			return said.length ? `إبلاغ المتقدم ${said.join(' و')}` : 'لم يُبلَّغ المتقدم (لا بريد ولا رسائل نصية مهيأة)'
		}
		case 'mobile_verified':
			return data.how === 'in-person' ? 'تأكيد رقم الجوال حضورياً (طلب ورقي)' : 'تأكيد المتقدم رقم جواله برمز وصله عليه'
		case 'mobile_changed':
			return 'تغيير رقم الجوال بعد التحقق من هوية المتقدم'
		case 'message_resent':
			return 'إعادة إرسال رسالة إلى المتقدم'
		case 'reminded':
			return data.event === 'reminder:draft' ? 'تذكير المتقدم بإرسال طلبه' : `تذكير المتقدم باستكمال طلبه${data.n ? ` (التذكير ${data.n === 1 ? 'الأول' : 'الثاني'})` : ''}`
		case 'aid_changed':
			return aidChangeText(data)
		case 'iban_changed':
			return ibanEventText(data)
		case 'closed_unanswered':
			return 'إغلاق الطلب تلقائياً: لم يستكمله المتقدم في المهلة'
		default:
			return event.kind
	}
}

/** A monthly aid held, stopped or resumed (app/aid/monthly-aid.server.ts), or its re-study date set. */
function aidChangeText(data: Record<string, unknown>): string {
	if (!data.action) return data.restudyOn ? `تحديد موعد إعادة دراسة الدعم الشهري: ${givenOn(data.restudyOn)}` : 'إلغاء موعد إعادة الدراسة المحدد: شهر قبل آخر قسط'
	const count = Array.isArray(data.instalments) ? data.instalments.length : 0
	return `${aidActionLabels[data.action as AidAction] ?? String(data.action)} للدعم الشهري: من «${aidStateLabels[data.from as AidState] ?? ''}» إلى «${aidStateLabels[data.to as AidState] ?? ''}»${count ? ` (${countOf(count, instalmentsNoun)})` : ''}`
}

/** The transfer account given, confirmed or refused by the bank after the approval (app/aid/payee-accounts.server.ts). */
function ibanEventText(data: Record<string, unknown>): string {
	const iban = typeof data.iban === 'string' ? `…${data.iban.slice(-4)}` : ''
	if (data.kind === 'confirmed') return `تأكيد الآيبان المنتهي بـ ${iban} من مسؤول مالي`
	if (data.kind === 'bounced') return `أعاد البنك تحويلاً إلى الآيبان المنتهي بـ ${iban}: ينتظر الطلب آيباناً آخر يؤكده مسؤول مالي`
	return `${data.by === 'applicant' ? 'أدخل المتقدم' : 'أُدخل'} آيباناً جديداً ينتهي بـ ${iban} بعد الاعتماد: بانتظار تأكيد مسؤول مالي`
}
