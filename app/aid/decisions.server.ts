// The committee's decision on a studied case (docs/product.md#the-decision): approve aid (kind,
// amount, once or monthly, from one fund, within the programme's budget), reject it with a reason
// the applicant reads, or send it back for more study. Someone other than whoever recommended
// support decides; zakat goes only to a case its study found in a zakat category, and the approval
// names the category (app/cases/zakat.ts).
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { aidInstalments, aidProposals, caseDecisions, caseEvents, cases, caseStudies, funds, users } from '#app/db/schema.ts'
import type { UserRole } from '#app/db/roles.ts'
import { CaseChangeError } from '#app/cases/status-changes.server.ts'
import { inOpenPeriods } from '#app/cases/refusals.ts'
import type { CaseRow } from '#app/cases/case-store.server.ts'
import { quotedStatus, Status } from '#app/cases/case-statuses.ts'
import { transitionRefusal } from '#app/cases/workflow.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { formatMoney, todayInRiyadh } from '#app/text/format.ts'
import { ZAKAT_CATEGORY_UNSPECIFIED, ZAKAT_NOT_ELIGIBLE, zakatApprovable } from '#app/cases/zakat.ts'
import { checkBudget, fundLabel } from './funds.server.ts'
import { checkFundBalance } from './receipts.server.ts'

export { ZAKAT_CATEGORY_UNSPECIFIED, ZAKAT_NOT_ELIGIBLE } from '#app/cases/zakat.ts'
import { aidText } from './aid-text.ts'
import { assertApproval, type ApprovalTerms } from './approval.ts'
import { OPEN_STATES, openProposals, settleProposal } from './proposals.server.ts'
import { limitFor } from './approval-limits.server.ts'
import { meetingForDecision } from './meetings.server.ts'
import * as ledger from './ledger.server.ts'

export type Decision =
	| ({ outcome: 'approve'; note: string; message?: string } & ApprovalTerms)
	| { outcome: 'reject'; reason: string; note: string }
	| { outcome: 'return'; note: string }

/** Refused because the decider recommended support on this case: a 403, and audited as such. */
export class FourEyesError extends CaseChangeError {}

export const RECOMMENDER_MAY_NOT_DECIDE = 'لا يقرر في الطلب من أوصى بدعمه: يقرر فيه عضو آخر من لجنة الصرف.'
export const PROPOSER_MAY_NOT_DECIDE = 'لا يقرر في اقتراح الدعم من اقترحه: يقرر فيه عضو آخر من لجنة الصرف.'
export const ADDITIONAL_NOT_RETURNED = 'اقتراح الدعم الإضافي يُعتمد أو يُرفض؛ لا يعاد الطلب لدراسة أكثر بعد تقديم دعمه.'
export const FIRST_APPROVER_MAY_NOT_CONFIRM = 'لا يعتمد الطلب مرة ثانية من اعتمده أولاً: يلزمه اعتماد عضو آخر من لجنة الصرف.'
export const SECOND_APPROVAL_CHANGED = 'يعتمد العضو الثاني ما اعتمده الأول كما هو (النوع والمبلغ والأشهر والصندوق)، أو يرفضه.'

/** A decision's target status. */
const outcomeStatus = { approve: Status.Approved, reject: Status.Rejected, return: Status.New } as const

/** The first day of the month `offset` months after `day`'s. */
function monthStart(day: string, offset: number): string {
	const [year, month] = day.split('-').map(Number) as [number, number]
	const index = year * 12 + (month - 1) + offset
	return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-01`
}

/** What the applicant is told of a decision: the aid approved, or the reason; nothing for a return. */
function applicantMessage(decision: Decision): string {
	if (decision.outcome === 'approve') return decision.message?.trim() || `اعتُمد لطلبك الدعم التالي: ${aidText(decision)}. سنتواصل معك عند صرفه.`
	if (decision.outcome === 'reject') return `نعتذر، لم تتم الموافقة على طلبك. السبب: ${decision.reason}`
	return ''
}

/**
 * Decides on a studied case, or on a proposal of more aid, all or nothing under the case's lock: the
 * decision, the instalments an approval gives (one, or one a month), the status, the proposal it
 * settles, the history, and the applicant's message (returned, for the notifier). Refused: a case
 * not waiting for a decision, a decider who recommended support on it or proposed the aid
 * (FourEyesError), zakat to a case not eligible, an approval past a budget.
 */
export interface Decided {
	row: CaseRow
	to: number
	/** What the applicant is told; empty when nothing is. */
	message: string
	/** A first approval above an approval limit: nothing committed, waiting for a second member. */
	awaitingSecond?: boolean
	/** More aid approved on a case whose support was provided: its status did not change, the applicant gets a message only. */
	messageOnly?: boolean
}

export async function decide(db: Database, caseId: string, decision: Decision, actor: { id: number; roles: readonly UserRole[] }): Promise<Decided> {
	const note = decision.note.trim()
	// The approval's rules (app/aid/approval.ts), whoever calls: refused in Arabic before anything is written.
	if (decision.outcome === 'approve') assertApproval(decision)
	if (decision.outcome === 'reject' && !decision.reason?.trim()) throw new CaseChangeError('الرجاء اختيار سبب الرفض')
	if (decision.outcome === 'return' && !note) throw new CaseChangeError('الرجاء كتابة ما يحتاج إلى دراسة أكثر')
	return inOpenPeriods(db).transaction(async (tx) => {
		const [locked] = await tx.select().from(cases).where(eq(cases.id, caseId)).for('update')
		if (!locked || locked.deletedAt) throw new CaseChangeError('الطلب غير موجود أو محذوف')
		if (locked.purgedAt) throw new CaseChangeError('أُتلفت بيانات هذا الطلب وفق مدة الاحتفاظ')
		const definition = findDefinition(locked.type)
		// A proposal waiting for the committee (app/aid/proposals.server.ts): more aid on a case whose
		// support was provided is decided here too, without changing its status.
		const [proposal] = await tx
			.select()
			.from(aidProposals)
			.where(and(eq(aidProposals.caseId, caseId), inArray(aidProposals.state, [...OPEN_STATES])))
			.for('update')
		const additional = proposal?.purpose === 'additional' && locked.status === Status.SupportProvided
		const to = additional ? locked.status : outcomeStatus[decision.outcome]
		if (!additional && locked.status !== Status.Studied) throw new CaseChangeError(`لا ينتظر هذا الطلب قراراً: ${locked.status === Status.Approved || locked.status === Status.Rejected ? `حالته ${quotedStatus(locked.status)}` : 'لم تكتمل دراسته'}`)
		if (additional && decision.outcome === 'return') throw new CaseChangeError(ADDITIONAL_NOT_RETURNED)
		const refusal = transitionRefusal(definition?.kind ?? 'individual', additional ? Status.Studied : locked.status, additional ? Status.Approved : to, actor.roles, 'committee')
		if (refusal) throw new CaseChangeError(refusal)
		const studies = await tx.select().from(caseStudies).where(eq(caseStudies.caseId, caseId)).orderBy(desc(caseStudies.createdAt), desc(caseStudies.id))
		const study = studies[0]
		if (decision.outcome !== 'return' && studies.some((candidate) => candidate.recommendation === 'support' && candidate.authorId === actor.id)) throw new FourEyesError(RECOMMENDER_MAY_NOT_DECIDE)
		if (decision.outcome !== 'return' && proposal?.proposedBy === actor.id) throw new FourEyesError(PROPOSER_MAY_NOT_DECIDE)
		// Above an approval limit, a first approval waits for a second member (docs/product.md#approval-limits).
		const awaiting = proposal?.state === 'awaiting_second' ? proposal : undefined
		if (decision.outcome === 'approve' && awaiting) {
			if (awaiting.firstApproverId === actor.id) throw new FourEyesError(FIRST_APPROVER_MAY_NOT_CONFIRM)
			if (decision.aidKind !== awaiting.aidKind || decision.amount !== awaiting.amount || decision.months !== awaiting.months || decision.fundId !== awaiting.fundId) throw new CaseChangeError(SECOND_APPROVAL_CHANGED)
		}

		const budgetYear = Number(todayInRiyadh().slice(0, 4))
		let fundName = ''
		// The committee's meeting the decision carries (./meetings.server.ts): above an approval limit,
		// first approval or second, one open with its quorum present and the decider among them.
		let meetingId: number | null = null
		let zakatCategory: string | null = null
		if (decision.outcome !== 'approve') meetingId = await meetingForDecision(tx, { programme: locked.type, total: 0, limit: null, deciderId: actor.id })
		else {
			const [fund] = await tx.select().from(funds).where(eq(funds.id, decision.fundId))
			if (!fund || !fund.active) throw new CaseChangeError('الرجاء اختيار صندوق الصرف')
			if (fund.zakat) {
				if (!study?.zakatCategory) throw new CaseChangeError(ZAKAT_NOT_ELIGIBLE)
				if (!zakatApprovable(study.zakatCategory)) throw new CaseChangeError(ZAKAT_CATEGORY_UNSPECIFIED)
				zakatCategory = study.zakatCategory
			}
			// A bill is paid at most half (docs/product.md#the-social-study), whoever decides.
			if (decision.aidKind === 'bill_payment' && study?.invoice && decision.amount > study.invoice / 2)
				throw new CaseChangeError(`سداد الفواتير بحد أقصى نصف قيمة الفاتورة (${formatMoney(study.invoice / 2)})`)
			fundName = fundLabel(fund)
			const total = decision.amount * (decision.months ?? 1)
			await checkBudget(tx, { programme: locked.type, year: budgetYear, fundId: fund.id, total })
			// Within what the fund received (docs/product.md#money-in): a zakat fund always, a general one by the admin's setting.
			await checkFundBalance(tx, { fundId: fund.id, total })
			const over = await limitFor(tx, locked.type, fund.id)
			meetingId = await meetingForDecision(tx, { programme: locked.type, total, limit: over, deciderId: actor.id })
			const limit = awaiting ? null : over
			if (limit !== null && total > limit) {
				// The first approval: recorded on the proposal (one made for it when the officer proposed nothing); nothing is committed yet.
				const terms = { aidKind: decision.aidKind, amount: decision.amount, months: decision.months, fundId: fund.id, state: 'awaiting_second' as const, firstApproverId: actor.id, firstNote: note, firstApprovedAt: sql`now()` }
				if (proposal) await tx.update(aidProposals).set(terms).where(eq(aidProposals.id, proposal.id))
				else await tx.insert(aidProposals).values({ caseId, purpose: 'support', note: '', ...terms })
				await tx.insert(caseEvents).values({ caseId, actorId: actor.id, kind: 'proposal_settled', note, data: { outcome: 'first-approval', aidKind: decision.aidKind, amount: decision.amount, months: decision.months, fund: fundName, limit, meeting: meetingId } })
				return { row: locked, to: locked.status, message: '', awaitingSecond: true }
			}
		}

		// Rejecting a proposal of more aid rejects the proposal, not the case: the family already had its support.
		if (additional && decision.outcome === 'reject') {
			await settleProposal(tx, proposal!, { state: 'rejected', reason: decision.reason }, actor)
			await tx.insert(caseEvents).values({ caseId, actorId: actor.id, kind: 'proposal_settled', note, data: { outcome: 'reject', reason: decision.reason, amount: proposal!.amount, aidKind: proposal!.aidKind } })
			return { row: locked, to, message: '' }
		}
		const [stored] = await tx
			.insert(caseDecisions)
			.values({
				caseId,
				outcome: decision.outcome,
				studyId: study?.id ?? null,
				...(decision.outcome === 'approve' ? { aidKind: decision.aidKind, amount: decision.amount, months: decision.months, fundId: decision.fundId, budgetYear, zakatCategory } : {}),
				reason: decision.outcome === 'reject' ? decision.reason : null,
				note: awaiting && decision.outcome === 'approve' ? [awaiting.firstNote, note].filter(Boolean).join('\n') : note,
				deciderId: actor.id,
				firstApproverId: decision.outcome === 'approve' ? (awaiting?.firstApproverId ?? null) : null,
				meetingId,
			})
			.returning()
		if (decision.outcome === 'approve') {
			const today = todayInRiyadh()
			const instalments = await tx.insert(aidInstalments).values(
				Array.from({ length: decision.months ?? 1 }, (_, index) => ({
					caseId,
					decisionId: stored!.id,
					fundId: decision.fundId,
					programme: locked.type,
					budgetYear,
					seq: index + 1,
					dueOn: monthStart(today, index),
					amount: decision.amount,
					aidKind: decision.aidKind,
				})),
			).returning()
			// The money ledger: each instalment's amount committed from its fund (./ledger.server.ts).
			await ledger.approve(tx, instalments, actor, note)
		}
		if (proposal) await settleProposal(tx, proposal, decision.outcome === 'approve' ? { state: 'approved', decisionId: stored!.id } : decision.outcome === 'reject' ? { state: 'rejected', reason: decision.reason } : { state: 'withdrawn' }, actor)
		const [row] = additional ? [locked] : await tx.update(cases).set({ status: to, statusChangedAt: sql`now()`, updatedAt: sql`now()`, reopened: null }).where(eq(cases.id, caseId)).returning()
		const message = applicantMessage(decision)
		await tx.insert(caseEvents).values([
			...(additional ? [] : [{ caseId, actorId: actor.id, kind: 'status_changed' as const, note: note || (decision.outcome === 'reject' ? decision.reason : ''), data: { from: locked.status, to } }]),
			{
				caseId,
				actorId: actor.id,
				kind: 'decided' as const,
				note: additional ? note : '',
				data: {
					outcome: decision.outcome,
					...(decision.outcome === 'approve' ? { aidKind: decision.aidKind, amount: decision.amount, months: decision.months, fund: fundName } : {}),
					...(decision.outcome === 'reject' ? { reason: decision.reason } : {}),
					...(proposal ? { proposal: proposal.id } : {}),
				},
			},
			...(message ? [{ caseId, actorId: actor.id, kind: 'applicant_message' as const, note: message }] : []),
		])
		return { row: row!, to, message, ...(additional ? { messageOnly: true } : {}) }
	})
}

export type CaseDecision = typeof caseDecisions.$inferSelect & { deciderName: string | null; fundName: string | null }

/** The case's decisions, newest first, with who decided and from which fund. */
export async function decisionsOf(db: Database, caseId: string): Promise<CaseDecision[]> {
	const rows = await db
		.select({ decision: caseDecisions, deciderName: users.name, fund: funds })
		.from(caseDecisions)
		.leftJoin(users, eq(users.id, caseDecisions.deciderId))
		.leftJoin(funds, eq(funds.id, caseDecisions.fundId))
		.where(eq(caseDecisions.caseId, caseId))
		.orderBy(desc(caseDecisions.createdAt), desc(caseDecisions.id))
	return rows.map((row) => ({ ...row.decision, deciderName: row.deciderName, fundName: row.fund ? fundLabel(row.fund) : null }))
}

/** A case's instalments, in order, with their fund. */
export function instalmentsOf(db: Database, caseIds: readonly string[]) {
	if (!caseIds.length) return Promise.resolve([])
	return db
		.select({ instalment: aidInstalments, fundName: funds.name, zakat: funds.zakat })
		.from(aidInstalments)
		.innerJoin(funds, eq(funds.id, aidInstalments.fundId))
		.where(inArray(aidInstalments.caseId, [...caseIds]))
		.orderBy(aidInstalments.decisionId, aidInstalments.seq)
}

/** The committee's queue: studied cases and proposals waiting for a decision, oldest first, by programme and city. */
export interface QueueFilter {
	programme?: string
	city?: string
	page: number
}

export const QUEUE_PAGE_SIZE = 25

export async function decisionQueue(db: Database, filter: QueueFilter) {
	// Studied cases, and cases with a proposal waiting (more aid on a case whose support was provided).
	// The cases with an open proposal as an array (read once): both sides of the OR can then use an
	// index; a correlated EXISTS made it read every case (docs/performance.md, the aid cycle).
	const where = and(
		sql`(${eq(cases.status, Status.Studied)} or ${cases.id} = any(array(select ${aidProposals.caseId} from ${aidProposals} where ${inArray(aidProposals.state, [...OPEN_STATES])})))`,
		isNotNull(cases.submittedAt),
		isNull(cases.deletedAt),
		isNull(cases.purgedAt),
		filter.programme ? eq(cases.type, filter.programme) : undefined,
		filter.city ? eq(cases.city, filter.city) : undefined,
	)
	const [counted] = await db.select({ total: count() }).from(cases).where(where)
	const rows = await db
		.select({ id: cases.id, reference: cases.reference, type: cases.type, applicantName: cases.applicantName, city: cases.city, statusChangedAt: cases.statusChangedAt })
		.from(cases)
		.where(where)
		.orderBy(asc(cases.statusChangedAt), asc(cases.id))
		.limit(QUEUE_PAGE_SIZE)
		.offset((filter.page - 1) * QUEUE_PAGE_SIZE)
	// Each case's newest study, one query for the page.
	const studies = rows.length
		? await db
				.selectDistinctOn([caseStudies.caseId], { study: caseStudies, authorName: users.name })
				.from(caseStudies)
				.leftJoin(users, eq(users.id, caseStudies.authorId))
				.where(
					inArray(
						caseStudies.caseId,
						rows.map((row) => row.id),
					),
				)
				.orderBy(caseStudies.caseId, desc(caseStudies.createdAt), desc(caseStudies.id))
		: []
	const proposals = await openProposals(
		db,
		rows.map((row) => row.id),
	)
	return {
		total: counted?.total ?? 0,
		rows: rows.map((row) => {
			const found = studies.find((item) => item.study.caseId === row.id)
			return { ...row, study: found ? { ...found.study, authorName: found.authorName } : undefined, proposal: proposals.find((item) => item.caseId === row.id) }
		}),
	}
}

/** The cities of the cases waiting for a decision, for the queue's filter. */
export async function queueCities(db: Database): Promise<string[]> {
	const rows = await db
		.selectDistinct({ city: cases.city })
		.from(cases)
		.where(and(eq(cases.status, Status.Studied), isNull(cases.deletedAt), sql`${cases.city} <> ''`))
		.orderBy(asc(cases.city))
		.limit(200)
	return rows.map((row) => row.city)
}

export interface BatchOutcome {
	reference: string
	name: string
	/** null when approved; why not, otherwise. */
	refusal: string | null
	/** Approved (or approved first, above a limit): the case as it is now and what the applicant is told. */
	decided?: Decided
}

/** Several approvals at once, each with its own amount and fund, each on its own: one refused leaves the others. */
export async function approveMany(db: Database, items: readonly { reference: string; decision: Decision }[], actor: { id: number; roles: readonly UserRole[] }): Promise<BatchOutcome[]> {
	const found = items.length ? await db.select({ id: cases.id, reference: cases.reference, applicantName: cases.applicantName }).from(cases).where(inArray(cases.reference, items.map((item) => item.reference))) : []
	const outcomes: BatchOutcome[] = []
	for (const item of items) {
		const row = found.find((candidate) => candidate.reference === item.reference)
		if (!row) {
			outcomes.push({ reference: item.reference, name: '', refusal: 'الطلب غير موجود' })
			continue
		}
		try {
			const decided = await decide(db, row.id, item.decision, actor)
			outcomes.push({ reference: row.reference, name: row.applicantName, refusal: null, decided })
		} catch (error) {
			if (!(error instanceof CaseChangeError)) throw error
			outcomes.push({ reference: row.reference, name: row.applicantName, refusal: error.message })
		}
	}
	return outcomes
}
