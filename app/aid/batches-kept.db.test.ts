import { and, eq, sql } from 'drizzle-orm'
import { beforeAll, expect, test } from 'vitest'
import { changeStatus } from '#app/cases/status-changes.server.ts'
import type { CaseRow } from '#app/cases/case-store.server.ts'
import { aidInstalments, caseSections, cases, paymentBatchFiles, paymentBatchLines, paymentBatches } from '#app/db/schema.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { saudiIbanFromBban } from '#app/domain/validators.ts'
import { todayInRiyadh } from '#app/text/format.ts'
import { studied, submittedCase, validIban } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { received } from '#tests/fixtures/receipts.ts'
import { anbLayout } from './bank-layouts/anb.ts'
import { commonLayout } from './bank-layouts/common.ts'
import { bankLayouts } from './bank-layouts/index.ts'
import { batchFile, keptFiles, sha256 } from './batch-files.server.ts'
import { decide } from './decisions.server.ts'
import { addFund, listFunds, setBudget, setDebitAccount } from './funds.server.ts'
import { batchOf, batchTotals, createBatch, dueInstalments, listBatches, markBatchSent, paymentReference, reconcile, recordPayment, reopenPayment } from './payments.server.ts'

// Batches kept as sent (docs/product.md#payment, docs/decisions/017-bank-files-kept-as-sent.md): a
// batch's lines pin what the bank is told, a sent batch's file is kept byte for byte, bounced lines
// stay in their batch, a batch never mixes debit accounts or zakat with other money, and an IBAN of
// another bank than the one chosen is refused.

const app = withAppDatabase()
const db = () => app.handle.db
const today = todayInRiyadh()
const [year, month, day] = today.split('-')
let researcher: PublicUser
let approver: PublicUser
let finance: PublicUser
let generalFund: number
let zakatFund: number

beforeAll(async () => {
	const user = (name: string, roles: PublicUser['roles']) => createUser(db(), { name, email: `${roles.join('-')}-${Date.now()}-${Math.random()}@example.org`, mobile: '', roles, password: 'Batches-Kept-1234' })
	researcher = await user('الباحثة', ['case_officer'])
	approver = await user('عضو اللجنة', ['approver'])
	finance = await user('المسؤولة المالية', ['finance'])
	const funds = await listFunds(db())
	generalFund = funds.find((fund) => !fund.zakat)!.id
	zakatFund = funds.find((fund) => fund.zakat)!.id
	// Zakat is approved within what the fund received (docs/product.md#money-in).
	await received(db(), zakatFund, 100_000)
	await setBudget(db(), { programme: 'needy-families', year: Number(year), fundId: null, allocated: 1_000_000 }, researcher)
})

async function approved(amount: number, fundId = generalFund): Promise<{ row: CaseRow; instalment: number }> {
	const row = await submittedCase(db())
	await studied(db(), row, researcher)
	await changeStatus(db(), row.id, { to: 2, note: 'دُرست' }, researcher)
	await decide(db(), row.id, { outcome: 'approve', aidKind: 'cash', amount, months: null, fundId, note: '' }, approver)
	const [instalment] = await db().select().from(aidInstalments).where(eq(aidInstalments.caseId, row.id))
	return { row, instalment: instalment!.id }
}

/** Staff correct the applicant's bank step after the batch was made. */
const correctBank = (row: CaseRow, answers: Record<string, unknown>) =>
	db()
		.update(caseSections)
		.set({ answers: sql`${caseSections.answers} || ${JSON.stringify(answers)}::jsonb` })
		.where(and(eq(caseSections.caseId, row.id), eq(caseSections.section, 'bank')))

test('a sent batch of 4 lines and 8,800 stays 4 lines and 8,800 after payments and bounces; its file downloads byte for byte as sent, whatever the applicant\'s answers became', async () => {
	const made = [await approved(2000), await approved(1500), await approved(2500), await approved(2800)]
	const { batchId, refused } = await createBatch(db(), made.map((item) => item.instalment), 'دفعة نوفمبر', finance)
	expect(refused).toEqual([])
	const pinned = await db().select().from(paymentBatchLines).where(eq(paymentBatchLines.batchId, batchId!))
	expect(pinned.map((line) => [line.reference, line.iban, line.bankCode, line.amount, line.fundId, line.state])).toEqual(made.map((item, index) => [paymentReference(item.instalment), validIban, '80', [2000, 1500, 2500, 2800][index], generalFund, 'in_batch']))

	await markBatchSent(db(), batchId!, today, finance)
	const kept = await keptFiles(db(), batchId!)
	// Every layout, CSV and XLSX, with its SHA-256.
	expect(kept.map((file) => `${file.layout}.${file.format}`).sort()).toEqual(bankLayouts.flatMap((layout) => [`${layout.key}.csv`, `${layout.key}.xlsx`]).sort())
	const found = (await batchOf(db(), batchId!))!
	const sent = await Promise.all(bankLayouts.flatMap((layout) => (['csv', 'xlsx'] as const).map((format) => batchFile(db(), found, layout, format))))
	expect(sent.every((file) => file.kept)).toBe(true)
	const csv = new TextDecoder().decode((await batchFile(db(), found, commonLayout, 'csv')).bytes)
	expect(csv.trim().split('\n')).toHaveLength(5)
	for (const item of made) expect(csv).toContain(`"${paymentReference(item.instalment)}","${item.row.reference}","${item.row.applicantName}","${validIban}"`)

	// Two paid, one paid then returned, one returned before any answer.
	await recordPayment(db(), batchId!, { instalmentId: made[0]!.instalment, bankReference: 'FT-KEPT-1', paidOn: today }, finance)
	await recordPayment(db(), batchId!, { instalmentId: made[1]!.instalment, bankReference: 'FT-KEPT-2', paidOn: today }, finance)
	await recordPayment(db(), batchId!, { instalmentId: made[2]!.instalment, bankReference: 'FT-KEPT-3', paidOn: today }, finance)
	await reopenPayment(db(), batchId!, made[2]!.instalment, 'الحساب مغلق', finance)
	await reopenPayment(db(), batchId!, made[3]!.instalment, 'الاسم لا يطابق', finance)
	// The applicant's IBAN and name corrected since.
	const corrected = saudiIbanFromBban('80000000608010167520')
	for (const item of made) {
		await correctBank(item.row, { Bank_No_1: corrected })
		await db().update(cases).set({ applicantName: 'اسم مصحح' }).where(eq(cases.id, item.row.id))
	}

	const after = (await batchOf(db(), batchId!))!
	expect(after.lines.map((line) => [line.status, line.iban, line.name])).toEqual([
		['paid', validIban, made[0]!.row.applicantName],
		['paid', validIban, made[1]!.row.applicantName],
		['bounced', validIban, made[2]!.row.applicantName],
		['bounced', validIban, made[3]!.row.applicantName],
	])
	expect(after.lines.map((line) => line.stateNote)).toEqual([null, null, 'الحساب مغلق', 'الاسم لا يطابق'])
	// As the bank statement shows it: 8,800 debited, 5,300 credited back, 3,500 net.
	expect(batchTotals(after.lines)).toEqual({ sent: { count: 4, amount: 8800 }, paid: { count: 2, amount: 3500 }, bounced: { count: 2, amount: 5300 }, waiting: { count: 0, amount: 0 }, net: 3500 })
	expect((await listBatches(db())).find((batch) => batch.id === batchId)).toMatchObject({ lines: 4, paid: 2, bounced: 2, total: 8800, status: 'closed' })

	const again = await Promise.all(bankLayouts.flatMap((layout) => (['csv', 'xlsx'] as const).map((format) => batchFile(db(), after, layout, format))))
	for (const [index, file] of again.entries()) {
		expect(Buffer.from(file.bytes).equals(Buffer.from(sent[index]!.bytes))).toBe(true)
		expect(sha256(file.bytes)).toBe(kept.find((item) => `${item.layout}.${item.format}` === `${bankLayouts[Math.floor(index / 2)]!.key}.${index % 2 ? 'xlsx' : 'csv'}`)!.sha256)
	}
	// The bounced ones are due again, to go into another batch with the corrected IBAN.
	const due = (await dueInstalments(db(), 'transfer')).filter((item) => item.id === made[2]!.instalment || item.id === made[3]!.instalment)
	expect(due.map((item) => item.iban)).toEqual([corrected, corrected])
})

test('the database keeps a sent file and a made line as they are: no update, no delete', async () => {
	const { instalment } = await approved(700)
	const { batchId } = await createBatch(db(), [instalment], '', finance)
	await markBatchSent(db(), batchId!, today, finance)
	await expect(db().update(paymentBatchFiles).set({ sha256: 'x' }).where(eq(paymentBatchFiles.batchId, batchId!))).rejects.toThrow()
	await expect(db().delete(paymentBatchFiles).where(eq(paymentBatchFiles.batchId, batchId!))).rejects.toThrow()
	await expect(db().update(paymentBatchLines).set({ iban: validIban.replace('SA03', 'SA04') }).where(eq(paymentBatchLines.batchId, batchId!))).rejects.toThrow()
	await expect(db().update(paymentBatchLines).set({ amount: 1 }).where(eq(paymentBatchLines.batchId, batchId!))).rejects.toThrow()
	await expect(db().delete(paymentBatchLines).where(eq(paymentBatchLines.batchId, batchId!))).rejects.toThrow()
	// A bounced line never comes back.
	await reopenPayment(db(), batchId!, instalment, 'أعاده البنك', finance)
	await expect(db().update(paymentBatchLines).set({ state: 'in_batch' }).where(eq(paymentBatchLines.batchId, batchId!))).rejects.toThrow()
	expect((await db().select().from(paymentBatchLines).where(eq(paymentBatchLines.batchId, batchId!))).map((line) => [line.state, line.amount])).toEqual([['bounced', 700]])
})

test('a line pins its own instalment: another case, fund, amount or kind than the instalment\'s is refused by the database, and a line of no instalment too', async () => {
	const { instalment } = await approved(650)
	const other = await approved(650)
	const { batchId } = await createBatch(db(), [instalment], '', finance)
	const [line] = await db().select().from(paymentBatchLines).where(eq(paymentBatchLines.batchId, batchId!))
	const { id: _id, createdAt: _at, state: _state, ...pinned } = line!
	const again = { ...pinned, instalmentId: other.instalment, caseId: other.row.id }
	for (const wrong of [{ caseId: other.row.id, instalmentId: instalment }, { fundId: zakatFund }, { amount: 651 }, { aidKind: 'rent' }, { instalmentId: 2_000_000_000 }])
		await expect(db().insert(paymentBatchLines).values({ ...again, ...wrong })).rejects.toThrow()
	// Its own, as createBatch writes it, is taken.
	await db().insert(paymentBatchLines).values(again)
	expect((await db().select().from(paymentBatchLines).where(eq(paymentBatchLines.batchId, batchId!))).map((row) => row.caseId)).toEqual([pinned.caseId, other.row.id])
})

test('an IBAN of another bank than the one the applicant chose is refused at batch time, with both banks named', async () => {
	const { row, instalment } = await approved(900)
	await correctBank(row, { Bank_Name_1: 'alrajhi', Bank_No_1: saudiIbanFromBban('10000000608010167519') })
	const reason = 'الآيبان لحساب في «البنك الأهلي السعودي» (رمز البنك 10)، لا في «مصرف الراجحي» المختار: يصحّحه الباحث الاجتماعي أولاً'
	expect((await dueInstalments(db(), 'transfer')).find((item) => item.id === instalment)).toMatchObject({ iban: '', accountProblem: reason })
	expect(await createBatch(db(), [instalment], '', finance)).toEqual({ batchId: null, batchIds: [], refused: [{ reference: paymentReference(instalment), reason }] })
	await correctBank(row, { Bank_Name_1: 'snb' })
	expect((await createBatch(db(), [instalment], '', finance)).refused).toEqual([])
})

test('one batch per debit account, zakat apart: the ticked transfers are split, each batch pins its account, and ANB\'s file carries it', async () => {
	const account = (code: string) => saudiIbanFromBban(`${code}000000108057386290`)
	await expect(setDebitAccount(db(), generalFund, 'SA00123')).rejects.toThrow('حساب الخصم آيبان سعودي')
	await setDebitAccount(db(), generalFund, account('30'))
	await setDebitAccount(db(), zakatFund, account('30'))
	const other = await addFund(db(), { name: `منحة مقيدة ${Date.now()}`, zakat: false })
	await setDebitAccount(db(), other.id, account('80'))
	const [general, zakat, restricted, general2] = [await approved(1000), await approved(1100, zakatFund), await approved(1200, other.id), await approved(1300)]
	const made = await createBatch(db(), [general, zakat, restricted, general2].map((item) => item.instalment), '', finance)
	expect(made.refused).toEqual([])
	expect(made.batchIds).toHaveLength(3)
	const batches = await db().select().from(paymentBatches).where(sql`${paymentBatches.id} in (${sql.join(made.batchIds.map((id) => sql`${id}`), sql`, `)})`)
	const linesOf = async (id: number) => (await batchOf(db(), id))!.lines.map((line) => line.amount)
	const summary = await Promise.all(batches.map(async (batch) => [batch.debitAccount, batch.zakat, await linesOf(batch.id)]))
	expect(summary).toEqual(
		expect.arrayContaining([
			[account('30'), false, [1000, 1300]],
			[account('30'), true, [1100]],
			[account('80'), false, [1200]],
		]),
	)
	// A fund's account changed later changes no batch made; the bank's file names the batch's.
	const first = batches.find((batch) => !batch.zakat && batch.debitAccount === account('30'))!
	await setDebitAccount(db(), generalFund, '')
	const file = new TextDecoder().decode((await batchFile(db(), (await batchOf(db(), first.id))!, anbLayout, 'csv')).bytes)
	expect(file).toContain(`"${account('30')}","RJHISARI","IPS","${validIban}"`)
	expect(file).toContain(`"${year!.slice(2)}${month}${day}"`)
})

test('the bank\'s confirmation file is read with the days banks and Excel write; a day it cannot read is named with its line and value', async () => {
	const items = [await approved(100), await approved(200), await approved(300), await approved(400), await approved(500)]
	const ids = items.map((item) => item.instalment)
	const { batchId } = await createBatch(db(), ids, '', finance)
	await markBatchSent(db(), batchId!, today, finance)
	const csv = [
		'payment_reference,amount,bank_reference,paid_on',
		`${paymentReference(ids[0]!)},100,BNK-D1,${day}/${month}/${year}`,
		`${paymentReference(ids[1]!)},200,BNK-D2,${today} 09:30:00`,
		`${paymentReference(ids[2]!)},300,BNK-D3,${day}-${month}-${year}`,
		`${paymentReference(ids[3]!)},400,BNK-D4,${month}/32/${year}`,
		`${paymentReference(ids[4]!)},500,BNK-D5,أمس`,
	].join('\n')
	const result = await reconcile(db(), batchId!, csv, finance)
	expect(result.recorded).toEqual(ids.slice(0, 3).map(paymentReference))
	expect(result.unmatched).toEqual([
		{ line: 5, reference: paymentReference(ids[3]!), reason: `تاريخ الصرف «${month}/32/${year}» غير مقروء: يُكتب يوماً فشهراً فسنة مثل 29/11/2026، أو 2026-11-29` },
		{ line: 6, reference: paymentReference(ids[4]!), reason: 'تاريخ الصرف «أمس» غير مقروء: يُكتب يوماً فشهراً فسنة مثل 29/11/2026، أو 2026-11-29' },
	])
	expect((await batchOf(db(), batchId!))!.lines.map((line) => [line.status, line.paidOn])).toEqual([
		['paid', today],
		['paid', today],
		['paid', today],
		['in_batch', null],
		['in_batch', null],
	])
})

test('a line taken out before the file went is withdrawn: kept in the batch, out of its file and its total', async () => {
	const [kept, taken] = [await approved(600), await approved(650)]
	const { batchId } = await createBatch(db(), [kept.instalment, taken.instalment], '', finance)
	await reopenPayment(db(), batchId!, taken.instalment, 'أُخرج للمراجعة', finance)
	const found = (await batchOf(db(), batchId!))!
	expect(found.lines.map((line) => line.status)).toEqual(['in_batch', 'withdrawn'])
	expect(batchTotals(found.lines).sent).toEqual({ count: 1, amount: 600 })
	const csv = new TextDecoder().decode((await batchFile(db(), found, commonLayout, 'csv')).bytes)
	expect(csv).toContain(paymentReference(kept.instalment))
	expect(csv).not.toContain(paymentReference(taken.instalment))
})
