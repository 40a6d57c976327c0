import { and, asc, eq } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { aidInstalments, caseAid, caseDecisions, funds, monthlyAids, users } from '#app/db/schema.ts'
import { fundLabel, isInKind } from '#app/cases/aid.ts'
import { todayInRiyadh } from '#app/text/format.ts'
import { paymentReference } from './payments.server.ts'

// A case's money in one list, for the printed case file (docs/product.md#printable-reports): the
// committee's approvals, then every row of the append-only aid ledger `case_aid`
// (docs/decisions/018-append-only-ledger.md) — paid, delivered, returned by the bank as a row of
// its own with the amount negated — and a monthly aid held or stopped.

export type AidLedgerWhat = 'approved' | 'paid' | 'bounced' | 'delivered' | 'recorded' | 'suspended' | 'stopped'

export interface AidLedgerRow {
	/** yyyy-mm-dd. */
	day: string
	what: AidLedgerWhat
	/** Riyals; negative for a transfer the bank returned; null for a hold or a stop (no money moves). */
	amount: number | null
	fund: string | null
	/** ATAA-n of the instalment, and the bank's reference, as written. */
	reference: string
	bankReference: string | null
	/** A monthly approval: its months (`amount` is their sum). */
	months: number | null
	/** The reason of a return, a hold or a stop. */
	note: string
	by: string | null
}

export interface AidLedgerTotals {
	approved: number
	/** Transfers paid, less those the bank returned. */
	paid: number
	delivered: number
	/** Support recorded by hand before the aid cycle (old history). */
	recorded: number
}

// The bank's reference as app/aid/payments.server.ts writes it into a payment's note and a return's.
const BANK_REFERENCE = /مرجع البنك ([^\s):،]+)/
// A return's note: «أعاد البنك التحويل (مرجع البنك …): <reason>».
const RETURN_REASON = /^أعاد البنك التحويل[^:]*:\s*/

/** The case's aid ledger, oldest first (a day's approval before its payments). */
export async function aidLedgerOf(db: Database, caseId: string): Promise<AidLedgerRow[]> {
	const [approvals, given, held] = await Promise.all([
		db
			.select({ decision: caseDecisions, by: users.name, fund: funds })
			.from(caseDecisions)
			.leftJoin(users, eq(users.id, caseDecisions.deciderId))
			.leftJoin(funds, eq(funds.id, caseDecisions.fundId))
			.where(and(eq(caseDecisions.caseId, caseId), eq(caseDecisions.outcome, 'approve')))
			.orderBy(asc(caseDecisions.createdAt), asc(caseDecisions.id)),
		db
			.select({ row: caseAid, by: users.name, fund: funds, instalment: aidInstalments.id })
			.from(caseAid)
			.leftJoin(users, eq(users.id, caseAid.createdBy))
			.leftJoin(aidInstalments, eq(aidInstalments.id, caseAid.instalmentId))
			.leftJoin(funds, eq(funds.id, aidInstalments.fundId))
			.where(eq(caseAid.caseId, caseId))
			.orderBy(asc(caseAid.id)),
		db
			.select({ aid: monthlyAids, by: users.name, fund: funds })
			.from(monthlyAids)
			.innerJoin(caseDecisions, eq(caseDecisions.id, monthlyAids.decisionId))
			.leftJoin(funds, eq(funds.id, caseDecisions.fundId))
			.leftJoin(users, eq(users.id, monthlyAids.heldBy))
			.where(eq(monthlyAids.caseId, caseId)),
	])
	const rows: (AidLedgerRow & { order: number })[] = [
		...approvals.map(({ decision, by, fund }) => ({
			day: todayInRiyadh(decision.createdAt),
			what: 'approved' as const,
			amount: (decision.amount ?? 0) * (decision.months ?? 1),
			fund: fund ? fundLabel(fund) : null,
			reference: '',
			bankReference: null,
			months: decision.months,
			note: '',
			by,
			order: 0,
		})),
		...given.map(({ row, by, fund, instalment }) => ({
			day: row.givenOn,
			what: row.correctsId !== null ? ('bounced' as const) : instalment === null ? ('recorded' as const) : isInKind(row.kind) ? ('delivered' as const) : ('paid' as const),
			amount: row.amount,
			fund: fund ? fundLabel(fund) : null,
			reference: instalment === null ? '' : paymentReference(instalment),
			bankReference: BANK_REFERENCE.exec(row.note)?.[1] ?? null,
			months: null,
			note: row.correctsId !== null ? row.note.replace(RETURN_REASON, '') : '',
			by,
			order: 1,
		})),
		...held
			.filter(({ aid }) => aid.state !== 'active')
			.map(({ aid, by, fund }) => ({
				day: todayInRiyadh(aid.updatedAt),
				what: aid.state === 'stopped' || aid.state === 'restarting' ? ('stopped' as const) : ('suspended' as const),
				amount: null,
				fund: fund ? fundLabel(fund) : null,
				reference: '',
				bankReference: null,
				months: null,
				note: aid.reason,
				by,
				order: 2,
			})),
	]
	// Stable: within a day, approvals, then the ledger in the order written, then holds.
	return rows.sort((a, b) => a.day.localeCompare(b.day) || a.order - b.order).map(({ order: _, ...row }) => row)
}

/** What was approved, what was paid net of returns, and what was delivered. */
export function aidLedgerTotals(rows: readonly AidLedgerRow[]): AidLedgerTotals {
	const sum = (whats: readonly AidLedgerWhat[]) => rows.filter((row) => whats.includes(row.what)).reduce((total, row) => total + (row.amount ?? 0), 0)
	return { approved: sum(['approved']), paid: sum(['paid', 'bounced']), delivered: sum(['delivered']), recorded: sum(['recorded']) }
}
