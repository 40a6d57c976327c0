// The committee's decision on a case (app/routes/admin/case.tsx; docs/product.md#the-decision): what
// was decided and what it gives, month by month, and for a member of the committee the three
// decisions on a studied case: approve, reject, send back for more study.
import { Form, Link, useNavigation } from 'react-router'
import { FundBalances } from '#app/components/fund-balances.tsx'
import type { Route } from './+types/case'
import { ErrorList, Field, SelectField, TextareaField } from '#app/components/forms.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import { quotedStatus, Status } from '#app/cases/case-statuses.ts'
import { zakatDecisionHint } from '#app/cases/zakat.ts'
import { Panel, type ActionErrors } from './+case-parts.tsx'

type LoaderData = Route.ComponentProps['loaderData']

/** A required choice starts on «اختر»: nothing is chosen for the member. */
const choose = { value: '', label: 'اختر' }

export function DecisionPanel({ c, actionData }: { c: LoaderData; actionData: Route.ComponentProps['actionData'] }) {
	const busy = useNavigation().state !== 'idle'
	const errorsFor = (form: string): ActionErrors => (actionData?.form === form ? actionData.errors : {})
	const typed = (form: string, name: string) => (actionData?.form === form ? actionData.values[name] : undefined)
	if (!c.decisions.length && !c.decide && !c.proposal) return null
	return (
		<Panel title="قرار لجنة الصرف" id="decision">
			{c.proposal ? (
				<p role="note" className="mt-2 rounded-lg border-s-4 border-brand-700 bg-brand-50 p-3 text-sm">
					{c.proposal.text}
				</p>
			) : null}
			{c.decisions.length ? (
				<ol className="mt-2 divide-y divide-stone-200 text-sm">
					{c.decisions.map((decision) => (
						<li key={decision.id} className="py-2">
							<p className="font-semibold">{decision.outcome}</p>
							{decision.aid ? <p>{decision.aid}</p> : null}
							{decision.fund ? <p>الصندوق: {decision.fund}</p> : null}
							{decision.reason ? <p>السبب (كما يراه المتقدم): {decision.reason}</p> : null}
							{decision.note ? <p className="mt-1 whitespace-pre-line rounded bg-stone-50 p-2">{decision.note}</p> : null}
							<p className="text-xs text-stone-600">
								{decision.by} — {decision.at}
							</p>
						</li>
					))}
				</ol>
			) : null}
			{c.instalments.length ? (
				<DataTable
					variant="plain"
					label="جدول الأقساط المعتمدة"
					caption="الأقساط المعتمدة"
					captionVisible
					headings={['القسط', 'الشهر', 'المبلغ', 'الصندوق', 'الحالة']}
					headCellClassName="py-1 text-start"
					className="mt-3"
				>
					{c.instalments.map((instalment) => (
						<tr key={instalment.id} className="border-b border-stone-100">
							<td className="py-1">{instalment.seq}</td>
							<td className="py-1">{instalment.month}</td>
							<td className="py-1">{instalment.amount}</td>
							<td className="py-1">{instalment.fund}</td>
							<td className="py-1">
								{instalment.status}
								{instalment.receiptHref ? (
									<>
										{' — '}
										<a href={`${instalment.receiptHref}?inline=1`} target="_blank" rel="noopener" className="link">
											الإيصال<span className="sr-only"> للقسط {instalment.seq}</span>
										</a>
									</>
								) : null}
								{instalment.voucherHref ? (
									<>
										{' — '}
										<a href={instalment.voucherHref} className="link" download>
											سند الصرف<span className="sr-only"> للقسط {instalment.seq}</span>
										</a>
									</>
								) : null}
							</td>
						</tr>
					))}
				</DataTable>
			) : null}
			{c.aidHref ? (
				<p className="mt-2">
					<Link to={c.aidHref} className="link">
						جدول الدعم: إيقافه أو استئنافه، وموعد إعادة دراسته
					</Link>
				</p>
			) : null}
			{c.decide ? (
				<div className="mt-3 space-y-2">
					{c.decide.recommendedByMe ? (
						<p role="note" className="rounded-lg border-s-4 border-gold-500 bg-gold-100 p-3 text-sm">
							لك توصية بدعم هذا الطلب، فالقرار فيه لعضو آخر من لجنة الصرف.
						</p>
					) : null}
					{c.decide.approvedFirstByMe ? (
						<p role="note" className="rounded-lg border-s-4 border-gold-500 bg-gold-100 p-3 text-sm">
							اعتمدت هذا الدعم أولاً، فالاعتماد الثاني لعضو آخر من لجنة الصرف.
						</p>
					) : null}
					{c.decide.proposedByMe ? (
						<p role="note" className="rounded-lg border-s-4 border-gold-500 bg-gold-100 p-3 text-sm">
							أنت من اقترح هذا الدعم، فالقرار فيه لعضو آخر من لجنة الصرف.
						</p>
					) : null}
					<details open={actionData?.form === 'decide-approve'} className="rounded-lg border border-stone-200">
						<summary className="flex min-h-11 cursor-pointer items-center px-3 font-semibold">اعتماد الدعم</summary>
						<Form method="post" className="space-y-3 p-3">
							<input type="hidden" name="intent" value="decide" />
							<input type="hidden" name="outcome" value="approve" />
							<ErrorList errors={errorsFor('decide-approve')['']} />
							<SelectField
								label="نوع الدعم"
								errors={errorsFor('decide-approve').aidKind}
								options={[choose, ...c.aidKinds]}
								selectProps={{ id: 'decide-kind', name: 'aidKind', required: true, defaultValue: typed('decide-approve', 'aidKind') ?? c.decide.proposed.aidKind }}
							/>
							<Field
								label="المبلغ بالريال (للقسط الواحد)"
								errors={errorsFor('decide-approve').amount}
								inputProps={{ id: 'decide-amount', name: 'amount', inputMode: 'decimal', required: true, dir: 'ltr', defaultValue: typed('decide-approve', 'amount') ?? c.decide.proposed.amount }}
							/>
							<Field
								label="عدد الأشهر"
								hint="للدعم الشهري، من 2 إلى 24؛ يُترك فارغاً للصرف مرة واحدة."
								errors={errorsFor('decide-approve').months}
								inputProps={{ id: 'decide-months', name: 'months', inputMode: 'numeric', dir: 'ltr', defaultValue: typed('decide-approve', 'months') ?? c.decide.proposed.months }}
							/>
							<SelectField
								label="الصندوق"
								errors={errorsFor('decide-approve').fund}
								options={[choose, ...c.decide.funds.map((fund) => ({ value: String(fund.id), label: fund.label }))]}
								selectProps={{ id: 'decide-fund', name: 'fund', required: true, defaultValue: typed('decide-approve', 'fund') ?? c.decide.proposed.fund }}
							/>
							<FundBalances funds={c.decide.funds} />
							<p className="text-sm text-stone-600">{zakatDecisionHint(c.decide.zakatCategory)}</p>
							<DecisionNote form="decide-approve" label="ملاحظة داخلية (اختياري)" errors={errorsFor('decide-approve')} typed={typed} />
							<button type="submit" disabled={busy} className="btn-primary">
								اعتماد الدعم
							</button>
						</Form>
					</details>
					<details open={actionData?.form === 'decide-reject'} className="rounded-lg border border-stone-200">
						<summary className="flex min-h-11 cursor-pointer items-center px-3 font-semibold">رفض الطلب</summary>
						<Form method="post" className="space-y-3 p-3">
							<input type="hidden" name="intent" value="decide" />
							<input type="hidden" name="outcome" value="reject" />
							<ErrorList errors={errorsFor('decide-reject')['']} />
							<SelectField
								label="سبب الرفض (يراه المتقدم)"
								errors={errorsFor('decide-reject').reason}
								options={[choose, ...c.decide.reasons.map((reason) => ({ value: String(reason.id), label: reason.label }))]}
								selectProps={{ id: 'decide-reason', name: 'reason', required: true, defaultValue: typed('decide-reject', 'reason') ?? '' }}
							/>
							<DecisionNote form="decide-reject" label="ملاحظة داخلية (اختياري، لا يراها المتقدم)" errors={errorsFor('decide-reject')} typed={typed} />
							<button type="submit" disabled={busy} className="btn-secondary">
								رفض الطلب
							</button>
						</Form>
					</details>
					<details open={actionData?.form === 'decide-return'} className="rounded-lg border border-stone-200">
						<summary className="flex min-h-11 cursor-pointer items-center px-3 font-semibold">إعادته لدراسة أكثر</summary>
						<Form method="post" className="space-y-3 p-3">
							<input type="hidden" name="intent" value="decide" />
							<input type="hidden" name="outcome" value="return" />
							<p className="text-sm text-stone-600">يعود الطلب إلى {quotedStatus(Status.New)} حتى يسجل الباحث دراسة جديدة.</p>
							<ErrorList errors={errorsFor('decide-return')['']} />
							<DecisionNote form="decide-return" label="ما الذي يحتاج إلى دراسة أكثر" required errors={errorsFor('decide-return')} typed={typed} />
							<button type="submit" disabled={busy} className="btn-secondary">
								إعادة الطلب للدراسة
							</button>
						</Form>
					</details>
				</div>
			) : null}
		</Panel>
	)
}

function DecisionNote({ form, label, required = false, errors, typed }: { form: string; label: string; required?: boolean; errors: ActionErrors; typed: (form: string, name: string) => string | undefined }) {
	return <TextareaField label={label} errors={errors.note} textareaProps={{ id: `${form}-note`, name: 'note', rows: 2, maxLength: 2000, required, defaultValue: typed(form, 'note') }} />
}
