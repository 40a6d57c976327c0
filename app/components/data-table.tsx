import type { ReactNode } from 'react'

/**
 * How a table sits on its page:
 * - `screen`: a white box with a border, its head on a grey band (the back office's lists).
 * - `plain`: the same scroll region without the box, for a table inside a panel.
 * - `print`: ruled cells for paper (app/routes/admin/case-print.tsx), no scroll region: its cells
 *   wrap, so it fits a phone's screen as it fits an A4 page (the printout's sections name it).
 */
export type DataTableVariant = 'screen' | 'plain' | 'print'

const regionClass: Record<Exclude<DataTableVariant, 'print'>, string> = {
	screen: 'max-w-full overflow-x-auto rounded-xl border border-stone-200 bg-white [contain:paint]',
	plain: 'max-w-full overflow-x-auto [contain:paint]',
}

const headClass: Record<DataTableVariant, string> = {
	screen: 'bg-stone-50 text-stone-700',
	plain: 'bg-stone-50 text-stone-700',
	print: '',
}

/** A cell of a printed table, ruled black on paper; `printHeadCell` is its head (or row head). */
export const printCell = 'border border-stone-300 px-2 py-1 align-top print:border-stone-500'
export const printHeadCell = `${printCell} bg-stone-100 text-start font-semibold print:bg-transparent`

/**
 * A table: on screen in a scroll region reachable by keyboard (a wide table on a phone scrolls
 * sideways), a caption (for screen readers only unless `captionVisible`), at most one header row, the caller's
 * body rows and, when given, footer rows (a total) in a `<tfoot>`. Column heads get `scope="col"`;
 * a row's head is the caller's `<th scope="row">`.
 */
export function DataTable({
	label,
	caption,
	captionVisible = false,
	headings = [],
	headCellClassName,
	variant = 'screen',
	className = '',
	tableClassName = 'text-sm',
	footer,
	children,
}: {
	/** The scroll region's name; the caption when not given (a print table has no region). */
	label?: string
	caption?: ReactNode
	captionVisible?: boolean
	headings?: readonly ReactNode[]
	/** Replaces the head cells' classes (padding, widths); the default suits the variant. */
	headCellClassName?: string
	variant?: DataTableVariant
	className?: string
	/** The table's own classes besides its full width (text size, word breaking). */
	tableClassName?: string
	footer?: ReactNode
	children: ReactNode
}) {
	const headCell = headCellClassName ?? (variant === 'print' ? printHeadCell : 'p-3 text-start whitespace-nowrap')
	const table = (
		<table className={`w-full ${variant === 'print' ? `border-collapse ${className}` : ''} ${tableClassName}`}>
			{caption ? <caption className={captionVisible ? 'mb-1 text-start font-semibold' : 'sr-only'}>{caption}</caption> : null}
			{headings.length ? (
				<thead className={headClass[variant] || undefined}>
					<tr>
						{headings.map((heading, index) => (
							<th key={index} scope="col" className={headCell}>
								{heading}
							</th>
						))}
					</tr>
				</thead>
			) : null}
			<tbody>{children}</tbody>
			{footer ? <tfoot>{footer}</tfoot> : null}
		</table>
	)
	if (variant === 'print') return table
	return (
		// contain:paint keeps a wide table's overflow inside the region: without it a phone's
		// right-to-left page grew to the table's width and opened on an empty strip.
		<div className={`${regionClass[variant]} ${className}`} tabIndex={0} role="region" aria-label={label ?? (typeof caption === 'string' ? caption : undefined)}>
			{table}
		</div>
	)
}
