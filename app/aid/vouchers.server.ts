// The disbursement voucher (سند صرف) of each payment (docs/product.md#vouchers): a paid line of a
// payment batch, as the bank was sent it (payment_batch_lines, pinned: payee, IBAN, amount, fund),
// with the approval it pays, the batch, the bank's reference and day, the amount in words, and
// boxes for the signatures of the one who prepared the batch, finance who recorded the payment and
// the approver. Printed as a PDF (app/pdf/arabic-pdf.server.ts), one page a voucher.
//
// Its number is the pinned line's: «<year paid>-<line number, six digits>», e.g. 2026-000123. A line
// is written once and never deleted, and a payment is one line (an instalment paid again after the
// bank returned it has a new line in another batch), so the number is stable and never reused. It
// is not gapless: lines that were withdrawn or bounced have no voucher.
import { and, asc, eq, inArray } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { aidInstalments, caseDecisions, funds, paymentBatches, paymentBatchLines, users } from '#app/db/schema.ts'
import { aidKindLabel, fundLabel } from '#app/cases/aid.ts'
import { roleLabels } from '#app/db/roles.ts'
import { bankOfIban } from '#app/domain/saudi-banks.ts'
import { amountInWords } from '#app/text/amount-words.ts'
import { formatDate, formatMoney, formatMonth } from '#app/text/format.ts'
import { renderArabicPdf, type PdfBlock } from '#app/pdf/arabic-pdf.server.ts'
import { ltr } from '#app/pdf/arabic-text.server.ts'

export interface Voucher {
	number: string
	batchId: number
	instalmentId: number
	lineId: number
	/** ATAA-<n>: the transfer's reference to the bank. */
	reference: string
	caseReference: string
	payeeName: string
	iban: string
	bankName: string | null
	amount: number
	aidKind: string
	fund: { name: string; zakat: boolean }
	/** The instalment paid: its number among the approval's, and how many there are (monthly aid). */
	seq: number
	months: number | null
	dueOn: string
	decision: { id: number; on: string; deciderName: string | null; firstApproverName: string | null }
	batch: { createdByName: string | null; sentOn: string | null; debitAccount: string | null }
	bankReference: string
	paidOn: string
	recordedByName: string | null
}

export const voucherNumber = (lineId: number, paidOn: string) => `${paidOn.slice(0, 4)}-${String(lineId).padStart(6, '0')}`

/** The vouchers of a batch's paid lines (of one instalment when given), in the batch's order. */
export async function vouchersOf(db: Database, batchId: number, instalmentId?: number): Promise<Voucher[]> {
	const rows = await db
		.select({ line: paymentBatchLines, batch: paymentBatches, instalment: aidInstalments, decision: caseDecisions, fund: funds })
		.from(paymentBatchLines)
		.innerJoin(paymentBatches, eq(paymentBatches.id, paymentBatchLines.batchId))
		.innerJoin(aidInstalments, eq(aidInstalments.id, paymentBatchLines.instalmentId))
		.innerJoin(caseDecisions, eq(caseDecisions.id, aidInstalments.decisionId))
		.innerJoin(funds, eq(funds.id, paymentBatchLines.fundId))
		.where(and(eq(paymentBatchLines.batchId, batchId), eq(paymentBatchLines.state, 'paid'), instalmentId === undefined ? undefined : eq(paymentBatchLines.instalmentId, instalmentId)))
		.orderBy(asc(paymentBatchLines.instalmentId))
	const ids = [...new Set(rows.flatMap(({ batch, instalment, decision }) => [batch.createdBy, instalment.recordedBy, decision.deciderId, decision.firstApproverId]).filter((id): id is number => id !== null))]
	const names = new Map((ids.length ? await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, ids)) : []).map((user) => [user.id, user.name]))
	const nameOf = (id: number | null) => (id === null ? null : (names.get(id) ?? null))
	return rows.map(({ line, batch, instalment, decision, fund }) => ({
		number: voucherNumber(line.id, line.paidOn!),
		batchId: batch.id,
		instalmentId: line.instalmentId,
		lineId: line.id,
		reference: line.reference,
		caseReference: line.caseReference,
		payeeName: line.payeeName,
		iban: line.iban,
		bankName: bankOfIban(line.iban)?.name ?? null,
		amount: line.amount,
		aidKind: line.aidKind,
		fund: { name: fund.name, zakat: fund.zakat },
		seq: instalment.seq,
		months: decision.months,
		dueOn: instalment.dueOn,
		decision: { id: decision.id, on: decision.createdAt.toISOString(), deciderName: nameOf(decision.deciderId), firstApproverName: nameOf(decision.firstApproverId) },
		batch: { createdByName: nameOf(batch.createdBy), sentOn: batch.sentOn, debitAccount: batch.debitAccount },
		bankReference: line.bankReference ?? '',
		paidOn: line.paidOn!,
		recordedByName: nameOf(instalment.recordedBy),
	}))
}

/** An IBAN in groups of four, as printed on a cheque or a bank's letter. */
export const groupedIban = (iban: string) => iban.replace(/(.{4})(?=.)/g, '$1 ')

/** The blocks of one voucher. */
export function voucherBlocks(voucher: Voucher): PdfBlock[] {
	const approvers = voucher.decision.firstApproverName ? `${voucher.decision.firstApproverName} ثم ${voucher.decision.deciderName ?? '-'}` : (voucher.decision.deciderName ?? '-')
	const instalment = voucher.months ? `القسط ${voucher.seq} من ${voucher.months}، لشهر ${formatMonth(voucher.dueOn.slice(0, 7))}` : 'مرة واحدة'
	return [
		{ kind: 'title', text: `سند صرف رقم ${ltr(voucher.number)}` },
		{
			kind: 'fields',
			rows: [
				{ label: 'تاريخ الصرف', value: formatDate(voucher.paidOn) },
				{ label: 'يُصرف إلى', value: voucher.payeeName },
				{ label: 'رقم الآيبان', value: ltr(groupedIban(voucher.iban)) },
				{ label: 'البنك', value: voucher.bankName ?? '-' },
				{ label: 'المبلغ', value: formatMoney(voucher.amount) },
				{ label: 'المبلغ كتابةً', value: amountInWords(voucher.amount) },
				{ label: 'نوع الدعم', value: `${aidKindLabel(voucher.aidKind)} (${instalment})` },
				{ label: 'الصندوق', value: fundLabel(voucher.fund) },
				{ label: 'رقم الطلب', value: ltr(voucher.caseReference) },
			],
		},
		{ kind: 'heading', text: 'الاعتماد والتحويل' },
		{
			kind: 'fields',
			rows: [
				{ label: 'قرار الاعتماد', value: `رقم ${voucher.decision.id}، بتاريخ ${formatDate(voucher.decision.on)}` },
				{ label: 'اعتمده', value: approvers },
				{ label: 'دفعة الصرف', value: `رقم ${voucher.batchId}${voucher.batch.sentOn ? `، أُرسلت إلى البنك ${formatDate(voucher.batch.sentOn)}` : ''}` },
				{ label: 'مرجع التحويل', value: ltr(voucher.reference) },
				{ label: 'مرجع البنك', value: ltr(voucher.bankReference) },
				{ label: 'الحساب المحوَّل منه', value: voucher.batch.debitAccount ? ltr(groupedIban(voucher.batch.debitAccount)) : '-' },
			],
		},
		{
			kind: 'signatures',
			signers: [
				// The role names of app/db/roles.ts: who made the batch, who recorded the payment, who approved the aid.
				{ role: 'مُعِدّ دفعة الصرف', name: voucher.batch.createdByName ?? undefined },
				{ role: roleLabels.finance, name: voucher.recordedByName ?? undefined },
				{ role: `${roleLabels.approver} (المعتمِد)`, name: voucher.decision.deciderName ?? undefined },
			],
		},
	]
}

/** The vouchers as one PDF, one a page (a batch's: all its paid lines). */
export function vouchersPdf(vouchers: readonly Voucher[], foundationName: string, title: string): Promise<Uint8Array> {
	const blocks = vouchers.flatMap((voucher, index) => [...(index ? [{ kind: 'page-break' } as const] : []), ...voucherBlocks(voucher)])
	return renderArabicPdf({ title, header: foundationName, blocks })
}
