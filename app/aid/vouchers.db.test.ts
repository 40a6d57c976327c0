import { execFileSync } from 'node:child_process'
import { PDFDocument } from 'pdf-lib'
import { beforeAll, expect, test } from 'vitest'
import { changeStatus } from '#app/cases/status-changes.server.ts'
import type { CaseRow } from '#app/cases/case-store.server.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { todayInRiyadh } from '#app/text/format.ts'
import { amountInWords } from '#app/text/amount-words.ts'
import { studied, submittedCase, validIban } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { decide } from './decisions.server.ts'
import { listFunds, setBudget } from './funds.server.ts'
import { batchOf, createBatch, markBatchSent, paymentReference, recordPayment, reopenPayment } from './payments.server.ts'
import { voucherBlocks, voucherNumber, vouchersOf, vouchersPdf } from './vouchers.server.ts'

// The disbursement voucher of each payment (docs/product.md#vouchers): read from the batch's pinned
// line as the bank was sent it, with the approval, the batch and the bank's reference.

const app = withAppDatabase()
const db = () => app.handle.db
const today = todayInRiyadh()
let researcher: PublicUser
let approver: PublicUser
let preparer: PublicUser
let finance: PublicUser
let fundId: number

beforeAll(async () => {
	const user = (name: string, roles: PublicUser['roles']) => createUser(db(), { name, email: `${roles.join('-')}-${Date.now()}-${Math.random()}@example.org`, mobile: '', roles, password: 'Vouchers-Test-1234' })
	researcher = await user('الباحثة', ['case_officer'])
	approver = await user('عضو اللجنة', ['approver'])
	preparer = await user('معدّ الدفعة', ['finance'])
	finance = await user('المسؤولة المالية', ['finance'])
	fundId = (await listFunds(db())).find((fund) => !fund.zakat)!.id
	await setBudget(db(), { programme: 'needy-families', year: Number(today.slice(0, 4)), fundId: null, allocated: 1_000_000 }, researcher)
})

async function approved(amount: number): Promise<CaseRow> {
	const row = await submittedCase(db())
	await studied(db(), row, researcher)
	await changeStatus(db(), row.id, { to: 2, note: 'دُرست' }, researcher)
	await decide(db(), row.id, { outcome: 'approve', aidKind: 'cash', amount, months: null, fundId, note: '' }, approver)
	return row
}

test('a paid line has its voucher: payee and IBAN as pinned, amount in words, fund, case, approval, batch, bank reference, and who prepared, paid and approved', async () => {
	const [first, second, third] = [await approved(1500.25), await approved(300), await approved(2000)]
	const due = await Promise.all([first, second, third].map(async (row) => (await db().query.aidInstalments.findFirst({ where: (table, { eq }) => eq(table.caseId, row.id) }))!))
	const { batchId } = await createBatch(db(), due.map((instalment) => instalment.id), 'سندات', preparer)
	await markBatchSent(db(), batchId!, today, preparer)
	// Nothing paid yet: no voucher.
	expect(await vouchersOf(db(), batchId!)).toEqual([])
	await recordPayment(db(), batchId!, { instalmentId: due[0]!.id, bankReference: 'BNK-0001', paidOn: today }, finance)
	await recordPayment(db(), batchId!, { instalmentId: due[1]!.id, bankReference: 'BNK-0002', paidOn: today }, finance)

	const { lines } = (await batchOf(db(), batchId!))!
	const [voucher] = await vouchersOf(db(), batchId!, due[0]!.id)
	expect(voucher).toMatchObject({
		number: voucherNumber(lines[0]!.lineId, today),
		batchId,
		instalmentId: due[0]!.id,
		reference: paymentReference(due[0]!.id),
		caseReference: first.reference,
		payeeName: lines[0]!.name,
		iban: validIban,
		amount: 1500.25,
		aidKind: 'cash',
		fund: { zakat: false },
		bankReference: 'BNK-0001',
		paidOn: today,
		recordedByName: 'المسؤولة المالية',
		batch: { createdByName: 'معدّ الدفعة', sentOn: today },
		decision: { deciderName: 'عضو اللجنة', firstApproverName: null },
	})
	expect(voucher!.number).toMatch(/^\d{4}-\d{6}$/)
	// The words of its amount and its IBAN, as printed.
	const values = voucherBlocks(voucher!).flatMap((block) => (block.kind === 'fields' ? block.rows.map((row) => row.value) : []))
	expect(values).toContain(amountInWords(1500.25))
	expect(values.some((value) => value.replace(/[\u2066-\u2069 ]/g, '') === validIban)).toBe(true)

	// The batch's vouchers: its two paid lines, not the one still waiting for the bank.
	const all = await vouchersOf(db(), batchId!)
	expect(all.map((item) => item.instalmentId)).toEqual([due[0]!.id, due[1]!.id])
	const pdf = await vouchersPdf(all, 'مؤسسة عطاء الخيرية', 'سندات')
	expect((await PDFDocument.load(pdf)).getPageCount()).toBe(2)
	if (process.env.VOUCHER_PNG) execFileSync('pdftoppm', ['-png', '-r', '80', '-', process.env.VOUCHER_PNG], { input: pdf })

	// A payment the bank returned has no voucher any more: it is paid again on a new line, with a new number.
	await reopenPayment(db(), batchId!, due[1]!.id, 'أعاده البنك', finance)
	expect((await vouchersOf(db(), batchId!)).map((item) => item.instalmentId)).toEqual([due[0]!.id])
	expect(await vouchersOf(db(), batchId!, due[2]!.id)).toEqual([])
	expect(await vouchersOf(db(), 999_999)).toEqual([])
})
