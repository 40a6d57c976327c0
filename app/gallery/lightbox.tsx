import Lightbox from 'yet-another-react-lightbox'
import Zoom from 'yet-another-react-lightbox/plugins/zoom'
import 'yet-another-react-lightbox/styles.css'

// Loaded only on an album page, and only when a visitor first opens a photo (album.tsx lazy-imports
// it): its script and stylesheet are a chunk of their own, so no other page carries them.

export interface LightboxSlide {
	src: string
	width: number
	height: number
	alt: string
	srcSet: { src: string; width: number; height: number }[]
}

/**
 * The old gallery's lightbox settings (docs/product.md#business-constants): slides move in 400 ms
 * (by swipe, arrow or key), two slides are preloaded on each side, and zoom starts after 300 ms.
 * Its 50 px swipe threshold and one-step-a-second wheel have no setting here: the library's own
 * swipe and wheel handling stands in for them.
 */
export const lightboxTimings = { fade: 250, swipe: 400, navigation: 400, zoom: 300, preload: 2 } as const

const labels = {
	Previous: 'الصورة السابقة',
	Next: 'الصورة التالية',
	Close: 'إغلاق',
	Slide: 'صورة',
	Carousel: 'عرض الصور',
	Lightbox: 'عارض الصور',
	'Photo gallery': 'صور الألبوم',
	'{index} of {total}': 'الصورة {index} من {total}',
	'Zoom in': 'تكبير',
	'Zoom out': 'تصغير',
}

/** The lightbox itself: zoom, arrows and Escape, swipe; focus stays inside while it is open and returns to the thumbnail after. */
export default function GalleryLightbox({ slides, index, onClose, onView }: { slides: LightboxSlide[]; index: number; onClose: () => void; onView: (index: number) => void }) {
	return (
		<Lightbox
			open
			index={index}
			close={onClose}
			on={{ view: ({ index: viewed }) => onView(viewed) }}
			slides={slides}
			plugins={[Zoom]}
			labels={labels}
			animation={{ fade: lightboxTimings.fade, swipe: lightboxTimings.swipe, navigation: lightboxTimings.navigation, zoom: lightboxTimings.zoom }}
			zoom={{ maxZoomPixelRatio: 2, scrollToZoom: true }}
			carousel={{ finite: false, preload: lightboxTimings.preload }}
			controller={{ closeOnBackdropClick: true }}
			render={{
				iconError: () => (
					<span role="alert" className="rounded-lg bg-black/70 px-4 py-2 text-white">
						تعذر تحميل المحتوى
					</span>
				),
			}}
		/>
	)
}
