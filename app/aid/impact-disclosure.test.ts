import { expect, test } from 'vitest'
import { disclosedFigures } from '#tests/fixtures/impact-disclosure.ts'
import { FEWEST, publishYear, type ImpactCell, type PublishedYear } from './impact-disclosure.ts'

// What a reader can work out from a published year, by brute force: every assignment of the
// withheld figures that agrees with what is shown (each listed programme helped at least one family
// and gave at least 0 riyals; the programmes add up to the total when it is shown). A withheld figure
// is disclosed when every such assignment gives it the same value: then some combination of the
// shown figures computes it.

/** The values each withheld figure takes over every assignment of `parts` values, each at least `least`, summing to `sum`. */
function possibleValues(parts: number, least: number, sum: number): Set<number>[] {
	const seen = Array.from({ length: parts }, () => new Set<number>())
	const chosen: number[] = []
	const walk = (left: number) => {
		if (chosen.length === parts - 1) {
			if (left < least) return
			chosen.push(left)
			chosen.forEach((value, index) => seen[index]!.add(value))
			chosen.pop()
			return
		}
		for (let value = least; left - value >= least * (parts - chosen.length - 1); value++) {
			chosen.push(value)
			walk(left - value)
			chosen.pop()
		}
	}
	walk(sum)
	return seen
}

/** The withheld figures a reader can compute, as «programme: families|riyals = value». */
function disclosed(published: PublishedYear): string[] {
	const withheld = published.rows.filter((row) => row.families === null)
	const found: string[] = []
	// A withheld total ties nothing together: each withheld figure may be anything from its least up.
	if (published.total.families === null || withheld.length === 0) return found
	for (const [metric, least] of [
		['families', 1],
		['riyals', 0],
	] as const) {
		const shown = published.rows.reduce((sum, row) => sum + (row[metric] ?? 0), 0)
		const values = possibleValues(withheld.length, least, published.total[metric]! - shown)
		withheld.forEach((row, index) => {
			if (values[index]!.size === 1) found.push(`${row.programme}: ${metric} = ${[...values[index]!][0]}`)
		})
	}
	return found
}

/** A small pseudo-random generator, seeded, so that a failure can be run again. */
function generator(seed: number) {
	let state = seed >>> 0
	return (below: number) => {
		state = (Math.imul(state, 1664525) + 1013904223) >>> 0
		return state % below
	}
}

test('the subtraction of the issue: a total less the programmes shown gives no withheld figure', () => {
	const year = publishYear([
		{ programme: 'needy-families', families: 120, riyals: 240_000 },
		{ programme: 'medical-case', families: 1, riyals: 4321 },
	])
	expect(year.rows).toEqual([
		{ programme: 'needy-families', families: null, riyals: null },
		{ programme: 'medical-case', families: null, riyals: null },
	])
	expect(year.total).toEqual({ families: 121, riyals: 244_321 })
	expect(disclosed(year)).toEqual([])
	// The checker sees the subtraction the old page allowed: the total over every row, the small row withheld alone.
	expect(disclosed({ rows: [{ programme: 'needy-families', families: 120, riyals: 240_000 }, { programme: 'medical-case', families: null, riyals: null }], total: { families: 121, riyals: 244_321 } })).toEqual([
		'medical-case: families = 1',
		'medical-case: riyals = 4321',
	])
})

test('a year with no small programme is published whole; one with a single small programme withholds its total', () => {
	const cells = [
		{ programme: 'a', families: 7, riyals: 100 },
		{ programme: 'b', families: 5, riyals: 0 },
	]
	expect(publishYear(cells)).toEqual({ rows: cells, total: { families: 12, riyals: 100 } })
	expect(publishYear([{ programme: 'a', families: 3, riyals: 900 }])).toEqual({ rows: [{ programme: 'a', families: null, riyals: null }], total: { families: null, riyals: null } })
	// Five programmes of one family each: their sum (5) would tell each is 1.
	const ones = publishYear(['a', 'b', 'c', 'd', 'e'].map((programme) => ({ programme, families: 1, riyals: 10 })))
	expect(ones.total).toEqual({ families: null, riyals: null })
	// Aid in kind only (no riyals): a sum of 0 riyals would tell each is 0, so a programme with riyals joins them.
	const inKind = publishYear([
		{ programme: 'a', families: 2, riyals: 0 },
		{ programme: 'b', families: 4, riyals: 0 },
		{ programme: 'c', families: 9, riyals: 500 },
		{ programme: 'd', families: 30, riyals: 9000 },
	])
	expect(inKind.rows.map((row) => row.families)).toEqual([null, null, null, 30])
	expect(disclosed(inKind)).toEqual([])
})

test('random years: every small programme is withheld, what is shown is true, and no withheld figure can be worked out', () => {
	const next = generator(20261129)
	let withheldSeen = 0
	for (let round = 0; round < 2000; round++) {
		const cells: ImpactCell[] = Array.from({ length: 1 + next(5) }, (_, index) => ({
			programme: `p${index}`,
			// Mostly small, so that withheld programmes are common; riyals small, so the brute force stays quick; sometimes none (aid in kind).
			families: 1 + (next(3) === 0 ? next(14) : next(6)),
			riyals: next(4) === 0 ? 0 : next(12),
		}))
		const year = publishYear(cells)
		const context = JSON.stringify(cells)
		expect(year.rows.map((row) => row.programme), context).toEqual(cells.map((cell) => cell.programme))
		for (const [index, row] of year.rows.entries()) {
			const cell = cells[index]!
			if (cell.families < FEWEST) expect(row.families, context).toBeNull()
			// Both figures of a programme are withheld together, or both shown as they are.
			expect(row.families === null ? row.riyals : row, context).toEqual(row.families === null ? null : cell)
			if (row.families === null) withheldSeen++
		}
		const families = cells.reduce((sum, cell) => sum + cell.families, 0)
		if (year.total.families !== null) expect(year.total, context).toEqual({ families, riyals: cells.reduce((sum, cell) => sum + cell.riyals, 0) })
		if (families < FEWEST) expect(year.total.families, context).toBeNull()
		expect(disclosed(year), context).toEqual([])
	}
	expect(withheldSeen).toBeGreaterThan(700)
})

test('the exact reckoning the browser test uses (tests/fixtures/impact-disclosure.ts) finds what the brute force finds', () => {
	const next = generator(1448)
	let found = 0
	for (let round = 0; round < 1500; round++) {
		const cells: ImpactCell[] = Array.from({ length: 1 + next(5) }, (_, index) => ({ programme: `p${index}`, families: 1 + next(8), riyals: next(3) === 0 ? 0 : next(12) }))
		// As «أثرنا» publishes them, and as the old page did: the small programmes alone withheld, the total over all.
		const naive: PublishedYear = {
			rows: cells.map((cell) => (cell.families < FEWEST ? { programme: cell.programme, families: null, riyals: null } : cell)),
			total: { families: cells.reduce((sum, cell) => sum + cell.families, 0), riyals: cells.reduce((sum, cell) => sum + cell.riyals, 0) },
		}
		for (const year of [publishYear(cells), naive]) {
			const brute = disclosed(year)
			expect(disclosedFigures(year).sort(), JSON.stringify(year)).toEqual(brute.sort())
			found += brute.length
		}
	}
	// The old page gave figures away often enough for the comparison to mean something.
	expect(found).toBeGreaterThan(300)
})
