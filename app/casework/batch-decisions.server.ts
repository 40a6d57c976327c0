// The committee's batch approval (app/routes/admin/decisions.tsx): several studied cases approved at
// once, each with its own amount, months and fund, each checked by the approval's one schema
// (app/aid/approval.ts) and decided on its own (four eyes, zakat, budget); the applicants told once.
import { z } from 'zod'
import type { Database } from '#app/db/client.server.ts'
import type { PublicUser } from '#app/domain/staff-users.server.ts'
import type { AuditSink } from '#app/audit/audit-trail.server.ts'
import { approveMany, QUEUE_PAGE_SIZE, type Decision } from '#app/aid/decisions.server.ts'
import { parseApproval } from '#app/aid/approval.ts'
import { refused, type Outcome, type Refused } from './outcome.ts'
import type { Notice } from '#app/notify/case-notices.server.ts'
import { tellApplicants } from './tell.server.ts'

const REFERENCE = /^[A-Z0-9-]{4,20}$/

/** The batch as the queue's form sends it: the ticked cases (a page's worth at most), the one note, and each case's fields by name. */
export const batchApprovalSchema = z.object({
	cases: z
		.array(z.string())
		.transform((references) => [...new Set(references)].filter((reference) => REFERENCE.test(reference)).slice(0, QUEUE_PAGE_SIZE))
		.refine((references) => references.length > 0, 'الرجاء اختيار طلب واحد على الأقل لاعتماده'),
	note: z.string().transform((note) => note.trim().slice(0, 2000)),
	fields: z.record(z.string(), z.string()),
})

export type BatchApprovalInput = z.input<typeof batchApprovalSchema>

/** The batch's input from the queue's form: its `case` boxes, its note, and every other field as sent. */
export function batchApprovalInput(form: FormData): BatchApprovalInput {
	const fields = Object.fromEntries([...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
	return { cases: form.getAll('case').map(String), note: String(form.get('note') ?? ''), fields }
}

export interface BatchApproved {
	outcomes: { reference: string; name: string; refusal: string | null; awaitingSecond: boolean }[]
	/** The cases not approved, ticked again for another try. */
	left: string[]
}

/** A refused batch keeps its cases ticked. */
export type BatchApproval = Exclude<Outcome<BatchApproved>, Refused> | (Refused & { chosen: string[] })

/** Approves the batch; refused (400, errors by reference) if a case's terms are incomplete, before any is decided. */
export async function approveBatch(db: Database, input: BatchApprovalInput, user: PublicUser, audit: AuditSink): Promise<BatchApproval> {
	const parsed = batchApprovalSchema.safeParse(input)
	if (!parsed.success) return { ...refused('', { '': parsed.error.issues.map((issue) => issue.message) }, 400, input.fields), chosen: [] }
	const { cases: chosen, note, fields } = parsed.data
	// Each case's own amount, months and fund, checked by the approval's one schema (app/aid/approval.ts).
	const errors: Record<string, string[]> = {}
	const items: { reference: string; decision: Decision }[] = []
	for (const reference of chosen) {
		const field = (name: string) => fields[`${name}-${reference}`]
		const approval = parseApproval({ aidKind: field('kind'), amount: field('amount'), months: field('months'), fund: field('fund') })
		if (approval.ok) items.push({ reference, decision: { outcome: 'approve', ...approval.terms, note } })
		else errors[reference] = Object.values(approval.issues).flat()
	}
	if (Object.keys(errors).length) return { ...refused('', errors, 400, fields), chosen }
	const outcomes = await approveMany(db, items, user)
	const notices: Notice[] = outcomes.flatMap(({ decided }) => (decided?.message ? [{ kind: 'status' as const, caseId: decided.row.id, to: decided.to, message: decided.message, messageOnly: decided.messageOnly }] : []))
	await tellApplicants(db, notices, user)
	audit.note({
		data: {
			approved: outcomes.filter((item) => !item.refusal && !item.decided?.awaitingSecond).map((item) => item.reference),
			awaitingSecond: outcomes.filter((item) => item.decided?.awaitingSecond).map((item) => item.reference),
			refused: outcomes.filter((item) => item.refusal).map((item) => item.reference),
		},
	})
	return {
		kind: 'shown',
		result: {
			outcomes: outcomes.map(({ reference, name, refusal, decided }) => ({ reference, name, refusal, awaitingSecond: decided?.awaitingSecond ?? false })),
			left: outcomes.filter((item) => item.refusal).map((item) => item.reference),
		},
	}
}
