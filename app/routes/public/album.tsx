import { data } from 'react-router'
import type { Route } from './+types/album'
import { getDb } from '#app/db/database.server.ts'
import { albumBySlug, albumPhotos } from '#app/content/gallery/albums.server.ts'
import { PhotoViewer, photoViewId, thumbnailId } from '#app/content/gallery/photo-viewer.tsx'
import { ResponsiveImage } from '#app/images/responsive-image.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { PageTitle } from '#app/components/forms.tsx'
import { formatDate } from '#app/text/format.ts'
import { countOf, photos as photoNoun } from '#app/text/arabic-count.ts'

// An album: its photos as thumbnails, each a link to that photo's view (app/content/gallery/photo-viewer.tsx),
// which works without JavaScript; a small inline script shows the views in a modal dialog. The page
// does not hydrate, so it ships no JavaScript file and the page cache may keep it.

export async function loader({ params }: Route.LoaderArgs) {
	const db = await getDb()
	const album = await albumBySlug(db, params.album)
	if (!album) throw data(null, { status: 404 })
	const photos = await albumPhotos(db, album.id)
	return {
		title: album.data.title,
		description: album.data.description,
		date: album.data.date,
		photos: photos.flatMap((photo) => (photo.images.image ? [{ id: photo.id, caption: photo.data.caption, image: photo.images.image }] : [])),
	}
}

export default function Album({ loaderData }: Route.ComponentProps) {
	const { title, description, date, photos } = loaderData
	return (
		<>
			<PageTitle title={title} />
			<PageHeader title={title} lead={description || undefined} description={description || `صور ${title} في معرض صور المؤسسة.`} crumbs={[{ to: '/gallery', label: 'معرض الصور' }]} />
			<div className="mx-auto max-w-7xl px-4 py-8">
				<p className="mb-4 text-sm text-stone-700">
					<time dateTime={date}>{formatDate(date)}</time> · {countOf(photos.length, photoNoun)}
				</p>
				{photos.length === 0 ? (
					<p className="rounded-xl bg-white p-5">لا توجد صور في هذا الألبوم بعد.</p>
				) : (
					// About a quarter of the width each above 900px, the full width below (docs/product.md#public-site).
					<ul className="grid grid-cols-1 gap-3 min-[901px]:grid-cols-4">
						{photos.map((photo, index) => (
							<li key={photo.id}>
								<figure>
									<a
										href={`#${photoViewId(index)}`}
										id={thumbnailId(index)}
										data-photo=""
										className="block overflow-hidden rounded-lg border border-stone-200 bg-white focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
									>
										<ResponsiveImage
											image={photo.image}
											alt={photo.caption ? `${photo.caption}: عرض الصورة` : `عرض الصورة ${index + 1}`}
											sizes="(min-width: 901px) 24vw, 100vw"
											priority={index < 4}
											className="aspect-[4/3] w-full object-cover transition-transform hover:scale-105"
										/>
									</a>
									{photo.caption ? <figcaption className="mt-1 text-sm text-stone-700">{photo.caption}</figcaption> : null}
								</figure>
							</li>
						))}
					</ul>
				)}
			</div>
			<PhotoViewer photos={photos} />
		</>
	)
}
