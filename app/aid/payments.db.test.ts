import { confirmIban, giveIban, IBAN_BOUNCED } from '#app/cases/payee-accounts.server.ts'
import { eq } from 'drizzle-orm'
import { beforeAll, expect, test } from 'vitest'
import { changeStatus } from '#app/cases/status-changes.server.ts'
import { findCaseByReference, type CaseRow } from '#app/cases/case-store.server.ts'
import { aidInstalments, caseAid, caseDecisions, caseStudies, paymentBatches } from '#app/db/schema.ts'
import { PURGED_NAME, runRetention } from '#app/operations/retention-purge.server.ts'
import { temporaryStorage } from '#tests/storage.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { todayInRiyadh } from '#app/text/format.ts'
import { saudiIbanFromBban } from '#app/domain/validators.ts'
import { studied, submittedCase, validIban } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { commonLayout } from './bank-layouts/common.ts'
import { exampleBankLayout } from './bank-layouts/example-bank.ts'
import { decide } from './decisions.server.ts'
import { budgetsOf, listFunds, setBudget } from './funds.server.ts'
import { APPROVER_MAY_NOT_PAY, batchOf, createBatch, dueInstalments, markBatchSent, paymentReference, plainAmount, reconcile, recordDelivery, recordPayment, reopenPayment } from './payments.server.ts'
import { transferCsv } from './transfer-file.server.ts'
import { caseFlags, flagLabel, runningMonthlyAid } from '#app/cases/flags.server.ts'
import { needyFamilies } from '#app/forms/definitions/needy-families.ts'

// Paying approved aid (docs/product.md#payment): batches, the bank's file, references typed or
// matched from the bank's confirmation, a bounced payment reopened, aid in kind delivered; four
// eyes between approving and paying; the case «تم تقديم الدعم» and its ledger from what was paid.

const app = withAppDatabase()
const db = () => app.handle.db
const today = todayInRiyadh()
let researcher: PublicUser
let approver: PublicUser
let finance: PublicUser
let fundId: number

beforeAll(async () => {
	const user = (name: string, roles: PublicUser['roles']) => createUser(db(), { name, email: `${roles.join('-')}-${Date.now()}-${Math.random()}@example.org`, mobile: '', roles, password: 'Payments-Test-1234' })
	researcher = await user('الباحثة', ['case_officer'])
	// A small foundation: the committee's member also keeps the accounts.
	approver = await user('عضو اللجنة والمالية', ['approver', 'finance'])
	finance = await user('المسؤولة المالية', ['finance'])
	fundId = (await listFunds(db())).find((fund) => !fund.zakat)!.id
	await setBudget(db(), { programme: 'needy-families', year: Number(today.slice(0, 4)), fundId: null, allocated: 1_000_000 }, researcher)
})

/** A case approved by `approver`: `aidKind` once, or monthly for `months`. */
async function approved(options: { aidKind?: string; amount?: number; months?: number | null } = {}): Promise<CaseRow> {
	const row = await submittedCase(db())
	await studied(db(), row, researcher)
	await changeStatus(db(), row.id, { to: 2, note: 'دُرست' }, researcher)
	await decide(db(), row.id, { outcome: 'approve', aidKind: options.aidKind ?? 'cash', amount: options.amount ?? 1000, months: options.months ?? null, fundId, note: '' }, approver)
	return row
}

const instalmentsOf = async (row: CaseRow) => db().select().from(aidInstalments).where(eq(aidInstalments.caseId, row.id)).orderBy(aidInstalments.seq)

test('a monthly aid is paid month by month: this month\'s transfer is due, the later ones wait for their month', async () => {
	const row = await approved({ aidKind: 'rent', amount: 1200, months: 3 })
	const due = (await dueInstalments(db(), 'transfer')).filter((item) => item.caseId === row.id)
	expect(due.map((item) => [item.seq, item.amount, item.iban])).toEqual([[1, 1200, validIban]])
	expect((await dueInstalments(db(), 'in-kind')).some((item) => item.caseId === row.id)).toBe(false)
})

test('a batch is made by someone other than the approver, its file carries each transfer, and its payments are recorded once the bank has it', async () => {
	const row = await approved()
	const [instalment] = await instalmentsOf(row)
	// The approver, though holding the finance role, may not pay what they approved: nothing is batched.
	expect(await createBatch(db(), [instalment!.id], '', approver)).toEqual({ batchId: null, batchIds: [], refused: [{ reference: paymentReference(instalment!.id), reason: APPROVER_MAY_NOT_PAY }] })
	const { batchId, refused } = await createBatch(db(), [instalment!.id, 999_999], 'دفعة صرف نوفمبر', finance)
	expect(refused).toEqual([{ reference: paymentReference(999_999), reason: 'القسط غير موجود' }])
	const { lines } = (await batchOf(db(), batchId!))!
	expect(lines.map((line) => [line.reference, line.caseReference, line.iban, line.amount, line.status])).toEqual([[paymentReference(instalment!.id), row.reference, validIban, 1000, 'in_batch']])
	// A second batch cannot take it again.
	expect((await createBatch(db(), [instalment!.id], '', finance)).refused[0]!.reason).toBe('لم يعد هذا القسط بانتظار الصرف')

	const file = { lineId: lines[0]!.lineId, paymentReference: lines[0]!.reference, caseReference: row.reference, name: row.applicantName, iban: validIban, bankCode: '80', amount: 1000, purpose: 'دعم نقدي' }
	const header = { id: batchId!, debitAccount: '', valueDate: today, total: 1000, count: 1, orderingParty: 'المؤسسة', orderingAddress: 'الرياض' }
	const csv = transferCsv(commonLayout, [file], header)
	expect(csv.startsWith('\uFEFF')).toBe(true)
	// Every cell quoted (app/utils/spreadsheet-cells.ts), as a bank's reader in any locale splits it.
	expect(csv.split('\n')[1]).toBe(`"1","${file.paymentReference}","${row.reference}","${row.applicantName}","${validIban}","1000","دعم نقدي"`)
	expect(transferCsv(exampleBankLayout, [file], header).split('\n')[1]).toBe(`"${validIban}","${row.applicantName}","1000.00","SAR","${file.paymentReference}","${file.paymentReference} ${row.reference}"`)
	// A formula typed as a name stays text in the file.
	expect(transferCsv(commonLayout, [{ ...file, name: '=HYPERLINK("x")' }], header)).toContain(`'=HYPERLINK`)

	await expect(recordPayment(db(), batchId!, { instalmentId: instalment!.id, bankReference: 'FT2611270001', paidOn: today }, finance)).rejects.toThrow('تُسجَّل مراجع البنك بعد إرسال الملف إلى البنك')
	await markBatchSent(db(), batchId!, today, finance)
	await expect(recordPayment(db(), batchId!, { instalmentId: instalment!.id, bankReference: 'FT2611270001', paidOn: today }, approver)).rejects.toThrow(APPROVER_MAY_NOT_PAY)
	await expect(recordPayment(db(), batchId!, { instalmentId: instalment!.id, bankReference: 'ح', paidOn: today }, finance)).rejects.toThrow('الرجاء كتابة مرجع البنك')
	await recordPayment(db(), batchId!, { instalmentId: instalment!.id, bankReference: 'FT2611270001', paidOn: today }, finance)

	expect((await findCaseByReference(db(), row.reference))!.status).toBe(3)
	expect((await instalmentsOf(row))[0]).toMatchObject({ status: 'paid', bankReference: 'FT2611270001', paidOn: today, recordedBy: finance.id })
	expect(await db().select({ amount: caseAid.amount, kind: caseAid.kind, givenOn: caseAid.givenOn, instalmentId: caseAid.instalmentId }).from(caseAid).where(eq(caseAid.caseId, row.id))).toEqual([{ amount: 1000, kind: 'cash', givenOn: today, instalmentId: instalment!.id }])
	// Every line paid: the batch is done; the budget counts it as paid.
	expect((await db().select().from(paymentBatches).where(eq(paymentBatches.id, batchId!)))[0]!.status).toBe('closed')
	const budget = (await budgetsOf(db(), Number(today.slice(0, 4)))).find((item) => item.programme === 'needy-families' && item.fundId === null)!
	expect(budget.paid).toBeGreaterThanOrEqual(1000)
})

test('the bank\'s confirmation is matched on reference and amount; whatever does not match is listed and changes nothing', async () => {
	const [first, second, third] = [await approved({ amount: 700 }), await approved({ amount: 800 }), await approved({ amount: 900 })]
	const ids = (await Promise.all([first, second, third].map(instalmentsOf))).map((items) => items[0]!.id)
	const { batchId } = await createBatch(db(), ids, '', finance)
	await markBatchSent(db(), batchId!, today, finance)
	const csv = [
		'\uFEFFpayment_reference,amount,bank_reference,paid_on',
		`${paymentReference(ids[0]!)},700.00,BNK-1001,${today}`,
		`${paymentReference(ids[1]!)},850,BNK-1002,${today}`,
		`ATAA-999999,100,BNK-1003,${today}`,
		`not-ours,100,BNK-1004,${today}`,
		`${paymentReference(ids[2]!)},900,BNK-1005,2999-01-01`,
	].join('\r\n')
	const result = await reconcile(db(), batchId!, csv, finance)
	expect(result.recorded).toEqual([paymentReference(ids[0]!)])
	expect(result.unmatched).toEqual([
		{ line: 3, reference: paymentReference(ids[1]!), reason: 'المبلغ لا يطابق مبلغ التحويل' },
		{ line: 4, reference: 'ATAA-999999', reason: 'هذا التحويل ليس في دفعة الصرف هذه' },
		{ line: 5, reference: 'not-ours', reason: 'مرجع تحويل غير معروف' },
		{ line: 6, reference: paymentReference(ids[2]!), reason: 'الرجاء كتابة تاريخ صرف صحيح لا يكون بعد اليوم (التاريخ «2999-01-01»)' },
	])
	expect((await instalmentsOf(second)).map((item) => item.status)).toEqual(['in_batch'])
	expect((await findCaseByReference(db(), second.reference))!.status).toBe(7)
	// Arabic headers are read too; a file that is not a CSV of these columns is refused.
	const arabic = `مرجع التحويل,المبلغ,مرجع البنك,تاريخ الصرف\n${paymentReference(ids[1]!)},800,BNK-2002,${today}`
	expect((await reconcile(db(), batchId!, arabic, finance)).recorded).toEqual([paymentReference(ids[1]!)])
	// A file under the common layout's header of before (issue 37 §2.4) is read all the same: its line is found, and already recorded.
	const before = await reconcile(db(), batchId!, arabic.replace('مرجع التحويل', 'مرجع الدفعة'), finance)
	expect(before.recorded).toEqual([])
	expect(before.unmatched.map((line) => line.reference)).toEqual([paymentReference(ids[1]!)])
	await expect(reconcile(db(), batchId!, 'hello\nworld', finance)).rejects.toThrow('ملف البنك بلا أعمدة')
})

test('a confirmation amount is read only as a plain decimal: «0x5DC» or «1e3» is named by its line, never taken for 1,500', async () => {
	const [hex, exponent, grouped] = [await approved({ amount: 1500 }), await approved({ amount: 1000 }), await approved({ amount: 1500 })]
	const ids = (await Promise.all([hex, exponent, grouped].map(instalmentsOf))).map((items) => items[0]!.id)
	const { batchId } = await createBatch(db(), ids, '', finance)
	await markBatchSent(db(), batchId!, today, finance)
	const csv = [
		'payment_reference,amount,bank_reference,paid_on',
		`${paymentReference(ids[0]!)},0x5DC,BNK-3001,${today}`,
		`${paymentReference(ids[1]!)},1e3,BNK-3002,${today}`,
		`${paymentReference(ids[2]!)},"١٬٥٠٠٫٠٠",BNK-3003,${today}`,
	].join('\n')
	const result = await reconcile(db(), batchId!, csv, finance)
	expect(result.recorded).toEqual([paymentReference(ids[2]!)])
	expect(result.unmatched).toEqual([
		{ line: 2, reference: paymentReference(ids[0]!), reason: 'المبلغ «0x5DC» ليس رقماً عشرياً: اكتبه بالأرقام وحدها، مثل 1500 أو 1,500.00' },
		{ line: 3, reference: paymentReference(ids[1]!), reason: 'المبلغ «1e3» ليس رقماً عشرياً: اكتبه بالأرقام وحدها، مثل 1500 أو 1,500.00' },
	])
	expect((await instalmentsOf(hex)).map((item) => item.status)).toEqual(['in_batch'])
})

test('plainAmount: digits, thousands separators and a fraction, in either digits; nothing else', () => {
	expect(['1500', '1500.00', '1,500.50', '١٥٠٠', '١٬٥٠٠٫٥'].map(plainAmount)).toEqual([1500, 1500, 1500.5, 1500, 1500.5])
	expect(['0x5DC', '1e3', '', ' ', 'Infinity', '+1500', '-1500', '1500.', '.5', '15,00', '0b101', '1 500'].map(plainAmount)).toEqual(Array(12).fill(null))
})

test('a transfer the bank returned is reopened: its line stays in its batch as returned, reversed in the ledger by a row naming its payment, the case back to «معتمد بانتظار الصرف», payable again once another IBAN is confirmed', async () => {
	const row = await approved({ amount: 650 })
	const [instalment] = await instalmentsOf(row)
	const { batchId } = await createBatch(db(), [instalment!.id], '', finance)
	await markBatchSent(db(), batchId!, today, finance)
	await recordPayment(db(), batchId!, { instalmentId: instalment!.id, bankReference: 'FT-BOUNCE-1', paidOn: today }, finance)
	expect((await findCaseByReference(db(), row.reference))!.status).toBe(3)
	await expect(reopenPayment(db(), batchId!, instalment!.id, ' ', finance)).rejects.toThrow('الرجاء كتابة سبب إعادة التحويل')
	await reopenPayment(db(), batchId!, instalment!.id, 'الحساب مغلق لدى البنك', finance)
	expect((await instalmentsOf(row))[0]).toMatchObject({ status: 'approved', batchId: null, bankReference: null, paidOn: null })
	// The payment's row stays, with its bank reference; a new row dated today names it and cancels it.
	const rows = await db().select().from(caseAid).where(eq(caseAid.caseId, row.id)).orderBy(caseAid.id)
	expect(rows.map((item) => [item.amount, item.givenOn, item.instalmentId, item.correctsId])).toEqual([
		[650, today, instalment!.id, null],
		[-650, today, instalment!.id, rows[0]!.id],
	])
	expect(rows[0]!.note).toContain('FT-BOUNCE-1')
	expect(rows[1]!.note).toBe('أعاد البنك التحويل (مرجع البنك FT-BOUNCE-1): الحساب مغلق لدى البنك')
	expect((await findCaseByReference(db(), row.reference))!.status).toBe(7)
	expect((await batchOf(db(), batchId!))!.lines.map((line) => [line.id, line.status])).toEqual([[instalment!.id, 'bounced']])
	// Due again, but held until the family gives another IBAN and finance confirms it (app/cases/payee-accounts.server.ts).
	expect((await dueInstalments(db(), 'transfer')).find((item) => item.id === instalment!.id)?.held).toBe(IBAN_BOUNCED)
	await giveIban(db(), row.id, saudiIbanFromBban(`80${'0'.repeat(16)}42`))
	await confirmIban(db(), row.id, finance)
	expect((await dueInstalments(db(), 'transfer')).find((item) => item.id === instalment!.id)?.held).toBeNull()
	// Paid again from another batch: a third row; the two before it unchanged.
	const again = await createBatch(db(), [instalment!.id], '', finance)
	await markBatchSent(db(), again.batchId!, today, finance)
	await recordPayment(db(), again.batchId!, { instalmentId: instalment!.id, bankReference: 'FT-AGAIN-2', paidOn: today }, finance)
	const after = await db().select().from(caseAid).where(eq(caseAid.caseId, row.id)).orderBy(caseAid.id)
	expect(after.slice(0, 2)).toEqual(rows)
	expect(after.reduce((sum, item) => sum + item.amount, 0)).toBe(650)
})

test('aid in kind is delivered, not transferred: the day, who handed it over, the receipt; four eyes hold here too', async () => {
	const row = await approved({ aidKind: 'food_basket', amount: 400 })
	const [instalment] = await instalmentsOf(row)
	expect((await dueInstalments(db(), 'in-kind')).some((item) => item.id === instalment!.id)).toBe(true)
	expect((await createBatch(db(), [instalment!.id], '', finance)).refused[0]!.reason).toBe('مساعدة عينية: تُسجَّل مسلَّمة، لا تحويلاً')
	const delivery = { deliveredOn: today, deliveredBy: 'المتطوع سالم', receipt: 'R-5521' }
	await expect(recordDelivery(db(), instalment!.id, delivery, approver)).rejects.toThrow(APPROVER_MAY_NOT_PAY)
	await expect(recordDelivery(db(), instalment!.id, { ...delivery, deliveredBy: '' }, finance)).rejects.toThrow('الرجاء كتابة من سلّم المساعدة')
	await recordDelivery(db(), instalment!.id, delivery, finance)
	expect((await instalmentsOf(row))[0]).toMatchObject({ status: 'delivered', deliveredBy: 'المتطوع سالم', receipt: 'R-5521', paidOn: today })
	expect((await findCaseByReference(db(), row.reference))!.status).toBe(3)
	await expect(recordDelivery(db(), instalment!.id, delivery, finance)).rejects.toThrow('لم تعد هذه المساعدة بانتظار التسليم')
})

test('retention destroys a paid case\'s answers and study but keeps its financial record, without anyone\'s name; a monthly aid still being paid waits', async () => {
	const files = temporaryStorage('payments-retention')
	try {
		const paid = await approved({ amount: 555 })
		const [instalment] = await instalmentsOf(paid)
		const { batchId } = await createBatch(db(), [instalment!.id], '', finance)
		await markBatchSent(db(), batchId!, today, finance)
		await recordPayment(db(), batchId!, { instalmentId: instalment!.id, bankReference: 'FT-KEEP-10Y', paidOn: today }, finance)
		const monthly = await approved({ aidKind: 'rent', amount: 900, months: 2 })
		const [first] = await instalmentsOf(monthly)
		const second = await createBatch(db(), [first!.id], '', finance)
		await markBatchSent(db(), second.batchId!, today, finance)
		await recordPayment(db(), second.batchId!, { instalmentId: first!.id, bankReference: 'FT-MONTH-1', paidOn: today }, finance)
		await db().update(caseDecisions).set({ note: 'الأب مريض بالقلب' }).where(eq(caseDecisions.caseId, paid.id))

		// Three years on, with RETENTION_MONTHS at 24.
		const later = new Date(Date.now() + 3 * 365 * 86_400_000)
		const report = await runRetention(db(), files.storage, { months: 24, now: later, runBy: 'command' })
		expect(report.purged.map((item) => item.reference)).toContain(paid.reference)
		expect(report.purged.map((item) => item.reference)).not.toContain(monthly.reference)

		const [decision] = await db().select().from(caseDecisions).where(eq(caseDecisions.caseId, paid.id))
		expect(decision).toMatchObject({ outcome: 'approve', amount: 555, aidKind: 'cash', fundId, note: '', studyId: null })
		expect((await instalmentsOf(paid))[0]).toMatchObject({ status: 'paid', amount: 555, bankReference: 'FT-KEEP-10Y', paidOn: today })
		expect(await db().select({ amount: caseAid.amount }).from(caseAid).where(eq(caseAid.caseId, paid.id))).toEqual([{ amount: 555 }])
		expect(await db().select().from(caseStudies).where(eq(caseStudies.caseId, paid.id))).toEqual([])
		expect((await findCaseByReference(db(), paid.reference))!.applicantName).toBe(PURGED_NAME)
	} finally {
		files.remove()
	}
})

test('a monthly aid still being paid is flagged on a new case of the same ID in the same programme, with what is left, and gone once paid', async () => {
	const monthly = await approved({ aidKind: 'rent', amount: 800, months: 3 })
	const [first] = await instalmentsOf(monthly)
	const { batchId } = await createBatch(db(), [first!.id], '', finance)
	await markBatchSent(db(), batchId!, today, finance)
	await recordPayment(db(), batchId!, { instalmentId: first!.id, bankReference: 'FT-RUNNING-1', paidOn: today }, finance)
	// «تم تقديم الدعم» after the first payment: no longer open, so a new application goes through.
	expect((await findCaseByReference(db(), monthly.reference))?.status).toBe(3)
	const again = await submittedCase(db(), { nationalId: monthly.nationalId })
	const flags = await caseFlags(db(), needyFamilies, again)
	const running = flags.filter((flag) => flag.kind === 'monthly_aid_running')
	expect(running).toEqual([{ kind: 'monthly_aid_running', reference: monthly.reference, applicantName: monthly.applicantName, remaining: 2 }])
	expect(flagLabel(running[0]!)).toBe('للأسرة دعم شهري قائم في هذا البرنامج (بقي منه قسطان)')
	// Another ID is not flagged; the running case itself is not flagged by its own instalments.
	expect((await caseFlags(db(), needyFamilies, await submittedCase(db()))).some((flag) => flag.kind === 'monthly_aid_running')).toBe(false)
	expect((await caseFlags(db(), needyFamilies, monthly)).some((flag) => flag.kind === 'monthly_aid_running')).toBe(false)
	// The family's own mobile, as the application's page compares it.
	expect((await runningMonthlyAid(db(), again)).map((item) => [item.reference, item.mobile])).toEqual([[monthly.reference, monthly.mobile]])

	// Paid to the end: nothing left to flag.
	await db().update(aidInstalments).set({ status: 'paid', paidOn: today }).where(eq(aidInstalments.caseId, monthly.id))
	expect(await runningMonthlyAid(db(), again)).toEqual([])
})
