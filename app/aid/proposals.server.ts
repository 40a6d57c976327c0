// A case officer proposes aid; the committee decides it (docs/product.md#proposals-and-the-committees-four-eyes).
// The officer's «تم تقديم الدعم» with an amount and «تسجيل دعم إضافي» used to write the aid ledger
// alone; now they are proposals in the committee's queue (/admin/decisions), and only an approval by
// another member (app/aid/decisions.server.ts `decide`) writes a decision and its instalments.
import { and, eq, inArray, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { aidProposals, caseEvents, cases, funds, users } from '#app/db/schema.ts'
import { alias } from 'drizzle-orm/pg-core'
import { CaseChangeError } from '#app/cases/status-changes.server.ts'
import { quotedStatus, Status } from '#app/cases/case-statuses.ts'
import { aidText, fundLabel } from './aid-text.ts'

export type AidProposal = typeof aidProposals.$inferSelect

/** The states of a proposal still waiting for the committee. */
export const OPEN_STATES = ['proposed', 'awaiting_second'] as const

export const PROPOSAL_OPEN = 'على هذا الطلب اقتراح دعم بانتظار لجنة الصرف: تقرر فيه اللجنة أولاً.'
export const PROPOSAL_STATUS = `يُقترح الدعم على طلب حالته ${quotedStatus(Status.Studied)} أو ${quotedStatus(Status.SupportProvided)}.`

export interface ProposalInput {
	aidKind: string
	/** Riyals. */
	amount: number
	note: string
}

/**
 * The officer's proposal of aid: on a studied case (its first aid) or one whose support was
 * provided (more aid). It changes no status and gives nothing; it waits in the committee's queue.
 */
export async function proposeAid(db: Database, caseId: string, input: ProposalInput, actor: { id: number }): Promise<AidProposal> {
	return db.transaction(async (tx) => {
		const [locked] = await tx.select().from(cases).where(eq(cases.id, caseId)).for('update')
		if (!locked || locked.deletedAt) throw new CaseChangeError('الطلب غير موجود أو محذوف')
		if (locked.purgedAt) throw new CaseChangeError('أُتلفت بيانات هذا الطلب وفق مدة الاحتفاظ')
		const purpose = locked.status === Status.Studied ? 'support' : locked.status === Status.SupportProvided ? 'additional' : null
		if (!purpose) throw new CaseChangeError(PROPOSAL_STATUS)
		const [open] = await tx
			.select({ id: aidProposals.id })
			.from(aidProposals)
			.where(and(eq(aidProposals.caseId, caseId), inArray(aidProposals.state, [...OPEN_STATES])))
		if (open) throw new CaseChangeError(PROPOSAL_OPEN)
		const note = input.note.trim()
		const [proposal] = await tx.insert(aidProposals).values({ caseId, purpose, aidKind: input.aidKind, amount: input.amount, note, proposedBy: actor.id }).returning()
		await tx.insert(caseEvents).values({ caseId, actorId: actor.id, kind: 'aid_proposed', note, data: { purpose, aidKind: input.aidKind, amount: input.amount } })
		return proposal!
	})
}

const proposer = alias(users, 'proposer')
const firstApprover = alias(users, 'first_approver')

export type OpenProposal = AidProposal & { proposerName: string | null; firstApproverName: string | null; fundName: string | null }

/** The cases' open proposals (one at most each), with who proposed and who approved first. */
export async function openProposals(db: Database, caseIds: readonly string[]): Promise<OpenProposal[]> {
	if (!caseIds.length) return []
	const rows = await db
		.select({ proposal: aidProposals, proposerName: proposer.name, firstApproverName: firstApprover.name, fund: funds })
		.from(aidProposals)
		.leftJoin(proposer, eq(proposer.id, aidProposals.proposedBy))
		.leftJoin(firstApprover, eq(firstApprover.id, aidProposals.firstApproverId))
		.leftJoin(funds, eq(funds.id, aidProposals.fundId))
		.where(and(inArray(aidProposals.caseId, [...caseIds]), inArray(aidProposals.state, [...OPEN_STATES])))
	return rows.map((row) => ({ ...row.proposal, proposerName: row.proposerName, firstApproverName: row.firstApproverName, fundName: row.fund ? fundLabel(row.fund) : null }))
}

/** An open proposal in words, for the case view and the queue. */
export function describeProposal(proposal: OpenProposal) {
	const aid = aidText(proposal)
	if (proposal.state === 'awaiting_second')
		return {
			awaitingSecond: true,
			text: `بانتظار اعتماد ثانٍ: اعتمد ${proposal.firstApproverName ?? 'عضو في اللجنة'} ${aid} من «${proposal.fundName ?? ''}»، ويلزمه اعتماد عضو آخر من لجنة الصرف.`,
		}
	const what = proposal.purpose === 'additional' ? 'اقتراح دعم إضافي' : 'اقتراح دعم'
	return { awaitingSecond: false, text: `${what} من ${proposal.proposerName ?? 'الباحث'}: ${aid}${proposal.note ? ` — ${proposal.note}` : ''}` }
}

/** Settles a case's open proposal inside a decision's transaction (already locked with the case). */
export async function settleProposal(tx: Database, proposal: AidProposal, outcome: { state: 'approved'; decisionId: number } | { state: 'rejected'; reason: string } | { state: 'withdrawn' }, actor: { id: number }): Promise<void> {
	await tx
		.update(aidProposals)
		.set({ state: outcome.state, decisionId: outcome.state === 'approved' ? outcome.decisionId : null, reason: outcome.state === 'rejected' ? outcome.reason : null, settledBy: actor.id, settledAt: sql`now()` })
		.where(eq(aidProposals.id, proposal.id))
}
