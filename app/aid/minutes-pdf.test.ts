import { PDFDocument } from 'pdf-lib'
import { beforeAll, expect, test } from 'vitest'
import { loadArabicText } from '#app/pdf/arabic-text.server.ts'
import { minutesBlocks, minutesPdf } from './minutes-pdf.server.ts'
import type { Minutes } from './minutes.ts'

// The minutes' PDF (docs/product.md#committee-meetings): the meeting, the decisions' table and a
// signature line for each member present.

beforeAll(async () => {
	await loadArabicText()
})

const minutes: Minutes = {
	meeting: { id: 3, heldOn: '2026-11-29', place: 'قاعة اللجنة', online: false, openedBy: 'العضو الأول', openedAt: '2026-11-29T07:00:00.000Z', closedBy: 'العضو الأول', closedAt: '2026-11-29T09:00:00.000Z' },
	members: [
		{ userId: 1, name: 'العضو الأول' },
		{ userId: 2, name: 'العضو الثاني' },
		{ userId: 3, name: 'العضو الثالث' },
	],
	decisions: [{ id: 5, reference: 'ABCD-2345', name: 'أسرة سالم', programme: 'الأسر المحتاجة', outcome: 'approve', aidKind: 'cash', amount: 7000, months: null, fund: 'الصندوق العام', reason: null, decider: 'العضو الثاني', firstApprover: 'العضو الأول', at: '2026-11-29T08:00:00.000Z' }],
	approvedTotal: 7000,
}

test('the blocks: title, the meeting with its members, one row a decision, one signature a member', () => {
	const blocks = minutesBlocks(minutes)
	expect(blocks[0]).toEqual({ kind: 'title', text: 'محضر اجتماع لجنة الصرف رقم 3' })
	const table = blocks.find((block) => block.kind === 'table')
	expect(table?.kind === 'table' && table.rows.map((row) => row.slice(1, 3))).toEqual([['أسرة سالم', 'الأسر المحتاجة']])
	const signatures = blocks.find((block) => block.kind === 'signatures')
	expect(signatures?.kind === 'signatures' && signatures.signers.map((signer) => signer.name)).toEqual(['العضو الأول', 'العضو الثاني', 'العضو الثالث'])
})

test('a PDF with its title, one A4 page for a short meeting', async () => {
	const bytes = await minutesPdf(minutes, 'مؤسسة عطاء')
	expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-')
	const doc = await PDFDocument.load(bytes)
	expect(doc.getTitle()).toBe('محضر اجتماع لجنة الصرف رقم 3')
	expect(doc.getPageCount()).toBe(1)
})
