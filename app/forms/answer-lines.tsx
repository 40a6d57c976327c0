import type { AnswerLine } from './describe.ts'

/** Answered lines as a definition list (blank answers left out): one row, or a whole section. */
export function AnswerLines({ lines, className = 'grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)] gap-x-3 gap-y-1' }: { lines: readonly AnswerLine[]; className?: string }) {
	return (
		<dl className={className}>
			{lines
				.filter((line) => line.value)
				.map((line) => (
					<div key={line.label} className="contents">
						<dt className="text-stone-600">{line.label}</dt>
						<dd className="font-semibold break-words">
							<bdi>{line.value}</bdi>
						</dd>
					</div>
				))}
		</dl>
	)
}
