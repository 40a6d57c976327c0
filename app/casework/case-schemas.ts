// The case view's forms (app/routes/admin/case.tsx), one schema for each staff action on one case:
// the route parses with it, and app/casework/case-actions.server.ts runs what it gives.
import { z } from 'zod'
import { decisionFormSchema, proposalFormSchema } from '#app/aid/approval.ts'
import { maxCharacters } from '#app/text/messages.ts'

const text = (message: string, max = 2000) => z.string({ error: message }).trim().min(1, message).max(max, `النص: ${maxCharacters(max)}`)
const optionalText = (max = 2000) => z.string().trim().max(max).optional()
const list = z.preprocess((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]), z.array(z.string()))

const statusSchema = z.object({
	intent: z.literal('status'),
	to: z.coerce.number().int(),
	/** The status the page showed: another change since then means the decision was made on a stale page. */
	from: z.coerce.number().int().optional(),
	note: text('الرجاء كتابة ملاحظة تغيير الحالة'),
	message: optionalText(),
	reopenSections: list,
	reopenSlots: list,
})
const assignSchema = z.object({ intent: z.literal('assign'), officer: z.string().regex(/^(none|\d+)$/, 'الرجاء اختيار الموظف') })
const noteSchema = z.object({ intent: z.literal('note'), note: text('الرجاء كتابة الملاحظة') })
const messageSchema = z.object({ intent: z.literal('message'), message: text('الرجاء كتابة الرسالة') })
const visitSchema = z.object({
	intent: z.literal('visit'),
	visitOn: z.string({ error: 'الرجاء اختيار يوم الزيارة' }),
	visitAt: z.string({ error: 'الرجاء كتابة ساعة الزيارة' }),
	visitor: z.coerce.number({ error: 'الرجاء اختيار من يزور الأسرة' }).int(),
})
const cancelVisitSchema = z.object({ intent: z.literal('cancel-visit'), visitId: z.coerce.number().int() })
const deleteSchema = z.object({ intent: z.literal('delete'), reason: text('الرجاء كتابة سبب الحذف', 500), confirm: z.literal('on', { error: 'الرجاء تأكيد الحذف' }) })
const restoreSchema = z.object({ intent: z.literal('restore') })
const resendSchema = z.object({ intent: z.literal('resend'), messageId: z.uuid({ error: 'الرسالة غير موجودة' }) })

/** Every staff action on one case, told apart by its `intent`; the decision's and the proposal's rules are the approval's (app/aid/approval.ts). */
export const caseActionSchema = z.discriminatedUnion('intent', [
	statusSchema,
	assignSchema,
	noteSchema,
	messageSchema,
	proposalFormSchema,
	visitSchema,
	cancelVisitSchema,
	deleteSchema,
	restoreSchema,
	resendSchema,
	decisionFormSchema,
])

export type CaseAction = z.infer<typeof caseActionSchema>

/** The form a refusal belongs to: the status form of its target, the decision's own form, or the intent's. */
export function formOf(typed: Record<string, unknown>): string {
	const intent = String(typed.intent ?? '')
	if (intent === 'status') return `status-${String(typed.to ?? '')}`
	if (intent === 'decide') return `decide-${String(typed.outcome ?? '')}`
	return intent
}

/** A status form whose page no longer offers it (the case moved meanwhile): its refusal shows above the others. */
export const STALE_STATUS_FORM = 'status-stale'
