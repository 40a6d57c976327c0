import { Link } from 'react-router'
import type { Route } from './+types/gallery'
import { getDb } from '#app/db/database.server.ts'
import { albumCards } from '#app/content/gallery/albums.server.ts'
import { ResponsiveImage } from '#app/images/responsive-image.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { PageTitle } from '#app/components/forms.tsx'
import { formatDate } from '#app/text/format.ts'
import { countOf, photos } from '#app/text/arabic-count.ts'

// Every album (the older site showed only its first: docs/product.md#old-system-defects-we-fix),
// as cards of cover, title and photo count. Plain links: the page ships no JavaScript.

export async function loader() {
	const db = await getDb()
	return { albums: await albumCards(db) }
}

const photoCount = (count: number) => (count === 0 ? 'لا صور بعد' : countOf(count, photos))

export default function Gallery({ loaderData }: Route.ComponentProps) {
	return (
		<>
			<PageTitle title="معرض الصور" />
			<PageHeader title="معرض الصور" lead="صور من برامج المؤسسة وفعالياتها." />
			<div className="mx-auto max-w-7xl px-4 py-8">
				<p className="mb-6">
					<Link to="/gallery/videos" className="link font-semibold">
						معرض الفيديو
					</Link>
				</p>
				{loaderData.albums.length === 0 ? (
					<p className="rounded-xl bg-white p-5">لا توجد ألبومات بعد.</p>
				) : (
					<ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
						{loaderData.albums.map((album, index) => (
							<li key={album.id} className="relative overflow-hidden rounded-xl border border-stone-200 bg-white shadow-sm">
								{album.cover ? (
									<ResponsiveImage image={album.cover} alt="" sizes="(min-width: 1024px) 400px, (min-width: 640px) 50vw, 100vw" priority={index < 3} className="aspect-[4/3] w-full object-cover" />
								) : (
									<div className="aspect-[4/3] w-full bg-brand-50" />
								)}
								<div className="p-4">
									<h2 className="text-lg font-bold text-brand-900">
										{/* The whole card is the link (its ::after covers it); the title is what a screen reader hears. */}
										<Link to={`/gallery/${album.slug}`} className="after:absolute after:inset-0 hover:underline">
											{album.title}
										</Link>
									</h2>
									<p className="mt-1 text-sm text-stone-700">
										{photoCount(album.count)} · <time dateTime={album.date}>{formatDate(album.date)}</time>
									</p>
									{album.description ? <p className="mt-2 text-sm text-stone-700">{album.description}</p> : null}
								</div>
							</li>
						))}
					</ul>
				)}
			</div>
		</>
	)
}
