import { data, Link } from 'react-router'
import type { Route } from './+types/section'
import { findSectionPage } from '#app/site-map.ts'
import { PageHeader } from '#app/components/page-header.tsx'
import { PageTitle } from '#app/components/forms.tsx'

export function loader({ request }: Route.LoaderArgs) {
	const page = findSectionPage(new URL(request.url).pathname)
	if (!page) throw data(null, { status: 404 })
	return { page }
}

export default function SectionPage({ loaderData: { page } }: Route.ComponentProps) {
	const parent = page.path.startsWith('/apply/') ? [{ to: '/apply', label: 'تقديم طلب' }] : []
	return (
		<>
			<PageTitle title={page.title} />
			<PageHeader title={page.title} lead={page.lead} crumbs={parent} />
			{page.links?.length ? (
				<div className="mx-auto max-w-7xl px-4 py-8">
					<ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
						{page.links.map((link) => (
							<li key={link.to}>
								<Link
									to={link.to}
									className="flex h-full min-h-20 items-center rounded-xl border border-stone-200 bg-white p-5 font-semibold text-brand-800 shadow-sm hover:border-brand-600 hover:bg-brand-50"
								>
									{link.label}
								</Link>
							</li>
						))}
					</ul>
				</div>
			) : null}
		</>
	)
}
