// The «التذكيرات» section of /admin/intake (app/routes/admin/intake.tsx): when applicants are reminded
// of an incomplete case or a draft, and whether an incomplete case left unanswered is closed
// (app/operations/reminders.server.ts). A plain form: it works without JavaScript, and a refused one shows
// what was typed with the reasons beside it.
import { Form } from 'react-router'
import { z } from 'zod'
import { FlashNotice, WholeNumberField } from '#app/components/forms.tsx'
import { countOf, days } from '#app/text/arabic-count.ts'

/** The form's `intent`, and the flash notice's `field`. */
export const REMINDERS_INTENT = 'reminders'

const MAX_DAYS = 365

const dayCount = (missing: string) =>
	z
		.number({ error: missing })
		.int('الرجاء كتابة عدد صحيح من الأيام، بلا كسور')
		.min(1, `أقصر مدة ${countOf(1, days)}`)
		.max(MAX_DAYS, `أطول مدة ${countOf(MAX_DAYS, days)}`)

export const reminderSettingsSchema = z
	.object({
		intent: z.literal(REMINDERS_INTENT),
		incompleteFirstDays: dayCount('الرجاء كتابة بعد كم يوماً يأتي التذكير الأول'),
		incompleteSecondDays: dayCount('الرجاء كتابة بعد كم يوماً يأتي التذكير الثاني'),
		draftDays: dayCount('الرجاء كتابة بعد كم يوماً يأتي التذكير بالطلب الذي لم يُرسل'),
		closeEnabled: z.literal('on').optional(),
		incompleteCloseDays: dayCount('الرجاء كتابة بعد كم يوماً يُغلق الطلب').optional(),
	})
	.superRefine((value, ctx) => {
		if (value.incompleteSecondDays <= value.incompleteFirstDays)
			ctx.addIssue({ code: 'custom', path: ['incompleteSecondDays'], message: `يأتي التذكير الثاني بعد الأول: الرجاء كتابة عدد أكبر من ${value.incompleteFirstDays}` })
		if (!value.closeEnabled) return
		if (value.incompleteCloseDays === undefined) ctx.addIssue({ code: 'custom', path: ['incompleteCloseDays'], message: 'الرجاء كتابة بعد كم يوماً يُغلق الطلب' })
		else if (value.incompleteCloseDays <= value.incompleteSecondDays)
			ctx.addIssue({ code: 'custom', path: ['incompleteCloseDays'], message: `يُغلق الطلب بعد التذكير الثاني: الرجاء كتابة عدد أكبر من ${value.incompleteSecondDays}` })
	})

/** The settings as saved: closing off unless ticked, whatever days were typed beside it. */
export function reminderSettingsOf(value: z.infer<typeof reminderSettingsSchema>) {
	return {
		incompleteFirstDays: value.incompleteFirstDays,
		incompleteSecondDays: value.incompleteSecondDays,
		incompleteCloseDays: value.closeEnabled ? value.incompleteCloseDays! : null,
		draftDays: value.draftDays,
	}
}

export interface ReminderSettingsView {
	incompleteFirstDays: number
	incompleteSecondDays: number
	incompleteCloseDays: number | null
	draftDays: number
}

/** What the fields show: the saved settings, or what was typed in a refused form. */
export type ReminderFields = Record<'incompleteFirstDays' | 'incompleteSecondDays' | 'draftDays' | 'incompleteCloseDays', string> & { closeEnabled: boolean }

export function fieldsOfSettings(settings: ReminderSettingsView): ReminderFields {
	return {
		incompleteFirstDays: String(settings.incompleteFirstDays),
		incompleteSecondDays: String(settings.incompleteSecondDays),
		draftDays: String(settings.draftDays),
		incompleteCloseDays: settings.incompleteCloseDays === null ? '' : String(settings.incompleteCloseDays),
		closeEnabled: settings.incompleteCloseDays !== null,
	}
}

export function fieldsOfPayload(payload: Record<string, unknown>): ReminderFields {
	const text = (key: string) => (typeof payload[key] === 'string' ? (payload[key] as string) : '')
	return {
		incompleteFirstDays: text('incompleteFirstDays'),
		incompleteSecondDays: text('incompleteSecondDays'),
		draftDays: text('draftDays'),
		incompleteCloseDays: text('incompleteCloseDays'),
		closeEnabled: payload.closeEnabled === 'on',
	}
}

type Errors = Record<string, readonly string[] | null | undefined>

function DaysField({ name, label, hint, value, errors }: { name: keyof ReminderFields; label: string; hint?: string; value: string; errors: Errors }) {
	return <WholeNumberField id={`reminders-${name}`} name={name} label={label} hint={hint} value={value} errors={errors[name] ?? undefined} max={MAX_DAYS} width="max-w-32" />
}

export function ReminderSettingsSection({
	summary,
	fields,
	errors,
	notice,
}: {
	/** The saved settings in a sentence (describeReminderSettings). */
	summary: string
	fields: ReminderFields
	errors: Errors
	notice: { tone: 'success' | 'error'; message: string } | null | undefined
}) {
	return (
		// Keyed by what it shows: a saved change shows the saved values, a refused one what was typed.
		<Form key={JSON.stringify(fields)} method="post" className="space-y-4 rounded-xl border border-stone-200 bg-white p-5" aria-labelledby="reminders-title">
			<h2 id="reminders-title" className="text-lg font-bold">
				التذكيرات
			</h2>
			<FlashNotice notice={notice} />
			<p className="text-stone-700">{summary}</p>
			<input type="hidden" name="intent" value={REMINDERS_INTENT} />
			<DaysField name="incompleteFirstDays" label="التذكير الأول بالطلب غير المكتمل: بعد كم يوماً" hint="من إعادة الطلب إلى المتقدم لاستكماله." value={fields.incompleteFirstDays} errors={errors} />
			<DaysField
				name="incompleteSecondDays"
				label="التذكير الثاني بالطلب غير المكتمل: بعد كم يوماً"
				hint="من إعادة الطلب إلى المتقدم، لا من التذكير الأول."
				value={fields.incompleteSecondDays}
				errors={errors}
			/>
			<DaysField name="draftDays" label="التذكير بالطلب الذي لم يُرسل: بعد كم يوماً" hint="من بدء المتقدم طلبه. يُذكَّر المتقدم بكل طلب لم يرسله مرة واحدة." value={fields.draftDays} errors={errors} />
			<fieldset className="space-y-2">
				<legend className="font-semibold">إغلاق الطلب غير المكتمل</legend>
				<div className="flex min-h-11 items-center gap-3">
					<input type="checkbox" id="reminders-closeEnabled" name="closeEnabled" defaultChecked={fields.closeEnabled} className="size-5 shrink-0 accent-brand-700" />
					<label htmlFor="reminders-closeEnabled">إغلاق الطلب غير المكتمل تلقائياً إن لم يستكمله المتقدم</label>
				</div>
				<DaysField
					name="incompleteCloseDays"
					label="يُغلق بعد كم يوماً"
					hint="من إعادة الطلب إلى المتقدم، أو من آخر تعديل أجراه عليه بعدها. يُبلَّغ المتقدم بالإغلاق."
					value={fields.incompleteCloseDays}
					errors={errors}
				/>
			</fieldset>
			<button type="submit" className="btn-primary">
				حفظ<span className="sr-only"> التذكيرات</span>
			</button>
		</Form>
	)
}
