import { Form, Link } from 'react-router'
import type { Route } from './+types/monthly-aid'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { aidsToReview, heldAids, monthShift } from '#app/aid/monthly-aid.server.ts'
import { aidHolderRoles, aidStateLabels } from '#app/aid/monthly-aid.ts'
import { aidText } from '#app/aid/aid-text.ts'
import { audited } from '#app/audit/audit-trail.server.ts'
import { DataTable } from '#app/components/data-table.tsx'
import { PageTitle } from '#app/components/forms.tsx'
import { formatDate, formatMonth, todayInRiyadh } from '#app/text/format.ts'
import type { AdminHandle } from './layout.tsx'

// Monthly aid over time (docs/product.md#monthly-aid-over-time), where finance and the committee
// look each month: what ends or is due a re-study in a month, and what is held, stopped or waiting
// for someone to confirm its resumption. Each row leads to the case's schedule, where it is acted on.

export const handle: AdminHandle = { breadcrumb: 'الدعم الشهري' }

export const middleware = [audited({ read: false, write: false })]

export async function loader({ request, context }: Route.LoaderArgs) {
	const user = requireRole(context, aidHolderRoles)
	const typed = new URL(request.url).searchParams.get('month') ?? ''
	const thisMonth = todayInRiyadh().slice(0, 7)
	const month = /^\d{4}-(0[1-9]|1[0-2])$/.test(typed) ? typed : thisMonth
	const db = await getDb()
	const [review, held] = await Promise.all([aidsToReview(db, month), heldAids(db)])
	const link = (reference: string) => `/admin/cases/${reference}/aid`
	return {
		month,
		monthLabel: formatMonth(month),
		thisMonth: month === thisMonth,
		previous: monthShift(`${month}-01`, -1).slice(0, 7),
		next: monthShift(`${month}-01`, 1).slice(0, 7),
		review: review.map((item) => ({
			id: item.decisionId,
			reference: item.caseReference,
			href: link(item.caseReference),
			name: item.name,
			what: aidText(item),
			state: aidStateLabels[item.state],
			end: formatMonth(item.endsOn.slice(0, 7)),
			restudy: formatDate(item.restudyOn),
			why: [item.ends ? 'آخر قسط' : '', item.restudy ? 'إعادة الدراسة' : ''].filter(Boolean).join(' و'),
		})),
		held: held.map((item) => ({
			id: item.decisionId,
			reference: item.caseReference,
			href: link(item.caseReference),
			name: item.name,
			what: aidText(item),
			state: aidStateLabels[item.state],
			reason: item.reason,
			// A resumption someone else asked for: this member may confirm it.
			toConfirm: (item.state === 'resuming' || item.state === 'restarting') && item.requestedBy !== user.id,
			since: formatDate(item.updatedAt),
		})),
	}
}

export default function MonthlyAid({ loaderData: p }: Route.ComponentProps) {
	return (
		<>
			<PageTitle title="الدعم الشهري" />
			<h1 className="text-2xl font-bold text-brand-900">الدعم الشهري</h1>
			<p className="mt-1 text-stone-700">الدعم الشهري الذي ينتهي أو تحين إعادة دراسته في الشهر، والدعم الموقوف أو المنتظر تأكيد استئنافه. يُتصرف في كل دعم من جدوله في صفحة الطلب.</p>

			<section aria-labelledby="review" className="mt-6">
				<h2 id="review" className="text-xl font-bold text-brand-900">
					ينتهي أو تحين إعادة دراسته في {p.monthLabel}
				</h2>
				<Form method="get" className="mt-2 flex flex-wrap items-end gap-2">
					<label htmlFor="month" className="font-semibold">
						الشهر
					</label>
					<input id="month" name="month" type="month" defaultValue={p.month} className="field-input max-w-48" />
					<button type="submit" className="btn-secondary">
						عرض
					</button>
					<Link to={`?month=${p.previous}`} className="link">
						الشهر السابق
					</Link>
					<Link to={`?month=${p.next}`} className="link">
						الشهر التالي
					</Link>
				</Form>
				{p.review.length ? (
					<DataTable label="الدعم الذي ينتهي أو تحين إعادة دراسته" caption={`ينتهي أو تحين إعادة دراسته في ${p.monthLabel}`} headings={['الطلب', 'المستفيد', 'الدعم', 'الحالة', 'آخر قسط', 'إعادة الدراسة', 'في هذا الشهر']} className="mt-3">
						{p.review.map((item) => (
							<tr key={item.id} className="border-t border-stone-200">
								<CaseCells item={item} />
								<td className="p-3">{item.state}</td>
								<td className="p-3">{item.end}</td>
								<td className="p-3">{item.restudy}</td>
								<td className="p-3">{item.why}</td>
							</tr>
						))}
					</DataTable>
				) : (
					<p className="mt-3 rounded-lg bg-white p-4">لا دعم شهري ينتهي أو تحين إعادة دراسته في {p.monthLabel}.</p>
				)}
			</section>

			<section aria-labelledby="held" className="mt-8">
				<h2 id="held" className="text-xl font-bold text-brand-900">
					الدعم الموقوف
				</h2>
				{p.held.length ? (
					<DataTable label="الدعم الموقوف" caption="الدعم الموقوف أو المنتظر تأكيد استئنافه" headings={['الطلب', 'المستفيد', 'الدعم', 'الحالة', 'السبب', 'منذ']} className="mt-3">
						{p.held.map((item) => (
							<tr key={item.id} className="border-t border-stone-200">
								<CaseCells item={item} />
								<td className="p-3">
									{item.state}
									{item.toConfirm ? <strong className="ms-1 rounded-full bg-gold-100 px-2 text-gold-700">بانتظار تأكيدك</strong> : null}
								</td>
								<td className="p-3">{item.reason || '—'}</td>
								<td className="p-3">{item.since}</td>
							</tr>
						))}
					</DataTable>
				) : (
					<p className="mt-3 rounded-lg bg-white p-4">لا دعم موقوف.</p>
				)}
			</section>
		</>
	)
}

/** A row's case: its reference, leading to its schedule; the family; the aid. */
function CaseCells({ item }: { item: { href: string; reference: string; name: string; what: string } }) {
	return (
		<>
			<td className="p-3">
				<Link to={item.href} className="link">
					<bdi dir="ltr">{item.reference}</bdi>
				</Link>
			</td>
			<td className="p-3">{item.name}</td>
			<td className="p-3">{item.what}</td>
		</>
	)
}
