// An approved aid's remaining instalments over time (docs/product.md#monthly-aid-over-time): suspend,
// stop, ask to resume, confirm or decline, each under the decision's lock, by the table in
// ./monthly-aid.ts. Instalments change state only through `moveInstalments`, the one place a ledger
// hooks into. What the applicant is told is written to the case's history here and returned, for the
// route to send once the transaction has committed (as a decision's message is).
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { alias } from 'drizzle-orm/pg-core'
import { aidInstalments, caseDecisions, caseEvents, cases, monthlyAids, paymentBatches, users } from '#app/db/schema.ts'
import type { UserRole } from '#app/db/roles.ts'
import { CaseChangeError } from '#app/cases/status-changes.server.ts'
import { monthsCount } from '#app/privacy/consent-rules.ts'
import { formatMonth, isCalendarDay, todayInRiyadh } from '#app/text/format.ts'
import { checkBudget } from './funds.server.ts'
import { checkFundBalance } from './receipts.server.ts'
import * as ledger from './ledger.server.ts'
import { aidActionRefusal, aidNext, aidStateLabels, needsReason, type AidAction, type AidState } from './monthly-aid.ts'

type Actor = { id: number; roles: readonly UserRole[] }
export type InstalmentStatus = (typeof aidInstalments.$inferSelect)['status']
type Instalment = typeof aidInstalments.$inferSelect

/** Refused because the one who asked to resume confirms it too: a 403, audited as a refusal. */
export class AidFourEyesError extends CaseChangeError {}

/** The instalment moves this module makes; any other is a bug, refused. */
const instalmentMoves: Readonly<Record<string, readonly InstalmentStatus[]>> = {
	suspended: ['approved'],
	cancelled: ['approved', 'suspended'],
	approved: ['suspended', 'cancelled'],
}

/**
 * Moves a decision's instalments that are in one of `from` to `to`, in the caller's transaction, and
 * returns them as they were. The one function that changes an instalment's state for a hold, a stop
 * or a resumption: a ledger's pending entries follow from here.
 */
export async function moveInstalments(tx: Database, decisionId: number, from: readonly InstalmentStatus[], to: InstalmentStatus, why: { reason: string; actor: { id: number } }): Promise<Instalment[]> {
	if (from.some((status) => !instalmentMoves[to]?.includes(status))) throw new Error(`no instalment move from ${from.join('/')} to ${to}`)
	const rows = await tx
		.select()
		.from(aidInstalments)
		.where(and(eq(aidInstalments.decisionId, decisionId), inArray(aidInstalments.status, [...from])))
		.orderBy(asc(aidInstalments.seq))
		.for('update')
	if (rows.length)
		await tx
			.update(aidInstalments)
			.set({ status: to, updatedAt: sql`now()` })
			.where(
				inArray(
					aidInstalments.id,
					rows.map((row) => row.id),
				),
			)
	// The money ledger (./ledger.server.ts): a stopped instalment's commitment is voided; a restarted
	// one is committed again. A suspended one keeps its commitment: it is still the family's.
	for (const row of rows) {
		if (to === 'cancelled') await ledger.cancel(tx, row, why.reason, why.actor)
		else if (row.status === 'cancelled') await ledger.approve(tx, [row], why.actor, why.reason)
	}
	return rows
}

/**
 * A transfer the bank returned, or taken out of its batch, after its aid was held or stopped (it
 * was on its way to the bank then, so untouched): back to wait for a payment it would be offered
 * again, so it follows its aid, held or cancelled (its commitment voided). In the caller's
 * transaction, once the instalment is approved again.
 */
export async function followAid(tx: Database, instalment: Pick<Instalment, 'decisionId'>, actor: { id: number }): Promise<AidState | null> {
	// Under the decision's lock, as changeAid takes it first: a suspension or stop under way is read
	// once committed, not before (its instalments moved, this one left approved beside them).
	await tx.select({ id: caseDecisions.id }).from(caseDecisions).where(eq(caseDecisions.id, instalment.decisionId)).for('update')
	const [plan] = await tx.select({ state: monthlyAids.state, reason: monthlyAids.reason }).from(monthlyAids).where(eq(monthlyAids.decisionId, instalment.decisionId))
	if (plan?.state === 'suspended' || plan?.state === 'resuming') await moveInstalments(tx, instalment.decisionId, ['approved'], 'suspended', { reason: plan.reason, actor })
	else if (plan?.state === 'stopped' || plan?.state === 'restarting') await moveInstalments(tx, instalment.decisionId, ['approved'], 'cancelled', { reason: plan.reason, actor })
	return plan?.state ?? null
}

/** «قسط شهر نوفمبر 2026م (…)», «أقساط 3 أشهر من نوفمبر 2026م (…) إلى يناير 2027م (…)». */
export function monthsText(dues: readonly string[]): string {
	const months = [...new Set(dues.map((due) => due.slice(0, 7)))].sort()
	if (!months.length) return ''
	if (months.length === 1) return `قسط شهر ${formatMonth(months[0]!)}`
	return `أقساط ${monthsCount(months.length)} من ${formatMonth(months[0]!)} إلى ${formatMonth(months.at(-1)!)}`
}

/** What the applicant is told of a change, in plain Arabic with the months it touches; '' for none. */
export function aidNotice(action: AidAction, from: AidState, change: { reason: string; months: readonly string[]; inBatch: readonly string[] }): string {
	const why = change.reason.trim().replace(/[.،]+$/, '')
	const onTheWay = change.inBatch.length ? ` أما ${monthsText(change.inBatch)} فقد أُرسل إلى البنك قبل ذلك، ويصلك.` : ''
	if (action === 'suspend')
		return `أُوقف صرف دعمك الشهري مؤقتاً${change.months.length ? `، فلا تُصرف ${monthsText(change.months)} حتى يُستأنف` : ''}. السبب: ${why}.${onTheWay} سنبلغك عند استئنافه.`
	if (action === 'stop') return `أُوقف صرف دعمك الشهري${change.months.length ? `، ولن تُصرف ${monthsText(change.months)}` : ''}. السبب: ${why}.${onTheWay}`
	if (action === 'confirm') return `استُؤنف صرف دعمك الشهري${change.months.length ? `، وتُصرف ${monthsText(change.months)}` : ''}.${from === 'restarting' ? ' نعتذر عن إيقافه.' : ''}`
	return ''
}

export interface AidChange {
	caseId: string
	reference: string
	from: AidState
	to: AidState
	/** The months whose instalments moved. */
	months: string[]
	/** The months already in a batch: not touched, they go to the bank as made. */
	inBatch: string[]
	/** What the applicant is told ('' for none): the route sends it. */
	told: string
}

/**
 * Takes `action` on an approved aid's remaining instalments, all or nothing under the decision's
 * lock. Suspend: those waiting («بانتظار الصرف») are held; stop: those waiting or held are
 * cancelled; resume: asked, nothing moves until someone else confirms; confirm: the held ones (or,
 * after a stop, the cancelled ones, within the budget) wait for payment again; decline: the request
 * goes. Instalments already in a batch are not touched: the bank has, or will have, them.
 */
export async function changeAid(db: Database, decisionId: number, input: { action: AidAction; reason: string }, actor: Actor): Promise<AidChange> {
	const reason = input.reason.trim().slice(0, 500)
	if (needsReason(input.action) && reason.length < 3) throw new CaseChangeError(input.action === 'resume' ? 'الرجاء كتابة سبب الاستئناف' : 'الرجاء اختيار السبب أو كتابته: يقرؤه المتقدم')
	return db.transaction(async (tx) => {
		const [decision] = await tx
			.select({ decision: caseDecisions, reference: cases.reference, deletedAt: cases.deletedAt, purgedAt: cases.purgedAt })
			.from(caseDecisions)
			.innerJoin(cases, eq(cases.id, caseDecisions.caseId))
			.where(eq(caseDecisions.id, decisionId))
			.for('update', { of: caseDecisions })
		if (!decision || decision.deletedAt || decision.decision.outcome !== 'approve') throw new CaseChangeError('لا دعم معتمد بهذا الرقم')
		// Retention destroyed the family's details: nothing of its aid is restarted, to nobody's account.
		if (decision.purgedAt) throw new CaseChangeError('أُتلفت بيانات هذا الطلب وفق مدة الاحتفاظ، فلا يُغيَّر دعمه')
		const caseId = decision.decision.caseId
		const [held] = await tx.select().from(monthlyAids).where(eq(monthlyAids.decisionId, decisionId))
		const from: AidState = held?.state ?? 'active'
		const refusal = aidActionRefusal(from, input.action, actor, held?.requestedBy ?? null)
		if (refusal) throw refusal.startsWith('لا يؤكد') ? new AidFourEyesError(refusal) : new CaseChangeError(refusal)
		const to = aidNext(from, input.action)

		let moved: Instalment[] = []
		if (input.action === 'suspend') moved = await moveInstalments(tx, decisionId, ['approved'], 'suspended', { reason, actor })
		else if (input.action === 'stop') moved = await moveInstalments(tx, decisionId, ['approved', 'suspended'], 'cancelled', { reason, actor })
		else if (input.action === 'confirm') {
			if (from === 'restarting') {
				const stopped = await tx.select().from(aidInstalments).where(and(eq(aidInstalments.decisionId, decisionId), eq(aidInstalments.status, 'cancelled')))
				const first = stopped[0]
				// Cancelled money went back to the budget: restarting takes it again, if it is still there.
				if (first) {
					const total = stopped.reduce((sum, row) => sum + Number(row.amount), 0)
					await checkBudget(tx, { programme: first.programme, year: first.budgetYear, fundId: first.fundId, total })
					await checkFundBalance(tx, { fundId: first.fundId, total })
				}
				moved = await moveInstalments(tx, decisionId, ['cancelled'], 'approved', { reason, actor })
			} else moved = await moveInstalments(tx, decisionId, ['suspended'], 'approved', { reason, actor })
		}
		const inBatch =
			input.action === 'suspend' || input.action === 'stop'
				? await tx
						.select({ dueOn: aidInstalments.dueOn })
						.from(aidInstalments)
						.where(and(eq(aidInstalments.decisionId, decisionId), eq(aidInstalments.status, 'in_batch')))
				: []
		if ((input.action === 'suspend' || input.action === 'stop') && !moved.length && !inBatch.length) throw new CaseChangeError('لا أقساط باقية في هذا الدعم: صُرفت كلها أو أُلغيت')

		await tx
			.insert(monthlyAids)
			.values({ decisionId, caseId, state: to, reason: input.action === 'suspend' || input.action === 'stop' ? reason : (held?.reason ?? ''), heldBy: input.action === 'suspend' || input.action === 'stop' ? actor.id : (held?.heldBy ?? null), requestedBy: input.action === 'resume' ? actor.id : null })
			.onConflictDoUpdate({
				target: monthlyAids.decisionId,
				set: {
					state: to,
					...(input.action === 'suspend' || input.action === 'stop' ? { reason, heldBy: actor.id } : {}),
					...(to === 'active' ? { reason: '', heldBy: null } : {}),
					requestedBy: input.action === 'resume' ? actor.id : null,
					updatedAt: sql`now()`,
				},
			})
		const change = { reason, months: moved.map((row) => row.dueOn), inBatch: inBatch.map((row) => row.dueOn) }
		const told = aidNotice(input.action, from, change)
		await tx.insert(caseEvents).values([
			{ caseId, actorId: actor.id, kind: 'aid_changed' as const, note: reason, data: { decision: decisionId, action: input.action, from, to, instalments: moved.map((row) => row.id), inBatch: change.inBatch } },
			...(told ? [{ caseId, actorId: actor.id, kind: 'applicant_message' as const, note: told }] : []),
		])
		return { caseId, reference: decision.reference, from, to, months: change.months, inBatch: change.inBatch, told }
	})
}

/** The first day of the month `offset` months from `day`'s. */
export function monthShift(day: string, offset: number): string {
	const [year, month] = day.split('-').map(Number) as [number, number]
	const index = year * 12 + (month - 1) + offset
	return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-01`
}

/** The committee sets when a monthly aid is studied again (null: a month before its last instalment). */
export async function setRestudy(db: Database, decisionId: number, restudyOn: string | null, actor: Actor): Promise<void> {
	if (restudyOn !== null && (!isCalendarDay(restudyOn) || restudyOn < todayInRiyadh())) throw new CaseChangeError('الرجاء كتابة تاريخ إعادة دراسة صحيح لا يكون قبل اليوم')
	await db.transaction(async (tx) => {
		const [decision] = await tx.select().from(caseDecisions).where(eq(caseDecisions.id, decisionId)).for('update')
		if (!decision || decision.outcome !== 'approve' || !decision.months) throw new CaseChangeError('لا دعم شهري معتمد بهذا الرقم')
		await tx
			.insert(monthlyAids)
			.values({ decisionId, caseId: decision.caseId, restudyOn })
			.onConflictDoUpdate({ target: monthlyAids.decisionId, set: { restudyOn, updatedAt: sql`now()` } })
		await tx.insert(caseEvents).values({ caseId: decision.caseId, actorId: actor.id, kind: 'aid_changed', data: { decision: decisionId, restudyOn } })
	})
}

export interface AidSchedule {
	decisionId: number
	caseId: string
	aidKind: string
	amount: number
	/** null: given once. */
	months: number | null
	state: AidState
	stateLabel: string
	/** The reason the applicant was told of a hold or a stop. */
	reason: string
	heldBy: number | null
	heldByName: string | null
	requestedBy: number | null
	requestedByName: string | null
	paid: number
	/** Waiting for payment or in a batch. */
	left: number
	held: number
	cancelled: number
	/** The next payment's month (yyyy-mm-dd, its first day), when one waits. */
	next: string | null
	/** The last instalment's month. */
	endsOn: string
	restudyOn: string
	/** Set by the committee rather than a month before the end. */
	restudySet: boolean
}

/** Each approved aid of these cases, newest decision first, with what is paid, left and held. */
export async function aidSchedules(db: Database, caseIds: readonly string[]): Promise<AidSchedule[]> {
	if (!caseIds.length) return []
	const holder = alias(users, 'holder')
	const requester = alias(users, 'requester')
	const rows = await db
		.select({
			decision: caseDecisions,
			plan: monthlyAids,
			heldByName: holder.name,
			requestedByName: requester.name,
			paid: sql<number>`(count(*) filter (where ${aidInstalments.status} in ('paid', 'delivered')))::int`,
			left: sql<number>`(count(*) filter (where ${aidInstalments.status} in ('approved', 'in_batch')))::int`,
			held: sql<number>`(count(*) filter (where ${aidInstalments.status} = 'suspended'))::int`,
			cancelled: sql<number>`(count(*) filter (where ${aidInstalments.status} = 'cancelled'))::int`,
			next: sql<string | null>`min(${aidInstalments.dueOn}) filter (where ${aidInstalments.status} in ('approved', 'in_batch'))`,
			endsOn: sql<string>`max(${aidInstalments.dueOn})`,
		})
		.from(caseDecisions)
		.innerJoin(aidInstalments, eq(aidInstalments.decisionId, caseDecisions.id))
		.leftJoin(monthlyAids, eq(monthlyAids.decisionId, caseDecisions.id))
		.leftJoin(holder, eq(holder.id, monthlyAids.heldBy))
		.leftJoin(requester, eq(requester.id, monthlyAids.requestedBy))
		.where(and(inArray(caseDecisions.caseId, [...caseIds]), eq(caseDecisions.outcome, 'approve')))
		.groupBy(caseDecisions.id, monthlyAids.decisionId, holder.id, requester.id)
		.orderBy(sql`${caseDecisions.id} desc`)
	return rows.map((row) => {
		const state = row.plan?.state ?? 'active'
		const endsOn = String(row.endsOn).slice(0, 10)
		return {
			decisionId: row.decision.id,
			caseId: row.decision.caseId,
			aidKind: row.decision.aidKind ?? '',
			amount: Number(row.decision.amount),
			months: row.decision.months,
			state,
			stateLabel: aidStateLabels[state],
			reason: row.plan?.reason ?? '',
			heldBy: row.plan?.heldBy ?? null,
			heldByName: row.heldByName,
			requestedBy: row.plan?.requestedBy ?? null,
			requestedByName: row.requestedByName,
			paid: row.paid,
			left: row.left,
			held: row.held,
			cancelled: row.cancelled,
			next: row.next ? String(row.next).slice(0, 10) : null,
			endsOn,
			restudyOn: row.plan?.restudyOn ?? monthShift(endsOn, -1),
			restudySet: Boolean(row.plan?.restudyOn),
		}
	})
}

export interface AidToReview {
	decisionId: number
	caseReference: string
	name: string
	aidKind: string
	amount: number
	months: number
	state: AidState
	endsOn: string
	restudyOn: string
	/** What brings it here this month: its end, its re-study, or both. */
	ends: boolean
	restudy: boolean
}

/**
 * The monthly aids that end (their last instalment) or are due a re-study in `month` (yyyy-mm):
 * not stopped, of cases not deleted; by re-study date.
 */
export async function aidsToReview(db: Database, month: string, limit = 200): Promise<AidToReview[]> {
	const endsOn = sql<string>`max(${aidInstalments.dueOn})`
	const restudyOn = sql<string>`coalesce(${monthlyAids.restudyOn}, (max(${aidInstalments.dueOn}) - interval '1 month')::date)`
	const monthOf = (day: typeof endsOn) => sql`to_char(${day}, 'YYYY-MM')`
	const rows = await db
		.select({
			decisionId: caseDecisions.id,
			caseReference: cases.reference,
			name: cases.applicantName,
			aidKind: caseDecisions.aidKind,
			amount: caseDecisions.amount,
			months: caseDecisions.months,
			state: monthlyAids.state,
			endsOn,
			restudyOn,
		})
		.from(caseDecisions)
		.innerJoin(cases, eq(cases.id, caseDecisions.caseId))
		.innerJoin(aidInstalments, eq(aidInstalments.decisionId, caseDecisions.id))
		.leftJoin(monthlyAids, eq(monthlyAids.decisionId, caseDecisions.id))
		.where(and(eq(caseDecisions.outcome, 'approve'), sql`${caseDecisions.months} is not null`, isNull(cases.deletedAt), sql`coalesce(${monthlyAids.state}, 'active') not in ('stopped', 'restarting')`))
		.groupBy(caseDecisions.id, cases.id, monthlyAids.decisionId)
		.having(sql`${monthOf(endsOn)} = ${month} or ${monthOf(restudyOn)} = ${month}`)
		.orderBy(restudyOn, caseDecisions.id)
		.limit(limit)
	return rows.map((row) => {
		const end = String(row.endsOn).slice(0, 10)
		const restudy = String(row.restudyOn).slice(0, 10)
		return {
			decisionId: row.decisionId,
			caseReference: row.caseReference,
			name: row.name,
			aidKind: row.aidKind ?? '',
			amount: Number(row.amount),
			months: row.months ?? 0,
			state: row.state ?? 'active',
			endsOn: end,
			restudyOn: restudy,
			ends: end.slice(0, 7) === month,
			restudy: restudy.slice(0, 7) === month,
		}
	})
}

/** Whether a batch holding one of this decision's instalments is still open (for the screens' wording). */
export async function openBatchOf(db: Database, decisionId: number): Promise<number | null> {
	const [row] = await db
		.select({ id: paymentBatches.id })
		.from(aidInstalments)
		.innerJoin(paymentBatches, eq(paymentBatches.id, aidInstalments.batchId))
		.where(and(eq(aidInstalments.decisionId, decisionId), eq(aidInstalments.status, 'in_batch'), eq(paymentBatches.status, 'open')))
		.limit(1)
	return row?.id ?? null
}

export interface HeldAid {
	decisionId: number
	caseReference: string
	name: string
	aidKind: string
	amount: number
	months: number | null
	state: AidState
	reason: string
	requestedBy: number | null
	updatedAt: Date
}

/** The aids held, stopped, or waiting for a resumption to be confirmed, those waiting first, newest first. */
export async function heldAids(db: Database, limit = 200): Promise<HeldAid[]> {
	const rows = await db
		.select({ plan: monthlyAids, decision: caseDecisions, caseReference: cases.reference, name: cases.applicantName })
		.from(monthlyAids)
		.innerJoin(caseDecisions, eq(caseDecisions.id, monthlyAids.decisionId))
		.innerJoin(cases, eq(cases.id, monthlyAids.caseId))
		.where(and(sql`${monthlyAids.state} <> 'active'`, isNull(cases.deletedAt)))
		.orderBy(sql`${monthlyAids.state} in ('resuming', 'restarting') desc`, sql`${monthlyAids.updatedAt} desc`)
		.limit(limit)
	return rows.map((row) => ({
		decisionId: row.plan.decisionId,
		caseReference: row.caseReference,
		name: row.name,
		aidKind: row.decision.aidKind ?? '',
		amount: Number(row.decision.amount),
		months: row.decision.months,
		state: row.plan.state,
		reason: row.plan.reason,
		requestedBy: row.plan.requestedBy,
		updatedAt: row.plan.updatedAt,
	}))
}
