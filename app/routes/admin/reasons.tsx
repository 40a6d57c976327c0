import { data, Form, useNavigation } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/reasons'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { addReason, changeReason, listReasons } from '#app/cases/reasons.server.ts'
import { flashContext, notices, redirectWithFlash } from '#app/http/flash.server.ts'
import { noteAudit, audited } from '#app/audit/audit-trail.server.ts'
import { ErrorList, FlashNotice, PageTitle } from '#app/components/forms.tsx'
import type { AdminHandle } from './layout.tsx'

// The reasons staff keep (docs/product.md#the-social-study, #the-decision): why a study does not
// recommend support (for staff), and why the committee rejects a case (the words the applicant
// reads); and the zakat categories a study may find a family in (docs/product.md#zakat). An admin
// adds, renames, retires and brings back one; a retired one is no longer offered, and what was
// recorded with it keeps its words. None is ever deleted.

const TITLE = 'الأسباب ومصارف الزكاة'

export const handle: AdminHandle = { breadcrumb: TITLE }

/** How a list names one of its items. */
const reasonWords = { item: 'السبب', added: 'سبب جديد', add: 'إضافة السبب', last: 'لا يُوقف آخر سبب مستخدم: أضف سبباً آخر أولاً' }

const lists = [
	{ kind: 'study-reject', ...reasonWords, title: 'أسباب عدم الدعم (توصية الباحث)', text: 'يختار الباحث منها حين يوصي بعدم دعم حالة. لا يراها المتقدم.' },
	{ kind: 'decision-reject', ...reasonWords, title: 'أسباب رفض الطلب (قرار لجنة الصرف)', text: 'تختار اللجنة منها حين ترفض طلباً، ويراها المتقدم كما هي: اكتبها بلغة واضحة ولطيفة.' },
	{ kind: 'aid-hold', ...reasonWords, title: 'أسباب إيقاف الدعم الشهري', text: 'تختار منها اللجنة أو المالية حين توقف دعماً شهرياً مؤقتاً أو نهائياً، ويراها المتقدم كما هي: اكتبها بلغة واضحة ولطيفة.' },
	{ kind: 'zakat-category', item: 'المصرف', added: 'مصرف جديد', add: 'إضافة المصرف', last: 'لا يُوقف آخر مصرف مستخدم: أضف مصرفاً آخر أولاً', title: 'مصارف الزكاة', text: 'كما يحددها المستشار الشرعي للمؤسسة. يختار منها الباحث مصرف الأسرة في الدراسة، ولا يُصرف من صندوق زكاة إلا لحالة حددت دراستها مصرفها، ويُسجَّل المصرف مع الاعتماد وفي سجل الزكاة.' },
] as const

export const middleware = [audited({ read: false, write: 'reasons.change' })]

const label = z.string({ error: 'الرجاء كتابة السبب' }).trim().min(3, 'الرجاء كتابة السبب').max(200, 'السبب أطول من 200 حرف')
const kind = z.enum(['study-reject', 'decision-reject', 'aid-hold', 'zakat-category'], { error: 'القائمة غير معروفة' })
const schema = z.discriminatedUnion('intent', [
	z.object({ intent: z.literal('add'), kind, label }),
	z.object({ intent: z.literal('rename'), kind, id: z.coerce.number().int(), label }),
	z.object({ intent: z.enum(['retire', 'restore']), kind, id: z.coerce.number().int() }),
])

export async function loader({ context }: Route.LoaderArgs) {
	requireRole(context, areaRoles.users)
	const db = await getDb()
	return {
		notice: context.get(flashContext),
		lists: await Promise.all(lists.map(async (list) => ({ ...list, reasons: (await listReasons(db, list.kind, { withRetired: true })).map(({ id, label, active }) => ({ id, label, active })) }))),
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	requireRole(context, areaRoles.users)
	const formData = await request.formData()
	const parsed = schema.safeParse(Object.fromEntries(formData))
	const form = `${String(formData.get('intent') ?? '')}-${String(formData.get('id') ?? formData.get('kind') ?? '')}`
	if (!parsed.success) return data({ form, errors: parsed.error.issues.map((issue) => issue.message), typed: String(formData.get('label') ?? '') }, { status: 400 })
	const db = await getDb()
	const value = parsed.data
	if (value.intent === 'add') {
		const added = await addReason(db, value.kind, value.label)
		noteAudit(context, { data: { intent: 'add', label: added.label } })
		return redirectWithFlash('/admin/reasons', notices.added)
	}
	// «عدم الدعم» and «رفض الطلب» always have a reason to give, a study a zakat category to name: the last one in use stays.
	if (value.intent === 'retire' && (await listReasons(db, value.kind)).every((reason) => reason.id === value.id))
		return data({ form, errors: [lists.find((list) => list.kind === value.kind)!.last], typed: '' }, { status: 409 })
	const changed = await changeReason(db, value.kind, value.id, value.intent === 'rename' ? { label: value.label } : { active: value.intent === 'restore' })
	if (!changed) throw data('السبب غير موجود', { status: 404 })
	noteAudit(context, { data: { intent: value.intent, label: changed.label } })
	return redirectWithFlash('/admin/reasons', notices.updated)
}

export default function Reasons({ loaderData, actionData }: Route.ComponentProps) {
	const busy = useNavigation().state !== 'idle'
	const errorsFor = (form: string) => (actionData?.form === form ? actionData.errors : undefined)
	return (
		<div className="max-w-3xl">
			<PageTitle title={TITLE} error={Boolean(actionData)} />
			<h1 className="text-2xl font-bold text-brand-900">{TITLE}</h1>
			<p className="mt-1 text-stone-700">الموقوف لا يُعرض، ويبقى ما سُجّل به كما هو؛ ولا يُحذف شيء منها.</p>
			<FlashNotice notice={loaderData.notice} live className="mt-4" />
			{loaderData.lists.map((list) => (
				<section key={list.kind} aria-labelledby={`list-${list.kind}`} className="mt-8">
					<h2 id={`list-${list.kind}`} className="text-xl font-bold text-brand-900">
						{list.title}
					</h2>
					<p className="mt-1 text-stone-700">{list.text}</p>
					<ul className="mt-4 space-y-3">
						{list.reasons.map((reason, index) => (
							<li key={reason.id} className={`rounded-xl border p-4 ${reason.active ? 'border-stone-200 bg-white' : 'border-stone-300 bg-stone-50'}`}>
								<Form method="post" className="flex flex-wrap items-end gap-3">
									<input type="hidden" name="intent" value="rename" />
									<input type="hidden" name="kind" value={list.kind} />
									<input type="hidden" name="id" value={reason.id} />
									<div className="min-w-0 flex-1">
										<label htmlFor={`reason-${reason.id}`} className="block text-sm font-semibold">
											{list.item} {index + 1}
											{reason.active ? '' : ' (موقوف)'}
										</label>
										<ErrorList errors={errorsFor(`rename-${reason.id}`)} />
										<input id={`reason-${reason.id}`} name="label" defaultValue={reason.label} required maxLength={200} className="field-input mt-1" />
									</div>
									<button type="submit" disabled={busy} className="btn-secondary">
										حفظ<span className="sr-only"> {reason.label}</span>
									</button>
								</Form>
								<ErrorList errors={errorsFor(`retire-${reason.id}`)} />
								<Form method="post" className="mt-2">
									<input type="hidden" name="intent" value={reason.active ? 'retire' : 'restore'} />
									<input type="hidden" name="kind" value={list.kind} />
									<input type="hidden" name="id" value={reason.id} />
									<button type="submit" disabled={busy} className="link inline-flex min-h-11 items-center">
										{reason.active ? 'إيقاف' : 'إعادة'}
										<span className="sr-only"> {reason.label}</span>
									</button>
								</Form>
							</li>
						))}
					</ul>
					<Form method="post" className="mt-4 space-y-3 rounded-xl border border-brand-200 bg-brand-50 p-4">
						<input type="hidden" name="intent" value="add" />
						<input type="hidden" name="kind" value={list.kind} />
						<label htmlFor={`new-${list.kind}`} className="block font-semibold">
							{list.added}<span className="sr-only"> في {list.title}</span>
						</label>
						<ErrorList errors={errorsFor(`add-${list.kind}`)} />
						<input id={`new-${list.kind}`} name="label" required maxLength={200} defaultValue={actionData?.form === `add-${list.kind}` ? actionData.typed : undefined} className="field-input" />
						<button type="submit" disabled={busy} className="btn-primary">
							{list.add}
						</button>
					</Form>
				</section>
			))}
		</div>
	)
}
