import { lazy, Suspense, useRef, useState, type MouseEvent } from 'react'
import { data } from 'react-router'
import type { Route } from './+types/album'
import { getDb } from '#app/db/database.server.ts'
import { albumBySlug, albumPhotos } from '#app/gallery/gallery.server.ts'
import type { LightboxSlide } from '#app/gallery/lightbox.tsx'
import { imageUrl, ResponsiveImage, type ImageData } from '#app/images/responsive-image.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { PageTitle } from '#app/components/forms.tsx'
import { formatDate } from '#app/utils/format.ts'
import type { RouteHandle } from '#app/root.tsx'
import { countOf, photos as photoNoun } from '#app/utils/arabic-count.ts'

// An album: its photos as thumbnails, each a plain link to the full image, so the page works
// without JavaScript. This is the one public page that hydrates: a click opens the lightbox, whose
// script and stylesheet are fetched on that first click only (app/gallery/lightbox.tsx).

export const handle: RouteHandle = { hydrate: true }

const GalleryLightbox = lazy(() => import('#app/gallery/lightbox.tsx'))

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

/** The largest WebP variant: what a thumbnail's link opens, and the lightbox's fallback source. */
function largest(image: ImageData): { src: string; width: number } {
	const width = Math.max(...image.variants.filter((variant) => variant.format === 'webp').map((variant) => variant.width))
	return { src: imageUrl(image.id, 'webp', width), width }
}

function toSlide(image: ImageData, caption: string): LightboxSlide {
	const heightAt = (width: number) => Math.round((width * image.height) / image.width)
	const { src, width } = largest(image)
	return {
		src,
		width,
		height: heightAt(width),
		alt: caption || image.alt,
		srcSet: image.variants.filter((variant) => variant.format === 'webp').map((variant) => ({ src: imageUrl(image.id, 'webp', variant.width), width: variant.width, height: heightAt(variant.width) })),
	}
}

export default function Album({ loaderData }: Route.ComponentProps) {
	const { title, description, date, photos } = loaderData
	const [open, setOpen] = useState<number | null>(null)
	const viewed = useRef(0)
	const links = useRef<(HTMLAnchorElement | null)[]>([])
	const slides = photos.map((photo) => toSlide(photo.image, photo.caption))

	function show(event: MouseEvent<HTMLAnchorElement>, index: number) {
		// A new tab, a download: the browser's own business.
		if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
		event.preventDefault()
		viewed.current = index
		setOpen(index)
	}

	function close() {
		setOpen(null)
		// Back to the photo last seen, so keyboard users carry on from where they were.
		links.current[viewed.current]?.focus()
	}

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
										href={largest(photo.image).src}
										ref={(node) => {
											links.current[index] = node
										}}
										onClick={(event) => show(event, index)}
										className="block overflow-hidden rounded-lg border border-stone-200 bg-white focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
									>
										<ResponsiveImage
											image={photo.image}
											alt={photo.caption ? `${photo.caption}: عرض الصورة كاملة` : `عرض الصورة ${index + 1} كاملة`}
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
			{open !== null ? (
				<Suspense fallback={null}>
					<GalleryLightbox slides={slides} index={open} onClose={close} onView={(index) => (viewed.current = index)} />
				</Suspense>
			) : null}
		</>
	)
}
