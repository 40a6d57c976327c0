import { expect, test } from 'vitest'
import type { GroupDef } from './definition.ts'
import { associationSupport } from './definitions/association-support.ts'
import { groupTotals } from './totals.ts'

const budget = associationSupport.sections.flatMap((section) => section.fields).find((field): field is GroupDef => field.kind === 'group' && field.name === 'budget')!

const row = (price: unknown, percent: unknown, amount: unknown) => ({ ProjectItem: 'بند', ApproximatePrices: price, PercentageOfBudget: percent, AmountPercentageOfBudget: amount, Notes: '-' })

test('a budget sums its prices, percentages and amounts, without binary drift', () => {
	const totals = groupTotals(budget, [row(0.1, 60, 1200.5), row(0.2, 40, '800.25')])
	expect(totals.map((total) => [total.field, total.sum, total.warning])).toEqual([
		['ApproximatePrices', 0.3, undefined],
		['PercentageOfBudget', 100, undefined],
		['AmountPercentageOfBudget', 2000.75, undefined],
	])
})

test('percentages that do not add up to 100 get a warning, not an error; an empty list none', () => {
	const [, percentages] = groupTotals(budget, [row(1000, 60, 600), row('٥٠٠', '٢٠', 100)])
	expect(percentages).toMatchObject({ sum: 80, warning: 'مجموع النسب لا يساوي 100%. راجع نسب البنود.' })
	expect(groupTotals(budget, [])[1]!.warning).toBeUndefined()
	expect(groupTotals(budget, [row(1000, 60, 600), row('٥٠٠', '٢٠', 100)])[0]!.sum).toBe(1500)
})
