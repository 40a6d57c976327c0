import { Link } from 'react-router'

/** Links to a list filtered by each option («الكل» first); the current one is marked for screen readers too. */
export function FilterTabs({ label, current, links }: { label: string; current: string; links: readonly { value: string; label: string; to: string }[] }) {
	const item = 'inline-flex min-h-11 items-center rounded-lg border px-3 py-1 text-sm'
	return (
		<nav aria-label={label} className="mt-4">
			<ul className="flex flex-wrap gap-2">
				{links.map((link) => (
					<li key={link.value}>
						<Link
							to={link.to}
							aria-current={link.value === current ? 'page' : undefined}
							className={link.value === current ? `${item} border-brand-700 bg-brand-700 font-bold text-white` : `${item} border-stone-300 bg-white hover:bg-brand-50`}
						>
							{link.label}
						</Link>
					</li>
				))}
			</ul>
		</nav>
	)
}
