import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/intake'
import { getDb } from '#app/db/database.server.ts'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getIntake, setIntake } from '#app/cases/intake-state.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { applicationDefinitions, findDefinition } from '#app/forms/registry.ts'
import { flashContext, notices, redirectWithFlash } from '#app/http/flash.server.ts'
import { ErrorList, FlashNotice, PageTitle } from '#app/components/forms.tsx'
import type { AdminHandle } from './layout.tsx'
import { audited, noteAudit } from '#app/audit/audit-trail.server.ts'
import { describeReminderSettings, getReminderSettings, saveReminderSettings } from '#app/operations/reminders.server.ts'
import { fieldsOfBudget, fieldsOfBudgetPayload, SMS_BUDGET_INTENT, SmsBudgetSection, smsBudgetSchema } from './+sms-budget.tsx'
import { getSmsBudget, saveSmsBudget, smsUse } from '#app/verify/sms-budget.server.ts'
import { now as clockNow } from '#app/utils/clock.server.ts'
import { fieldsOfPayload, fieldsOfSettings, REMINDERS_INTENT, ReminderSettingsSection, reminderSettingsOf, reminderSettingsSchema } from './+reminder-settings.tsx'

export const handle: AdminHandle = { breadcrumb: 'استقبال الطلبات' }

export const middleware = [audited({ read: false, write: { byIntent: { [REMINDERS_INTENT]: 'reminders.change', [SMS_BUDGET_INTENT]: 'sms-budget.change' }, otherwise: 'intake.change' } })]

const states = [
	{ value: 'open', label: 'مفتوح: يستقبل الطلبات' },
	{ value: 'paused', label: 'موقوف مؤقتاً: يستقبل الطلبات ويعرض تنبيه توقف الدعم' },
	{ value: 'closed', label: 'مغلق: لا يستقبل طلبات جديدة' },
] as const

const intakeSchema = z.object({
	type: z.string(),
	state: z.enum(['open', 'paused', 'closed'], { error: 'الرجاء اختيار حالة الاستقبال' }),
	pausedNotice: z.string({ error: 'الرجاء كتابة نص تنبيه التوقف' }).trim().min(1, 'الرجاء كتابة نص تنبيه التوقف').max(500),
	closedNotice: z.string({ error: 'الرجاء كتابة نص الإغلاق' }).trim().min(1, 'الرجاء كتابة نص الإغلاق').max(500),
})

export async function loader({ context }: Route.LoaderArgs) {
	requireRole(context, areaRoles.users)
	const db = await getDb()
	const reminders = await getReminderSettings(db)
	return {
		notice: context.get(flashContext),
		reminders: { settings: reminders, summary: describeReminderSettings(reminders) },
		sms: { budget: await getSmsBudget(db), use: await smsUse(db, clockNow()) },
		programmes: await Promise.all(applicationDefinitions.map(async (definition) => ({ type: definition.type, title: definition.title, intake: await getIntake(db, definition.type) }))),
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	const user = requireRole(context, areaRoles.users)
	const formData = await request.formData()
	if (formData.get('intent') === REMINDERS_INTENT) {
		const reminders = parseWithZod(formData, { schema: reminderSettingsSchema })
		if (reminders.status !== 'success') return data({ result: reminders.reply(), type: REMINDERS_INTENT }, { status: 400 })
		const settings = reminderSettingsOf(reminders.value)
		await saveReminderSettings(await getDb(), settings, user.id)
		noteAudit(context, { data: settings })
		return redirectWithFlash('/admin/intake#reminders-title', { tone: 'success', message: 'تم حفظ إعدادات التذكيرات.', field: REMINDERS_INTENT })
	}
	if (formData.get('intent') === SMS_BUDGET_INTENT) {
		const budget = parseWithZod(formData, { schema: smsBudgetSchema })
		if (budget.status !== 'success') return data({ result: budget.reply(), type: SMS_BUDGET_INTENT }, { status: 400 })
		const { intent: _intent, ...saved } = budget.value
		await saveSmsBudget(await getDb(), saved, user.id)
		noteAudit(context, { data: saved })
		return redirectWithFlash('/admin/intake#sms-budget-title', { tone: 'success', message: 'تم حفظ ميزانية رسائل رموز التحقق.', field: SMS_BUDGET_INTENT })
	}
	const submission = parseWithZod(formData, { schema: intakeSchema })
	if (submission.status !== 'success') return data({ result: submission.reply(), type: String(submission.payload.type ?? '') }, { status: 400 })
	const { type, ...intake } = submission.value
	if (!findDefinition(type)) throw data('برنامج غير معروف', { status: 400 })
	await setIntake(await getDb(), type, intake, user.id)
	return redirectWithFlash('/admin/intake', { ...notices.updated, field: type })
}

export default function Intake({ loaderData, actionData }: Route.ComponentProps) {
	return (
		<>
			<PageTitle title="استقبال الطلبات" error={Boolean(actionData)} />
			<h1 className="text-2xl font-bold text-brand-900">استقبال الطلبات</h1>
			<p className="mt-1 text-stone-700">حالة استقبال كل برنامج، والنصوص التي يراها المتقدمون، ومتى يُذكَّرون بطلباتهم.</p>
			<div className="mt-6 space-y-6">
				{loaderData.programmes.map((programme) => {
					const errors = actionData?.type === programme.type ? (actionData.result.error ?? {}) : {}
					return (
						<Form key={programme.type} method="post" className="space-y-4 rounded-xl border border-stone-200 bg-white p-5">
							<h2 className="text-lg font-bold">{programme.title}</h2>
							<FlashNotice notice={loaderData.notice?.field === programme.type ? loaderData.notice : null} />
							<input type="hidden" name="type" value={programme.type} />
							<fieldset>
								<legend className="font-semibold">حالة الاستقبال</legend>
								<ErrorList errors={errors.state} />
								{states.map((state) => (
									<div key={state.value} className="mt-2 flex min-h-11 items-center gap-3">
										<input
											type="radio"
											id={`${programme.type}-state-${state.value}`}
											name="state"
											value={state.value}
											defaultChecked={programme.intake.state === state.value}
											className="size-5 shrink-0 accent-brand-700"
										/>
										<label htmlFor={`${programme.type}-state-${state.value}`}>{state.label}</label>
									</div>
								))}
							</fieldset>
							<div>
								<label htmlFor={`${programme.type}-paused-notice`} className="block font-semibold">
									تنبيه التوقف المؤقت (يظهر في بداية الطلب وعند تأكيد الإرسال)
								</label>
								<ErrorList errors={errors.pausedNotice} />
								<textarea id={`${programme.type}-paused-notice`} name="pausedNotice" rows={2} defaultValue={programme.intake.pausedNotice} className="field-input mt-1" />
							</div>
							<div>
								<label htmlFor={`${programme.type}-closed-notice`} className="block font-semibold">
									نص الإغلاق (يظهر في صفحة البرنامج)
								</label>
								<ErrorList errors={errors.closedNotice} />
								<textarea id={`${programme.type}-closed-notice`} name="closedNotice" rows={2} defaultValue={programme.intake.closedNotice} className="field-input mt-1" />
							</div>
							<button type="submit" className="btn-primary">
								حفظ<span className="sr-only"> {programme.title}</span>
							</button>
						</Form>
					)
				})}
				<ReminderSettingsSection
					summary={loaderData.reminders.summary}
					fields={actionData?.type === REMINDERS_INTENT ? fieldsOfPayload(actionData.result.initialValue ?? {}) : fieldsOfSettings(loaderData.reminders.settings)}
					errors={actionData?.type === REMINDERS_INTENT ? (actionData.result.error ?? {}) : {}}
					notice={loaderData.notice?.field === REMINDERS_INTENT ? loaderData.notice : null}
				/>
				<SmsBudgetSection
					use={loaderData.sms.use}
					budget={loaderData.sms.budget}
					fields={actionData?.type === SMS_BUDGET_INTENT ? fieldsOfBudgetPayload(actionData.result.initialValue ?? {}) : fieldsOfBudget(loaderData.sms.budget)}
					errors={actionData?.type === SMS_BUDGET_INTENT ? (actionData.result.error ?? {}) : {}}
					notice={loaderData.notice?.field === SMS_BUDGET_INTENT ? loaderData.notice : null}
				/>
			</div>
		</>
	)
}
