import { Link, useLocation } from 'react-router'
import type { Page } from '#app/utils/pagination.ts'

/**
 * docs/product.md#pagination: at most 5 page links, «السابق»/«التالي», hidden when there is one page, compact below
 * 601px. Plain links to ?page=N, so it works without JavaScript and a page can be shared.
 */
export function Paginator({ pagination }: { pagination: Pick<Page, 'page' | 'lastPage' | 'links'> }) {
	const location = useLocation()
	const { page, lastPage, links } = pagination
	if (lastPage <= 1) return null
	const href = (n: number) => {
		const params = new URLSearchParams(location.search)
		params.set('page', String(n))
		return `${location.pathname}?${params}`
	}
	const item = 'inline-flex min-h-11 min-w-11 items-center justify-center rounded-lg border px-3'
	return (
		<nav aria-label="التنقل بين الصفحات" className="mt-6">
			<ul className="flex flex-wrap items-center justify-center gap-2">
				<li>
					{page > 1 ? (
						<Link to={href(page - 1)} className={`${item} border-stone-300 bg-white hover:bg-brand-50`} rel="prev">
							السابق
						</Link>
					) : (
						<span className={`${item} border-stone-200 text-stone-500`} aria-disabled="true">
							السابق
						</span>
					)}
				</li>
				{links.map((n) => (
					<li key={n} className={n === page ? '' : 'max-[600px]:hidden'}>
						{n === page ? (
							<span aria-current="page" className={`${item} border-brand-700 bg-brand-700 font-bold text-white`}>
								<span className="sr-only">الصفحة </span>
								{n}
							</span>
						) : (
							<Link to={href(n)} className={`${item} border-stone-300 bg-white hover:bg-brand-50`}>
								<span className="sr-only">الصفحة </span>
								{n}
							</Link>
						)}
					</li>
				))}
				<li className="min-[601px]:hidden text-sm text-stone-700">من {lastPage}</li>
				<li>
					{page < lastPage ? (
						<Link to={href(page + 1)} className={`${item} border-stone-300 bg-white hover:bg-brand-50`} rel="next">
							التالي
						</Link>
					) : (
						<span className={`${item} border-stone-200 text-stone-500`} aria-disabled="true">
							التالي
						</span>
					)}
				</li>
			</ul>
		</nav>
	)
}
