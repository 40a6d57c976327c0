import { Link } from 'react-router'

/** A list's pages: the previous and next pages' links (when there are) around «الصفحة 2 من 5». */
export function Pager({ previous, next, label }: { previous: string | null; next: string | null; label: string }) {
	return (
		<nav aria-label="الصفحات" className="mt-4 flex flex-wrap items-center gap-3">
			{previous ? (
				<Link to={previous} className="link inline-flex min-h-11 items-center">
					الصفحة السابقة
				</Link>
			) : null}
			<span>{label}</span>
			{next ? (
				<Link to={next} className="link inline-flex min-h-11 items-center">
					الصفحة التالية
				</Link>
			) : null}
		</nav>
	)
}
