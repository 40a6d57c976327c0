import type { ImageData } from '#app/images/responsive-image.tsx'
import { ResponsiveImage } from '#app/images/responsive-image.tsx'
import { useNonce } from '#app/utils/nonce.tsx'
import { sliderScript } from './inline-scripts.ts'

export interface Slide {
	id: string
	title: string
	text: string
	link: string
	image: ImageData
}

// Without JavaScript: a row of slides that scrolls and snaps (swipe, arrow keys once focused, or the
// numbered links). A few lines of script add autoplay every 7 seconds with a pause button; there is
// no autoplay when the visitor prefers reduced motion, and it stops while the slider is hovered or focused.
export function Slider({ slides }: { slides: readonly Slide[] }) {
	const nonce = useNonce()
	if (!slides.length) return null
	return (
		<section aria-roledescription="carousel" aria-label="أبرز البرامج والأخبار" className="mx-auto max-w-7xl px-4 pt-6">
			<div id="slides" tabIndex={0} aria-label="الشرائح" role="group" className="flex snap-x snap-mandatory overflow-x-auto rounded-2xl [scrollbar-width:none] focus-visible:outline-offset-4">
				{slides.map((slide, index) => {
					const body = (
						<>
							<ResponsiveImage image={slide.image} alt="" sizes="(min-width: 1280px) 1248px, 100vw" priority={index === 0} className="aspect-[3/1] w-full object-cover max-sm:aspect-[4/3]" />
							<span className="absolute inset-x-0 bottom-0 block bg-gradient-to-t from-black/75 to-transparent p-5 text-white sm:p-8">
								<span className="block text-xl font-bold sm:text-3xl">{slide.title}</span>
								{slide.text ? <span className="mt-1 block text-sm sm:text-base">{slide.text}</span> : null}
							</span>
						</>
					)
					return (
						<article id={`slide-${index + 1}`} key={slide.id} aria-roledescription="slide" aria-label={`${index + 1} من ${slides.length}: ${slide.title}`} className="relative w-full shrink-0 snap-center">
							{slide.link ? (
								<a href={slide.link} className="block">
									{body}
								</a>
							) : (
								body
							)}
						</article>
					)
				})}
			</div>
			<div className="mt-3 flex flex-wrap items-center justify-center gap-2">
				{slides.length > 1
					? slides.map((slide, index) => (
							<a key={slide.id} href={`#slide-${index + 1}`} className="grid size-11 place-items-center rounded-full border border-stone-300 bg-white text-sm font-semibold hover:bg-brand-50">
								<span className="sr-only">الشريحة </span>
								{index + 1}
							</a>
						))
					: null}
				<button id="slides-pause" type="button" hidden className="btn-secondary min-h-11 px-4 text-sm">
					إيقاف العرض
				</button>
			</div>
			{slides.length > 1 ? <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: sliderScript }} /> : null}
		</section>
	)
}
