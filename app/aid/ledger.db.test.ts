import { asc, eq, inArray, sql } from 'drizzle-orm'
import { beforeAll, expect, test } from 'vitest'
import type { CaseRow } from '#app/cases/case-store.server.ts'
import { aidInstalments, ledgerEntries } from '#app/db/schema.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { onScreen } from '#app/http/screen.server.ts'
import { todayInRiyadh } from '#app/text/format.ts'
import { approvedCase } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { budgetsOf, listFunds, setBudget } from './funds.server.ts'
import { balances, cancel, checkLedger, familyAccount, fundAccount, postTransfers } from './ledger.server.ts'
import { createBatch, markBatchSent, recordDelivery, recordPayment, reopenPayment } from './payments.server.ts'

// The money ledger (docs/product.md#the-ledger): each money action writes its double-entry
// transfers in its own transaction; a pending transfer is posted or voided once, by a new entry
// naming it; a bounce reverses the posting; the budgets read the entries.

const app = withAppDatabase()
const db = () => app.handle.db
const today = todayInRiyadh()
const year = Number(today.slice(0, 4))
let researcher: PublicUser
let approver: PublicUser
let finance: PublicUser
let fundId: number

beforeAll(async () => {
	const user = (name: string, roles: PublicUser['roles']) => createUser(db(), { name, email: `${roles.join('-')}-${Math.random()}@example.org`, mobile: '', roles, password: 'Ledger-Test-1234' })
	researcher = await user('الباحثة', ['case_officer'])
	approver = await user('عضو اللجنة', ['approver'])
	finance = await user('المسؤولة المالية', ['finance'])
	fundId = (await listFunds(db())).find((fund) => !fund.zakat)!.id
	await setBudget(db(), { programme: 'needy-families', year, fundId: null, allocated: 1_000_000 }, researcher)
})

const approved = (options: { aidKind?: string; amount?: number; months?: number | null } = {}) => approvedCase(db(), { researcher, approver }, { fundId, note: 'محضر اللجنة 7', ...options })
const instalmentsOf = (row: CaseRow) => db().select().from(aidInstalments).where(eq(aidInstalments.caseId, row.id)).orderBy(aidInstalments.seq)
const entriesOf = (row: CaseRow) => db().select().from(ledgerEntries).where(eq(ledgerEntries.caseId, row.id)).orderBy(asc(ledgerEntries.id))

/** The budgets' figures as they were summed before the ledger: from the instalments' statuses. */
async function figuresFromInstalments(programme: string, budgetYear: number) {
	const [row] = (
		await db().execute(sql`select
			coalesce(sum(amount) filter (where status in ('approved', 'in_batch')), 0) as committed,
			coalesce(sum(amount) filter (where status in ('paid', 'delivered')), 0) as paid
			from aid_instalments where programme = ${programme} and budget_year = ${budgetYear}`)
	).rows as { committed: string; paid: string }[]
	return { committed: Number(row!.committed), paid: Number(row!.paid) }
}

test('an approval commits each instalment from its fund; a payment posts it; a bounce reverses the posting and commits it again; who, why, from which screen', async () => {
	const row = await approved({ aidKind: 'rent', amount: 800, months: 3 })
	const instalments = await instalmentsOf(row)
	let entries = await entriesOf(row)
	// One transaction of three pending transfers: from the fund to the family, one per month.
	expect(entries.map((entry) => [entry.phase, entry.debitAccount, entry.creditAccount, entry.amount, entry.instalmentId, entry.actorId, entry.reason])).toEqual(
		instalments.map((instalment) => ['pending', fundAccount(fundId), familyAccount(row.id), 800, instalment.id, approver.id, 'محضر اللجنة 7']),
	)
	expect(new Set(entries.map((entry) => entry.transactionId)).size).toBe(1)

	const first = instalments[0]!
	const { batchId } = await createBatch(db(), [first.id], '', finance)
	await markBatchSent(db(), batchId!, today, finance)
	await onScreen('/admin/payments/batches/1#record', () => recordPayment(db(), batchId!, { instalmentId: first.id, bankReference: 'FT-LEDGER-1', paidOn: today }, finance))
	entries = await entriesOf(row)
	const posted = entries[3]!
	expect(posted).toMatchObject({ phase: 'posted', pendingId: entries[0]!.id, amount: 800, valueDate: today, batchId, actorId: finance.id, screen: '/admin/payments/batches/1#record' })
	expect(posted.reason).toContain('FT-LEDGER-1')

	await reopenPayment(db(), batchId!, first.id, 'الحساب مغلق', finance)
	const after = await entriesOf(row)
	// What was written before is unchanged; two new entries, one transaction: the reversal and a new commitment.
	expect(after.slice(0, 4)).toEqual(entries)
	const [reversal, again] = after.slice(4) as [typeof posted, typeof posted]
	expect(reversal).toMatchObject({ phase: 'posted', correctsId: posted.id, debitAccount: familyAccount(row.id), creditAccount: fundAccount(fundId), amount: 800, reason: 'الحساب مغلق' })
	expect(again).toMatchObject({ phase: 'pending', pendingId: null, debitAccount: fundAccount(fundId), creditAccount: familyAccount(row.id), amount: 800, instalmentId: first.id })
	expect(reversal.transactionId).toBe(again.transactionId)
	// The file's first case: the fund's balance is the family's, the other way round.
	expect(await balances(db())).toEqual([
		{ account: familyAccount(row.id), committed: 2400, paid: 0 },
		{ account: fundAccount(fundId), committed: 2400, paid: 0 },
	])

	// A cancelled instalment: its commitment voided by a new entry naming it.
	const third = instalments[2]!
	const voided = await db().transaction(async (tx) => {
		await tx.update(aidInstalments).set({ status: 'cancelled' }).where(eq(aidInstalments.id, third.id))
		return cancel(tx, third, 'توفي المستفيد', finance)
	})
	expect(voided).toMatchObject({ phase: 'voided', pendingId: entries[2]!.id, amount: 800 })
	expect(await checkLedger(db())).toEqual([])
})

test('a delivery in kind posts its commitment; the budgets\' figures read from the entries equal those of the instalments', async () => {
	const basket = await approved({ aidKind: 'food_basket', amount: 350 })
	const [instalment] = await instalmentsOf(basket)
	await recordDelivery(db(), instalment!.id, { deliveredOn: today, deliveredBy: 'فريق التوزيع', receipt: 'R-9' }, finance)
	const entries = await entriesOf(basket)
	expect(entries.map((entry) => [entry.phase, entry.amount, entry.pendingId])).toEqual([
		['pending', 350, null],
		['posted', 350, entries[0]!.id],
	])
	const [budget] = await budgetsOf(db(), year)
	expect({ committed: budget!.committed, paid: budget!.paid }).toEqual(await figuresFromInstalments('needy-families', year))
	expect(budget!.paid).toBeGreaterThan(0)
	expect(budget!.committed).toBeGreaterThan(0)
	expect(await checkLedger(db())).toEqual([])
})

test('the database refuses a posting or void that does not fit its pending transfer, a second one, and a reversal of the wrong accounts', async () => {
	const row = await approved({ amount: 500 })
	const [pending] = await entriesOf(row)
	const about = { debitAccount: pending!.debitAccount, creditAccount: pending!.creditAccount, instalmentId: pending!.instalmentId }
	const write = (transfer: Parameters<typeof postTransfers>[1][number]) => db().transaction((tx) => postTransfers(tx, [transfer], finance))
	await expect(write({ ...about, amount: 600, phase: 'posted', pendingId: pending!.id })).rejects.toThrow()
	await expect(write({ ...about, amount: 400, phase: 'voided', pendingId: pending!.id })).rejects.toThrow()
	await expect(write({ ...about, debitAccount: 'fund:999', amount: 500, phase: 'posted', pendingId: pending!.id })).rejects.toThrow()
	await expect(write({ ...about, amount: 500, phase: 'pending', pendingId: pending!.id })).rejects.toThrow()
	const [posted] = await write({ ...about, amount: 500, phase: 'posted', pendingId: pending!.id })
	await expect(write({ ...about, amount: 500, phase: 'voided', pendingId: pending!.id })).rejects.toThrow()
	await expect(write({ ...about, amount: 500, phase: 'posted', correctsId: posted!.id })).rejects.toThrow()
	await expect(write({ ...about, amount: 0, phase: 'pending' })).rejects.toThrow()
	// Not as the instalment says (still approved, its commitment posted by hand): the checker names it.
	expect((await checkLedger(db())).join('\n')).toContain(`"id":${pending!.instalmentId}`)
	await db().update(aidInstalments).set({ status: 'paid', paidOn: today }).where(eq(aidInstalments.id, pending!.instalmentId!))
	expect(await checkLedger(db())).toEqual([])
})

test('instalments written without the ledger (before it, or in bulk) get their opening entries once, and the figures agree', async () => {
	const row = await approved({ amount: 700, months: 2 })
	const [decision] = (await db().execute(sql`select id from case_decisions where case_id = ${row.id}`)).rows as { id: number }[]
	// Two more instalments of the same decision, paid and cancelled, written as scripts/bench-aid.ts writes them.
	await db().execute(sql`insert into aid_instalments (case_id, decision_id, fund_id, programme, budget_year, seq, due_on, amount, aid_kind, status, paid_on)
		values (${row.id}, ${decision!.id}, ${fundId}, 'needy-families', ${year}, 3, ${today}::date, 700, 'rent', 'paid', ${today}::date),
			(${row.id}, ${decision!.id}, ${fundId}, 'needy-families', ${year}, 4, ${today}::date, 700, 'rent', 'cancelled', null)`)
	// The paid one has no posting: the checker names it (a cancelled one without entries is as it should be).
	expect((await checkLedger(db())).length).toBe(1)
	const [opened] = (await db().execute(sql`select ataa_ledger_opening_entries() as written`)).rows as { written: number }[]
	expect(Number(opened!.written)).toBe(2)
	const [again] = (await db().execute(sql`select ataa_ledger_opening_entries() as written`)).rows as { written: number }[]
	expect(Number(again!.written)).toBe(0)
	const ids = (await instalmentsOf(row)).filter((instalment) => instalment.seq > 2).map((instalment) => instalment.id)
	const opening = await db().select().from(ledgerEntries).where(inArray(ledgerEntries.instalmentId, ids)).orderBy(asc(ledgerEntries.id))
	expect(opening.map((entry) => [entry.phase, entry.screen])).toEqual([
		['pending', 'opening'],
		['pending', 'opening'],
		['posted', 'opening'],
		['voided', 'opening'],
	])
	expect(await checkLedger(db())).toEqual([])
	const [budget] = await budgetsOf(db(), year)
	expect({ committed: budget!.committed, paid: budget!.paid }).toEqual(await figuresFromInstalments('needy-families', year))
})
