import { and, asc, eq, isNotNull, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Database } from '#app/db/client.server.ts'
import { aidInstalments, caseAid, caseDecisions, caseEvents, funds, paymentBatchLines, users } from '#app/db/schema.ts'
import { fundLabel, isInKind } from '#app/cases/aid.ts'
import { todayInRiyadh } from '#app/text/format.ts'
import { paymentReference } from './payments.server.ts'

// A case's money in one list, for the printed case file (docs/product.md#printable-reports): the
// committee's approvals, then every row of the append-only aid ledger `case_aid`
// (docs/decisions/018-append-only-ledger.md) — paid, delivered, returned by the bank as a row of
// its own with the amount negated — and a monthly aid held, stopped or resumed (its `aid_changed` events).

export type AidLedgerWhat = 'approved' | 'paid' | 'bounced' | 'delivered' | 'recorded' | 'suspended' | 'stopped' | 'resumed'

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
	/** The reason of a return, a hold, a stop or a resumption. */
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

// A return's note: «أعاد البنك التحويل (مرجع البنك …): <reason>».
const RETURN_REASON = /^أعاد البنك التحويل[^:]*:\s*/

/** The case's aid ledger, oldest first (a day's approval before its payments). */
export async function aidLedgerOf(db: Database, caseId: string): Promise<AidLedgerRow[]> {
	const firstApprover = alias(users, 'first_approver')
	const [approvals, given, held, lines] = await Promise.all([
		db
			.select({ decision: caseDecisions, by: users.name, first: firstApprover.name, fund: funds })
			.from(caseDecisions)
			.leftJoin(users, eq(users.id, caseDecisions.deciderId))
			.leftJoin(firstApprover, eq(firstApprover.id, caseDecisions.firstApproverId))
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
		// app/aid/monthly-aid.server.ts `changeAid` writes one per action; a re-study date set has no action.
		db
			.select({ event: caseEvents, by: users.name, fund: funds })
			.from(caseEvents)
			.leftJoin(caseDecisions, eq(caseDecisions.id, sql`(${caseEvents.data}->>'decision')::int`))
			.leftJoin(funds, eq(funds.id, caseDecisions.fundId))
			.leftJoin(users, eq(users.id, caseEvents.actorId))
			.where(and(eq(caseEvents.caseId, caseId), eq(caseEvents.kind, 'aid_changed')))
			.orderBy(asc(caseEvents.id)),
		// The bank's answer as each batch line keeps it (never changed once the bank answered,
		// app/aid/payments.server.ts): its reference, and why it came back. Not the rows' notes, which
		// retention clears (app/operations/retention-purge.server.ts).
		db
			.select({ instalmentId: paymentBatchLines.instalmentId, bankReference: paymentBatchLines.bankReference, stateNote: paymentBatchLines.stateNote })
			.from(paymentBatchLines)
			.where(and(eq(paymentBatchLines.caseId, caseId), isNotNull(paymentBatchLines.bankReference)))
			.orderBy(asc(paymentBatchLines.id)),
	])
	const paidLines = linesOfPayments(given, lines)
	const rows: (AidLedgerRow & { order: number })[] = [
		...approvals.map(({ decision, by, first, fund }) => ({
			day: todayInRiyadh(decision.createdAt),
			what: 'approved' as const,
			amount: (decision.amount ?? 0) * (decision.months ?? 1),
			fund: fund ? fundLabel(fund) : null,
			reference: '',
			bankReference: null,
			months: decision.months,
			note: '',
			// Above an approval limit, both members (docs/product.md#proposals-and-the-committees-four-eyes).
			by: first && by ? `${first}، ${by}` : by,
			order: 0,
		})),
		...given.map(({ row, by, fund, instalment }) => ({
			day: row.givenOn,
			what: row.correctsId !== null ? ('bounced' as const) : instalment === null ? ('recorded' as const) : isInKind(row.kind) ? ('delivered' as const) : ('paid' as const),
			amount: row.amount,
			fund: fund ? fundLabel(fund) : null,
			reference: instalment === null ? '' : paymentReference(instalment),
			bankReference: paidLines.get(row.correctsId ?? row.id)?.bankReference ?? null,
			months: null,
			note: row.correctsId !== null ? (paidLines.get(row.correctsId)?.stateNote ?? row.note.replace(RETURN_REASON, '')) : '',
			by,
			order: 1,
		})),
		...held.flatMap(({ event, by, fund }) => {
			const action = (event.data as { action?: string } | null)?.action
			const what = action === 'suspend' ? ('suspended' as const) : action === 'stop' ? ('stopped' as const) : action === 'confirm' ? ('resumed' as const) : null
			if (!what) return []
			return [{ day: todayInRiyadh(event.at), what, amount: null, fund: fund ? fundLabel(fund) : null, reference: '', bankReference: null, months: null, note: event.note, by, order: 2 }]
		}),
	]
	// Stable: within a day, approvals, then the ledger in the order written, then holds.
	return rows.sort((a, b) => a.day.localeCompare(b.day) || a.order - b.order).map(({ order: _, ...row }) => row)
}

type PaidLine = { instalmentId: number; bankReference: string | null; stateNote: string | null }

/**
 * The batch line each transfer paid (a row of the aid ledger with an instalment, not a return) was
 * paid on, by the row's id. An instalment is in one batch at a time and paid at most once in it, so
 * its payments, oldest first, are its lines that carry a bank reference, oldest first.
 */
function linesOfPayments(given: readonly { row: typeof caseAid.$inferSelect; instalment: number | null }[], lines: readonly PaidLine[]): Map<number, PaidLine> {
	const waiting = new Map<number, PaidLine[]>()
	for (const line of lines) waiting.set(line.instalmentId, [...(waiting.get(line.instalmentId) ?? []), line])
	const found = new Map<number, PaidLine>()
	for (const { row, instalment } of given) {
		if (instalment === null || row.correctsId !== null || isInKind(row.kind)) continue
		const line = waiting.get(instalment)?.shift()
		if (line) found.set(row.id, line)
	}
	return found
}

/** What was approved, what was paid net of returns, and what was delivered. */
export function aidLedgerTotals(rows: readonly AidLedgerRow[]): AidLedgerTotals {
	const sum = (whats: readonly AidLedgerWhat[]) => rows.filter((row) => whats.includes(row.what)).reduce((total, row) => total + (row.amount ?? 0), 0)
	return { approved: sum(['approved']), paid: sum(['paid', 'bounced']), delivered: sum(['delivered']), recorded: sum(['recorded']) }
}
