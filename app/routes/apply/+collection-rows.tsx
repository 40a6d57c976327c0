import { Form } from 'react-router'
import { AnswerLines } from '#app/forms/answer-lines.tsx'
import type { AnswerLine } from '#app/forms/describe.ts'

/**
 * A repeatable list's rows, each with its delete button (posted as intent=delete-row with the
 * row's key), or the list's empty text: the applicant's list step and the staff correction.
 */
export function CollectionRows({ label, rows, rowKeys, emptyText, action }: { label: string; rows: AnswerLine[][]; rowKeys: readonly string[]; emptyText: string; action?: string }) {
	return (
		<>
			<h2 className="text-lg font-bold">
				{label} ({rows.length})
			</h2>
			{rows.length ? (
				<ul className="mt-3 space-y-3">
					{rows.map((row, index) => (
						<li key={rowKeys[index] || index} className="rounded-xl border border-stone-300 bg-white p-4">
							<AnswerLines lines={row} className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm" />
							<Form method="post" action={action} className="mt-2">
								<input type="hidden" name="intent" value="delete-row" />
								<input type="hidden" name="rowKey" value={rowKeys[index]} />
								<button type="submit" className="link inline-flex min-h-11 items-center text-red-800">
									حذف<span className="sr-only"> {row[0]?.value}</span>
								</button>
							</Form>
						</li>
					))}
				</ul>
			) : (
				<p className="mt-2 text-stone-700">{emptyText}</p>
			)}
		</>
	)
}
