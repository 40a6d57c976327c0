import { imageUrl, ResponsiveImage, type ImageData } from '#app/images/responsive-image.tsx'
import { photoViewerScript } from '#app/components/inline-scripts.ts'
import { useNonce } from '#app/utils/nonce.tsx'

// An album's photo viewer, without React in the browser. Each thumbnail links to #photo-N: without
// JavaScript that photo's view below is the :target, a full-screen layer with the caption and
// previous, next and close links (close goes back to #thumb-N, the thumbnail, which takes the focus).
// A small constant script (photoViewerScript) shows the same views in a modal <dialog> instead:
// focus stays inside, Escape closes and gives the focus back to the thumbnail of the photo last
// seen, the arrow keys move (ArrowLeft is the next photo in Arabic), a swipe too. There the photo also
// zooms (docs/product.md#photo-and-video-galleries): its button, hidden without JavaScript (the
// full-size link stands in), a double click or a pinch double it, and the view carries data-zoomed.

export interface AlbumPhoto {
	id: string
	caption: string
	image: ImageData
}

/** The largest WebP variant: the photo at full size. */
export function largestImage(image: ImageData): string {
	const width = Math.max(...image.variants.filter((variant) => variant.format === 'webp').map((variant) => variant.width))
	return imageUrl(image.id, 'webp', width)
}

/** The id a thumbnail link carries: the close link of its photo's view goes back to it. */
export const thumbnailId = (index: number) => `thumb-${index + 1}`
/** The id of a photo's view: its thumbnail links to it. */
export const photoViewId = (index: number) => `photo-${index + 1}`

const control = 'inline-flex min-h-11 items-center gap-2 rounded-lg bg-white/10 px-4 py-2 font-semibold text-white hover:bg-white/20'

/** A chevron pointing back in the reading direction (left in LTR, right in RTL); `forward` turns it round. A symmetric chevron turned half round is mirrored. */
function Chevron({ forward = false }: { forward?: boolean }) {
	return (
		<svg
			aria-hidden="true"
			viewBox="0 0 24 24"
			className={`size-5 ${forward ? 'rtl:rotate-180' : 'rotate-180 rtl:rotate-0'}`}
			fill="none"
			stroke="currentColor"
			strokeWidth="2.5"
			strokeLinecap="round"
			strokeLinejoin="round"
		>
			<path d="m9 6 6 6-6 6" />
		</svg>
	)
}

function PhotoView({ photo, index, total }: { photo: AlbumPhoto; index: number; total: number }) {
	const position = `الصورة ${index + 1} من ${total}`
	const previous = (index - 1 + total) % total
	const next = (index + 1) % total
	return (
		<section
			id={photoViewId(index)}
			data-photo-view=""
			aria-label={photo.caption ? `${position}: ${photo.caption}` : position}
			tabIndex={-1}
			className="fixed inset-0 z-50 hidden bg-stone-950 text-white target:block focus:outline-none"
		>
			{/* data-dismiss: a click on the dark area around the photo closes the modal viewer. */}
			<div data-dismiss="" className="group/view flex h-full flex-col gap-3 p-3 sm:p-6">
				<div className="flex flex-wrap items-center justify-between gap-2">
					<p className="font-semibold">{position}</p>
					<div className="flex flex-wrap gap-2">
						{/* Disabled until the photo has been shown for 300 ms (the spec); its name says what it will do. */}
						<button type="button" data-nav="zoom" hidden aria-disabled="true" className={`${control} aria-disabled:cursor-not-allowed aria-disabled:opacity-60`}>
							<svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round">
								<circle cx="11" cy="11" r="6.5" />
								<path d="m16 16 4.5 4.5M8 11h6" />
								<path d="M11 8v6" className="group-data-zoomed/view:hidden" />
							</svg>
							<span className="group-data-zoomed/view:hidden">
								تكبير<span className="sr-only"> الصورة</span>
							</span>
							<span className="hidden group-data-zoomed/view:inline">
								تصغير<span className="sr-only"> الصورة</span>
							</span>
						</button>
						<a href={largestImage(photo.image)} data-nav="full" className={control}>
							الحجم الكامل
						</a>
						<a href={`#${thumbnailId(index)}`} data-nav="close" className={control}>
							<svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round">
								<path d="M6 6l12 12M18 6 6 18" />
							</svg>
							إغلاق
						</a>
					</div>
				</div>
				<figure data-dismiss="" className="flex min-h-0 flex-1 flex-col items-center justify-center gap-2">
					{/* data-pan: zoomed, it scrolls (a drag, the wheel, a finger or the arrow keys move the photo);
					    in the dialog it keeps a pinch for the script instead of zooming the page. Auto margins
					    centre the photo, yet let a zoomed one overflow only where it can be scrolled to. */}
					<div
						data-dismiss=""
						data-pan=""
						className="flex min-h-0 w-full in-[dialog]:touch-pan-x in-[dialog]:touch-pan-y group-data-zoomed/view:flex-1 group-data-zoomed/view:overflow-auto group-data-zoomed/view:overscroll-contain group-data-zoomed/view:select-none [&>picture]:contents"
					>
						<ResponsiveImage
							image={photo.image}
							alt={photo.caption || photo.image.alt || position}
							sizes="100vw"
							className="m-auto h-auto max-h-[calc(100dvh-14rem)] w-auto max-w-full min-w-0 rounded-md object-contain group-data-zoomed/view:max-h-none group-data-zoomed/view:max-w-none group-data-zoomed/view:shrink-0 group-data-zoomed/view:cursor-grab group-data-zoomed/view:active:cursor-grabbing"
						/>
					</div>
					{photo.caption ? <figcaption className="text-center text-stone-100">{photo.caption}</figcaption> : null}
				</figure>
				{total > 1 ? (
					<nav aria-label="التنقل بين الصور" className="flex justify-between gap-2">
						<a href={`#${photoViewId(previous)}`} data-nav="previous" rel="prev" className={control}>
							<Chevron />
							<span>
								<span className="sr-only">الصورة </span>السابقة
							</span>
						</a>
						<a href={`#${photoViewId(next)}`} data-nav="next" rel="next" className={control}>
							<span>
								<span className="sr-only">الصورة </span>التالية
							</span>
							<Chevron forward />
						</a>
					</nav>
				) : null}
			</div>
		</section>
	)
}

/**
 * Every photo's view (hidden until it is the :target) and the modal <dialog> the script shows them
 * in. Rendered after the thumbnails, which must link to `#${photoViewId(index)}`, carry the id
 * thumbnailId(index) and the attribute data-photo.
 */
export function PhotoViewer({ photos }: { photos: readonly AlbumPhoto[] }) {
	const nonce = useNonce()
	if (!photos.length) return null
	return (
		<>
			{photos.map((photo, index) => (
				<PhotoView key={photo.id} photo={photo} index={index} total={photos.length} />
			))}
			{/* Closed, so not shown, without JavaScript; the script fills it with a copy of a view. */}
			<dialog id="photo-viewer" data-dismiss="" aria-label="عارض الصور" className="m-0 size-full max-h-none max-w-none overscroll-contain bg-stone-950 p-0 text-white backdrop:bg-black/80">
				<p aria-live="polite" className="sr-only" />
				<div data-slot="" className="h-full" />
			</dialog>
			<script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: photoViewerScript }} />
		</>
	)
}
