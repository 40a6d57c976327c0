// The money ledger (docs/product.md#the-ledger, docs/decisions/018-append-only-ledger.md): double
// entry, as TigerBeetle's and Formance's ledgers keep it. One row of `ledger_entries` is a transfer
// of an amount (always more than zero) from its debit account to its credit account, so debits equal
// credits in every transaction. Accounts are text: `fund:<id>` (the money a fund pays out) and
// `family:<caseId>` (what a family is given); money in comes from `source:<kind>` or another fund
// (./receipts.server.ts, each entry naming its receipt). Two phases: the committee's approval commits each
// instalment's amount (`pending`); its payment or delivery posts it, its cancellation voids it, each
// by a NEW row naming the pending one. A bounced transfer is a reversing entry naming the posting
// (the accounts swapped), and the instalment is committed again by a new pending entry. Nothing is
// ever updated or deleted: the database refuses it (drizzle/0038_ledger_entries.sql).
// Each money action writes its entries here, in its own transaction; the budgets read them (./funds.server.ts).
import { randomUUID } from 'node:crypto'
import { and, asc, eq, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { type aidInstalments, ledgerEntries } from '#app/db/schema.ts'
import { currentScreen } from '#app/http/screen.server.ts'
import { todayInRiyadh } from '#app/text/format.ts'

export type LedgerEntry = typeof ledgerEntries.$inferSelect

export const fundAccount = (fundId: number) => `fund:${fundId}`
export const familyAccount = (caseId: string) => `family:${caseId}`

/** One transfer to write: its accounts, amount and phase, what it names, and what it is about. */
export type Transfer = Pick<LedgerEntry, 'debitAccount' | 'creditAccount' | 'amount' | 'phase'> &
	Partial<Pick<LedgerEntry, 'pendingId' | 'correctsId' | 'caseId' | 'instalmentId' | 'decisionId' | 'batchId' | 'fundId' | 'receiptId' | 'reason'>> & { valueDate?: string }

/** Who writes: the staff member (null for the app's own work) and, outside a request, the screen's name. */
export interface Writer {
	id: number | null
	screen?: string
}

/** Writes transfers as one transaction (one id), in the caller's database transaction; the rows written. */
export async function postTransfers(tx: Database, transfers: readonly Transfer[], writer: Writer): Promise<LedgerEntry[]> {
	if (!transfers.length) return []
	const transactionId = randomUUID()
	const screen = writer.screen ?? currentScreen()
	return tx
		.insert(ledgerEntries)
		.values(transfers.map((transfer) => ({ ...transfer, valueDate: transfer.valueDate ?? todayInRiyadh(), transactionId, actorId: writer.id, screen, reason: (transfer.reason ?? '').slice(0, 1000) })))
		.returning()
}

type Instalment = Pick<typeof aidInstalments.$inferSelect, 'id' | 'caseId' | 'fundId' | 'decisionId' | 'amount'>

const aboutInstalment = (instalment: Instalment) => ({
	debitAccount: fundAccount(instalment.fundId),
	creditAccount: familyAccount(instalment.caseId),
	amount: instalment.amount,
	caseId: instalment.caseId,
	instalmentId: instalment.id,
	decisionId: instalment.decisionId,
	fundId: instalment.fundId,
})

/** An instalment's pending entry not yet posted or voided; undefined when none. */
async function openPending(tx: Database, instalmentId: number): Promise<LedgerEntry | undefined> {
	const [found] = await tx
		.select()
		.from(ledgerEntries)
		.where(and(eq(ledgerEntries.instalmentId, instalmentId), eq(ledgerEntries.phase, 'pending'), sql`not exists (select 1 from ${ledgerEntries} r where r.pending_id = ${ledgerEntries.id})`))
		.orderBy(asc(ledgerEntries.id))
	return found
}

/** An instalment's posting not reversed; undefined when none. */
async function standingPosting(tx: Database, instalmentId: number): Promise<LedgerEntry | undefined> {
	const [found] = await tx
		.select()
		.from(ledgerEntries)
		.where(and(eq(ledgerEntries.instalmentId, instalmentId), eq(ledgerEntries.phase, 'posted'), sql`${ledgerEntries.correctsId} is null`, sql`not exists (select 1 from ${ledgerEntries} r where r.corrects_id = ${ledgerEntries.id})`))
		.orderBy(asc(ledgerEntries.id))
	return found
}

/** A money action on an instalment the ledger does not agree with: a bug, never the user's doing. */
export class LedgerMismatch extends Error {}

/** The committee approved: each instalment's amount committed from its fund (pending), one transaction. */
export async function approve(tx: Database, instalments: readonly Instalment[], writer: Writer, reason = ''): Promise<LedgerEntry[]> {
	return postTransfers(
		tx,
		instalments.map((instalment) => ({ ...aboutInstalment(instalment), phase: 'pending' as const, reason })),
		writer,
	)
}

/** Paid (a transfer) or delivered (in kind) on `valueDate`: its pending entry posted. */
export async function pay(tx: Database, instalment: Instalment, given: { valueDate: string; batchId?: number | null; reason?: string }, writer: Writer): Promise<LedgerEntry> {
	const pending = await openPending(tx, instalment.id)
	if (!pending) throw new LedgerMismatch(`instalment ${instalment.id}: nothing committed to post`)
	const [posted] = await postTransfers(tx, [{ ...aboutInstalment(instalment), amount: pending.amount, phase: 'posted', pendingId: pending.id, valueDate: given.valueDate, batchId: given.batchId ?? null, reason: given.reason ?? '' }], writer)
	return posted!
}

/**
 * The bank returned a paid transfer: a reversing entry naming its posting (the money back in its
 * fund), and the instalment committed again (a new pending entry), one transaction. An instalment
 * reopened before it was paid keeps its pending entry: nothing is written.
 */
export async function bounce(tx: Database, instalment: Instalment, returned: { reason: string; batchId?: number | null }, writer: Writer): Promise<LedgerEntry[]> {
	const posting = await standingPosting(tx, instalment.id)
	if (!posting) return []
	return postTransfers(
		tx,
		[
			{ ...aboutInstalment(instalment), debitAccount: posting.creditAccount, creditAccount: posting.debitAccount, amount: posting.amount, phase: 'posted', correctsId: posting.id, batchId: returned.batchId ?? posting.batchId, reason: returned.reason },
			{ ...aboutInstalment(instalment), amount: posting.amount, phase: 'pending', reason: returned.reason },
		],
		writer,
	)
}

/** An instalment cancelled (stopped): its pending entry voided; nothing when nothing is committed. */
export async function cancel(tx: Database, instalment: Instalment, reason: string, writer: Writer): Promise<LedgerEntry | undefined> {
	const pending = await openPending(tx, instalment.id)
	if (!pending) return undefined
	const [voided] = await postTransfers(tx, [{ ...aboutInstalment(instalment), amount: pending.amount, phase: 'voided', pendingId: pending.id, reason }], writer)
	return voided
}

/**
 * A mistake found later (docs/product.md#periods): an adjusting entry reversing `amount` of a posting
 * (at most what it moved; its accounts swapped), naming it, dated `valueDate` (today by default) in
 * an open month; the original stays as it was. A posting is corrected once (the database refuses a
 * second, as an entry dated in a closed month). The reports and «أثرنا» count it on its own day.
 */
export async function adjust(tx: Database, posting: LedgerEntry, change: { amount: number; reason: string; valueDate?: string }, writer: Writer): Promise<LedgerEntry> {
	if (posting.phase !== 'posted' || posting.correctsId !== null) throw new LedgerMismatch(`entry ${posting.id}: only a posting is adjusted`)
	const [adjusting] = await postTransfers(
		tx,
		[
			{
				debitAccount: posting.creditAccount,
				creditAccount: posting.debitAccount,
				amount: change.amount,
				phase: 'posted',
				correctsId: posting.id,
				caseId: posting.caseId,
				instalmentId: posting.instalmentId,
				decisionId: posting.decisionId,
				batchId: posting.batchId,
				fundId: posting.fundId,
				reason: change.reason,
				valueDate: change.valueDate,
			},
		],
		writer,
	)
	return adjusting!
}

/** The rows of a raw query, as PGlite and node-postgres both answer it. */
const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[]

export interface Balance {
	account: string
	/** Pending transfers not yet posted or voided: committed (out of a fund, or to a family). */
	committed: number
	/** Posted transfers, net of their reversals: paid (out of a fund, or to a family). */
	paid: number
}

/** Each account's balance in the aid given (money in, ./receipts.server.ts, aside): for a fund what leaves it, for a family what it receives. */
export async function balances(db: Database): Promise<Balance[]> {
	const rows = rowsOf<{ account: string; committed: string; paid: string }>(
		await db.execute(sql`
		select account, sum(committed) as committed, sum(paid) as paid from (
			select e.debit_account as account, -1 as side,
				case when e.phase = 'pending' and not exists (select 1 from ledger_entries r where r.pending_id = e.id) then e.amount else 0 end as committed,
				case when e.phase = 'posted' then e.amount else 0 end as paid
			from ledger_entries e where e.receipt_id is null
			union all
			select e.credit_account, 1,
				case when e.phase = 'pending' and not exists (select 1 from ledger_entries r where r.pending_id = e.id) then -e.amount else 0 end,
				case when e.phase = 'posted' then -e.amount else 0 end
			from ledger_entries e where e.receipt_id is null
		) sides group by account order by account`),
	)
	// Summed as what leaves the account (debit +, credit -): a family's is what it receives, the other way round.
	return rows.map((row) => {
		const sign = row.account.startsWith('family:') ? -1 : 1
		// (+ 0: never «-0».)
		return { account: row.account, committed: sign * Number(row.committed) + 0, paid: sign * Number(row.paid) + 0 }
	})
}

/** What a budget's instalments add up to in the ledger: committed (open pending) and paid (posted, net of reversals). */
export async function budgetUse(db: Database, budget: { programme: string; year: number; fundId: number | null }): Promise<{ committed: number; paid: number }> {
	const [row] = rowsOf<{ committed: string; paid: string }>(
		await db.execute(sql`
		select
			coalesce(sum(e.amount) filter (where e.phase = 'pending' and not exists (select 1 from ledger_entries r where r.pending_id = e.id)), 0) as committed,
			coalesce(sum(case when e.corrects_id is null then e.amount else -e.amount end) filter (where e.phase = 'posted'), 0) as paid
		from ledger_entries e
		join aid_instalments i on i.id = e.instalment_id
		where i.programme = ${budget.programme} and i.budget_year = ${budget.year} ${budget.fundId === null ? sql`` : sql`and e.fund_id = ${budget.fundId}`}`),
	)
	return { committed: Number(row?.committed ?? 0), paid: Number(row?.paid ?? 0) }
}

/**
 * What must always hold of the ledger (docs/product.md#the-ledger), for the tests: the problems
 * found, none when it is sound. Each pending entry is resolved at most once, by a posting of at most
 * its amount or a void of all of it, of the same accounts; a correction reverses a posting once, of
 * at most its amount; debits equal credits over every account; no account is paid or committed below
 * zero; and each instalment's state is its entries': committed while approved, in a batch or suspended (held, still the family's), posted
 * once paid or delivered, neither once cancelled.
 */
export async function checkLedger(db: Database): Promise<string[]> {
	const problems: string[] = []
	const found = async (label: string, query: ReturnType<typeof sql>) => {
		for (const row of rowsOf<Record<string, unknown>>(await db.execute(query))) problems.push(`${label}: ${JSON.stringify(row)}`)
	}
	await found('amount not above zero, or one account both sides', sql`select id from ledger_entries where amount <= 0 or debit_account = credit_account`)
	await found('pending resolved more than once', sql`select pending_id from ledger_entries where pending_id is not null group by pending_id having count(*) > 1`)
	await found(
		'resolution does not fit its pending entry',
		sql`select r.id from ledger_entries r left join ledger_entries p on p.id = r.pending_id where r.pending_id is not null
			and (p.id is null or p.phase <> 'pending' or r.phase = 'pending' or p.debit_account <> r.debit_account or p.credit_account <> r.credit_account
				or r.amount > p.amount or (r.phase = 'voided' and r.amount <> p.amount))`,
	)
	await found('corrected more than once', sql`select corrects_id from ledger_entries where corrects_id is not null group by corrects_id having count(*) > 1`)
	await found(
		'correction does not reverse a posting',
		sql`select r.id from ledger_entries r left join ledger_entries p on p.id = r.corrects_id where r.corrects_id is not null
			and (p.id is null or p.phase <> 'posted' or r.phase <> 'posted' or p.debit_account <> r.credit_account or p.credit_account <> r.debit_account or r.amount > p.amount)`,
	)
	const all = await balances(db)
	const outOfFunds = all.filter((balance) => !balance.account.startsWith('family:'))
	const toFamilies = all.filter((balance) => balance.account.startsWith('family:'))
	const total = (list: Balance[], metric: 'committed' | 'paid') => Math.round(list.reduce((sum, balance) => sum + balance[metric], 0) * 100)
	if (total(outOfFunds, 'paid') !== total(toFamilies, 'paid') || total(outOfFunds, 'committed') !== total(toFamilies, 'committed')) problems.push(`debits do not equal credits: ${JSON.stringify({ outOfFunds, toFamilies })}`)
	for (const balance of all) if (balance.committed < 0 || balance.paid < 0) problems.push(`below zero: ${JSON.stringify(balance)}`)
	await found(
		'instalment not as its entries say',
		sql`select i.id, i.status, s.open, s.standing from aid_instalments i cross join lateral (
				select
					(count(*) filter (where e.phase = 'pending' and not exists (select 1 from ledger_entries r where r.pending_id = e.id)))::int as open,
					(count(*) filter (where e.phase = 'posted' and e.corrects_id is null and not exists (select 1 from ledger_entries r where r.corrects_id = e.id)))::int as standing
				from ledger_entries e where e.instalment_id = i.id) s
			where not (
				(i.status in ('approved', 'in_batch', 'suspended') and s.open = 1 and s.standing = 0)
				or (i.status in ('paid', 'delivered') and s.open = 0 and s.standing = 1)
				or (i.status = 'cancelled' and s.open = 0 and s.standing = 0))`,
	)
	return problems
}
