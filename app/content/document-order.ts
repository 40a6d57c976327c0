// The order of a documents-library page (app/routes/public/documents.tsx).

interface Sortable {
	order: number
	number: number
	year: number
}

/**
 * `year`: reports by year (yearly, financial) go newest year first whatever their «order», so a
 * report uploaded last for a new year leads instead of trailing the oldest one; «order» only
 * orders reports of the same year, and those without a year come last.
 * `number`: staff's «order», then the governance item's number. `order`: staff's «order», then newest year.
 */
export function sortDocuments<T extends Sortable>(rows: readonly T[], by: 'year' | 'number' | 'order'): T[] {
	const newestYear = (a: T, b: T) => (b.year || -Infinity) - (a.year || -Infinity) || 0
	return [...rows].sort((a, b) => {
		if (by === 'year') return newestYear(a, b) || a.order - b.order
		return a.order - b.order || (by === 'number' ? a.number - b.number : b.year - a.year)
	})
}
