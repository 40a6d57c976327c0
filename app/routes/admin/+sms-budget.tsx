// The «ميزانية رسائل رموز التحقق» section of /admin/intake (app/routes/admin/intake.tsx): what the codes'
// SMS used in the last hour and day, how many wait, and the budgets staff may raise or lower
// (app/verify/sms-budget.server.ts, docs/operations.md#sms-budgets). A plain form: it works without
// JavaScript, and a refused one shows what was typed with the reasons beside it.
import { Form } from 'react-router'
import { z } from 'zod'
import { FlashNotice, WholeNumberField } from '#app/components/forms.tsx'
import { formatNumber } from '#app/text/format.ts'

/** The form's `intent`, and the flash notice's `field`. */
export const SMS_BUDGET_INTENT = 'sms-budget'

const MOST = 1_000_000

const count = (missing: string) =>
	z
		.number({ error: missing })
		.int('الرجاء كتابة عدد صحيح، بلا كسور')
		.min(1, 'أقل عدد 1')
		.max(MOST, `أكبر عدد ${formatNumber(MOST)}`)

export const smsBudgetSchema = z.object({
	intent: z.literal(SMS_BUDGET_INTENT),
	perHour: count('الرجاء كتابة عدد الرموز في الساعة'),
	perDay: count('الرجاء كتابة عدد الرموز في اليوم'),
	perAddressHour: count('الرجاء كتابة عدد الرموز لعنوان اتصال واحد في الساعة'),
})

type Name = 'perHour' | 'perDay' | 'perAddressHour'
export type SmsBudgetFields = Record<Name, string>

export const fieldsOfBudget = (budget: Record<Name, number>): SmsBudgetFields => ({ perHour: String(budget.perHour), perDay: String(budget.perDay), perAddressHour: String(budget.perAddressHour) })

export function fieldsOfBudgetPayload(payload: Record<string, unknown>): SmsBudgetFields {
	const text = (key: Name) => (typeof payload[key] === 'string' ? (payload[key] as string) : '')
	return { perHour: text('perHour'), perDay: text('perDay'), perAddressHour: text('perAddressHour') }
}

type Errors = Record<string, readonly string[] | null | undefined>

function CountField({ name, label, hint, value, errors }: { name: Name; label: string; hint?: string; value: string; errors: Errors }) {
	return <WholeNumberField id={`sms-budget-${name}`} name={name} label={label} hint={hint} value={value} errors={errors[name] ?? undefined} max={MOST} width="max-w-40" />
}

export function SmsBudgetSection({
	use,
	budget,
	fields,
	errors,
	notice,
}: {
	use: { hour: number; day: number; queued: number }
	budget: Record<Name, number>
	fields: SmsBudgetFields
	errors: Errors
	notice: { tone: 'success' | 'error'; message: string } | null | undefined
}) {
	return (
		<Form key={JSON.stringify(fields)} method="post" className="space-y-4 rounded-xl border border-stone-200 bg-white p-5" aria-labelledby="sms-budget-title">
			<h2 id="sms-budget-title" className="text-lg font-bold">
				ميزانية رسائل رموز التحقق
			</h2>
			<FlashNotice notice={notice} />
			<p className="text-stone-700">
				كل طلب جديد واستعلام يرسل رمز تحقق برسالة نصية مدفوعة. ما زاد على الميزانية لا يُرفض: يُحفظ الطلب، وينتظر رمزه دوره ويُرسل حين تتسع ميزانية الساعة، ويُخبَر المتقدم بموعد وصوله. الرمز الذي ينتظر ساعة لا
				يُرسل.
			</p>
			<dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
				<dt className="text-stone-600">أُرسل في الساعة الأخيرة</dt>
				<dd>
					{formatNumber(use.hour)} من {formatNumber(budget.perHour)}
				</dd>
				<dt className="text-stone-600">أُرسل في آخر 24 ساعة</dt>
				<dd>
					{formatNumber(use.day)} من {formatNumber(budget.perDay)}
				</dd>
				<dt className="text-stone-600">ينتظر دوره الآن</dt>
				<dd>{formatNumber(use.queued)}</dd>
			</dl>
			<input type="hidden" name="intent" value={SMS_BUDGET_INTENT} />
			<CountField name="perHour" label="رموز التحقق في الساعة، لكل المتقدمين" value={fields.perHour} errors={errors} />
			<CountField name="perDay" label="رموز التحقق في 24 ساعة، لكل المتقدمين" value={fields.perDay} errors={errors} />
			<CountField
				name="perAddressHour"
				label="رموز التحقق التي تُرسل فوراً لعنوان اتصال واحد في الساعة"
				hint="أسر كثيرة قد تتصل من عنوان واحد (شبكة شركة الاتصالات أو مكتب جمعية): ما زاد ينتظر دوره ويُرسل خلال الساعة ضمن ميزانية الساعة، فلا يُمنع أحد."
				value={fields.perAddressHour}
				errors={errors}
			/>
			<button type="submit" className="btn-primary">
				حفظ الميزانية
			</button>
		</Form>
	)
}
