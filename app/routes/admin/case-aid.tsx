import { data, Form, Link, useNavigation } from 'react-router'
import type { Route } from './+types/case-aid'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { areaRoles, hasRole } from '#app/db/roles.ts'
import { findCaseByReference } from '#app/cases/case-store.server.ts'
import { normaliseReference } from '#app/cases/tokens.server.ts'
import { listReasons } from '#app/cases/reasons.server.ts'
import { instalmentsOf } from '#app/aid/decisions.server.ts'
import { describeInstalment } from '#app/aid/describe.ts'
import { aidText } from '#app/aid/aid-text.ts'
import { aidSchedules } from '#app/aid/monthly-aid.server.ts'
import { OTHER_REASON, runAidAction } from '#app/casework/aid-schedule.server.ts'
import { respond } from '#app/casework/respond.server.ts'
import { aidActionLabels, aidActionRefusal, aidAllowed, aidHolderRoles } from '#app/aid/monthly-aid.ts'
import { flashContext } from '#app/http/flash.server.ts'
import { audited, auditSink } from '#app/audit/audit-trail.server.ts'
import { DataTable } from '#app/components/data-table.tsx'
import { ErrorList, Field, FlashNotice, PageTitle, SelectField, TextareaField } from '#app/components/forms.tsx'
import { formatDate, formatMonth, todayInRiyadh } from '#app/text/format.ts'
import { monthsCount } from '#app/privacy/consent-rules.ts'
import type { AdminHandle } from './layout.tsx'

// An approved aid over time (docs/product.md#monthly-aid-over-time), for finance and the committee:
// its schedule (paid, left, next, end, re-study), and suspending, stopping or resuming what is left,
// with the reason the family reads. A resumption is asked by one and confirmed by another.

export const handle: AdminHandle = {
	breadcrumb: (loaderData) => {
		const { reference } = loaderData as { reference: string }
		return [{ to: `/admin/cases/${reference}`, label: reference }, { label: 'جدول الدعم' }]
	},
}

export const middleware = [
	audited({
		read: 'case.view',
		write: { byIntent: { suspend: 'aid.suspend', stop: 'aid.stop', resume: 'aid.resume', confirm: 'aid.confirm', decline: 'aid.decline', restudy: 'aid.restudy' } },
	}),
]

async function openCase(reference: string | undefined) {
	const db = await getDb()
	const normalised = normaliseReference(reference ?? '')
	const row = normalised ? await findCaseByReference(db, normalised) : undefined
	if (!row || !row.submittedAt || row.deletedAt) throw data('الطلب غير موجود', { status: 404 })
	return { db, row }
}

export async function loader({ params, context }: Route.LoaderArgs) {
	const user = requireRole(context, aidHolderRoles)
	const { db, row } = await openCase(params.reference)
	const [schedules, instalments, reasons] = await Promise.all([aidSchedules(db, [row.id]), instalmentsOf(db, [row.id]), listReasons(db, 'aid-hold')])
	if (!schedules.length) throw data('لا دعم معتمد لهذا الطلب', { status: 404 })
	return {
		notice: context.get(flashContext),
		reference: row.reference,
		name: row.applicantName,
		today: todayInRiyadh(),
		reasons: [{ value: '', label: 'اختر' }, ...reasons.map((reason) => ({ value: String(reason.id), label: reason.label })), { value: OTHER_REASON, label: 'سبب آخر (اكتبه)' }],
		setsRestudy: hasRole(user, ...areaRoles.decisions),
		aids: schedules.map((aid) => ({
			id: aid.decisionId,
			what: aidText(aid),
			state: aid.state,
			// Nothing left to pay (a one-off aid paid, a monthly one paid to its end): said so, not «يُصرف».
			stateLabel: aid.state === 'active' && !aid.left && !aid.held ? 'صُرف كاملاً' : aid.stateLabel,
			reason: aid.reason,
			heldBy: aid.heldByName,
			requestedBy: aid.requestedByName,
			paid: !aid.paid ? 'لم يُصرف بعد' : aid.months !== null ? monthsCount(aid.paid) : 'صُرف',
			left: aid.left ? monthsCount(aid.left) : 'لا شيء',
			held: aid.held ? monthsCount(aid.held) : null,
			cancelled: aid.cancelled ? monthsCount(aid.cancelled) : null,
			next: aid.next ? formatMonth(aid.next.slice(0, 7)) : null,
			end: formatMonth(aid.endsOn.slice(0, 7)),
			monthly: aid.months !== null,
			restudy: formatDate(aid.restudyOn),
			restudyOn: aid.restudyOn,
			restudySet: aid.restudySet,
			// What this member may do now; a confirmation they asked for themselves is someone else's.
			// (Nothing left to hold or stop: neither is offered.)
			actions: aidAllowed(aid.state).filter((action) => !aidActionRefusal(aid.state, action, user, aid.requestedBy) && !((action === 'suspend' || action === 'stop') && !aid.left && !aid.held)),
			waitsForOther: (aid.state === 'resuming' || aid.state === 'restarting') && aid.requestedBy === user.id,
			instalments: instalments.filter((item) => item.instalment.decisionId === aid.decisionId).map(describeInstalment),
		})),
	}
}

export async function action({ request, params, context }: Route.ActionArgs) {
	const user = requireRole(context, aidHolderRoles)
	const { db, row } = await openCase(params.reference)
	const form = await request.formData()
	const outcome = await runAidAction({ db, row, user, audit: auditSink(context) }, { intent: form.get('intent'), decision: form.get('decision'), reason: form.get('reason'), reasonId: form.get('reasonId'), restudyOn: form.get('restudyOn') })
	if (outcome.kind !== 'refused') return respond(outcome)
	return data({ form: outcome.form, errors: outcome.errors['']!, typed: outcome.values }, { status: outcome.status })
}

export default function CaseAid({ loaderData: p, actionData }: Route.ComponentProps) {
	const busy = useNavigation().state !== 'idle'
	return (
		<div className="max-w-3xl">
			<PageTitle title={`جدول الدعم — ${p.reference}`} error={Boolean(actionData)} />
			<h1 className="text-2xl font-bold text-brand-900">جدول الدعم</h1>
			<p className="mt-1 text-stone-700">
				الطلب{' '}
				<Link to={`/admin/cases/${p.reference}`} className="link">
					<bdi dir="ltr">{p.reference}</bdi>
				</Link>{' '}
				— {p.name}. الإيقاف المؤقت يحجز الأقساط الباقية فلا تظهر في التحويلات المستحقة حتى يُستأنف، والإيقاف النهائي يلغيها، وما أُضيف إلى دفعة صرف قبل ذلك يبقى فيها. يُبلَّغ المتقدم بالسبب والأشهر. يطلب الاستئناف عضو ويؤكده عضو آخر.
			</p>
			<FlashNotice notice={p.notice} live className="mt-4" />
			{p.aids.map((aid) => {
				const mine = actionData?.form === `aid-${aid.id}`
				return (
					<section key={aid.id} aria-labelledby={`aid-${aid.id}`} className="mt-6 rounded-xl border border-stone-200 bg-white p-4">
						<h2 id={`aid-${aid.id}`} className="text-lg font-bold text-brand-900">
							{aid.what}
						</h2>
						<dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
							<dt className="text-stone-600">الحالة</dt>
							<dd className="font-semibold">{aid.stateLabel}</dd>
							{aid.reason ? (
								<>
									<dt className="text-stone-600">السبب (كما قرأه المتقدم)</dt>
									<dd>
										{aid.reason}
										{aid.heldBy ? ` — ${aid.heldBy}` : ''}
									</dd>
								</>
							) : null}
							{aid.requestedBy ? (
								<>
									<dt className="text-stone-600">طلب الاستئناف</dt>
									<dd>{aid.requestedBy}</dd>
								</>
							) : null}
							<dt className="text-stone-600">صُرف</dt>
							<dd>{aid.paid}</dd>
							<dt className="text-stone-600">الباقي</dt>
							<dd>{aid.left}</dd>
							{aid.held ? (
								<>
									<dt className="text-stone-600">موقوف مؤقتاً</dt>
									<dd>{aid.held}</dd>
								</>
							) : null}
							{aid.cancelled ? (
								<>
									<dt className="text-stone-600">أُلغي</dt>
									<dd>{aid.cancelled}</dd>
								</>
							) : null}
							<dt className="text-stone-600">القسط التالي</dt>
							<dd>{aid.next ?? '—'}</dd>
							<dt className="text-stone-600">آخر قسط</dt>
							<dd>{aid.end}</dd>
							{aid.monthly ? (
								<>
									<dt className="text-stone-600">إعادة الدراسة</dt>
									<dd>
										{aid.restudy}
										{aid.restudySet ? ' (حددته لجنة الصرف)' : ' (شهر قبل آخر قسط)'}
									</dd>
								</>
							) : null}
						</dl>
						<DataTable variant="plain" label={`أقساط ${aid.what}`} caption="الأقساط" headings={['القسط', 'الشهر', 'المبلغ', 'الحالة']} headCellClassName="py-1 pe-2 text-start" className="mt-3" tableClassName="text-sm">
							{aid.instalments.map((instalment) => (
								<tr key={instalment.id} className="border-b border-stone-100">
									<td className="py-1 pe-2">{instalment.seq}</td>
									<td className="py-1 pe-2">{instalment.month}</td>
									<td className="py-1 pe-2 whitespace-nowrap">{instalment.amount}</td>
									<td className="py-1">{instalment.status}</td>
								</tr>
							))}
						</DataTable>
						{mine ? <ErrorList errors={actionData.errors} /> : null}
						{aid.waitsForOther ? (
							<p role="note" className="mt-3 rounded-lg border-s-4 border-gold-500 bg-gold-100 p-3 text-sm">
								طلبت استئناف هذا الدعم، فيؤكده عضو آخر من لجنة الصرف أو مسؤول مالي آخر.
							</p>
						) : null}
						{aid.actions.includes('suspend') || aid.actions.includes('stop') ? (
							<Form method="post" className="mt-3 space-y-3 rounded-lg border border-stone-200 p-3">
								<input type="hidden" name="decision" value={aid.id} />
								<SelectField label="السبب (يقرؤه المتقدم)" options={p.reasons} selectProps={{ name: 'reasonId', id: `reason-${aid.id}`, defaultValue: mine ? actionData.typed.reasonId : '' }} />
								<TextareaField label="سبب آخر" hint="إن اخترت «سبب آخر»: بلغة واضحة ولطيفة، فالمتقدم يقرؤه كما هو." textareaProps={{ name: 'reason', id: `other-${aid.id}`, maxLength: 500, rows: 2, defaultValue: mine ? actionData.typed.reason : '' }} />
								<div className="flex flex-wrap gap-2">
									{aid.actions.includes('suspend') ? (
										<button type="submit" name="intent" value="suspend" className="btn-secondary" disabled={busy}>
											{aidActionLabels.suspend}
										</button>
									) : null}
									{aid.actions.includes('stop') ? (
										<button type="submit" name="intent" value="stop" className="btn min-h-11 bg-red-700 px-4 text-white hover:bg-red-800" disabled={busy}>
											{aidActionLabels.stop}
										</button>
									) : null}
								</div>
							</Form>
						) : null}
						{aid.actions.includes('resume') ? (
							<Form method="post" className="mt-3 space-y-3 rounded-lg border border-stone-200 p-3">
								<input type="hidden" name="decision" value={aid.id} />
								<TextareaField label="سبب الاستئناف" textareaProps={{ name: 'reason', id: `resume-${aid.id}`, maxLength: 500, rows: 2, required: true, defaultValue: mine ? actionData.typed.reason : '' }} />
								<button type="submit" name="intent" value="resume" className="btn-primary" disabled={busy}>
									{aid.state === 'stopped' ? 'طلب إعادة الدعم' : aidActionLabels.resume}
								</button>
							</Form>
						) : null}
						{aid.actions.includes('confirm') || aid.actions.includes('decline') ? (
							<Form method="post" className="mt-3 flex flex-wrap gap-2">
								<input type="hidden" name="decision" value={aid.id} />
								{aid.actions.includes('confirm') ? (
									<button type="submit" name="intent" value="confirm" className="btn-primary" disabled={busy}>
										{aidActionLabels.confirm}
									</button>
								) : null}
								{aid.actions.includes('decline') ? (
									<button type="submit" name="intent" value="decline" className="btn-secondary" disabled={busy}>
										{aid.waitsForOther ? 'سحب طلب الاستئناف' : aidActionLabels.decline}
									</button>
								) : null}
							</Form>
						) : null}
						{p.setsRestudy && aid.monthly && aid.state !== 'stopped' ? (
							<Form method="post" className="mt-3 flex flex-wrap items-end gap-2">
								<input type="hidden" name="decision" value={aid.id} />
								<Field label="موعد إعادة الدراسة" hint="فارغاً: شهر قبل آخر قسط." inputProps={{ name: 'restudyOn', id: `restudy-${aid.id}`, type: 'date', min: p.today, defaultValue: mine ? actionData.typed.restudyOn : aid.restudySet ? aid.restudyOn : '' }} />
								<button type="submit" name="intent" value="restudy" className="btn-secondary" disabled={busy}>
									حفظ الموعد
								</button>
							</Form>
						) : null}
					</section>
				)
			})}
		</div>
	)
}
