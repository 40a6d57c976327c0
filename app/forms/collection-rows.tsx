import { Form, Link } from 'react-router'
import { AnswerLines } from '#app/forms/answer-lines.tsx'
import type { AnswerLine } from '#app/forms/describe.ts'
import type { TotalLine } from '#app/forms/totals.ts'

/**
 * A repeatable list's rows, each with its change link (`changeHref`, the row's form filled in)
 * and its delete button (posted as intent=delete-row with the row's key), or the list's empty
 * text; then the list's totals. The applicant's list step and the staff correction.
 */
export function CollectionRows({
	label,
	itemLabel,
	rows,
	rowKeys,
	emptyText,
	totals = [],
	action,
	changeHref,
}: {
	label: string
	itemLabel: string
	rows: AnswerLine[][]
	rowKeys: readonly string[]
	emptyText: string
	totals?: readonly TotalLine[]
	action?: string
	changeHref?: (key: string) => string
}) {
	return (
		<>
			<h2 className="text-lg font-bold">
				{label} ({rows.length})
			</h2>
			{rows.length ? (
				<ul className="mt-3 space-y-3">
					{rows.map((row, index) => (
						<li key={rowKeys[index] || index} className="rounded-xl border border-stone-300 bg-white p-4">
							<h3 className="mb-2 font-bold text-brand-900">
								{itemLabel} {index + 1}
							</h3>
							<AnswerLines lines={row} className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm" />
							<div className="mt-2 flex flex-wrap gap-4">
								{changeHref && rowKeys[index] ? (
									<Link to={changeHref(rowKeys[index])} className="link inline-flex min-h-11 items-center">
										تغيير
										<span className="sr-only">
											{' '}
											{itemLabel} {index + 1}
										</span>
									</Link>
								) : null}
								<Form method="post" action={action}>
									<input type="hidden" name="intent" value="delete-row" />
									<input type="hidden" name="rowKey" value={rowKeys[index]} />
									<button type="submit" className="link inline-flex min-h-11 items-center text-red-800">
										حذف
										<span className="sr-only">
											{' '}
											{itemLabel} {index + 1}
										</span>
									</button>
								</Form>
							</div>
						</li>
					))}
				</ul>
			) : (
				<p className="mt-2 text-stone-700">{emptyText}</p>
			)}
			<Totals totals={rows.length ? totals : []} />
		</>
	)
}

/** A list's sums, and a warning beside any that is not what it should be (percentages not 100). */
export function Totals({ totals }: { totals: readonly TotalLine[] }) {
	if (!totals.length) return null
	return (
		<div className="mt-4 rounded-xl border border-brand-200 bg-brand-50 p-4">
			<dl className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)] gap-x-3 gap-y-1">
				{totals.map((total) => (
					<div key={total.label} className="contents">
						<dt className="text-stone-700">{total.label}</dt>
						<dd className="font-bold">
							<bdi>{total.value}</bdi>
						</dd>
					</div>
				))}
			</dl>
			{totals
				.filter((total) => total.warning)
				.map((total) => (
					<p key={total.label} role="status" className="mt-3 rounded-lg border-s-4 border-gold-500 bg-gold-100 p-3 font-semibold text-stone-900">
						<span className="sr-only">تنبيه: </span>
						{total.warning}
					</p>
				))}
		</div>
	)
}
