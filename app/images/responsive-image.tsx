// Client-safe: no server imports, so any page or component may use it.

export type ImageFormat = 'avif' | 'webp'

/** What a page needs to show an image: serialisable, without the storage keys. */
export interface ImageData {
	id: string
	/** Of the original as shown (after its EXIF orientation): the aspect ratio the page reserves. */
	width: number
	height: number
	alt: string
	variants: { format: ImageFormat; width: number }[]
}

/** An images row (or anything shaped like one) as ImageData. */
export function toImageData(row: {
	id: string
	width: number
	height: number
	alt: string
	variants: readonly { format: ImageFormat; width: number }[]
}): ImageData {
	return {
		id: row.id,
		width: row.width,
		height: row.height,
		alt: row.alt,
		variants: row.variants.map(({ format, width }) => ({ format, width })),
	}
}

export function imageUrl(id: string, format: ImageFormat, width: number): string {
	return `/images/${id}/${width}.${format}`
}

function widthsOf(image: ImageData, format: ImageFormat): number[] {
	return image.variants
		.filter((variant) => variant.format === format)
		.map((variant) => variant.width)
		.sort((a, b) => a - b)
}

function srcSet(image: ImageData, format: ImageFormat, widths: number[]): string {
	return widths.map((width) => `${imageUrl(image.id, format, width)} ${width}w`).join(', ')
}

export interface ResponsiveImageProps {
	image: ImageData
	/** The width the image takes in the layout, e.g. "(min-width: 1024px) 50vw, 100vw": the browser picks a variant by it. */
	sizes: string
	/** For the image that is the page's largest content above the fold: fetched first, never lazily. */
	priority?: boolean
	className?: string
	/** Overrides the image's own alt text where it plays another part ('' for a decorative use). */
	alt?: string
}

/** An image as AVIF where the browser takes it, else WebP, at the width the layout needs. */
export function ResponsiveImage({ image, sizes, priority = false, className, alt }: ResponsiveImageProps) {
	const avif = widthsOf(image, 'avif')
	const webp = widthsOf(image, 'webp')
	const fallback = webp.at(-1)
	if (fallback === undefined) return null
	return (
		<picture>
			{avif.length > 0 ? <source type="image/avif" srcSet={srcSet(image, 'avif', avif)} sizes={sizes} /> : null}
			<source type="image/webp" srcSet={srcSet(image, 'webp', webp)} sizes={sizes} />
			{/* width and height reserve the image's box before it loads: no layout shift. */}
			<img
				src={imageUrl(image.id, 'webp', fallback)}
				width={image.width}
				height={image.height}
				alt={alt ?? image.alt}
				loading={priority ? 'eager' : 'lazy'}
				decoding="async"
				fetchPriority={priority ? 'high' : undefined}
				className={className}
			/>
		</picture>
	)
}
