// Paying approved aid (docs/product.md#payment): finance gathers approved instalments into a batch,
// downloads the bank's transfer file, marks it sent, then records each payment's bank reference and
// day (typed, or from the bank's confirmation file, matched on reference and amount); a payment that
// bounced is reopened. Aid in kind is recorded as delivered. Whoever approved an aid does not record
// its payment. A recorded payment or delivery is aid given: a row of the case's aid ledger, and the
// case becomes «تم تقديم الدعم». Once it is committed, the applicant is told (`payment-made`).
import { and, asc, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { aidInstalments, caseAid, caseDecisions, caseEvents, cases, funds, paymentBatches, paymentBatchLines, users } from '#app/db/schema.ts'
import type { UserRole } from '#app/db/roles.ts'
import { CaseChangeError } from '#app/cases/status-changes.server.ts'
import { inOpenPeriods } from '#app/cases/refusals.ts'
import { Status } from '#app/cases/case-statuses.ts'
import type { Notice } from '#app/notify/case-notices.server.ts'
import { inKindAid, isInKind } from '#app/cases/aid.ts'
import { transitionRefusal } from '#app/cases/workflow.ts'
import { receiptSlot } from '#app/cases/staff-files.ts'
import { discardStaffFiles, insertStaffFile, type StoredStaffFile } from '#app/cases/staff-files.server.ts'
import { isValidSaudiIban } from '#app/domain/validators.ts'
import { ibanBankCode, ibanBankProblem } from '#app/domain/saudi-banks.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { ibanHolds, ibansOf, noteIbanBounced, transferAccounts, transferOwed, type PayeeAccount } from '#app/cases/payee-accounts.server.ts'
import { isCalendarDay, todayInRiyadh, toWesternDigits } from '#app/text/format.ts'
import { keepBatchFiles } from './batch-files.server.ts'
import { bankDay } from './bank-days.ts'
import { pickColumn, plainAmount, readBankCsv } from './bank-csv.server.ts'
import * as ledger from './ledger.server.ts'
import { followAid } from './monthly-aid.server.ts'

type Actor = { id: number; roles: readonly UserRole[] }

/** Four eyes: refused with 403 and audited, as the decision's own (decisions.server.ts). */
export class PaymentFourEyesError extends CaseChangeError {}

export const APPROVER_MAY_NOT_PAY = 'لا يسجّل صرف الدعم من اعتمده: يسجّله مسؤول مالي آخر.'

/** The reference each transfer carries to the bank and back: one per instalment. */
export const paymentReference = (id: number) => `ATAA-${id}`
function instalmentOfReference(reference: string): number | null {
	const digits = /^ATAA-(\d{1,9})$/.exec(reference.trim().toUpperCase())?.[1]
	return digits ? Number(digits) : null
}

/** The month's last day: what is due this month may be paid now. */
function endOfMonth(day: string): string {
	const [year, month] = day.split('-').map(Number) as [number, number]
	return new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10)
}

/** Why a payee's account cannot be paid: no valid IBAN, or one of another bank than the chosen one; null when it can. */
export function accountProblem(account: PayeeAccount | undefined): string | null {
	if (!account || !isValidSaudiIban(account.iban)) return 'لا آيبان صحيح لهذا المستفيد: يصحّحه الباحث الاجتماعي أولاً'
	const problem = ibanBankProblem(account.iban, account.bank)
	return problem ? `${problem}: يصحّحه الباحث الاجتماعي أولاً` : null
}

export interface DueInstalment {
	id: number
	reference: string
	caseId: string
	caseReference: string
	name: string
	aidKind: string
	amount: number
	dueOn: string
	seq: number
	months: number | null
	fundName: string
	/** The transfer account, checked (mod 97, and against the chosen bank); '' when there is none or it fails. */
	iban: string
	/** Why it cannot be paid (no valid IBAN, another bank's); null when it can. */
	accountProblem: string | null
	/** Who approved it: they do not record its payment. */
	deciderId: number | null
	/** Why it may not be batched now (an IBAN waiting for finance's confirmation), or null. */
	held: string | null
}

/** Approved instalments due by the end of this month: transfers to batch, or aid in kind to deliver. */
export async function dueInstalments(db: Database, kind: 'transfer' | 'in-kind', limit = 500): Promise<DueInstalment[]> {
	const rows = await db
		.select({
			id: aidInstalments.id,
			caseId: aidInstalments.caseId,
			caseReference: cases.reference,
			name: cases.applicantName,
			aidKind: aidInstalments.aidKind,
			amount: aidInstalments.amount,
			dueOn: aidInstalments.dueOn,
			seq: aidInstalments.seq,
			months: caseDecisions.months,
			fundName: funds.name,
			deciderId: caseDecisions.deciderId,
		})
		.from(aidInstalments)
		.innerJoin(cases, eq(cases.id, aidInstalments.caseId))
		.innerJoin(caseDecisions, eq(caseDecisions.id, aidInstalments.decisionId))
		.innerJoin(funds, eq(funds.id, aidInstalments.fundId))
		.where(
			and(
				eq(aidInstalments.status, 'approved'),
				lte(aidInstalments.dueOn, endOfMonth(todayInRiyadh())),
				isNull(cases.deletedAt),
				kind === 'in-kind' ? inArray(aidInstalments.aidKind, [...inKindAid]) : sql`${aidInstalments.aidKind} not in (${sql.join(inKindAid.map((item) => sql`${item}`), sql`, `)})`,
			),
		)
		.orderBy(asc(aidInstalments.dueOn), asc(aidInstalments.id))
		.limit(limit)
	const caseIds = [...new Set(rows.map((row) => row.caseId))]
	const accounts = kind === 'transfer' ? await transferAccounts(db, caseIds) : new Map<string, PayeeAccount>()
	// An IBAN given after the approval, or returned by the bank, waits for finance's confirmation (app/cases/payee-accounts.server.ts).
	const held = kind === 'transfer' ? await ibanHolds(db, ibansOf(accounts), caseIds) : new Map<string, string>()
	return rows.map((row) => {
		const account = accounts.get(row.caseId)
		const problem = kind === 'transfer' ? accountProblem(account) : null
		return { ...row, reference: paymentReference(row.id), iban: problem ? '' : (account?.iban ?? ''), accountProblem: problem, held: held.get(row.caseId) ?? null }
	})
}

export interface Refused {
	reference: string
	reason: string
}

/** Ids as one parameter (an array literal) rather than one each: `= any(...)` of 1,000 ids parses much faster than `in ($1, ..., $1000)`. */
const intArray = (ids: readonly number[]) => sql`${`{${ids.join(',')}}`}::int[]`

/** A batch's account and kind: one batch per debit account, and zakat never with other money. */
const batchKey = (fund: { debitAccount: string | null; zakat: boolean }) => `${fund.debitAccount ?? ''}|${fund.zakat}`

/**
 * New batches of the chosen transfers, each checked on its own under a lock: still approved and
 * unbatched, not aid in kind, with a valid account of the bank the applicant chose, not approved by
 * the one batching it. Refused ones are listed with why. The rest go into one batch per debit
 * account of their funds, zakat apart (docs/product.md#payment); each line pins what the bank is
 * told. `batchId` is the first batch made (null: none), `batchIds` all of them.
 */
export async function createBatch(db: Database, instalmentIds: readonly number[], note: string, actor: Actor): Promise<{ batchId: number | null; batchIds: number[]; refused: Refused[] }> {
	return db.transaction(async (tx) => {
		const rows = instalmentIds.length
			? await tx
					.select({
						// What the checks and the lines read, no more: 1,000 rows of every column cost (bench:aid).
						instalment: { id: aidInstalments.id, caseId: aidInstalments.caseId, status: aidInstalments.status, aidKind: aidInstalments.aidKind, amount: aidInstalments.amount, fundId: aidInstalments.fundId },
						deciderId: caseDecisions.deciderId,
						firstApproverId: caseDecisions.firstApproverId,
						caseReference: cases.reference,
						name: cases.applicantName,
						deletedAt: cases.deletedAt,
						fund: { debitAccount: funds.debitAccount, zakat: funds.zakat },
					})
					.from(aidInstalments)
					.innerJoin(caseDecisions, eq(caseDecisions.id, aidInstalments.decisionId))
					.innerJoin(cases, eq(cases.id, aidInstalments.caseId))
					.innerJoin(funds, eq(funds.id, aidInstalments.fundId))
					.where(sql`${aidInstalments.id} = any(${intArray(instalmentIds)})`)
					.for('update', { of: aidInstalments })
			: []
		const accounts = await transferAccounts(tx, rows.map((row) => row.instalment.caseId))
		// An IBAN given after the approval, or returned by the bank, waits for finance's confirmation (app/cases/payee-accounts.server.ts).
		const held = await ibanHolds(tx, ibansOf(accounts), [...new Set(rows.map((row) => row.instalment.caseId))])
		const refused: Refused[] = []
		const accepted = new Map<string, { row: (typeof rows)[number]; iban: string }[]>()
		const byId = new Map(rows.map((row) => [row.instalment.id, row]))
		for (const id of instalmentIds) {
			const row = byId.get(id)
			const reference = paymentReference(id)
			const problem = row ? accountProblem(accounts.get(row.instalment.caseId)) : null
			if (!row || row.deletedAt) refused.push({ reference, reason: 'القسط غير موجود' })
			else if (row.instalment.status !== 'approved') refused.push({ reference, reason: 'لم يعد هذا القسط بانتظار الصرف' })
			else if (isInKind(row.instalment.aidKind)) refused.push({ reference, reason: 'مساعدة عينية: تُسجَّل مسلَّمة، لا تحويلاً' })
			else if (row.deciderId === actor.id || row.firstApproverId === actor.id) refused.push({ reference, reason: APPROVER_MAY_NOT_PAY })
			else if (problem) refused.push({ reference, reason: problem })
			else if (held.has(row.instalment.caseId)) refused.push({ reference, reason: held.get(row.instalment.caseId)! })
			else {
				const key = batchKey(row.fund)
				const lines = accepted.get(key) ?? accepted.set(key, []).get(key)!
				lines.push({ row, iban: accounts.get(row.instalment.caseId)!.iban })
			}
		}
		const batchIds: number[] = []
		for (const lines of accepted.values()) {
			const { fund } = lines[0]!.row
			const [batch] = await tx.insert(paymentBatches).values({ note: note.trim(), createdBy: actor.id, debitAccount: fund.debitAccount, zakat: fund.zakat }).returning({ id: paymentBatches.id })
			// One statement with one parameter, the lines as JSON in the order chosen: a row of 11
			// parameters a line made 11,000 of them for 1,000 lines, which PGlite parses slowly (bench:aid).
			const pinned = lines.map(({ row, iban }) => ({
				batch_id: batch!.id,
				instalment_id: row.instalment.id,
				case_id: row.instalment.caseId,
				case_reference: row.caseReference,
				reference: paymentReference(row.instalment.id),
				payee_name: row.name,
				iban,
				bank_code: ibanBankCode(iban),
				amount: row.instalment.amount,
				fund_id: row.instalment.fundId,
				aid_kind: row.instalment.aidKind,
			}))
			await tx.execute(sql`
				insert into ${paymentBatchLines} ("batch_id", "instalment_id", "case_id", "case_reference", "reference", "payee_name", "iban", "bank_code", "amount", "fund_id", "aid_kind")
				select l."batch_id", l."instalment_id", l."case_id", l."case_reference", l."reference", l."payee_name", l."iban", l."bank_code", l."amount", l."fund_id", l."aid_kind"
				from json_array_elements(${JSON.stringify(pinned)}::json) with ordinality as given ("line", "n")
				cross join lateral json_populate_record(null::${paymentBatchLines}, given."line") as l
				order by given."n"`)
			const ids = lines.map(({ row }) => row.instalment.id)
			await tx.update(aidInstalments).set({ status: 'in_batch', batchId: batch!.id, updatedAt: sql`now()` }).where(sql`${aidInstalments.id} = any(${intArray(ids)})`)
			batchIds.push(batch!.id)
		}
		return { batchId: batchIds[0] ?? null, batchIds, refused }
	})
}

export type Batch = typeof paymentBatches.$inferSelect
export type BatchLineState = (typeof paymentBatchLines.$inferSelect)['state']

export interface BatchLine {
	id: number
	/** The pinned line's own number. */
	lineId: number
	reference: string
	caseReference: string
	name: string
	iban: string
	bankCode: string
	amount: number
	aidKind: string
	status: BatchLineState
	bankReference: string | null
	paidOn: string | null
	/** Why the bank returned it, or why it was taken out before the file was sent. */
	stateNote: string | null
	deciderId: number | null
}

/** What a batch told the bank and what came of it, as a bank statement shows it. */
export interface BatchTotals {
	/** Lines the bank was (or is to be) sent: all but those taken out before sending. */
	sent: { count: number; amount: number }
	paid: { count: number; amount: number }
	bounced: { count: number; amount: number }
	/** Still waiting for the bank's answer. */
	waiting: { count: number; amount: number }
	/** Sent less bounced: what left the account for good. */
	net: number
}

const halalas = (amount: number) => Math.round(amount * 100)

export function batchTotals(lines: readonly Pick<BatchLine, 'status' | 'amount'>[]): BatchTotals {
	const sum = (states: readonly BatchLineState[]) => {
		const chosen = lines.filter((line) => states.includes(line.status))
		return { count: chosen.length, amount: chosen.reduce((total, line) => total + halalas(line.amount), 0) / 100 }
	}
	const sent = sum(['in_batch', 'paid', 'bounced'])
	const bounced = sum(['bounced'])
	return { sent, paid: sum(['paid']), bounced, waiting: sum(['in_batch']), net: (halalas(sent.amount) - halalas(bounced.amount)) / 100 }
}

/** A batch with its pinned lines, in the order they were added; undefined when there is no such batch. */
export async function batchOf(db: Database, batchId: number): Promise<{ batch: Batch & { createdByName: string | null }; lines: BatchLine[] } | undefined> {
	const [found] = await db.select({ batch: paymentBatches, createdByName: users.name }).from(paymentBatches).leftJoin(users, eq(users.id, paymentBatches.createdBy)).where(eq(paymentBatches.id, batchId))
	if (!found) return undefined
	const rows = await db
		// Each line's decider read by its keys, line by line: a join let PGlite (no statistics kept) read
		// every instalment and decision of 100,000 cases for a page of 1,000 lines (bench:aid).
		.select({
			line: paymentBatchLines,
			deciderId: sql<number | null>`(select d."decider_id" from "aid_instalments" i join "case_decisions" d on d."id" = i."decision_id" where i."id" = "payment_batch_lines"."instalment_id")`,
		})
		.from(paymentBatchLines)
		.where(eq(paymentBatchLines.batchId, batchId))
		.orderBy(asc(paymentBatchLines.instalmentId))
	return {
		batch: { ...found.batch, createdByName: found.createdByName },
		lines: rows.map(({ line, deciderId }) => ({
			id: line.instalmentId,
			lineId: line.id,
			reference: line.reference,
			caseReference: line.caseReference,
			name: line.payeeName,
			iban: line.iban,
			bankCode: line.bankCode,
			amount: line.amount,
			aidKind: line.aidKind,
			status: line.state,
			bankReference: line.bankReference,
			paidOn: line.paidOn,
			stateNote: line.stateNote,
			deciderId,
		})),
	}
}

/** The batches, newest first, with how many lines and riyals each sent and how many are paid. */
export async function listBatches(db: Database, limit = 50) {
	const counted = sql`${paymentBatchLines.state} <> 'withdrawn'`
	const rows = await db
		.select({
			batch: paymentBatches,
			lines: sql<number>`(count(${paymentBatchLines.id}) filter (where ${counted}))::int`,
			paid: sql<number>`(count(${paymentBatchLines.id}) filter (where ${paymentBatchLines.state} = 'paid'))::int`,
			bounced: sql<number>`(count(${paymentBatchLines.id}) filter (where ${paymentBatchLines.state} = 'bounced'))::int`,
			total: sql<string>`coalesce(sum(${paymentBatchLines.amount}) filter (where ${counted}), 0)`,
		})
		.from(paymentBatches)
		.leftJoin(paymentBatchLines, eq(paymentBatchLines.batchId, paymentBatches.id))
		.groupBy(paymentBatches.id)
		.orderBy(desc(paymentBatches.id))
		.limit(limit)
	return rows.map((row) => ({ ...row.batch, lines: row.lines, paid: row.paid, bounced: row.bounced, total: Number(row.total) }))
}

/**
 * The bank has the file: the batch is sent on that day; its payments may now be recorded. Its file,
 * in every layout and format, is kept as it is now (valued on that day), with its SHA-256.
 */
export async function markBatchSent(db: Database, batchId: number, sentOn: string, actor: Actor): Promise<void> {
	if (!isCalendarDay(sentOn) || sentOn > todayInRiyadh()) throw new CaseChangeError('الرجاء كتابة تاريخ إرسال صحيح لا يكون بعد اليوم')
	await inOpenPeriods(db).transaction(async (tx) => {
		const [changed] = await tx
			.update(paymentBatches)
			.set({ status: 'sent', sentOn, sentBy: actor.id })
			.where(and(eq(paymentBatches.id, batchId), eq(paymentBatches.status, 'open')))
			.returning({ id: paymentBatches.id })
		if (!changed) throw new CaseChangeError('أُرسلت دفعة الصرف هذه من قبل')
		const found = await batchOf(tx, batchId)
		if (!found || !found.lines.some((line) => line.status === 'in_batch')) throw new CaseChangeError('لا تحويلات في دفعة الصرف هذه لإرسالها')
		await keepBatchFiles(tx, found, sentOn, actor.id)
	})
}

/** The batch's line of an instalment takes the bank's answer: paid (with its reference and day), bounced or withdrawn (with why). */
async function settleLine(tx: Database, batchId: number, instalmentId: number, change: { state: 'paid'; bankReference: string; paidOn: string } | { state: 'bounced' | 'withdrawn'; why: string }) {
	await tx
		.update(paymentBatchLines)
		.set(change.state === 'paid' ? { state: 'paid', bankReference: change.bankReference, paidOn: change.paidOn } : { state: change.state, stateNote: change.why })
		.where(and(eq(paymentBatchLines.batchId, batchId), eq(paymentBatchLines.instalmentId, instalmentId)))
}

/**
 * Records aid given for one instalment, in the caller's transaction: the instalment paid or
 * delivered, the aid ledger's row, the history, and the case «تم تقديم الدعم» on its first.
 */
async function recordGiven(tx: Database, instalment: typeof aidInstalments.$inferSelect, given: { status: 'paid' | 'delivered'; on: string; bankReference?: string; deliveredBy?: string; receipt?: string }, actor: Actor) {
	await tx
		.update(aidInstalments)
		.set({ status: given.status, paidOn: given.on, bankReference: given.bankReference ?? null, deliveredBy: given.deliveredBy ?? null, receipt: given.receipt ?? null, recordedBy: actor.id, updatedAt: sql`now()` })
		.where(eq(aidInstalments.id, instalment.id))
	const note = given.status === 'paid' ? `تحويل بنكي، مرجع البنك ${given.bankReference}` : `سُلِّمت بيد ${given.deliveredBy}${given.receipt ? `، إيصال ${given.receipt}` : ''}`
	await tx.insert(caseAid).values({ caseId: instalment.caseId, amount: instalment.amount, kind: instalment.aidKind, givenOn: given.on, note, createdBy: actor.id, instalmentId: instalment.id })
	// The money ledger: its committed amount posted (./ledger.server.ts).
	await ledger.pay(tx, instalment, { valueDate: given.on, batchId: instalment.batchId, reason: note }, actor)
	await tx.insert(caseEvents).values({
		caseId: instalment.caseId,
		actorId: actor.id,
		kind: 'payment_recorded',
		note,
		data: { instalment: instalment.id, seq: instalment.seq, amount: instalment.amount, kind: instalment.aidKind, on: given.on, delivered: given.status === 'delivered' },
	})
	const [row] = await tx.select().from(cases).where(eq(cases.id, instalment.caseId)).for('update')
	if (row?.status === Status.Approved && !transitionRefusal(findDefinition(row.type)?.kind ?? 'individual', Status.Approved, Status.SupportProvided, actor.roles, 'finance')) {
		await tx.update(cases).set({ status: Status.SupportProvided, statusChangedAt: sql`now()`, updatedAt: sql`now()` }).where(eq(cases.id, row.id))
		await tx.insert(caseEvents).values({ caseId: row.id, actorId: actor.id, kind: 'status_changed', note, data: { from: Status.Approved, to: Status.SupportProvided } })
	}
}

/** Locks an instalment of a batch that is sent, checking four eyes; the row, or why not. */
async function lockedLine(tx: Database, batchId: number, instalmentId: number, actor: Actor): Promise<typeof aidInstalments.$inferSelect> {
	const [row] = await tx
		.select({ instalment: aidInstalments, deciderId: caseDecisions.deciderId, firstApproverId: caseDecisions.firstApproverId, batchStatus: paymentBatches.status })
		.from(aidInstalments)
		.innerJoin(caseDecisions, eq(caseDecisions.id, aidInstalments.decisionId))
		.innerJoin(paymentBatches, eq(paymentBatches.id, aidInstalments.batchId))
		.where(and(eq(aidInstalments.id, instalmentId), eq(aidInstalments.batchId, batchId)))
		.for('update', { of: aidInstalments })
	if (!row) {
		const [line] = await tx.select({ state: paymentBatchLines.state }).from(paymentBatchLines).where(and(eq(paymentBatchLines.batchId, batchId), eq(paymentBatchLines.instalmentId, instalmentId)))
		throw new CaseChangeError(line?.state === 'bounced' ? 'أعاد البنك هذا التحويل: يُصرف في دفعة صرف أخرى' : 'هذا التحويل ليس في دفعة الصرف هذه')
	}
	if (row.batchStatus === 'open') throw new CaseChangeError('تُسجَّل مراجع البنك بعد إرسال الملف إلى البنك')
	if (row.instalment.status !== 'in_batch') throw new CaseChangeError('سُجّل صرف هذا التحويل من قبل')
	if (row.deciderId === actor.id || row.firstApproverId === actor.id) throw new PaymentFourEyesError(APPROVER_MAY_NOT_PAY)
	return row.instalment
}

const BANK_REFERENCE = /^[A-Za-z0-9][A-Za-z0-9/._-]{2,39}$/

/** Checks a bank reference and a day as typed or read; why not, or null. */
function paymentProblem(bankReference: string, paidOn: string): string | null {
	if (!BANK_REFERENCE.test(bankReference)) return 'الرجاء كتابة مرجع البنك كما في إشعاره (حروف لاتينية وأرقام)'
	if (!isCalendarDay(paidOn) || paidOn > todayInRiyadh()) return 'الرجاء كتابة تاريخ صرف صحيح لا يكون بعد اليوم'
	return null
}

/** Closes a sent batch once none of its lines waits for a bank reference. */
async function closeIfDone(tx: Database, batchId: number) {
	const [waiting] = await tx.select({ n: sql<number>`count(*)::int` }).from(paymentBatchLines).where(and(eq(paymentBatchLines.batchId, batchId), eq(paymentBatchLines.state, 'in_batch')))
	if (!waiting?.n) await tx.update(paymentBatches).set({ status: 'closed', closedAt: sql`now()` }).where(and(eq(paymentBatches.id, batchId), eq(paymentBatches.status, 'sent')))
}

/** Records one payment of a sent batch, typed by finance: its bank reference and day. What to tell the applicant once committed (app/casework/tell.server.ts). */
export async function recordPayment(db: Database, batchId: number, entry: { instalmentId: number; bankReference: string; paidOn: string }, actor: Actor): Promise<Notice> {
	const bankReference = toWesternDigits(entry.bankReference).trim()
	const problem = paymentProblem(bankReference, entry.paidOn)
	if (problem) throw new CaseChangeError(problem)
	const instalment = await inOpenPeriods(db).transaction(async (tx) => {
		const instalment = await lockedLine(tx, batchId, entry.instalmentId, actor)
		await recordGiven(tx, instalment, { status: 'paid', on: entry.paidOn, bankReference }, actor)
		await settleLine(tx, batchId, instalment.id, { state: 'paid', bankReference, paidOn: entry.paidOn })
		await closeIfDone(tx, batchId)
		return instalment
	})
	return { kind: 'payment-made', caseId: instalment.caseId, amount: Number(instalment.amount), on: entry.paidOn }
}

export interface Reconciled {
	recorded: string[]
	/** What to tell the applicants of the payments recorded, once (app/casework/tell.server.ts). */
	notices: Notice[]
	/** Lines of the bank's file that matched nothing, or could not be recorded: with why. Nothing is guessed. */
	unmatched: { line: number; reference: string; reason: string }[]
}

/** The column names the bank's confirmation file is read by (the common layout; Arabic or English). */
const confirmationColumns = {
	// «مرجع الدفعة»: the common layout's header before «دفعة» came to mean the batch alone (docs/product.md#words-we-use).
	reference: ['payment_reference', 'مرجع التحويل', 'مرجع الدفعة'],
	amount: ['amount', 'المبلغ'],
	bankReference: ['bank_reference', 'مرجع البنك'],
	paidOn: ['paid_on', 'تاريخ الصرف'],
} as const

export { plainAmount }

/**
 * Reads the bank's confirmation CSV and records each line that matches a payment of this batch on
 * its reference and its amount (to the halala). A line that matches nothing, or whose amount,
 * reference or day does not fit, is listed with why and changes nothing.
 */
export async function reconcile(db: Database, batchId: number, csv: string, actor: Actor): Promise<Reconciled> {
	const records = readBankCsv(csv, 'تعذرت قراءة ملف البنك: الرجاء رفع ملف CSV بالأعمدة المطلوبة')
	const pick = pickColumn
	if (!records.length || !pick(records[0]!, confirmationColumns.reference)) throw new CaseChangeError('ملف البنك بلا أعمدة «payment_reference» و«amount» و«bank_reference» و«paid_on»')
	const result: Reconciled = { recorded: [], notices: [], unmatched: [] }
	for (const [index, record] of records.entries()) {
		const line = index + 2
		const reference = pick(record, confirmationColumns.reference)
		const id = instalmentOfReference(reference)
		const bankReference = toWesternDigits(pick(record, confirmationColumns.bankReference))
		const writtenDay = pick(record, confirmationColumns.paidOn)
		const paidOn = bankDay(writtenDay)
		const writtenAmount = pick(record, confirmationColumns.amount)
		const amount = plainAmount(writtenAmount)
		if (id === null) {
			result.unmatched.push({ line, reference, reason: 'مرجع تحويل غير معروف' })
			continue
		}
		if (paidOn === null) {
			result.unmatched.push({ line, reference, reason: `تاريخ الصرف «${writtenDay}» غير مقروء: يُكتب يوماً فشهراً فسنة مثل 29/11/2026، أو 2026-11-29` })
			continue
		}
		const problem = paymentProblem(bankReference, paidOn)
		if (problem) {
			result.unmatched.push({ line, reference, reason: `${problem} (${paidOn > todayInRiyadh() ? `التاريخ «${writtenDay}»` : `مرجع البنك «${bankReference}»`})` })
			continue
		}
		if (amount === null) {
			result.unmatched.push({ line, reference, reason: `المبلغ «${writtenAmount}» ليس رقماً عشرياً: اكتبه بالأرقام وحدها، مثل 1500 أو 1,500.00` })
			continue
		}
		try {
			const instalment = await inOpenPeriods(db).transaction(async (tx) => {
				const instalment = await lockedLine(tx, batchId, id, actor)
				if (Math.round(amount * 100) !== Math.round(instalment.amount * 100)) throw new CaseChangeError('المبلغ لا يطابق مبلغ التحويل')
				await recordGiven(tx, instalment, { status: 'paid', on: paidOn, bankReference }, actor)
				await settleLine(tx, batchId, instalment.id, { state: 'paid', bankReference, paidOn })
				return instalment
			})
			result.recorded.push(reference)
			result.notices.push({ kind: 'payment-made', caseId: instalment.caseId, amount: Number(instalment.amount), on: paidOn })
		} catch (error) {
			if (!(error instanceof CaseChangeError)) throw error
			result.unmatched.push({ line, reference, reason: error.message })
		}
	}
	await closeIfDone(db, batchId)
	return result
}

/**
 * A transfer the bank returned (a closed account, a wrong name): the instalment is approved again,
 * out of its batch, to be paid in another; what it recorded is reversed (a new row of the aid ledger
 * naming the payment's, which stays), and the
 * case is back to «معتمد بانتظار الصرف» if nothing else was given. The reason is kept in the history.
 * Returned by the bank (the batch was sent), the account it went to is held: the family is told and
 * asked for another IBAN, which finance confirms before the instalment is offered again
 * (app/cases/payee-accounts.server.ts). Taken out of a batch not yet sent, it is simply due again.
 */
export async function reopenPayment(db: Database, batchId: number, instalmentId: number, reason: string, actor: Actor): Promise<Notice[]> {
	const why = reason.trim()
	if (!why) throw new CaseChangeError('الرجاء كتابة سبب إعادة التحويل')
	const returned = await inOpenPeriods(db).transaction(async (tx) => {
		const [row] = await tx
			.select()
			.from(aidInstalments)
			.where(and(eq(aidInstalments.id, instalmentId), eq(aidInstalments.batchId, batchId)))
			.for('update')
		if (!row || (row.status !== 'in_batch' && row.status !== 'paid')) throw new CaseChangeError('لا يمكن إعادة هذا التحويل')
		// The line stays in its batch as the bank was told it: returned by the bank, or taken out before the file went.
		const [batch] = await tx.select({ status: paymentBatches.status }).from(paymentBatches).where(eq(paymentBatches.id, batchId))
		const bounced = batch?.status !== 'open'
		await settleLine(tx, batchId, row.id, { state: bounced ? 'bounced' : 'withdrawn', why })
		await tx.update(aidInstalments).set({ status: 'approved', batchId: null, bankReference: null, paidOn: null, recordedBy: null, updatedAt: sql`now()` }).where(eq(aidInstalments.id, row.id))
		if (row.status === 'paid') await reverseGiven(tx, row, why, actor)
		// The money ledger: the posting reversed, the instalment committed again (./ledger.server.ts).
		await ledger.bounce(tx, row, { reason: why, batchId }, actor)
		// Its aid held or stopped meanwhile: held or cancelled with it, not offered again.
		const followed = await followAid(tx, row, actor)
		await tx.insert(caseEvents).values({ caseId: row.caseId, actorId: actor.id, kind: 'payment_reopened', note: why, data: { instalment: row.id, seq: row.seq, amount: row.amount, batch: batchId } })
		// A bounced transfer: the account the bank was sent (the batch's pinned line) is not offered
		// again, and the family is asked for another, unless their aid was stopped and no transfer is
		// owed them any more. A line taken out before the file went was never refused.
		const asks = followed !== 'stopped' || (await transferOwed(tx, row.caseId))
		if (bounced) {
			const [line] = await tx.select({ iban: paymentBatchLines.iban }).from(paymentBatchLines).where(and(eq(paymentBatchLines.batchId, batchId), eq(paymentBatchLines.instalmentId, row.id)))
			await noteIbanBounced(tx, row.caseId, line?.iban ?? '', why, actor, asks)
		}
		const [given] = await tx
			.select({ n: sql<number>`count(*)::int` })
			.from(aidInstalments)
			.where(and(eq(aidInstalments.caseId, row.caseId), inArray(aidInstalments.status, ['paid', 'delivered'])))
		const [locked] = await tx.select().from(cases).where(eq(cases.id, row.caseId)).for('update')
		if (locked?.status === Status.SupportProvided && !given?.n) {
			await tx.update(cases).set({ status: Status.Approved, statusChangedAt: sql`now()`, updatedAt: sql`now()` }).where(eq(cases.id, row.caseId))
			await tx.insert(caseEvents).values({ caseId: row.caseId, actorId: actor.id, kind: 'status_changed', note: why, data: { from: Status.SupportProvided, to: Status.Approved } })
		}
		// A sent batch whose last waiting line left it is done; a closed one stays closed.
		await closeIfDone(tx, batchId)
		return { caseId: row.caseId, bounced, asks }
	})
	// Once committed: the family hears the transfer came back, why, and that a new IBAN is asked of them (or that it is not sent again).
	return returned.bounced ? [{ kind: 'payment-bounced', caseId: returned.caseId, reason: why, ...(returned.asks ? {} : { final: true }) }] : []
}

/**
 * The aid ledger is append-only (docs/decisions/018-append-only-ledger.md): a payment the bank
 * returned stays, and a new row dated today cancels it, naming it, its amount negated, its bank
 * reference and the reason in its note.
 */
async function reverseGiven(tx: Database, instalment: typeof aidInstalments.$inferSelect, why: string, actor: Actor) {
	const [given] = await tx
		.select()
		.from(caseAid)
		.where(and(eq(caseAid.instalmentId, instalment.id), isNull(caseAid.correctsId), sql`not exists (select 1 from ${caseAid} r where r.corrects_id = ${caseAid.id})`))
		.orderBy(desc(caseAid.id))
		.limit(1)
	if (!given) return
	const note = `أعاد البنك التحويل${instalment.bankReference ? ` (مرجع البنك ${instalment.bankReference})` : ''}: ${why}`
	await tx.insert(caseAid).values({ caseId: given.caseId, amount: -given.amount, kind: given.kind, givenOn: todayInRiyadh(), note, createdBy: actor.id, instalmentId: instalment.id, correctsId: given.id })
}

/** Aid in kind handed over: the day, who handed it, the receipt's number; as a payment otherwise. What to tell the applicant once committed. */
export async function recordDelivery(db: Database, instalmentId: number, delivery: { deliveredOn: string; deliveredBy: string; receipt: string; receiptFile?: StoredStaffFile }, actor: Actor): Promise<Notice> {
	try {
		const given = await deliver(db, instalmentId, delivery, actor)
		return { kind: 'payment-made', caseId: given.caseId, amount: Number(given.amount), on: delivery.deliveredOn }
	} catch (error) {
		// Refused: the receipt's photo or PDF already in storage goes too.
		if (delivery.receiptFile) await discardStaffFiles([delivery.receiptFile])
		throw error
	}
}

async function deliver(db: Database, instalmentId: number, delivery: Parameters<typeof recordDelivery>[2], actor: Actor): Promise<typeof aidInstalments.$inferSelect> {
	const deliveredBy = delivery.deliveredBy.trim()
	if (!isCalendarDay(delivery.deliveredOn) || delivery.deliveredOn > todayInRiyadh()) throw new CaseChangeError('الرجاء كتابة تاريخ تسليم صحيح لا يكون بعد اليوم')
	if (deliveredBy.length < 3) throw new CaseChangeError('الرجاء كتابة من سلّم المساعدة')
	return inOpenPeriods(db).transaction(async (tx) => {
		const [row] = await tx
			.select({ instalment: aidInstalments, deciderId: caseDecisions.deciderId, firstApproverId: caseDecisions.firstApproverId })
			.from(aidInstalments)
			.innerJoin(caseDecisions, eq(caseDecisions.id, aidInstalments.decisionId))
			.where(eq(aidInstalments.id, instalmentId))
			.for('update', { of: aidInstalments })
		if (!row || row.instalment.status !== 'approved') throw new CaseChangeError('لم تعد هذه المساعدة بانتظار التسليم')
		if (!isInKind(row.instalment.aidKind)) throw new CaseChangeError('هذه المساعدة تُصرف تحويلاً في دفعة صرف')
		if (row.deciderId === actor.id || row.firstApproverId === actor.id) throw new PaymentFourEyesError(APPROVER_MAY_NOT_PAY)
		await recordGiven(tx, row.instalment, { status: 'delivered', on: delivery.deliveredOn, deliveredBy: deliveredBy.slice(0, 200), receipt: delivery.receipt.trim().slice(0, 100) }, actor)
		// The receipt's photo or the signed form's PDF, kept with the financial record (app/cases/staff-files.ts).
		if (delivery.receiptFile) await insertStaffFile(tx, row.instalment.caseId, receiptSlot(instalmentId), delivery.receiptFile, actor.id)
		return row.instalment
	})
}
