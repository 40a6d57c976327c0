// Money in (docs/product.md#money-in, docs/decisions/019-money-in.md): what each fund receives, and
// money moved between funds, kept as every money record is (./ledger.server.ts): a receipt is a row
// of `fund_receipts` (numbered, never changed) and ledger entries naming it. Recording it commits
// nothing yet (a pending entry from `source:<kind>`, or from the other fund, to `fund:<id>`); a second
// finance user confirms it (the pending entry posted, on the receipt's day) and only then does it count
// in the fund's balance. Cancelled before that, it is voided; after, reversed (a new entry naming the
// posting, dated today in an open month). A fund's balance is received, less committed, less paid.
import { and, asc, desc, eq, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { fundReceipts, fundSettings, funds, ledgerEntries, users, voucherNumbers } from '#app/db/schema.ts'
import { CaseChangeError, inOpenPeriods } from '#app/cases/refusals.ts'
import { isUniqueViolation } from '#app/db/errors.ts'
import { normaliseIban } from '#app/domain/validators.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { formatMoney, isCalendarDay, todayInRiyadh, toWesternDigits } from '#app/text/format.ts'
import { fundLabel } from './aid-text.ts'
import { bankDay } from './bank-days.ts'
import { pickColumn, plainAmount, readBankCsv } from './bank-csv.server.ts'
import { fundAccount, postTransfers, type LedgerEntry, type Writer } from './ledger.server.ts'
import { FUND_SOURCE, receiptSources, voucherNumber, type ReceiptState } from './receipts.ts'

export type Receipt = typeof fundReceipts.$inferSelect
type Fund = typeof funds.$inferSelect

/** The recorder confirming their own receipt: a 403, as every four-eyes refusal. */
export class ReceiptFourEyesError extends CaseChangeError {}

export const RECORDER_MAY_NOT_CONFIRM = 'لا يؤكد السند من سجّله: يؤكده مسؤول مالي آخر.'
export const NOT_OUT_OF_ZAKAT = 'لا تُنقل أموال الزكاة إلى صندوق آخر: تُصرف لمستحقيها وحدهم.'
const sourceAccount = (source: string) => `source:${source}`

export interface ReceiptInput {
	fundId: number
	amount: number
	receivedOn: string
	source: string
	donor?: string
	programme?: string | null
	condition?: string
	bankReference?: string
	note?: string
}

/** Why a receipt's common fields cannot be recorded; null when they can. */
function receiptProblem(input: { amount: number; receivedOn: string }): string | null {
	if (!Number.isFinite(input.amount) || input.amount <= 0 || Math.round(input.amount * 100) !== input.amount * 100 || input.amount >= 1e10) return 'الرجاء كتابة مبلغ أكبر من صفر بالريال (وهللتين على الأكثر)'
	if (!isCalendarDay(input.receivedOn) || input.receivedOn > todayInRiyadh()) return 'الرجاء كتابة تاريخ قبض صحيح لا يكون بعد اليوم'
	return null
}

async function activeFund(tx: Database, fundId: number, lock = false): Promise<Fund> {
	const query = tx.select().from(funds).where(eq(funds.id, fundId))
	const [fund] = lock ? await query.for('update') : await query
	if (!fund || !fund.active) throw new CaseChangeError('الرجاء اختيار صندوق قائم')
	return fund
}

/** The next number of a series in a year, taken in the caller's transaction: a receipt rolled back gives its number back. */
async function nextNumber(tx: Database, series: string, year: number): Promise<number> {
	const [row] = await tx
		.insert(voucherNumbers)
		.values({ series, year, last: 1 })
		.onConflictDoUpdate({ target: [voucherNumbers.series, voucherNumbers.year], set: { last: sql`${voucherNumbers.last} + 1` } })
		.returning()
	return row!.last
}

async function insertReceipt(tx: Database, values: Omit<typeof fundReceipts.$inferInsert, 'year' | 'seq'>): Promise<Receipt> {
	const year = Number(values.receivedOn.slice(0, 4))
	try {
		const [receipt] = await tx
			.insert(fundReceipts)
			.values({ ...values, year, seq: await nextNumber(tx, values.series, year) })
			.returning()
		return receipt!
	} catch (error) {
		if (isUniqueViolation(error)) throw new CaseChangeError(`مرجع البنك «${values.bankReference}» مسجّل في سند آخر: لا يُقبض المبلغ مرتين`)
		throw error
	}
}

/** Records a receipt (awaiting a second finance user's confirmation); its row. */
export async function recordReceipt(db: Database, input: ReceiptInput, actor: Writer & { id: number }): Promise<Receipt> {
	const problem = receiptProblem(input)
	if (problem) throw new CaseChangeError(problem)
	if (!receiptSources.some((source) => source.value === input.source)) throw new CaseChangeError('الرجاء اختيار مصدر المبلغ')
	if (input.programme && !findDefinition(input.programme)) throw new CaseChangeError('الرجاء اختيار برنامج قائم، أو ترك الشرط')
	return inOpenPeriods(db).transaction(async (tx) => {
		await activeFund(tx, input.fundId)
		const receipt = await insertReceipt(tx, {
			series: 'ق',
			receivedOn: input.receivedOn,
			amount: input.amount,
			fundId: input.fundId,
			source: input.source,
			donor: (input.donor ?? '').trim().slice(0, 200),
			programme: input.programme || null,
			condition: (input.condition ?? '').trim().slice(0, 500),
			bankReference: toWesternDigits(input.bankReference ?? '').trim().slice(0, 60),
			note: (input.note ?? '').trim().slice(0, 1000),
			recordedBy: actor.id,
		})
		await postTransfers(tx, [{ debitAccount: sourceAccount(input.source), creditAccount: fundAccount(input.fundId), amount: input.amount, phase: 'pending', fundId: input.fundId, receiptId: receipt.id, valueDate: input.receivedOn, reason: receipt.note }], actor)
		return receipt
	})
}

/** Records money moved from one fund to another (never out of a zakat fund), awaiting confirmation. */
export async function recordFundTransfer(db: Database, input: { fromFundId: number; toFundId: number; amount: number; movedOn: string; note: string }, actor: Writer & { id: number }): Promise<Receipt> {
	const problem = receiptProblem({ amount: input.amount, receivedOn: input.movedOn })
	if (problem) throw new CaseChangeError(problem)
	if (input.fromFundId === input.toFundId) throw new CaseChangeError('الرجاء اختيار صندوقين مختلفين')
	if (!input.note.trim()) throw new CaseChangeError('الرجاء كتابة سبب المناقلة')
	return inOpenPeriods(db).transaction(async (tx) => {
		const from = await activeFund(tx, input.fromFundId, true)
		await activeFund(tx, input.toFundId)
		if (from.zakat) throw new CaseChangeError(NOT_OUT_OF_ZAKAT)
		await refuseBeyondBalance(tx, from, input.amount, 'always')
		const receipt = await insertReceipt(tx, { series: 'م', receivedOn: input.movedOn, amount: input.amount, fundId: input.toFundId, fromFundId: input.fromFundId, source: FUND_SOURCE, note: input.note.trim().slice(0, 1000), recordedBy: actor.id })
		await postTransfers(tx, [{ debitAccount: fundAccount(input.fromFundId), creditAccount: fundAccount(input.toFundId), amount: input.amount, phase: 'pending', fundId: input.toFundId, receiptId: receipt.id, valueDate: input.movedOn, reason: receipt.note }], actor)
		return receipt
	})
}

interface ReceiptEntries {
	pending: LedgerEntry | undefined
	resolution: LedgerEntry | undefined
	reversal: LedgerEntry | undefined
}

async function entriesOf(tx: Database, receiptId: number): Promise<ReceiptEntries> {
	const rows = await tx.select().from(ledgerEntries).where(eq(ledgerEntries.receiptId, receiptId)).orderBy(asc(ledgerEntries.id))
	const pending = rows.find((row) => row.phase === 'pending')
	const resolution = rows.find((row) => row.pendingId !== null && row.pendingId === pending?.id)
	const reversal = rows.find((row) => row.correctsId !== null && row.correctsId === resolution?.id)
	return { pending, resolution, reversal }
}

const stateOf = (entries: ReceiptEntries): ReceiptState => (!entries.resolution ? 'awaiting' : entries.resolution.phase === 'voided' || entries.reversal ? 'cancelled' : 'confirmed')

async function lockedReceipt(tx: Database, id: number): Promise<{ receipt: Receipt; entries: ReceiptEntries }> {
	const [receipt] = await tx.select().from(fundReceipts).where(eq(fundReceipts.id, id)).for('update')
	if (!receipt) throw new CaseChangeError('لا يوجد سند بهذا الرقم')
	return { receipt, entries: await entriesOf(tx, id) }
}

/** A second finance user confirms a receipt: its entry posted, on its day; from now on it counts in the balance. */
export async function confirmReceipt(db: Database, id: number, actor: Writer & { id: number }): Promise<Receipt> {
	return inOpenPeriods(db).transaction(async (tx) => {
		const { receipt, entries } = await lockedReceipt(tx, id)
		if (stateOf(entries) !== 'awaiting') throw new CaseChangeError(`السند ${voucherNumber(receipt)} ${stateOf(entries) === 'confirmed' ? 'مؤكد من قبل' : 'ملغى'}`)
		if (receipt.recordedBy === actor.id) throw new ReceiptFourEyesError(RECORDER_MAY_NOT_CONFIRM)
		if (receipt.fromFundId !== null) await refuseBeyondBalance(tx, await activeFund(tx, receipt.fromFundId, true), receipt.amount, 'always')
		const pending = entries.pending!
		await postTransfers(tx, [{ debitAccount: pending.debitAccount, creditAccount: pending.creditAccount, amount: pending.amount, phase: 'posted', pendingId: pending.id, fundId: receipt.fundId, receiptId: receipt.id, valueDate: receipt.receivedOn, reason: pending.reason }], actor)
		return receipt
	})
}

/**
 * Cancels a receipt with a reason: one awaiting confirmation is voided; a confirmed one is reversed
 * by a new entry naming it, dated today, refused when the fund no longer holds it (a zakat fund, or
 * a general fund without overdraft, whose money is already committed). Its row and number stay.
 */
export async function cancelReceipt(db: Database, id: number, reason: string, actor: Writer & { id: number }): Promise<{ receipt: Receipt; was: ReceiptState }> {
	const why = reason.trim()
	if (why.length < 5) throw new CaseChangeError('الرجاء كتابة سبب الإلغاء (خمسة أحرف على الأقل)')
	return inOpenPeriods(db).transaction(async (tx) => {
		const { receipt, entries } = await lockedReceipt(tx, id)
		const was = stateOf(entries)
		if (was === 'cancelled') throw new CaseChangeError(`السند ${voucherNumber(receipt)} ملغى من قبل`)
		const pending = entries.pending!
		const common = { fundId: receipt.fundId, receiptId: receipt.id, valueDate: todayInRiyadh(), reason: why.slice(0, 1000) }
		if (was === 'awaiting') {
			await postTransfers(tx, [{ debitAccount: pending.debitAccount, creditAccount: pending.creditAccount, amount: pending.amount, phase: 'voided', pendingId: pending.id, ...common }], actor)
		} else {
			const [fund] = await tx.select().from(funds).where(eq(funds.id, receipt.fundId)).for('update')
			await refuseBeyondBalance(tx, fund!, receipt.amount, 'by-setting')
			const posting = entries.resolution!
			await postTransfers(tx, [{ debitAccount: posting.creditAccount, creditAccount: posting.debitAccount, amount: posting.amount, phase: 'posted', correctsId: posting.id, ...common }], actor)
		}
		return { receipt, was }
	})
}

export interface FundBalance {
	fundId: number
	/** Confirmed receipts and transfers in, less transfers out and cancellations. */
	received: number
	/** Approved, not yet paid or delivered. */
	committed: number
	paid: number
	/** Received, less committed, less paid. */
	balance: number
}

const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[]
const cents = (value: number) => Math.round(value * 100) / 100

/** Each fund's balance, read from the ledger's entries (all funds, or one). */
export async function fundBalances(db: Database, fundId?: number): Promise<Map<number, FundBalance>> {
	const rows = rowsOf<{ fund_id: number; received: string; committed: string; paid: string }>(
		await db.execute(sql`
		select f.id as fund_id,
			coalesce((select sum(case when e.credit_account = 'fund:' || f.id then e.amount else -e.amount end) from ledger_entries e
				where e.receipt_id is not null and e.phase = 'posted' and ('fund:' || f.id) in (e.debit_account, e.credit_account)), 0) as received,
			coalesce((select sum(e.amount) from ledger_entries e
				where e.receipt_id is null and e.debit_account = 'fund:' || f.id and e.phase = 'pending' and not exists (select 1 from ledger_entries r where r.pending_id = e.id)), 0) as committed,
			coalesce((select sum(case when e.debit_account = 'fund:' || f.id then e.amount else -e.amount end) from ledger_entries e
				where e.receipt_id is null and e.phase = 'posted' and ('fund:' || f.id) in (e.debit_account, e.credit_account)), 0) as paid
		from funds f ${fundId === undefined ? sql`` : sql`where f.id = ${fundId}`}`),
	)
	return new Map(
		rows.map((row) => {
			const [received, committed, paid] = [Number(row.received), Number(row.committed), Number(row.paid)]
			return [Number(row.fund_id), { fundId: Number(row.fund_id), received, committed, paid, balance: cents(received - committed - paid) + 0 }]
		}),
	)
}

/** The funds' setting (one row): whether a general fund may approve beyond its balance. */
export async function fundSettingsOf(db: Database): Promise<{ generalOverdraft: boolean }> {
	const [row] = await db.select().from(fundSettings).where(eq(fundSettings.id, 1))
	return { generalOverdraft: row?.generalOverdraft ?? true }
}

/** An admin sets whether general funds may be overdrawn; what it was, for the audit trail. */
export async function setGeneralOverdraft(db: Database, allow: boolean, actor: { id: number }): Promise<{ before: boolean; after: boolean }> {
	const { generalOverdraft: before } = await fundSettingsOf(db)
	await db
		.insert(fundSettings)
		.values({ id: 1, generalOverdraft: allow, updatedBy: actor.id })
		.onConflictDoUpdate({ target: fundSettings.id, set: { generalOverdraft: allow, updatedBy: actor.id, updatedAt: sql`now()` } })
	return { before, after: allow }
}

/** The refusal of `amount` beyond a fund's balance, with the figures. */
export function beyondBalanceMessage(fund: Pick<Fund, 'name' | 'zakat'>, amount: number, figures: FundBalance): string {
	return `يتجاوز المبلغ (${formatMoney(amount)}) رصيد «${fundLabel(fund)}»: المقبوض ${formatMoney(figures.received)}، المعتمد غير المصروف ${formatMoney(figures.committed)}، المصروف ${formatMoney(figures.paid)}، الرصيد ${formatMoney(figures.balance)}.${fund.zakat ? ' لا يُعتمد من صندوق الزكاة أكثر مما قُبض فيه.' : ''}`
}

/**
 * Inside a money action's transaction, the fund's row locked: refuses `amount` leaving a fund beyond
 * its balance. `by-setting`: a zakat fund always, a general fund when the admin's setting forbids an
 * overdraft; `always`: whatever the fund (money moved to another fund must be there).
 */
export async function refuseBeyondBalance(tx: Database, fund: Fund, amount: number, rule: 'by-setting' | 'always'): Promise<void> {
	if (rule === 'by-setting' && !fund.zakat && (await fundSettingsOf(tx)).generalOverdraft) return
	const figures = (await fundBalances(tx, fund.id)).get(fund.id)!
	if (Math.round(amount * 100) > Math.round(figures.balance * 100)) throw new CaseChangeError(beyondBalanceMessage(fund, amount, figures))
}

/** An approval's check (app/aid/decisions.server.ts, a restart in app/aid/monthly-aid.server.ts): the fund locked, its balance enough. */
export async function checkFundBalance(tx: Database, input: { fundId: number; total: number }): Promise<void> {
	const [fund] = await tx.select().from(funds).where(eq(funds.id, input.fundId)).for('update')
	if (fund) await refuseBeyondBalance(tx, fund, input.total, 'by-setting')
}

export interface ReceiptRow extends Receipt {
	number: string
	state: ReceiptState
	fundName: string
	fromFundName: string | null
	recordedByName: string | null
	confirmedByName: string | null
	cancelledByName: string | null
	cancelReason: string
}

async function describe(db: Database, rows: Receipt[]): Promise<ReceiptRow[]> {
	if (!rows.length) return []
	const fundRows = await db.select().from(funds)
	const staff = await db.select({ id: users.id, name: users.name }).from(users)
	const nameOf = (id: number | null | undefined) => staff.find((user) => user.id === id)?.name ?? null
	const fundName = (id: number | null) => {
		const fund = fundRows.find((candidate) => candidate.id === id)
		return fund ? fundLabel(fund) : ''
	}
	return Promise.all(
		rows.map(async (receipt) => {
			const entries = await entriesOf(db, receipt.id)
			const state = stateOf(entries)
			const cancelling = entries.reversal ?? (entries.resolution?.phase === 'voided' ? entries.resolution : undefined)
			return {
				...receipt,
				number: voucherNumber(receipt),
				state,
				fundName: fundName(receipt.fundId),
				fromFundName: receipt.fromFundId === null ? null : fundName(receipt.fromFundId),
				recordedByName: nameOf(receipt.recordedBy),
				confirmedByName: entries.resolution?.phase === 'posted' ? nameOf(entries.resolution.actorId) : null,
				cancelledByName: cancelling ? nameOf(cancelling.actorId) : null,
				cancelReason: cancelling?.reason ?? '',
			}
		}),
	)
}

/** The newest receipts and transfers between funds, optionally of one fund. */
export async function listReceipts(db: Database, options: { limit?: number; fundId?: number } = {}): Promise<ReceiptRow[]> {
	const rows = await db
		.select()
		.from(fundReceipts)
		.where(options.fundId === undefined ? undefined : eq(fundReceipts.fundId, options.fundId))
		.orderBy(desc(fundReceipts.receivedOn), desc(fundReceipts.id))
		.limit(options.limit ?? 100)
	return describe(db, rows)
}

export async function receiptById(db: Database, id: number): Promise<ReceiptRow | undefined> {
	const rows = await db.select().from(fundReceipts).where(eq(fundReceipts.id, id))
	return (await describe(db, rows))[0]
}

/** The column names the bank statement's credits are read by (Arabic or English; docs/product.md#money-in). */
export const statementColumns = {
	valueDate: ['value_date', 'date', 'تاريخ القيد', 'التاريخ'],
	credit: ['credit', 'دائن', 'المبلغ الدائن'],
	account: ['account', 'iban', 'الحساب', 'رقم الحساب'],
	reference: ['reference', 'bank_reference', 'المرجع', 'مرجع البنك'],
	depositor: ['depositor', 'المودع', 'اسم المودع'],
	description: ['description', 'البيان', 'الوصف'],
} as const

export interface StatementImport {
	recorded: string[]
	/** Rows not recorded, with why. Nothing is guessed. */
	unmatched: { line: number; reference: string; reason: string }[]
}

/**
 * Reads the bank statement's credits (CSV) and records a receipt, awaiting confirmation, for each
 * credit into an account exactly one fund names (its «حساب الخصم»). A debit row, a row into an
 * account no fund or several funds name, without a reference, with an unreadable day or amount, or
 * already recorded, is listed with why and changes nothing.
 */
export async function importStatement(db: Database, csv: string, actor: Writer & { id: number }): Promise<StatementImport> {
	const records = readBankCsv(csv, 'تعذرت قراءة كشف الحساب: الرجاء رفع ملف CSV بالأعمدة المطلوبة')
	if (!records.length || !(statementColumns.credit.some((name) => name in records[0]!) && statementColumns.account.some((name) => name in records[0]!))) throw new CaseChangeError('كشف الحساب بلا أعمدة «value_date» و«credit» و«account» و«reference»')
	const fundRows = await db.select().from(funds).where(eq(funds.active, true))
	const result: StatementImport = { recorded: [], unmatched: [] }
	for (const [index, record] of records.entries()) {
		const line = index + 2
		const reference = toWesternDigits(pickColumn(record, statementColumns.reference)).trim()
		const unmatched = (reason: string) => result.unmatched.push({ line, reference, reason })
		const writtenCredit = pickColumn(record, statementColumns.credit)
		if (!writtenCredit.trim()) {
			unmatched('ليس قيداً دائناً (لا مبلغ في عمود «credit»)')
			continue
		}
		const amount = plainAmount(writtenCredit)
		if (amount === null || amount <= 0) {
			unmatched(`المبلغ «${writtenCredit}» ليس رقماً عشرياً أكبر من صفر: يُكتب بالأرقام وحدها، مثل 1500 أو 1,500.00`)
			continue
		}
		const writtenDay = pickColumn(record, statementColumns.valueDate)
		const receivedOn = bankDay(writtenDay)
		if (receivedOn === null) {
			unmatched(`تاريخ القيد «${writtenDay}» غير مقروء: يُكتب يوماً فشهراً فسنة مثل 29/11/2026، أو 2026-11-29`)
			continue
		}
		if (!reference) {
			unmatched('بلا مرجع بنك: لا يُسجّل قيد لا يُعرف إن سُجّل من قبل')
			continue
		}
		const writtenAccount = pickColumn(record, statementColumns.account)
		const account = normaliseIban(toWesternDigits(writtenAccount))
		const named = fundRows.filter((fund) => fund.debitAccount !== null && account !== '' && fund.debitAccount === account)
		if (named.length !== 1) {
			unmatched(named.length ? `الحساب «${writtenAccount}» لأكثر من صندوق (${named.map(fundLabel).join('، ')}): يُسجّل السند يدوياً` : `الحساب «${writtenAccount}» لا يعود إلى صندوق: لا صندوق حسابه هذا الآيبان`)
			continue
		}
		try {
			const receipt = await recordReceipt(
				db,
				{ fundId: named[0]!.id, amount, receivedOn, source: 'bank_deposit', donor: pickColumn(record, statementColumns.depositor), bankReference: reference, note: pickColumn(record, statementColumns.description) },
				actor,
			)
			result.recorded.push(voucherNumber(receipt))
		} catch (error) {
			if (!(error instanceof CaseChangeError)) throw error
			unmatched(error.message)
		}
	}
	return result
}

/** The receipts of a fund still awaiting confirmation: the count, for the funds page. */
export async function awaitingCount(db: Database): Promise<number> {
	const [row] = await db
		.select({ n: sql<number>`count(*)::int` })
		.from(ledgerEntries)
		.where(and(sql`${ledgerEntries.receiptId} is not null`, eq(ledgerEntries.phase, 'pending'), sql`not exists (select 1 from ledger_entries r where r.pending_id = ${ledgerEntries.id})`))
	return row?.n ?? 0
}

/** The funds with their balance formatted, for the committee's forms (app/components/fund-balances.tsx). */
export async function withBalances(db: Database, fundRows: readonly Fund[]): Promise<{ id: number; label: string; zakat: boolean; balance: string }[]> {
	const balances = await fundBalances(db)
	return fundRows.map((fund) => ({ id: fund.id, label: fundLabel(fund), zakat: fund.zakat, balance: formatMoney(balances.get(fund.id)?.balance ?? 0) }))
}
