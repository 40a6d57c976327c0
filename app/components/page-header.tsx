import type { ReactNode } from 'react'

export interface Crumb {
	to: string
	label: string
}

/**
 * The title band of a public page, with its breadcrumb trail from the home page. It also gives the
 * page its meta description (for search results and shared links): `description`, else the lead
 * when it is plain text. React puts the tag in the document's head.
 */
export function PageHeader({ title, lead, description, crumbs = [] }: { title: string; lead?: ReactNode; description?: string; crumbs?: readonly Crumb[] }) {
	const summary = description ?? (typeof lead === 'string' ? lead : undefined)
	return (
		<div className="border-b border-brand-100 bg-brand-50">
			{summary ? <meta name="description" content={summary} /> : null}
			<div className="mx-auto max-w-7xl px-4 py-8">
				<nav aria-label="مسار التنقل">
					<ol className="flex flex-wrap items-center gap-2 text-sm text-stone-700">
						<li>
							<a href="/" className="link">
								الرئيسية
							</a>
						</li>
						{crumbs.map((crumb) => (
							<li key={crumb.to} className="flex items-center gap-2">
								<span aria-hidden="true">‹</span>
								<a href={crumb.to} className="link">
									{crumb.label}
								</a>
							</li>
						))}
						<li className="flex items-center gap-2">
							<span aria-hidden="true">‹</span>
							<span aria-current="page">{title}</span>
						</li>
					</ol>
				</nav>
				<h1 className="mt-3 text-2xl font-bold text-brand-900 sm:text-3xl">{title}</h1>
				{lead ? <p className="mt-2 max-w-3xl text-stone-700">{lead}</p> : null}
			</div>
		</div>
	)
}
