// The committee's decisions and the instalments they give, in words, for the case view and the print.
import { formatDateTime, formatMoney, formatMonth } from '#app/text/format.ts'
import type { CaseDecision } from './decisions.server.ts'
import { outcomeLabels } from '#app/cases/aid.ts'
import { aidText, fundLabel } from './aid-text.ts'
import type { AidSchedule } from './monthly-aid.server.ts'
import { monthsCount } from '#app/privacy/consent-rules.ts'

export const instalmentStatusLabels = { approved: 'بانتظار الصرف', in_batch: 'في دفعة صرف', paid: 'صُرفت', delivered: 'سُلِّمت', cancelled: 'أُلغيت', suspended: 'موقوفة مؤقتاً' } as const

/** A batch line's state (app/db/schema.ts `batchLineState`): a line stays in its batch whatever the bank answered. */
export const batchLineStateLabels = { in_batch: instalmentStatusLabels.in_batch, paid: instalmentStatusLabels.paid, bounced: 'أعاده البنك', withdrawn: 'أُخرج قبل إرسال الملف' } as const

export function describeDecision(decision: CaseDecision) {
	return {
		id: decision.id,
		outcome: outcomeLabels[decision.outcome],
		aid: decision.outcome === 'approve' && decision.aidKind && decision.amount !== null ? aidText({ aidKind: decision.aidKind, amount: decision.amount, months: decision.months }) : '',
		fund: decision.fundName ?? '',
		reason: decision.reason ?? '',
		note: decision.note,
		by: decision.deciderName ?? '',
		at: formatDateTime(decision.createdAt),
	}
}

export function describeInstalment(row: { instalment: { id: number; seq: number; dueOn: string; amount: number; status: keyof typeof instalmentStatusLabels }; fundName: string; zakat: boolean }) {
	return {
		id: row.instalment.id,
		seq: row.instalment.seq,
		month: formatMonth(row.instalment.dueOn.slice(0, 7)),
		amount: formatMoney(row.instalment.amount),
		fund: fundLabel({ name: row.fundName, zakat: row.zakat }),
		status: instalmentStatusLabels[row.instalment.status],
	}
}

/**
 * An approved aid as its family reads it on their link and the lookup (docs/product.md#monthly-aid-over-time):
 * what was approved, the months paid and left, the next payment, and a hold or a stop with the reason
 * they were told. A resumption waiting for its confirmation is still a hold to them.
 */
export function describeSchedule(aid: Pick<AidSchedule, 'decisionId' | 'aidKind' | 'amount' | 'months' | 'state' | 'reason' | 'paid' | 'left' | 'held' | 'next'>) {
	const held = aid.state === 'suspended' || aid.state === 'resuming'
	const stopped = aid.state === 'stopped' || aid.state === 'restarting'
	return {
		id: aid.decisionId,
		what: aidText(aid),
		monthly: aid.months !== null,
		paid: !aid.paid ? 'لم يُصرف بعد' : aid.months ? monthsCount(aid.paid) : 'صُرف',
		left: aid.months && aid.left + aid.held ? monthsCount(aid.left + aid.held) : null,
		next: !held && !stopped && aid.next ? formatMonth(aid.next.slice(0, 7)) : null,
		hold: held ? `أُوقف صرف الدعم مؤقتاً. السبب: ${aid.reason}` : stopped ? `أُوقف صرف الدعم. السبب: ${aid.reason}` : null,
	}
}
