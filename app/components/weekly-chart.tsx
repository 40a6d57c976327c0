import { useId } from 'react'
import { countOf, requests, type CountedNoun } from '#app/text/arabic-count.ts'
import { formatDate, formatNumber } from '#app/text/format.ts'
import { DataTable } from './data-table.tsx'

// A bar chart of counts per week, drawn on the server as inline SVG: no JavaScript, no chart
// library. Its name states the total and the busiest week; a <details> table gives every figure.

export interface WeekCount {
	/** The week's first day (a Saturday), yyyy-mm-dd. */
	start: string
	count: number
}

export const weeksNoun: CountedNoun = { one: 'أسبوع واحد', two: 'أسبوعين', few: 'أسابيع', many: 'أسبوعاً', other: 'أسبوع' }

/** «22/11» for 2026-11-22: day and month, as the axis labels it. */
export function shortWeekLabel(start: string): string {
	const [, month, day] = start.split('-')
	return `${Number(day)}/${Number(month)}`
}

/** The chart in one sentence: the total and the busiest week (the latest, when weeks tie). */
export function describeWeeks(weeks: readonly WeekCount[]): string {
	const span = countOf(weeks.length, weeksNoun)
	const total = weeks.reduce((sum, week) => sum + week.count, 0)
	if (total === 0) return `لم تصل طلبات جديدة في آخر ${span}.`
	const busiest = weeks.reduce((best, week) => (week.count >= best.count ? week : best))
	return `مجموع الطلبات الجديدة في آخر ${span}: ${formatNumber(total)}. أكثر الأسابيع ازدحاماً الأسبوع الذي يبدأ ${shortWeekLabel(busiest.start)} بـ ${countOf(busiest.count, requests)}.`
}

// The drawing's own units. The viewBox is about as wide as the chart is on a 375px phone, so its
// text shows near its set size there; on wider screens the drawing grows up to max-w-md.
const WIDTH = 320
const SIDE = 6
const TOP = 20
const BASELINE = 160
const LABEL_ROWS = [178, 197] as const
const HEIGHT = 204
const FONT = 12

export function WeeklyChart({ weeks, title }: { weeks: readonly WeekCount[]; title?: string }) {
	const id = useId()
	const titleId = `${id}-title`
	const descId = `${id}-desc`
	const heading = title ?? `الطلبات الجديدة في كل أسبوع، آخر ${countOf(weeks.length, weeksNoun)}`
	const description = describeWeeks(weeks)
	const most = Math.max(1, ...weeks.map((week) => week.count))
	const slot = (WIDTH - 2 * SIDE) / Math.max(1, weeks.length)
	const barWidth = Math.min(28, slot * 0.64)
	const round = (value: number) => Math.round(value * 10) / 10

	return (
		<div>
			<svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${titleId} ${descId}`} className="block h-auto w-full max-w-md" fontSize={FONT}>
				<title id={titleId}>{heading}</title>
				<desc id={descId}>{description}</desc>
				<line x1={SIDE} x2={WIDTH - SIDE} y1={BASELINE + 0.5} y2={BASELINE + 0.5} stroke="currentColor" className="text-stone-300" />
				{weeks.map((week, index) => {
					// Time flows with the page: this page is right to left, so the oldest week is at the
					// right (the inline start) and the newest at the left (the inline end). SVG
					// coordinates are left to right whatever the page's direction, hence the mirroring.
					const center = WIDTH - SIDE - slot * (index + 0.5)
					const height = week.count === 0 ? 0 : Math.max(2, ((BASELINE - TOP) * week.count) / most)
					const fromNewest = weeks.length - 1 - index
					// Two rows of labels, alternating, so «22/11» never crowds its neighbour at phone
					// width; the newest week is on the first row.
					const labelY = LABEL_ROWS[fromNewest % 2]!
					return (
						<g key={week.start} data-week={week.start}>
							<rect x={round(center - barWidth / 2)} y={round(BASELINE - height)} width={round(barWidth)} height={round(height)} rx={2} fill="currentColor" className="text-brand-600" />
							<text x={round(center)} y={round(BASELINE - height - 5)} textAnchor="middle" fill="currentColor" className="text-stone-800">
								{formatNumber(week.count)}
							</text>
							<line x1={round(center)} x2={round(center)} y1={BASELINE + 1} y2={labelY - FONT + 1} stroke="currentColor" className="text-stone-300" />
							<text x={round(center)} y={labelY} textAnchor="middle" fill="currentColor" className="text-stone-600">
								{shortWeekLabel(week.start)}
							</text>
						</g>
					)
				})}
			</svg>
			<details className="mt-3">
				<summary className="link inline-block">عرض الأرقام في جدول</summary>
				<DataTable label="جدول الطلبات الجديدة أسبوعياً" caption={heading} headings={['الأسبوع', 'عدد الطلبات']} className="mt-2">
					{weeks.map((week) => (
						<tr key={week.start} className="border-t border-stone-200">
							<td className="p-3">{formatDate(week.start)}</td>
							<td className="p-3">{formatNumber(week.count)}</td>
						</tr>
					))}
				</DataTable>
			</details>
		</div>
	)
}
