import { eq, sql } from 'drizzle-orm'
import { beforeAll, expect, test } from 'vitest'
import { changeStatus } from '#app/cases/status-changes.server.ts'
import { inOpenPeriods } from '#app/cases/refusals.ts'
import { asRetentionPurge } from '#app/operations/retention-purge.server.ts'
import { ClosedPeriodError } from '#app/cases/refusals.ts'
import type { CaseRow } from '#app/cases/case-store.server.ts'
import type { Database } from '#app/db/client.server.ts'
import { aidInstalments, caseAid, closedPeriods, ledgerEntries } from '#app/db/schema.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { formatMonth, todayInRiyadh } from '#app/text/format.ts'
import { studied, submittedCase } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { decide } from './decisions.server.ts'
import { listFunds, setBudget } from './funds.server.ts'
import { impactFigures } from './impact.server.ts'
import { adjust } from './ledger.server.ts'
import { batchOf, createBatch, markBatchSent, paymentReference, reconcile, recordDelivery, recordPayment, reopenPayment } from './payments.server.ts'
import { closeMonth, closeYear, closedPeriodMessage, reopenMonth, yearPeriods } from './periods.server.ts'
import { reportWorkbook } from './report-export.server.ts'
import { aidReport, reportGroupings } from './reports.server.ts'

// Periods that close (docs/product.md#periods): a month closed once reconciled refuses every money
// entry dated in it, whoever writes it (the database's triggers, drizzle/0038_closed_periods.sql),
// with the month named in Arabic; its reports and «أثرنا» stay as they were, byte for byte; an
// admin reopens it with a reason.

const app = withAppDatabase()
const db = () => app.handle.db
const today = todayInRiyadh()
/** Last month (YYYY-MM), over whatever today is, and a day in it. */
const lastMonth = (() => {
	const [year, month] = today.split('-').map(Number) as [number, number]
	return month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, '0')}`
})()
const inLastMonth = `${lastMonth}-15`
const thisMonth = today.slice(0, 7)
const refusal = closedPeriodMessage(lastMonth)
let researcher: PublicUser
let approver: PublicUser
let finance: PublicUser
let admin: PublicUser
let fundId: number

beforeAll(async () => {
	const user = (name: string, roles: PublicUser['roles']) =>
		createUser(db(), { name, email: `${roles.join('-')}-${Date.now()}-${Math.random()}@example.org`, mobile: '', roles, password: 'Periods-Test-1234' })
	;[researcher, approver, finance, admin] = await Promise.all([
		user('الباحثة', ['case_officer']),
		user('عضو اللجنة', ['approver']),
		user('المسؤولة المالية', ['finance']),
		user('مدير النظام', ['admin']),
	])
	fundId = (await listFunds(db())).find((fund) => !fund.zakat)!.id
	for (const year of new Set([Number(today.slice(0, 4)), Number(lastMonth.slice(0, 4))])) await setBudget(db(), { programme: 'needy-families', year, fundId: null, allocated: 1_000_000 }, researcher)
})

async function approved(aidKind = 'cash', amount = 1000): Promise<CaseRow> {
	const row = await submittedCase(db())
	await studied(db(), row, researcher)
	await changeStatus(db(), row.id, { to: 2, note: 'دُرست' }, researcher)
	await decide(db(), row.id, { outcome: 'approve', aidKind, amount, months: null, fundId, note: '' }, approver)
	return row
}
const instalmentOf = async (row: CaseRow) => (await db().select().from(aidInstalments).where(eq(aidInstalments.caseId, row.id)))[0]!

/** Every grouping's report of the closed month's year and «أثرنا», as the screen and the XLSX read them. */
async function reports(executor: Database = db()) {
	const year = Number(lastMonth.slice(0, 4))
	const found: unknown[] = [await impactFigures(executor)]
	for (const { value } of reportGroupings) found.push(await aidReport(executor, year, value))
	return JSON.stringify(found)
}

/** The report's export of the closed month's year, every grouping, as CSV bytes (the XLSX's sheet, cell for cell). */
async function exports(executor: Database = db()) {
	const year = Number(lastMonth.slice(0, 4))
	const files: Buffer[] = []
	for (const { value } of reportGroupings) files.push(Buffer.from(await (await reportWorkbook(executor, { year, by: value })).csv.writeBuffer()))
	return files
}
/** The line of the closed month in the export by month, as bytes. */
async function closedMonthLine() {
	const csv = Buffer.from(await (await reportWorkbook(db(), { year: Number(lastMonth.slice(0, 4)), by: 'month' })).csv.writeBuffer()).toString('utf8')
	const label = formatMonth(lastMonth)
	const lines = csv.split('\n').filter((line) => line.includes(label))
	expect(lines).toHaveLength(1)
	return Buffer.from(lines[0]!)
}
/** The closed month's last day: «أثرنا» through it. */
const endOfLastMonth = (() => {
	const [year, month] = lastMonth.split('-').map(Number) as [number, number]
	return new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10)
})()

/** Expects a refusal naming the closed month, as a ClosedPeriodError routes answer 409. */
async function expectClosedMonth(month: string, work: Promise<unknown>) {
	const error = await work.then(
		() => null,
		(thrown: unknown) => thrown,
	)
	expect(error).toBeInstanceOf(ClosedPeriodError)
	expect((error as Error).message).toBe(closedPeriodMessage(month))
}
const expectClosed = (work: Promise<unknown>) => expectClosedMonth(lastMonth, work)

// The cases of the test: one paid by transfer last month (its batch reconciled), one waiting in a
// batch sent this month, one approved transfer not yet batched, one food basket to deliver, one
// case helped by hand.
/**
 * Aid written straight into the aid ledger, as «تسجيل دعم إضافي» did before it became a proposal to
 * the committee (issue 38): the database's own refusal, answered in Arabic like every store's.
 */
function recordAid(database: Database, caseId: string, aid: { amount: number; kind: string; givenOn: string; note: string }, actor: { id: number }) {
	return inOpenPeriods(database).transaction(async (tx) => {
		await tx.insert(caseAid).values({ caseId, ...aid, createdBy: actor.id })
	})
}

let paidLastMonth: CaseRow
let waitingLine: { batchId: number; instalmentId: number }
let notBatched: number
let basket: number
let helped: CaseRow

test('finance closes a month that is over and reconciled; not one still under way, nor one with a batch waiting for the bank', async () => {
	paidLastMonth = await approved('cash', 1500)
	const paid = await instalmentOf(paidLastMonth)
	const first = (await createBatch(db(), [paid.id], '', finance)).batchId!
	await markBatchSent(db(), first, `${lastMonth}-10`, finance)
	await expect(closeMonth(db(), lastMonth, finance)).rejects.toThrow(`لم تكتمل مطابقة دفعة الصرف رقم ${first} مع البنك`)
	await recordPayment(db(), first, { instalmentId: paid.id, bankReference: 'FT1001X', paidOn: inLastMonth }, finance)
	helped = paidLastMonth
	await recordAid(db(), helped.id, { amount: 250, kind: 'cash', givenOn: inLastMonth, note: 'دعم إضافي' }, researcher)

	const waiting = await approved('cash', 700)
	const line = await instalmentOf(waiting)
	const second = (await createBatch(db(), [line.id], '', finance)).batchId!
	await markBatchSent(db(), second, today, finance)
	waitingLine = { batchId: second, instalmentId: line.id }
	notBatched = (await instalmentOf(await approved('cash', 900))).id
	basket = (await instalmentOf(await approved('food_basket', 400))).id

	await expect(closeMonth(db(), thisMonth, finance)).rejects.toThrow(`لا يُقفل شهر ${formatMonth(thisMonth)} قبل انقضائه`)
	await expect(closeMonth(db(), lastMonth, researcher)).rejects.toThrow('يُقفل الشهر المسؤول المالي')
	await closeMonth(db(), lastMonth, finance)
	await expect(closeMonth(db(), lastMonth, finance)).rejects.toThrow(`شهر ${formatMonth(lastMonth)} مقفل من قبل`)
	const { months } = await yearPeriods(db(), Number(lastMonth.slice(0, 4)))
	const month = months.find((item) => item.month === lastMonth)!
	expect([month.closed, month.history.map((entry) => [entry.action, entry.actorName])]).toEqual([true, [['close', 'المسؤولة المالية']]])
})

test('every money action dated in the closed month is refused, naming the month, and its reports and «أثرنا» stay byte for byte', async () => {
	const before = await reports()
	const exported = await exports()
	const closedLine = await closedMonthLine()
	const impactThrough = JSON.stringify(await impactFigures(db(), endOfLastMonth))
	// The money ledger's entry of the aid recorded by hand last month (drizzle/0042_reports_from_ledger.sql).
	const [handEntry] = await db().select().from(ledgerEntries).where(sql`${ledgerEntries.caseId} = ${helped.id} and ${ledgerEntries.aidId} is not null`)
	expect(handEntry).toMatchObject({ amount: 250, valueDate: inLastMonth })
	// An adjusting entry dated in it.
	await expectClosed(inOpenPeriods(db()).transaction((tx) => adjust(tx, handEntry!, { amount: 50, reason: 'تصحيح', valueDate: inLastMonth }, finance)))
	// Aid recorded by hand («تسجيل دعم إضافي»).
	await expectClosed(recordAid(db(), helped.id, { amount: 300, kind: 'cash', givenOn: inLastMonth, note: '' }, researcher))
	// A payment typed by finance, and one read from the bank's confirmation file: the line says why.
	await expectClosed(recordPayment(db(), waitingLine.batchId, { instalmentId: waitingLine.instalmentId, bankReference: 'FT2002X', paidOn: inLastMonth }, finance))
	const reconciled = await reconcile(db(), waitingLine.batchId, `payment_reference,amount,bank_reference,paid_on\n${paymentReference(waitingLine.instalmentId)},700,FT2002X,${inLastMonth}\n`, finance)
	expect(reconciled).toEqual({ recorded: [], notices: [], unmatched: [{ line: 2, reference: paymentReference(waitingLine.instalmentId), reason: refusal }] })
	// Aid in kind delivered.
	await expectClosed(recordDelivery(db(), basket, { deliveredOn: inLastMonth, deliveredBy: 'المتطوع سالم', receipt: 'R-9' }, finance))
	// A batch sent.
	const third = (await createBatch(db(), [notBatched], '', finance)).batchId!
	await expectClosed(markBatchSent(db(), third, inLastMonth, finance))
	const paid = await instalmentOf(paidLastMonth)
	// Nothing changed: the rows, the batches, the reports.
	expect((await instalmentOf(paidLastMonth)).status).toBe('paid')
	expect((await batchOf(db(), waitingLine.batchId))!.lines[0]!.status).toBe('in_batch')
	expect((await batchOf(db(), third))!.batch.status).toBe('open')
	expect(await reports()).toBe(before)

	// The database refuses whoever writes, a statement the app never makes too: SQLSTATE AT001 (a
	// closed month), or 42501 where the aid ledger's own rule, append-only, refuses it first.
	for (const [statement, code] of [
		[sql`insert into case_aid (case_id, amount, kind, given_on) values (${helped.id}, 10, 'cash', ${inLastMonth})`, 'AT001'],
		[sql`update case_aid set amount = 1 where case_id = ${helped.id}`, '42501'],
		[sql`delete from case_aid where case_id = ${helped.id}`, '42501'],
		[sql`update aid_instalments set paid_on = ${today} where id = ${paid.id}`, 'AT001'],
		[sql`update payment_batches set sent_on = ${inLastMonth} where id = ${third}`, 'AT001'],
		[
			sql`insert into ledger_entries (transaction_id, debit_account, credit_account, amount, phase, value_date, case_id) values (gen_random_uuid(), 'unfunded', ${`family:${helped.id}`}, 10, 'posted', ${inLastMonth}, ${helped.id})`,
			'AT001',
		],
		[sql`update ledger_entries set amount = 1 where case_id = ${helped.id}`, '42501'],
		// A payment of it kept but moved out of it.
		[sql`update aid_instalments set paid_on = ${today} where id = ${paid.id}`, 'AT001'],
	] as const)
		await expect(db().execute(statement)).rejects.toMatchObject({ cause: { code } })
	// The note alone may change, by retention alone (it clears it).
	await db().transaction((tx) => asRetentionPurge(tx, () => tx.update(caseAid).set({ note: '' }).where(eq(caseAid.caseId, helped.id))))
	expect(await reports()).toBe(before)

	expect(await exports()).toEqual(exported)

	// The open month takes them: the adjusting entry (the 250 of last month should have been 200),
	// aid recorded by hand, the payment and the batch dated today.
	await inOpenPeriods(db()).transaction((tx) => adjust(tx, handEntry!, { amount: 50, reason: 'المبلغ الصحيح 200' }, finance))
	await recordAid(db(), helped.id, { amount: 300, kind: 'cash', givenOn: today, note: 'دعم إضافي' }, researcher)
	await recordPayment(db(), waitingLine.batchId, { instalmentId: waitingLine.instalmentId, bankReference: 'FT2002X', paidOn: today }, finance)
	await markBatchSent(db(), third, today, finance)
	// The closed month's row of the report by month is as it was.
	const monthRow = async () => JSON.stringify((await aidReport(db(), Number(lastMonth.slice(0, 4)), 'month')).rows.find((row) => row.key === lastMonth))
	const closedRow = JSON.parse(before)[1 + reportGroupings.findIndex((grouping) => grouping.value === 'month')].rows.find((row: { key: string }) => row.key === lastMonth)
	expect(await monthRow()).toBe(JSON.stringify(closedRow))
	// Its line of the export, byte for byte, and «أثرنا» through its end.
	expect(await closedMonthLine()).toEqual(closedLine)
	expect(JSON.stringify(await impactFigures(db(), endOfLastMonth))).toBe(impactThrough)
	// The adjusting entry counts in today's month.
	const thisMonthRow = (await aidReport(db(), Number(thisMonth.slice(0, 4)), 'month')).rows.find((row) => row.key === thisMonth)!
	const ledgerThisMonth = (await db().execute(sql`select sum(case when credit_account = 'family:' || case_id then amount else -amount end) as riyals from ledger_entries
		where phase = 'posted' and to_char(value_date, 'YYYY-MM') = ${thisMonth} and 'family:' || case_id in (credit_account, debit_account)`)).rows as { riyals: string }[]
	expect(thisMonthRow.givenRiyals).toBe(Number(ledgerThisMonth[0]!.riyals))
})

test('a payment of the closed month bounced in the open month: allowed, a reversal dated today naming it; the closed month\'s report unchanged', async () => {
	const monthRow = async () => JSON.stringify((await aidReport(db(), Number(lastMonth.slice(0, 4)), 'month')).rows.find((row) => row.key === lastMonth))
	const before = await monthRow()
	const paid = await instalmentOf(paidLastMonth)
	expect([paid.status, paid.paidOn]).toEqual(['paid', inLastMonth])
	await reopenPayment(db(), paid.batchId!, paid.id, 'أعاده البنك: الحساب مغلق', finance)
	expect((await instalmentOf(paidLastMonth)).status).toBe('approved')
	// The aid ledger: the payment of last month stays, its reversal is today's and names it.
	const rows = await db().select().from(caseAid).where(eq(caseAid.instalmentId, paid.id)).orderBy(caseAid.id)
	expect(rows.map((row) => [row.givenOn, Number(row.amount), row.correctsId])).toEqual([
		[inLastMonth, 1500, null],
		[today, -1500, rows[0]!.id],
	])
	// The money ledger: the posting of last month reversed by an entry dated today, naming it.
	const entries = await db().select().from(ledgerEntries).where(eq(ledgerEntries.instalmentId, paid.id)).orderBy(ledgerEntries.id)
	const posting = entries.find((entry) => entry.phase === 'posted' && entry.correctsId === null)!
	expect(posting.valueDate).toBe(inLastMonth)
	expect(entries.filter((entry) => entry.correctsId === posting.id).map((entry) => entry.valueDate)).toEqual([today])
	expect(await monthRow()).toBe(before)
	// An entry dated in the closed month after it: still refused, naming the month.
	await expectClosed(recordAid(db(), helped.id, { amount: 1500, kind: 'cash', givenOn: inLastMonth, note: 'إعادة الصرف' }, researcher))
	expect(await monthRow()).toBe(before)
})

test("the committee's approval is dated the day it is made: refused while that month is closed", async () => {
	const row = await submittedCase(db())
	await studied(db(), row, researcher)
	await changeStatus(db(), row.id, { to: 2, note: 'دُرست' }, researcher)
	// This month cannot be closed through the store before it is over: the database's rule is tested alone.
	await db()
		.insert(closedPeriods)
		.values({ month: `${thisMonth}-01`, action: 'close', actorId: finance.id })
	const approval = decide(db(), row.id, { outcome: 'approve', aidKind: 'cash', amount: 500, months: null, fundId, note: '' }, approver)
	await expect(approval).rejects.toBeInstanceOf(ClosedPeriodError)
	await expect(approval).rejects.toThrow(closedPeriodMessage(thisMonth))
	await db()
		.insert(closedPeriods)
		.values({ month: `${thisMonth}-01`, action: 'reopen', reason: 'اختبار قاعدة القرار', actorId: admin.id })
	await decide(db(), row.id, { outcome: 'approve', aidKind: 'cash', amount: 500, months: null, fundId, note: '' }, approver)
})

test('a close and a reopening are rows never changed or removed', async () => {
	await expect(db().execute(sql`update closed_periods set action = 'reopen'`)).rejects.toThrow()
	await expect(db().execute(sql`delete from closed_periods`)).rejects.toThrow()
	await expect(db().execute(sql`truncate closed_periods`)).rejects.toThrow()
	// A reopening says why.
	await expect(db().execute(sql`insert into closed_periods (month, action, actor_id) values (${`${lastMonth}-01`}, 'reopen', ${admin.id})`)).rejects.toThrow()
})

test('an admin reopens a closed month with a reason; it is open again and its history keeps both', async () => {
	await expect(reopenMonth(db(), lastMonth, 'تصحيح قيد', finance)).rejects.toThrow('يعيد فتح الشهر المقفل مدير النظام وحده')
	await expect(reopenMonth(db(), lastMonth, '  ', admin)).rejects.toThrow('الرجاء كتابة سبب إعادة فتح الشهر')
	await reopenMonth(db(), lastMonth, 'إيصال تسليم وصل متأخراً', admin)
	await expect(reopenMonth(db(), lastMonth, 'مرة أخرى', admin)).rejects.toThrow(`شهر ${formatMonth(lastMonth)} مفتوح`)
	await recordAid(db(), helped.id, { amount: 50, kind: 'cash', givenOn: inLastMonth, note: '' }, researcher)
	const periods = await yearPeriods(db(), Number(lastMonth.slice(0, 4)))
	const month = periods.months.find((item) => item.month === lastMonth)!
	expect([month.closed, month.history.map((entry) => [entry.action, entry.actorName, entry.reason])]).toEqual([
		false,
		[
			['close', 'المسؤولة المالية', ''],
			['reopen', 'مدير النظام', 'إيصال تسليم وصل متأخراً'],
		],
	])
	expect(periods.reopenings.filter((entry) => entry.month === lastMonth)).toMatchObject([{ month: lastMonth, actorName: 'مدير النظام', reason: 'إيصال تسليم وصل متأخراً' }])
	// Closed again, it refuses again.
	await closeMonth(db(), lastMonth, finance)
	await expectClosed(recordAid(db(), helped.id, { amount: 50, kind: 'cash', givenOn: inLastMonth, note: '' }, researcher))
})

test('«إقفال السنة» closes the months of a year that is over left open, at once; not a year under way', async () => {
	const year = Number(today.slice(0, 4))
	await expect(closeYear(db(), year, finance)).rejects.toThrow('قبل انقضائها')
	const past = year - 3
	await db()
		.insert(closedPeriods)
		.values({ month: `${past}-03-01`, action: 'close', actorId: finance.id })
	const closed = await closeYear(db(), past, finance)
	expect(closed).toHaveLength(11)
	expect(closed).not.toContain(`${past}-03`)
	const periods = await yearPeriods(db(), past)
	expect([periods.closed, periods.months.every((month) => month.closed)]).toEqual([true, true])
	await expect(closeYear(db(), past, finance)).rejects.toThrow('مقفلة من قبل')
})

test('a close waits for money being written in its month: the entry is in before the close, never after it', async () => {
	const [year, index] = lastMonth.split('-').map(Number) as [number, number]
	const month = index === 1 ? `${year - 1}-12` : `${year}-${String(index - 1).padStart(2, '0')}`
	let release!: () => void
	const held = new Promise<void>((resolve) => (release = resolve))
	let wrote!: () => void
	const written = new Promise<void>((resolve) => (wrote = resolve))
	const writing = db().transaction(async (tx) => {
		await tx.insert(caseAid).values({ caseId: helped.id, amount: 75, kind: 'cash', givenOn: `${month}-20`, note: 'قبل الإقفال' })
		wrote()
		await held
	})
	await written
	const closing = closeMonth(db(), month, finance)
	// PostgreSQL: the close waits on the month's lock the entry holds (without it, it would close under
	// the entry and this loop would never end). Only this database's waits on the periods' lock count: the server is shared. PGlite has one connection: the close waits its turn.
	if (app.handle.kind === 'postgres') {
		const waiting = async () =>
			(
				(
					await db().execute(
						sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted and classid = ${0x41544150}::oid and database = (select oid from pg_database where datname = current_database())`,
					)
				).rows[0] as { n: number }
			).n
		while ((await waiting()) === 0) await new Promise((resolve) => setTimeout(resolve, 20))
	}
	release()
	await writing
	await closing
	expect(
		await db()
			.select({ note: caseAid.note })
			.from(caseAid)
			.where(eq(caseAid.givenOn, `${month}-20`)),
	).toEqual([{ note: 'قبل الإقفال' }])
	expect((await yearPeriods(db(), Number(month.slice(0, 4)))).months.find((item) => item.month === month)!.closed).toBe(true)
	await expectClosedMonth(month, recordAid(db(), helped.id, { amount: 75, kind: 'cash', givenOn: `${month}-21`, note: '' }, researcher))
})
