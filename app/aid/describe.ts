// The committee's decisions and the instalments they give, in words, for the case view and the print.
import { formatDateTime, formatMoney, formatMonth } from '#app/text/format.ts'
import type { CaseDecision } from './decisions.server.ts'
import { outcomeLabels } from '#app/cases/aid.ts'
import { aidText, fundLabel } from './aid-text.ts'

export const instalmentStatusLabels = { approved: 'بانتظار الصرف', in_batch: 'في دفعة صرف', paid: 'صُرفت', delivered: 'سُلِّمت', cancelled: 'أُلغيت', suspended: 'موقوفة مؤقتاً' } as const

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
