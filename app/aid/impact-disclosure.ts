// What «أثرنا» may publish of a year's figures (docs/product.md#our-impact): a statistics office's
// cell suppression. A programme that helped fewer than FEWEST families in a year is withheld (primary
// suppression); so are as many other programmes of the year, smallest first, as it takes for the
// withheld ones together to be a group that could itself be published (complementary suppression),
// so that the year's total less the programmes shown gives only their sum, never one of them. When
// the year has not enough programmes for that, its total is withheld too. A withheld cell reads the
// same whichever rule withheld it, so a reader cannot tell the small ones from their complements.

/** The fewest families a published figure may count. */
export const FEWEST = 5

export interface ImpactCell {
	programme: string
	families: number
	riyals: number
}

/** A figure as published: null when withheld. */
export interface PublishedFigures {
	families: number | null
	riyals: number | null
}

export interface PublishedYear {
	rows: (PublishedFigures & { programme: string })[]
	total: PublishedFigures
}

/**
 * Whether withheld programmes that the year's total covers hide each of their own figures: a reader
 * knows each counts at least one family and at least 0 riyals, and their sums (the total less what is
 * shown). Their families' sum leaves each of them at least two values when it is more than their
 * count; their riyals' when it is more than 0. And the group is one a statistics office would publish.
 */
function hidesEach(withheld: readonly ImpactCell[]): boolean {
	const families = withheld.reduce((sum, row) => sum + row.families, 0)
	const riyals = withheld.reduce((sum, row) => sum + row.riyals, 0)
	return withheld.length >= 2 && families >= Math.max(FEWEST, withheld.length + 1) && riyals > 0
}

/** One year's programmes as «أثرنا» publishes them, in the order given; the total is over every programme. */
export function publishYear(cells: readonly ImpactCell[]): PublishedYear {
	const withheld = cells.filter((cell) => cell.families < FEWEST)
	const total = {
		families: cells.reduce((sum, cell) => sum + cell.families, 0),
		riyals: Math.round(cells.reduce((sum, cell) => sum + cell.riyals, 0) * 100) / 100,
	}
	if (withheld.length > 0) {
		// The complements: the smallest programmes shown, one at a time, until the group hides each.
		const others = cells.filter((cell) => !withheld.includes(cell)).sort((a, b) => a.families - b.families || a.riyals - b.riyals)
		while (!hidesEach(withheld) && others.length > 0) withheld.push(others.shift()!)
	}
	const totalShown = withheld.length === 0 || hidesEach(withheld)
	return {
		rows: cells.map((cell) => (withheld.includes(cell) ? { programme: cell.programme, families: null, riyals: null } : { ...cell })),
		total: totalShown ? total : { families: null, riyals: null },
	}
}
