import { formatMoney, formatNumber } from '#app/text/format.ts'
import type { GroupDef } from './definition.ts'

// The sums under a repeatable group's rows (a budget's prices, percentages and amounts), shown on
// the step, the check page, the staff case view and the printed report alike.

export interface TotalLine {
	/** The row field summed. */
	field: string
	label: string
	/** The sum, formatted as its field is (money or number). */
	value: string
	sum: number
	/** Set when the sum is not what it should be («مجموع النسب 90% وليس 100%»). */
	warning?: string
}

/** Adds numbers without binary drift: amounts have at most two decimals. */
function add(values: readonly number[]): number {
	return Math.round(values.reduce((sum, value) => sum + Math.round(value * 100), 0)) / 100
}

/** A row value as a number: stored answers are numbers, a form's are text; anything else counts 0. */
function numberOf(value: unknown): number {
	if (typeof value === 'number') return Number.isFinite(value) ? value : 0
	if (typeof value !== 'string') return 0
	const parsed = Number(
		value
			.replace(/[\s,٬]/g, '')
			.replace(/[٠-٩]/g, (digit) => String(digit.charCodeAt(0) - 0x0660))
			.replace('٫', '.'),
	)
	return Number.isFinite(parsed) ? parsed : 0
}

export function groupTotals(group: GroupDef, rows: readonly Record<string, unknown>[]): TotalLine[] {
	return (group.totals ?? []).map((total) => {
		const field = group.fields.find((candidate) => candidate.name === total.field)
		const sum = add(rows.map((row) => numberOf(row[total.field])))
		const value = field?.kind === 'money' ? formatMoney(sum) : formatNumber(sum)
		const off = total.expected !== undefined && rows.length > 0 && sum !== total.expected
		return {
			field: total.field,
			label: total.label,
			value,
			sum,
			...(off
				? {
						warning: total.warning ?? `${total.label}: ${value}، والمتوقع ${formatNumber(total.expected!)}`,
					}
				: {}),
		}
	})
}
