export interface Page {
	/** The current page, clamped to 1..lastPage. */
	page: number
	lastPage: number
	offset: number
	perPage: number
	/** The page numbers to link to: at most `maxLinks`, around the current one. */
	links: number[]
}

/** docs/product.md#pagination: current page clamped to 1..last, last = ceil(total / perPage) and at least 1. */
export function paginate(input: { total: number; perPage: number; page: unknown; maxLinks?: number }): Page {
	const { total, perPage, maxLinks = 5 } = input
	const lastPage = Math.max(1, Math.ceil(total / perPage))
	const requested = typeof input.page === 'number' ? input.page : Number.parseInt(String(input.page ?? ''), 10)
	const page = Number.isFinite(requested) ? Math.min(Math.max(1, Math.trunc(requested)), lastPage) : 1
	const count = Math.min(maxLinks, lastPage)
	const first = Math.min(Math.max(1, page - Math.floor(count / 2)), lastPage - count + 1)
	return {
		page,
		lastPage,
		offset: (page - 1) * perPage,
		perPage,
		links: Array.from({ length: count }, (_, index) => first + index),
	}
}

/** The page number asked for in `?page=N`. */
export function pageParam(request: Request): string | null {
	return new URL(request.url).searchParams.get('page')
}
