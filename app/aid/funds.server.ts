// Funds and budgets (docs/product.md#funds-and-budgets): the money aid is paid from, and what each
// programme may give in a year. What is committed (approved, not yet paid) and paid is summed from
// the money ledger's entries (./ledger.server.ts), never kept beside them.
import { and, asc, eq, isNull, or, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { budgets, funds } from '#app/db/schema.ts'
import { CaseChangeError } from '#app/cases/status-changes.server.ts'
import { isUniqueViolation } from '#app/db/errors.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { formatMoney } from '#app/text/format.ts'
import { ibanProblem, normaliseIban } from '#app/domain/validators.ts'
import { bankOfIban, ibanBankCode } from '#app/domain/saudi-banks.ts'
import { fundLabel } from './aid-text.ts'
import { budgetUse } from './ledger.server.ts'

export type Fund = typeof funds.$inferSelect

/** The funds, in the order they were added; only those in use unless `withRetired`. */
export function listFunds(db: Database, options: { withRetired?: boolean } = {}): Promise<Fund[]> {
	return db
		.select()
		.from(funds)
		.where(options.withRetired ? undefined : eq(funds.active, true))
		.orderBy(asc(funds.id))
}

export { fundLabel } from './aid-text.ts'

export class FundNameTaken extends CaseChangeError {}

/** A new fund. Whether it is zakat is said once, here: money already given from it stays what it was. */
export async function addFund(db: Database, input: { name: string; zakat: boolean }): Promise<Fund> {
	try {
		const [added] = await db.insert(funds).values({ name: input.name.trim(), zakat: input.zakat }).returning()
		return added!
	} catch (error) {
		if (isUniqueViolation(error)) throw new FundNameTaken('يوجد صندوق بهذا الاسم')
		throw error
	}
}

/** Renames, retires or brings back a fund; undefined when there is no such fund. */
export async function changeFund(db: Database, id: number, change: { name?: string; active?: boolean }): Promise<Fund | undefined> {
	try {
		const [changed] = await db
			.update(funds)
			.set({ ...(change.name !== undefined ? { name: change.name.trim() } : {}), ...(change.active !== undefined ? { active: change.active } : {}) })
			.where(eq(funds.id, id))
			.returning()
		return changed
	} catch (error) {
		if (isUniqueViolation(error)) throw new FundNameTaken('يوجد صندوق بهذا الاسم')
		throw error
	}
}

/** Why a debit account cannot be a fund's: a Saudi IBAN (mod 97) of a bank we know; null when it can. */
export function debitAccountProblem(typed: string): string | null {
	const problem = ibanProblem(typed)
	if (problem === 'empty') return null
	if (problem) return problem === 'checksum' ? 'رقم الآيبان لحساب الخصم غير صحيح (خانة التحقق لا تطابق): الرجاء مراجعته' : 'حساب الخصم آيبان سعودي: SA ويتبعه 22 رقماً'
	if (!bankOfIban(typed)) return `رمز البنك في آيبان حساب الخصم (${ibanBankCode(typed)}) لا يعود إلى بنك سعودي معروف`
	return null
}

/**
 * Names the foundation's account a fund pays from ('' clears it), checked; the account before and
 * after. Batches already made keep the account they were made with.
 */
export async function setDebitAccount(db: Database, id: number, typed: string): Promise<{ fund: Fund; before: string | null } | undefined> {
	const problem = debitAccountProblem(typed)
	if (problem) throw new CaseChangeError(problem)
	const iban = ibanProblem(typed) === 'empty' ? null : normaliseIban(typed)
	return db.transaction(async (tx) => {
		const [current] = await tx.select().from(funds).where(eq(funds.id, id)).for('update')
		if (!current) return undefined
		const [changed] = await tx.update(funds).set({ debitAccount: iban }).where(eq(funds.id, id)).returning()
		return { fund: changed!, before: current.debitAccount }
	})
}

export interface BudgetFigures {
	id: number
	programme: string
	programmeTitle: string
	year: number
	fundId: number | null
	fundName: string
	allocated: number
	/** Approved, not yet paid or delivered. */
	committed: number
	/** Paid or delivered. */
	paid: number
	remaining: number
}

async function figuresOf(db: Database, rows: (typeof budgets.$inferSelect)[]): Promise<BudgetFigures[]> {
	const fundRows = await listFunds(db, { withRetired: true })
	return Promise.all(
		rows.map(async (budget) => {
			// Read from the money ledger's entries of the budget's instalments (./ledger.server.ts).
			const { committed, paid } = await budgetUse(db, budget)
			const fund = fundRows.find((candidate) => candidate.id === budget.fundId)
			return {
				id: budget.id,
				programme: budget.programme,
				programmeTitle: findDefinition(budget.programme)?.title ?? budget.programme,
				year: budget.year,
				fundId: budget.fundId,
				fundName: fund ? fundLabel(fund) : 'كل الصناديق',
				allocated: budget.allocated,
				committed,
				paid,
				remaining: Math.round((budget.allocated - committed - paid) * 100) / 100,
			}
		}),
	)
}

/** A year's budgets with what is committed, paid and left of each, by programme. */
export async function budgetsOf(db: Database, year: number): Promise<BudgetFigures[]> {
	const rows = await db.select().from(budgets).where(eq(budgets.year, year)).orderBy(asc(budgets.programme), asc(budgets.fundId))
	return figuresOf(db, rows)
}

/**
 * Sets what a programme may give in a year (from one fund, or from any): a new budget, or a change
 * to one. Returns what it was, for the audit trail. Lowering it below what is already committed
 * and paid is refused.
 */
export async function setBudget(db: Database, input: { programme: string; year: number; fundId: number | null; allocated: number }, actor: { id: number }): Promise<{ before: number | null; after: number }> {
	return db.transaction(async (tx) => {
		const where = and(eq(budgets.programme, input.programme), eq(budgets.year, input.year), input.fundId === null ? isNull(budgets.fundId) : eq(budgets.fundId, input.fundId))
		const [current] = await tx.select().from(budgets).where(where).for('update')
		if (current) {
			const [figures] = await figuresOf(tx, [current])
			const used = figures!.committed + figures!.paid
			if (input.allocated < used) throw new CaseChangeError(`لا تقل الميزانية عن المعتمد والمصروف منها: ${formatMoney(used)}`)
			await tx.update(budgets).set({ allocated: input.allocated, updatedAt: sql`now()`, updatedBy: actor.id }).where(eq(budgets.id, current.id))
			return { before: current.allocated, after: input.allocated }
		}
		await tx.insert(budgets).values({ ...input, updatedBy: actor.id })
		return { before: null, after: input.allocated }
	})
}

/**
 * Inside an approval's transaction: refuses, with the figures, an amount that would overdraw a
 * budget it is charged to (the programme's for the year from any fund, and the fund's own), and
 * one with no budget at all. The budgets are locked until the approval is written, so two
 * approvals at once cannot both take the last riyals.
 */
export async function checkBudget(tx: Database, input: { programme: string; year: number; fundId: number; total: number }): Promise<void> {
	const rows = await tx
		.select()
		.from(budgets)
		.where(and(eq(budgets.programme, input.programme), eq(budgets.year, input.year), or(isNull(budgets.fundId), eq(budgets.fundId, input.fundId))))
		.orderBy(asc(budgets.id))
		.for('update')
	const title = findDefinition(input.programme)?.title ?? input.programme
	if (!rows.length) throw new CaseChangeError(`لا ميزانية لبرنامج «${title}» لعام ${input.year}: يحددها مدير النظام في صفحة الصناديق والميزانيات`)
	for (const figures of await figuresOf(tx, rows)) {
		if (input.total > figures.remaining)
			throw new CaseChangeError(
				`يتجاوز المبلغ (${formatMoney(input.total)}) المتبقي من ميزانية «${title}» لعام ${input.year} (${figures.fundName}): المخصص ${formatMoney(figures.allocated)}، المعتمد غير المصروف ${formatMoney(figures.committed)}، المصروف ${formatMoney(figures.paid)}، المتبقي ${formatMoney(figures.remaining)}. يرفع مدير النظام الميزانية إن لزم.`,
			)
	}
}
