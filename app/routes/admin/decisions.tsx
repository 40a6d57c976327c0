import { data, Form, Link, useNavigation } from 'react-router'
import type { Route } from './+types/decisions'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { decisionQueue, QUEUE_PAGE_SIZE, queueCities } from '#app/aid/decisions.server.ts'
import { listFunds } from '#app/aid/funds.server.ts'
import { withBalances } from '#app/aid/receipts.server.ts'
import { FundBalances } from '#app/components/fund-balances.tsx'
import { aidKinds } from '#app/cases/aid.ts'
import { aidText } from '#app/aid/aid-text.ts'
import { approveBatch, batchApprovalInput } from '#app/casework/batch-decisions.server.ts'
import { respond } from '#app/casework/respond.server.ts'
import { applicationDefinitions, findDefinition } from '#app/forms/registry.ts'
import { applications, byNumber, countOf, requests } from '#app/text/arabic-count.ts'
import { describeProposal } from '#app/aid/proposals.server.ts'
import { waitedFor } from '#app/cases/waited.ts'
import { recommendationLabel } from '#app/cases/studies.ts'
import { ErrorList, PageTitle } from '#app/components/forms.tsx'
import { audited, auditSink } from '#app/audit/audit-trail.server.ts'
import { openMeetingNow } from '#app/aid/meetings.server.ts'
import { formatDate } from '#app/text/format.ts'
import { Pager } from '#app/components/pager.tsx'
import { zakatApprovable, zakatCategoryText } from '#app/cases/zakat.ts'
import type { AdminHandle } from './layout.tsx'

// The committee's queue (docs/product.md#the-decision): every studied case waiting for a decision,
// by programme and city, with the researcher's recommendation; several approved at once, each with
// its own amount and fund, each checked on its own (four eyes, zakat, budget). Rejecting and
// sending back are done on the case's own page, where the study is read in full.

export const handle: AdminHandle = { breadcrumb: 'قرارات لجنة الصرف' }

export const middleware = [audited({ read: false, write: 'cases.decide' })]

const casesNoun = { ...applications, none: 'لا طلبات' }

function filterOf(url: URL) {
	const programme = url.searchParams.get('programme') ?? ''
	const city = url.searchParams.get('city') ?? ''
	const page = Math.max(1, Math.min(10_000, Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1))
	return { programme: findDefinition(programme) ? programme : '', city: city.slice(0, 100), page }
}

export async function loader({ request, context }: Route.LoaderArgs) {
	const user = requireRole(context, areaRoles.decisions)
	const db = await getDb()
	const url = new URL(request.url)
	const filter = filterOf(url)
	const [queue, cities, funds, meeting] = await Promise.all([decisionQueue(db, { programme: filter.programme || undefined, city: filter.city || undefined, page: filter.page }), queueCities(db), listFunds(db), openMeetingNow(db)])
	const pages = Math.max(1, Math.ceil(queue.total / QUEUE_PAGE_SIZE))
	const pageHref = (page: number) => `?${new URLSearchParams({ ...(filter.programme ? { programme: filter.programme } : {}), ...(filter.city ? { city: filter.city } : {}), page: String(page) })}`
	return {
		filter,
		meeting: meeting ? { id: meeting.id, heldOn: formatDate(meeting.heldOn) } : null,
		count: countOf(queue.total, casesNoun),
		programmes: applicationDefinitions.filter((definition) => !definition.createsAccount).map((definition) => ({ value: definition.type, label: definition.title })),
		cities,
		funds: await withBalances(db, funds),
		aidKinds,
		previous: filter.page > 1 ? pageHref(filter.page - 1) : null,
		next: filter.page < pages ? pageHref(filter.page + 1) : null,
		pageLabel: `الصفحة ${filter.page} من ${pages}`,
		rows: queue.rows.map((row) => {
			const study = row.study
			const proposal = row.proposal
			return {
				reference: row.reference,
				name: row.applicantName,
				programme: findDefinition(row.type)?.title ?? row.type,
				city: row.city,
				waited: waitedFor(row.statusChangedAt),
				recommendation: study ? recommendationLabel(study.recommendation) : 'لا دراسة مسجلة',
				proposed: study?.aidKind && study.aidAmount !== null ? aidText({ aidKind: study.aidKind, amount: study.aidAmount, months: study.aidMonths }) : '',
				// The officer's proposal (app/aid/proposals.server.ts), when there is one, else the study's.
				proposal: proposal ? describeProposal(proposal).text : '',
				aidKind: proposal?.aidKind ?? study?.aidKind ?? 'cash',
				amount: proposal ? String(proposal.amount) : study?.aidAmount === null || study?.aidAmount === undefined ? '' : String(study.aidAmount),
				months: proposal ? (proposal.months ? String(proposal.months) : '') : study?.aidMonths ? String(study.aidMonths) : '',
				// Awaiting a second approval: the first member's fund, to be confirmed as it is.
				fund: proposal?.fundId ? String(proposal.fundId) : '',
				zakatCategory: study?.zakatCategory ?? null,
				// Zakat funds are offered only when the study names a category (app/cases/zakat.ts).
				zakatApprovable: zakatApprovable(study?.zakatCategory),
				researcher: study?.authorName ?? '',
				// Four eyes: the member who recommended support, or proposed it, does not decide on it.
				mine: (study?.recommendation === 'support' && study.authorId === user.id) || proposal?.proposedBy === user.id || (proposal?.state === 'awaiting_second' && proposal.firstApproverId === user.id),
			}
		}),
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	const user = requireRole(context, areaRoles.decisions)
	const db = await getDb()
	const input = batchApprovalInput(await request.formData())
	const outcome = await approveBatch(db, input, user, auditSink(context))
	if (outcome.kind === 'refused') return data({ errors: outcome.errors as Record<string, string[]>, outcomes: [], values: outcome.values, chosen: outcome.chosen }, { status: outcome.status })
	if (outcome.kind !== 'shown') return respond(outcome)
	const { outcomes, left } = outcome.result
	return { errors: {} as Record<string, string[]>, outcomes, values: left.length ? input.fields : {}, chosen: left }
}

export default function Decisions({ loaderData: q, actionData }: Route.ComponentProps) {
	const busy = useNavigation().state !== 'idle'
	const typed = (name: string) => actionData?.values[name]
	const approved = actionData?.outcomes.filter((outcome) => !outcome.refusal && !outcome.awaitingSecond) ?? []
	const awaiting = actionData?.outcomes.filter((outcome) => outcome.awaitingSecond) ?? []
	const refused = actionData?.outcomes.filter((outcome) => outcome.refusal) ?? []
	return (
		<>
			<PageTitle title="قرارات لجنة الصرف" error={Boolean(actionData && Object.keys(actionData.errors).length)} />
			<h1 className="text-2xl font-bold text-brand-900">قرارات لجنة الصرف</h1>
			<p className="mt-1 text-stone-700">الطلبات المدروسة واقتراحات الدعم بانتظار القرار: {q.count}. يُعتمد من هنا عدة طلبات معاً، لكل طلب مبلغه وصندوقه؛ ويُرفض الطلب أو يعاد لدراسة أكثر من صفحته.</p>
			<p className="mt-2 rounded-xl border border-brand-200 bg-brand-50 p-3">
				{q.meeting ? `اجتماع لجنة الصرف رقم ${q.meeting.id} مفتوح (${q.meeting.heldOn}): قرارات الأعضاء الحاضرين فيه تُسجَّل في محضره. ` : 'لا اجتماع للجنة مفتوحاً الآن: ما زاد على حد الاعتماد لا يُعتمد إلا في اجتماع حضره النصاب. '}
				<Link to={q.meeting ? `/admin/meetings/${q.meeting.id}` : '/admin/meetings'} className="link">
					{q.meeting ? 'الحاضرون وجدول الأعمال' : 'اجتماعات لجنة الصرف'}
				</Link>
			</p>

			<Form method="get" className="mt-4 flex flex-wrap items-end gap-3 rounded-xl border border-stone-200 bg-white p-4">
				<div>
					<label htmlFor="programme" className="block font-semibold">
						البرنامج
					</label>
					<select id="programme" name="programme" defaultValue={q.filter.programme} className="field-input mt-1">
						<option value="">كل البرامج</option>
						{q.programmes.map((programme) => (
							<option key={programme.value} value={programme.value}>
								{programme.label}
							</option>
						))}
					</select>
				</div>
				<div>
					<label htmlFor="city" className="block font-semibold">
						المدينة
					</label>
					<select id="city" name="city" defaultValue={q.filter.city} className="field-input mt-1">
						<option value="">كل المدن</option>
						{q.cities.map((city) => (
							<option key={city} value={city}>
								{city}
							</option>
						))}
					</select>
				</div>
				<button type="submit" className="btn-secondary">
					عرض
				</button>
			</Form>

			{approved.length || refused.length || awaiting.length ? (
				<div role="status" className="mt-4 space-y-2 rounded-xl border border-stone-200 bg-white p-4">
					{approved.length ? (
						<p className="font-semibold text-emerald-800">
							اعتُمد {countOf(approved.length, applications)}، وأُبلغ {byNumber(approved.length, { one: 'صاحبه', two: 'صاحباهما', other: 'أصحابها' })} بالقرار.
						</p>
					) : null}
					{awaiting.length ? (
						<p className="font-semibold text-gold-700">
							سُجّل اعتمادك الأول لما يتجاوز حد الاعتماد، ولا يُصرف قبل اعتماد ثانٍ من عضو آخر في لجنة الصرف: {awaiting.map((outcome) => outcome.reference).join('، ')}
						</p>
					) : null}
					{refused.length ? (
						<>
							<p className="font-semibold text-red-800">تعذّر اعتماد {countOf(refused.length, requests)}:</p>
							<ul className="list-disc space-y-1 ps-6">
								{refused.map((outcome) => (
									<li key={outcome.reference}>
										<bdi dir="ltr">{outcome.reference}</bdi> {outcome.name}: {outcome.refusal}
									</li>
								))}
							</ul>
						</>
					) : null}
				</div>
			) : null}

			{q.rows.length === 0 ? (
				<p className="mt-6 rounded-xl border border-stone-200 bg-white p-4">لا طلبات بانتظار القرار.</p>
			) : (
				<Form method="post" className="mt-6 space-y-4">
					<FundBalances funds={q.funds} />
					<ErrorList errors={actionData?.errors['']} />
					<ul className="space-y-3">
						{q.rows.map((row) => {
							const errors = actionData?.errors[row.reference]
							return (
								<li key={row.reference} className={`rounded-xl border bg-white p-4 ${errors ? 'border-red-400' : 'border-stone-200'}`}>
									<div className="flex flex-wrap items-start gap-3">
										<input
											id={`case-${row.reference}`}
											name="case"
											type="checkbox"
											value={row.reference}
											disabled={row.mine}
											defaultChecked={actionData?.chosen.includes(row.reference)}
											className="mt-1 size-5 shrink-0"
										/>
										<div className="min-w-0 flex-1">
											<label htmlFor={`case-${row.reference}`} className="font-bold">
												{row.name}
											</label>{' '}
											<Link to={`/admin/cases/${row.reference}`} className="link text-sm">
												<bdi dir="ltr">{row.reference}</bdi>
											</Link>
											<p className="text-sm text-stone-700">
												{row.programme}
												{row.city ? ` — ${row.city}` : ''} — ينتظر منذ {row.waited}
											</p>
											<p className="text-sm">
												توصية الباحث{row.researcher ? ` (${row.researcher})` : ''}: {row.recommendation}
												{row.proposed ? ` — ${row.proposed}` : ''}
												{row.zakatCategory ? ` — ${zakatCategoryText(row.zakatCategory)}` : ''}
											</p>
											{row.proposal ? <p className="text-sm font-semibold text-brand-800">{row.proposal}</p> : null}
											{row.mine ? <p className="text-sm text-gold-700">لك توصية بدعم هذا الطلب أو اقتراح بدعمه، فالقرار فيه لعضو آخر.</p> : null}
											<ErrorList errors={errors} />
										</div>
									</div>
									{row.mine ? null : (
										<div className="mt-3 grid gap-3 sm:grid-cols-4">
											<div>
												<label htmlFor={`kind-${row.reference}`} className="block text-sm font-semibold">
													نوع الدعم<span className="sr-only"> لـ{row.name}</span>
												</label>
												<select id={`kind-${row.reference}`} name={`kind-${row.reference}`} defaultValue={typed(`kind-${row.reference}`) ?? row.aidKind} className="field-input mt-1">
													{q.aidKinds.map((kind) => (
														<option key={kind.value} value={kind.value}>
															{kind.label}
														</option>
													))}
												</select>
											</div>
											<div>
												<label htmlFor={`amount-${row.reference}`} className="block text-sm font-semibold">
													المبلغ بالريال<span className="sr-only"> لـ{row.name}</span>
												</label>
												<input id={`amount-${row.reference}`} name={`amount-${row.reference}`} inputMode="decimal" defaultValue={typed(`amount-${row.reference}`) ?? row.amount} className="field-input mt-1" dir="ltr" />
											</div>
											<div>
												<label htmlFor={`months-${row.reference}`} className="block text-sm font-semibold">
													الأشهر (للشهري)<span className="sr-only"> لـ{row.name}</span>
												</label>
												<input id={`months-${row.reference}`} name={`months-${row.reference}`} inputMode="numeric" defaultValue={typed(`months-${row.reference}`) ?? row.months} className="field-input mt-1" dir="ltr" />
											</div>
											<div>
												<label htmlFor={`fund-${row.reference}`} className="block text-sm font-semibold">
													الصندوق<span className="sr-only"> لـ{row.name}</span>
												</label>
												<select id={`fund-${row.reference}`} name={`fund-${row.reference}`} defaultValue={typed(`fund-${row.reference}`) ?? row.fund} className="field-input mt-1">
													<option value="">اختر</option>
													{q.funds
														.filter((fund) => !fund.zakat || row.zakatApprovable)
														.map((fund) => (
															<option key={fund.id} value={fund.id}>
																{fund.label}
															</option>
														))}
												</select>
											</div>
										</div>
									)}
								</li>
							)
						})}
					</ul>
					<div>
						<label htmlFor="note" className="block font-semibold">
							ملاحظة داخلية للقرار (اختياري، مثل رقم محضر اللجنة)
						</label>
						<textarea id="note" name="note" rows={2} maxLength={2000} defaultValue={typed('note')} className="field-input mt-1" />
					</div>
					<button type="submit" disabled={busy} className="btn-primary">
						اعتماد الطلبات المختارة
					</button>
				</Form>
			)}
			<Pager previous={q.previous} next={q.next} label={q.pageLabel} />
		</>
	)
}
