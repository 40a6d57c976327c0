// The minutes of a closed committee meeting as a PDF (docs/product.md#committee-meetings), written
// by the Arabic PDF writer (app/pdf/arabic-pdf.server.ts, docs/decisions/020-arabic-pdf.md): the
// meeting, its members present, each decision in a table, and a signature line for each member.
// Made from what closing the meeting wrote (./minutes.ts), so it says the same every time.
import { renderArabicPdf, type PdfBlock } from '#app/pdf/arabic-pdf.server.ts'
import { ltr } from '#app/pdf/arabic-text.server.ts'
import { describeMinutes, type Minutes } from './minutes.ts'

/** The columns' shares of the line, in the order of `describeMinutes().headings`. */
const WIDTHS = [15, 16, 14, 16, 15, 12, 12]

export function minutesBlocks(minutes: Minutes): PdfBlock[] {
	const described = describeMinutes(minutes)
	return [
		{ kind: 'title', text: described.title },
		{ kind: 'fields', rows: [...described.lines, { label: 'الأعضاء الحاضرون', value: described.members.join('، ') || 'لم يُسجَّل حاضر' }] },
		{ kind: 'heading', text: 'القرارات' },
		described.rows.length
			? {
					kind: 'table',
					columns: described.headings.map((header, index) => ({ header, width: WIDTHS[index] ?? 10 })),
					rows: described.rows.map((row) => [ltr(row.reference), row.name, row.programme, row.decision, row.amount, row.fund, row.decider]),
				}
			: { kind: 'paragraph', text: 'لم يُتخذ في الاجتماع قرار.' },
		{ kind: 'heading', text: 'توقيع الأعضاء الحاضرين' },
		{ kind: 'signatures', signers: described.members.map((name) => ({ role: 'عضو لجنة الصرف', name })) },
	]
}

/** The minutes' PDF bytes, headed by the foundation's name. */
export function minutesPdf(minutes: Minutes, foundationName: string): Promise<Uint8Array> {
	return renderArabicPdf({ title: describeMinutes(minutes).title, header: foundationName, blocks: minutesBlocks(minutes) })
}
