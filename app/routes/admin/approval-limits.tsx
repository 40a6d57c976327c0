import { data, Form, Link, useNavigation } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/approval-limits'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { areaRoles, hasRole } from '#app/db/roles.ts'
import { fundLabel, listFunds } from '#app/aid/funds.server.ts'
import { listLimits, removeLimit, setLimit } from '#app/aid/approval-limits.server.ts'
import { riyals } from '#app/cases/aid.ts'
import { applicationDefinitions, findDefinition } from '#app/forms/registry.ts'
import { flashContext, notices, redirectWithFlash } from '#app/http/flash.server.ts'
import { formatMoney } from '#app/text/format.ts'
import { noteAudit, audited } from '#app/audit/audit-trail.server.ts'
import { ErrorList, Field, FlashNotice, PageTitle, SelectField } from '#app/components/forms.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import type { AdminHandle } from './layout.tsx'

// Approval limits (docs/product.md#approval-limits): above an amount, for a programme or a fund, an
// approval needs a second member of the committee before the aid is committed. An admin keeps them;
// the committee and finance read them; each change is in the audit trail.

export const handle: AdminHandle = { breadcrumb: () => [{ to: '/admin/funds', label: 'الصناديق والميزانيات' }, { label: 'حدود الاعتماد' }] }

export const middleware = [audited({ read: false, write: 'limits.change' })]

const schema = z.discriminatedUnion('intent', [
	z.object({
		intent: z.literal('limit'),
		programme: z.string().refine((value) => value === 'all' || findDefinition(value) !== undefined, 'الرجاء اختيار البرنامج'),
		fund: z.string().regex(/^(all|\d+)$/, 'الرجاء اختيار الصندوق'),
		above: z.union([z.literal('0'), riyals('الرجاء كتابة المبلغ الذي يلزم فوقه اعتماد ثانٍ')]).transform(Number),
	}),
	z.object({ intent: z.literal('remove'), id: z.coerce.number().int() }),
])

export async function loader({ context }: Route.LoaderArgs) {
	const user = requireRole(context, areaRoles.funds)
	const db = await getDb()
	const [limits, funds] = await Promise.all([listLimits(db), listFunds(db, { withRetired: true })])
	return {
		notice: context.get(flashContext),
		canChange: hasRole(user, 'admin'),
		funds: funds.filter((fund) => fund.active).map((fund) => ({ value: String(fund.id), label: fundLabel(fund) })),
		programmes: applicationDefinitions.filter((definition) => !definition.createsAccount).map((definition) => ({ value: definition.type, label: definition.title })),
		limits: limits.map((limit) => {
			const fund = funds.find((candidate) => candidate.id === limit.fundId)
			return { id: limit.id, programme: limit.programme ? (findDefinition(limit.programme)?.title ?? limit.programme) : 'كل البرامج', fund: fund ? fundLabel(fund) : 'كل الصناديق', above: formatMoney(limit.above) }
		}),
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	const user = requireRole(context, ['admin'])
	const formData = await request.formData()
	const typed = Object.fromEntries([...formData.entries()].filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
	const parsed = schema.safeParse(typed)
	if (!parsed.success) return data({ errors: parsed.error.issues.map((issue) => issue.message), typed }, { status: 400 })
	const db = await getDb()
	const value = parsed.data
	if (value.intent === 'remove') {
		const removed = await removeLimit(db, value.id)
		if (!removed) throw data('الحد غير موجود', { status: 404 })
		noteAudit(context, { data: { intent: 'remove-limit', programme: removed.programme, fundId: removed.fundId, before: removed.above } })
		return redirectWithFlash('/admin/funds/limits', notices.deleted)
	}
	const fundId = value.fund === 'all' ? null : Number(value.fund)
	if (fundId !== null && !(await listFunds(db)).some((fund) => fund.id === fundId)) return data({ errors: ['الرجاء اختيار الصندوق'], typed }, { status: 400 })
	const programme = value.programme === 'all' ? null : value.programme
	const changed = await setLimit(db, { programme, fundId, above: value.above }, user)
	noteAudit(context, { data: { intent: 'set-limit', programme, fundId, before: changed.before, after: changed.after } })
	return redirectWithFlash('/admin/funds/limits', { tone: 'success', message: `تم حفظ حد الاعتماد: ما زاد على ${formatMoney(changed.after)} يلزمه اعتماد ثانٍ` })
}

export default function ApprovalLimits({ loaderData: l, actionData }: Route.ComponentProps) {
	const busy = useNavigation().state !== 'idle'
	const typed = (name: string) => actionData?.typed[name]
	return (
		<>
			<PageTitle title="حدود الاعتماد" error={Boolean(actionData)} />
			<h1 className="text-2xl font-bold text-brand-900">حدود الاعتماد</h1>
			<p className="mt-1 text-stone-700">
				الدعم الذي يزيد مبلغه كله (كل أشهر الدعم الشهري) على حد البرنامج أو الصندوق لا يُعتمد بعضو واحد: يُسجَّل اعتماده الأول وينتظر «اعتماداً ثانياً» من عضو آخر في لجنة الصرف (غير من اعتمده أولاً، وغير من اقترحه أو أوصى به)، ولا تُنشأ أقساطه قبل ذلك. إن انطبق أكثر من حد فالأقل هو المعتبر.
			</p>
			<p className="mt-1">
				<Link to="/admin/funds" className="link inline-flex min-h-11 items-center">
					الصناديق والميزانيات
				</Link>
			</p>
			<FlashNotice notice={l.notice} live className="mt-4" />
			{l.limits.length === 0 ? (
				<p className="mt-4 rounded-xl border border-stone-200 bg-white p-4">لا حدود للاعتماد بعد: يكفي كل دعم اعتماد عضو واحد من غير الموصي والمقترح.</p>
			) : (
				<DataTable label="جدول حدود الاعتماد" caption="حدود الاعتماد" headings={['البرنامج', 'الصندوق', 'يلزم اعتماد ثانٍ لما زاد على', ...(l.canChange ? ['حذف'] : [])]} headCellClassName="p-2 text-start" className="mt-4">
					{l.limits.map((limit) => (
						<tr key={limit.id} className="border-t border-stone-100">
							<th scope="row" className="p-2 text-start font-semibold">
								{limit.programme}
							</th>
							<td className="p-2">{limit.fund}</td>
							<td className="p-2">{limit.above}</td>
							{l.canChange ? (
								<td className="p-2">
									<Form method="post">
										<input type="hidden" name="intent" value="remove" />
										<input type="hidden" name="id" value={limit.id} />
										<button type="submit" disabled={busy} className="link inline-flex min-h-11 items-center text-red-800">
											حذف الحد<span className="sr-only"> {`${limit.programme} — ${limit.fund}`}</span>
										</button>
									</Form>
								</td>
							) : null}
						</tr>
					))}
				</DataTable>
			)}
			{l.canChange ? (
				<Form method="post" className="mt-4 grid gap-3 rounded-xl border border-brand-200 bg-brand-50 p-4 sm:grid-cols-2 lg:grid-cols-4">
					<input type="hidden" name="intent" value="limit" />
					<p className="font-semibold sm:col-span-2 lg:col-span-4">تحديد حد اعتماد أو تغييره</p>
					<div className="sm:col-span-2 lg:col-span-4">
						<ErrorList errors={actionData?.errors} />
					</div>
					<SelectField label="البرنامج" options={[{ value: 'all', label: 'كل البرامج' }, ...l.programmes]} selectProps={{ id: 'limit-programme', name: 'programme', defaultValue: typed('programme') ?? 'all' }} />
					<SelectField label="الصندوق" options={[{ value: 'all', label: 'كل الصناديق' }, ...l.funds]} selectProps={{ id: 'limit-fund', name: 'fund', defaultValue: typed('fund') ?? 'all' }} />
					<Field label="يلزم اعتماد ثانٍ لما زاد على (بالريال)" inputProps={{ id: 'limit-above', name: 'above', inputMode: 'decimal', required: true, dir: 'ltr', defaultValue: typed('above') }} />
					<div className="flex items-end">
						<button type="submit" disabled={busy} className="btn-primary">
							حفظ الحد
						</button>
					</div>
				</Form>
			) : null}
		</>
	)
}
