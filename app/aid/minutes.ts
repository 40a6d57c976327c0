// The minutes of a committee meeting (محضر اجتماع لجنة الصرف, docs/product.md#committee-meetings):
// what closing a meeting writes (`Minutes`, stored as it was then) and the same in words, for the
// meeting's page and the minutes' print, so both say the same thing.
import { aidKindLabel, outcomeLabels } from '#app/cases/aid.ts'
import { monthsCount } from '#app/privacy/consent-rules.ts'
import { formatDate, formatDateTime, formatMoney } from '#app/text/format.ts'

/** One decision as the minutes list it: figures as stored, words made when shown. */
export interface MinutesDecision {
	id: number
	reference: string
	/** The family's or the association's name. */
	name: string
	programme: string
	outcome: 'approve' | 'reject' | 'return'
	aidKind: string | null
	/** Riyals: the whole amount, or each month's. */
	amount: number | null
	months: number | null
	fund: string | null
	reason: string | null
	decider: string | null
	firstApprover: string | null
	at: string
}

/** The minutes, as closing a meeting writes them. */
export interface Minutes {
	meeting: { id: number; heldOn: string; place: string; online: boolean; openedBy: string | null; openedAt: string; closedBy: string | null; closedAt: string | null }
	members: { userId: number; name: string }[]
	decisions: MinutesDecision[]
	/** Riyals approved in the meeting: every month of a monthly aid. */
	approvedTotal: number
}

export const MINUTES_TITLE = 'محضر اجتماع لجنة الصرف'

/** Where the meeting was held, in words. */
export const meetingPlace = (meeting: { place: string; online: boolean }) => (meeting.online ? `عن بعد${meeting.place ? `: ${meeting.place}` : ''}` : meeting.place || 'لم يُذكر')

/** The minutes in words: the meeting's lines, then each decision as a row of the minutes' table. */
export function describeMinutes(minutes: Minutes) {
	const { meeting } = minutes
	return {
		title: `${MINUTES_TITLE} رقم ${meeting.id}`,
		lines: [
			{ label: 'تاريخ الاجتماع', value: formatDate(meeting.heldOn) },
			{ label: 'المكان', value: meetingPlace(meeting) },
			{ label: 'فتحه', value: `${meeting.openedBy ?? ''}، ${formatDateTime(meeting.openedAt)}` },
			...(meeting.closedAt ? [{ label: 'أغلقه', value: `${meeting.closedBy ?? ''}، ${formatDateTime(meeting.closedAt)}` }] : []),
			{ label: 'مجموع ما اعتُمد', value: formatMoney(minutes.approvedTotal) },
		],
		members: minutes.members.map((member) => member.name),
		headings: ['رقم الطلب', 'الأسرة أو الجمعية', 'البرنامج', 'القرار', 'المبلغ', 'الصندوق', 'المقرِّر'],
		rows: minutes.decisions.map((item) => ({
			id: item.id,
			reference: item.reference,
			name: item.name,
			programme: item.programme,
			decision: item.outcome === 'approve' && item.aidKind ? `${outcomeLabels.approve}: ${aidKindLabel(item.aidKind)}` : item.outcome === 'reject' && item.reason ? `${outcomeLabels.reject}: ${item.reason}` : outcomeLabels[item.outcome],
			amount: item.amount === null ? '' : `${formatMoney(item.amount)}${item.months ? ` شهرياً لمدة ${monthsCount(item.months)}` : ''}`,
			fund: item.fund ?? '',
			decider: item.firstApprover ? `${item.firstApprover} ثم ${item.decider ?? ''}` : (item.decider ?? ''),
		})),
	}
}
