// The committee's approval, its rules written once (docs/product.md#the-decision): the kind of aid,
// the amount (each month's, for a monthly aid), the months (2 to 24, or none for aid given once)
// and the fund. The case view's form, the committee's queue and `decide()` itself read this one
// schema: a caller that forgets a field is refused in Arabic, never by a database error.
import { z } from 'zod'
import { aidKinds, riyals } from '#app/cases/aid.ts'
import { CaseChangeError } from '#app/cases/status-changes.server.ts'
import { toWesternDigits } from '#app/text/format.ts'
import { maxCharacters } from '#app/text/messages.ts'

export const APPROVAL_MISSING = { aidKind: 'الرجاء اختيار نوع الدعم', amount: 'الرجاء كتابة مبلغ الدعم', fund: 'الرجاء اختيار صندوق الصرف' } as const
export const MONTHS_RANGE = 'الدعم الشهري من شهرين إلى 24 شهراً'

const kindValues = aidKinds.map((kind) => kind.value) as [string, ...string[]]

/**
 * An approval's fields, as a form sends them (strings, Arabic digits too) or as a caller passes
 * them (numbers; null months for aid given once).
 */
export const approvalFields = {
	aidKind: z.enum(kindValues, { error: APPROVAL_MISSING.aidKind }),
	amount: z.preprocess((value) => (typeof value === 'number' ? String(value) : value), riyals(APPROVAL_MISSING.amount)),
	months: z.preprocess(
		(value) => (typeof value === 'string' ? toWesternDigits(value).trim() || undefined : value === null ? undefined : value),
		z.coerce.number({ error: 'الرجاء كتابة عدد الأشهر' }).int('الرجاء كتابة عدد صحيح من الأشهر').min(2, MONTHS_RANGE).max(24, MONTHS_RANGE).optional(),
	),
	fund: z.preprocess((value) => (value === '' ? undefined : value), z.coerce.number({ error: APPROVAL_MISSING.fund }).int(APPROVAL_MISSING.fund).positive(APPROVAL_MISSING.fund)),
}

export const approvalSchema = z.object(approvalFields)

/** What an approval gives: the terms `decide()` writes. */
export interface ApprovalTerms {
	aidKind: string
	/** Riyals: the whole amount, or each month's. */
	amount: number
	/** Monthly for this many months; null for once. */
	months: number | null
	fundId: number
}

/** Refused because the approval itself is incomplete or out of range: a 400 on a form. */
export class ApprovalRefused extends CaseChangeError {
	constructor(readonly issues: Record<string, string[]>) {
		super([...new Set(Object.values(issues).flat())].join('؛ '))
	}
}

/** The approval's problems by field (`aidKind`, `amount`, `months`, `fund`), or its terms. */
export function parseApproval(input: Record<string, unknown>): { ok: true; terms: ApprovalTerms } | { ok: false; issues: Record<string, string[]> } {
	const parsed = approvalSchema.safeParse(input)
	if (parsed.success) return { ok: true, terms: { aidKind: parsed.data.aidKind, amount: parsed.data.amount, months: parsed.data.months ?? null, fundId: parsed.data.fund } }
	const issues: Record<string, string[]> = {}
	for (const issue of parsed.error.issues) (issues[String(issue.path[0] ?? '')] ??= []).push(issue.message)
	return { ok: false, issues }
}

/** Asserted by `decide()` before anything is read or written: throws ApprovalRefused with the Arabic reasons. */
export function assertApproval(terms: ApprovalTerms): ApprovalTerms {
	const parsed = parseApproval({ aidKind: terms.aidKind, amount: terms.amount, months: terms.months, fund: terms.fundId })
	if (!parsed.ok) throw new ApprovalRefused(parsed.issues)
	return parsed.terms
}

const RETURN_NOTE = 'الرجاء كتابة ما يحتاج إلى دراسة أكثر'
const decisionNote = z.string().trim().max(2000, `النص: ${maxCharacters(2000)}`).optional()

/** The case view's three decisions, as its forms post them (`intent=decide`); a reason is one of the committee's list. */
export const decisionFormSchema = z.discriminatedUnion(
	'outcome',
	[
		z.object({ intent: z.literal('decide'), outcome: z.literal('approve'), ...approvalFields, note: decisionNote }),
		z.object({ intent: z.literal('decide'), outcome: z.literal('reject'), reason: z.coerce.number({ error: 'الرجاء اختيار سبب الرفض' }).int('الرجاء اختيار سبب الرفض'), note: decisionNote }),
		z.object({ intent: z.literal('decide'), outcome: z.literal('return'), note: z.string({ error: RETURN_NOTE }).trim().min(1, RETURN_NOTE).max(2000, `النص: ${maxCharacters(2000)}`) }),
	],
	{ error: 'الرجاء اختيار القرار' },
)

/** An officer's proposal of aid for the committee (app/aid/proposals.server.ts): the kind, the amount and why. */
export const proposalFormSchema = z.object({ intent: z.literal('propose'), aidKind: approvalFields.aidKind, amount: approvalFields.amount, note: decisionNote })
