import type { ReactNode } from 'react'

/**
 * A back-office table: a scroll region reachable by keyboard (a wide table on a phone scrolls
 * sideways), a caption for screen readers, and one header row; the rows are the caller's.
 */
export function DataTable({ label, caption, headings, className = '', children }: { label: string; caption: string; headings: readonly string[]; className?: string; children: ReactNode }) {
	return (
		// contain:paint keeps a wide table's overflow inside the region: without it a phone's
		// right-to-left page grew to the table's width and opened on an empty strip.
		<div className={`max-w-full overflow-x-auto rounded-xl border border-stone-200 bg-white [contain:paint] ${className}`} tabIndex={0} role="region" aria-label={label}>
			<table className="w-full text-sm">
				<caption className="sr-only">{caption}</caption>
				<thead className="bg-stone-50 text-stone-700">
					<tr>
						{headings.map((heading) => (
							<th key={heading} scope="col" className="p-3 text-start whitespace-nowrap">
								{heading}
							</th>
						))}
					</tr>
				</thead>
				<tbody>{children}</tbody>
			</table>
		</div>
	)
}
