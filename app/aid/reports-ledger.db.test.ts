import { and, eq, sql } from 'drizzle-orm'
import { beforeAll, expect, test } from 'vitest'
import { changeStatus } from '#app/cases/status-changes.server.ts'
import { inOpenPeriods } from '#app/cases/refusals.ts'
import { aidInstalments, ledgerEntries } from '#app/db/schema.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { todayInRiyadh } from '#app/text/format.ts'
import { handRecordedAid, studied, submittedCase } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { received } from '#tests/fixtures/receipts.ts'
import { decide } from './decisions.server.ts'
import { impactFigures } from './impact.server.ts'
import { listFunds, setBudget } from './funds.server.ts'
import { adjust, checkLedger } from './ledger.server.ts'
import { createBatch, dueInstalments, markBatchSent, recordDelivery, recordPayment, reopenPayment } from './payments.server.ts'
import { aidReport, reportGroupings, type ReportGrouping } from './reports.server.ts'

// The reports and «أثرنا» are read from the money ledger (docs/product.md#reports): whatever
// happened to a year's aid (approvals, payments, a bounce, an adjusting entry, a delivery, aid
// recorded by hand before the cycle), every group's riyals, families and deliveries are the
// ledger's entries summed directly.

const app = withAppDatabase()
const db = () => app.handle.db
const today = todayInRiyadh()
const year = Number(today.slice(0, 4))
/** A day of this year in another month than today's, for the aid recorded by hand. */
const otherMonth = today.slice(5, 7) === '01' ? `${year}-02-10` : `${year}-01-10`
let researcher: PublicUser
let approver: PublicUser
let finance: PublicUser

/** The rows of a raw query, as PGlite and node-postgres both answer it. */
const rowsOf = <T,>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[]

const keyOf: Record<ReportGrouping, ReturnType<typeof sql>> = {
	programme: sql`c.type`,
	city: sql`coalesce(c.city, '')`,
	month: sql`to_char(e.value_date, 'YYYY-MM')`,
	fund: sql`coalesce(e.fund_id::text, '')`,
}

/**
 * The year's postings to and from families' accounts, read directly: per group, riyals (to the
 * family less back from it), families (cases given more than zero in the group) and deliveries in
 * kind (postings of a delivered instalment).
 */
async function ledgerByGroup(by: ReportGrouping | 'year') {
	const key = by === 'year' ? sql`''` : keyOf[by]
	const rows = rowsOf<{ key: string; riyals: string; families: number; in_kind: number }>(
		await db().execute(sql`
			select key, sum(net) as riyals, (count(*) filter (where net > 0))::int as families, sum(in_kind)::int as in_kind from (
				select ${key} as key, e.case_id,
					sum(case when e.credit_account = 'family:' || e.case_id then e.amount else -e.amount end) as net,
					count(*) filter (where i.status = 'delivered' and e.credit_account = 'family:' || e.case_id) as in_kind
				from ledger_entries e join cases c on c.id = e.case_id left join aid_instalments i on i.id = e.instalment_id
				where e.phase = 'posted' and extract(year from e.value_date) = ${year} and 'family:' || e.case_id in (e.credit_account, e.debit_account)
				group by 1, 2
			) given group by key order by key`),
	)
	return Object.fromEntries(rows.map((row) => [row.key, { givenRiyals: Number(row.riyals), families: row.families, inKind: row.in_kind }]))
}

/** What the report shows of the same, per group (the groups where aid was given). */
async function reportByGroup(by: ReportGrouping) {
	const { rows, total } = await aidReport(db(), year, by)
	return {
		rows: Object.fromEntries(rows.filter((row) => row.givenRiyals !== 0 || row.families > 0).map((row) => [row.key, { givenRiyals: row.givenRiyals, families: row.families, inKind: row.inKind }])),
		total: { givenRiyals: total.givenRiyals, families: total.families, inKind: total.inKind },
	}
}

async function expectReportsAreTheLedger() {
	const year_ = (await ledgerByGroup('year'))['']!
	for (const { value } of reportGroupings) {
		const report = await reportByGroup(value)
		expect(report.rows, value).toEqual(await ledgerByGroup(value))
		expect(report.total, value).toEqual(year_)
	}
	// «أثرنا»: the same, per programme.
	const impact = (await impactFigures(db(), today)).filter((figure) => figure.year === year)
	const byProgramme = await ledgerByGroup('programme')
	expect(Object.fromEntries(impact.map((figure) => [figure.programme, { givenRiyals: figure.riyals, families: figure.families }]))).toEqual(
		Object.fromEntries(Object.entries(byProgramme).map(([key, figures]) => [key, { givenRiyals: figures.givenRiyals, families: figures.families }])),
	)
	expect(await checkLedger(db())).toEqual([])
}

let handCase: string

beforeAll(async () => {
	const user = (name: string, roles: PublicUser['roles']) => createUser(db(), { name, email: `${roles.join('-')}-${Date.now()}-${Math.random()}@example.org`, mobile: '', roles, password: 'Ledger-Reports-1234' })
	;[researcher, approver, finance] = await Promise.all([user('الباحثة', ['case_officer']), user('عضو اللجنة', ['approver']), user('المالية', ['finance'])])
	await setBudget(db(), { programme: 'needy-families', year, fundId: null, allocated: 1_000_000 }, researcher)
	const funds = await listFunds(db())
	const [zakat, general] = [funds.find((fund) => fund.zakat)!, funds.find((fund) => !fund.zakat)!]
	// Zakat is approved within what the fund received (docs/product.md#money-in).
	await received(db(), zakat.id, 100_000)
	const waiting = async () => {
		const row = await submittedCase(db())
		await studied(db(), row, researcher)
		await changeStatus(db(), row.id, { to: 2, note: 'دُرست' }, researcher)
		return row
	}
	const [paid, bounced, basket, monthly] = [await waiting(), await waiting(), await waiting(), await waiting()]
	await decide(db(), paid.id, { outcome: 'approve', aidKind: 'cash', amount: 1000, months: null, fundId: zakat.id, note: '' }, approver)
	await decide(db(), bounced.id, { outcome: 'approve', aidKind: 'cash', amount: 2500, months: null, fundId: zakat.id, note: '' }, approver)
	await decide(db(), basket.id, { outcome: 'approve', aidKind: 'food_basket', amount: 400, months: null, fundId: general.id, note: '' }, approver)
	await decide(db(), monthly.id, { outcome: 'approve', aidKind: 'rent', amount: 1200, months: 6, fundId: general.id, note: '' }, approver)
	const transfers = (await dueInstalments(db(), 'transfer')).filter((item) => item.caseId === paid.id || item.caseId === bounced.id)
	const { batchId } = await createBatch(db(), transfers.map((item) => item.id), '', finance)
	await markBatchSent(db(), batchId!, today, finance)
	for (const item of transfers) await recordPayment(db(), batchId!, { instalmentId: item.id, bankReference: `FT${item.id}X`, paidOn: today }, finance)
	const [returned] = await db().select().from(aidInstalments).where(eq(aidInstalments.caseId, bounced.id))
	await reopenPayment(db(), batchId!, returned!.id, 'الحساب مغلق', finance)
	const [delivery] = (await dueInstalments(db(), 'in-kind')).filter((item) => item.caseId === basket.id)
	await recordDelivery(db(), delivery!.id, { deliveredOn: today, deliveredBy: 'المتطوع سالم', receipt: 'R-1' }, finance)
	// Recorded by hand before the cycle, without a fund, in another month.
	const hand = await submittedCase(db())
	handCase = hand.id
	await handRecordedAid(db(), hand.id, { amount: 250, kind: 'cash', givenOn: otherMonth, note: 'قبل النظام' }, researcher)
})

test('every row of the aid ledger (case_aid) has its entries, and the entries give the same sums per case', async () => {
	// A row of an instalment: a posting of its instalment; a row recorded by hand: the entry naming it.
	const missing = rowsOf<{ id: number }>(
		await db().execute(sql`select a.id from case_aid a where not exists (
			select 1 from ledger_entries e where e.phase = 'posted' and (e.aid_id = a.id or (a.instalment_id is not null and e.instalment_id = a.instalment_id and (e.corrects_id is null) = (a.corrects_id is null))))`),
	)
	expect(missing).toEqual([])
	const sums = rowsOf<{ case_id: string; aid: string; ledger: string }>(
		await db().execute(sql`select a.case_id, a.aid, coalesce(l.ledger, 0) as ledger from (select case_id, sum(amount) as aid from case_aid group by 1) a
			left join (select case_id, sum(case when credit_account = 'family:' || case_id then amount else -amount end) as ledger from ledger_entries where phase = 'posted' group by 1) l using (case_id)`),
	)
	expect(sums.length).toBeGreaterThanOrEqual(4)
	for (const row of sums) expect(Number(row.ledger), row.case_id).toBe(Number(row.aid))
	// The hand-recorded row: from no fund (the account `unfunded`) to the family, on its day, by whom recorded it.
	const [hand] = await db().select().from(ledgerEntries).where(and(eq(ledgerEntries.caseId, handCase), eq(ledgerEntries.phase, 'posted')))
	expect(hand).toMatchObject({ debitAccount: 'unfunded', creditAccount: `family:${handCase}`, amount: 250, valueDate: otherMonth, fundId: null, actorId: researcher.id })
	expect(hand!.aidId).not.toBeNull()
	// Written once: the migration's backfill of the rows already there, run again, writes nothing.
	const [again] = rowsOf<{ written: number }>(await db().execute(sql`select ataa_ledger_hand_recorded(array(select id from case_aid)) as written`))
	expect(again!.written).toBe(0)
})

test('by programme, city, month and fund, and their totals, the report is the entries summed directly: the bounce nets the transfer, the delivery counts in kind', async () => {
	await expectReportsAreTheLedger()
	const byFund = await reportByGroup('fund')
	const funds = await listFunds(db())
	const [zakat, general] = [funds.find((fund) => fund.zakat)!, funds.find((fund) => !fund.zakat)!]
	// Zakat paid 1,000 and 2,500, and 2,500 came back; donations delivered a 400 basket; 250 by hand, from no fund.
	expect(byFund.rows).toEqual({
		[String(zakat.id)]: { givenRiyals: 1000, families: 1, inKind: 0 },
		[String(general.id)]: { givenRiyals: 400, families: 1, inKind: 1 },
		'': { givenRiyals: 250, families: 1, inKind: 0 },
	})
	expect(byFund.total).toEqual({ givenRiyals: 1650, families: 3, inKind: 1 })
})

test('an adjusting entry dated today lowers today’s month, not the month it corrects; a second one of the same entry is refused', async () => {
	const [hand] = await db().select().from(ledgerEntries).where(and(eq(ledgerEntries.caseId, handCase), eq(ledgerEntries.phase, 'posted')))
	const before = await reportByGroup('month')
	// The 250 recorded by hand should have been 150.
	const adjusting = await inOpenPeriods(db()).transaction((tx) => adjust(tx, hand!, { amount: 100, reason: 'المبلغ الصحيح 150' }, finance))
	expect(adjusting).toMatchObject({ debitAccount: `family:${handCase}`, creditAccount: 'unfunded', amount: 100, correctsId: hand!.id, valueDate: today })
	const after = await reportByGroup('month')
	expect(after.rows[otherMonth.slice(0, 7)]).toEqual(before.rows[otherMonth.slice(0, 7)])
	expect(after.rows[today.slice(0, 7)]!.givenRiyals).toBe(before.rows[today.slice(0, 7)]!.givenRiyals - 100)
	expect(after.total.givenRiyals).toBe(before.total.givenRiyals - 100)
	await expect(inOpenPeriods(db()).transaction((tx) => adjust(tx, hand!, { amount: 50, reason: 'مرة أخرى' }, finance))).rejects.toThrow()
	await expectReportsAreTheLedger()
})
