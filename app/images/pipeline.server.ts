import { createHash, randomUUID } from 'node:crypto'
import fsp from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import sharp, { type Metadata, type Sharp, type SharpOptions } from 'sharp'
import type { Database } from '#app/db/client.server.ts'
import { images } from '#app/db/schema.ts'
import type { FileStorage } from '#app/storage/file-storage.server.ts'
import type { UploadKind } from '#app/storage/upload-stream.server.ts'
import { isUuid } from '#app/utils/uuid.ts'

// The shared image pipeline: an upload becomes AVIF and WebP variants at a few widths, without
// metadata; only the variants are kept, served by /images/:id/:width.:format.

export type ImageRow = typeof images.$inferSelect
/**
 * One variant: its format, width, storage key and size in bytes. A size of 0 marks a deferred
 * variant (app/images/deferred.server.ts): the seed's pictures are recorded at once, and their
 * variants are made on first request or in the background after start-up.
 */
export type ImageVariant = ImageRow['variants'][number]
export type ImageFormat = ImageVariant['format']

/** Widths a page can choose from; none is wider than the original. */
export const VARIANT_WIDTHS = [320, 640, 1024, 1600] as const
export const MAX_PIXELS = 40_000_000
/** Smallest width and height accepted. */
export const MIN_SIDE = 16
// WebP's largest side: a very tall image could not be encoded at the wider widths.
const MAX_VARIANT_SIDE = 16_383

// APNG is a PNG to every reader (its first frame); refusing it would puzzle whoever uploads one.
const imageMimes = ['image/jpeg', 'image/png', 'image/apng', 'image/webp', 'image/avif', 'image/gif'] as const
export type ImageMime = (typeof imageMimes)[number]

// What sharp calls the formats above (AVIF is read through libheif); anything else it could read (SVG, TIFF…) is refused.
const readableFormats = new Set<string>(['jpeg', 'png', 'webp', 'heif', 'gif'])

export const imageUpload: UploadKind<ImageMime, 'not-image'> = {
	accept: (mime): mime is ImageMime => (imageMimes as readonly string[]).includes(mime),
	refusal: 'not-image',
	fallbackName: 'image',
}


/** The image itself is refused: the caller shows a message rather than an error page. */
export class InvalidImageError extends Error {
	override name = 'InvalidImageError'
	constructor(
		/** unreadable: corrupt, or not one of the accepted formats; too-large: over MAX_PIXELS or too tall; too-small: a side under MIN_SIDE. */
		readonly reason: 'unreadable' | 'too-large' | 'too-small',
		options?: ErrorOptions,
	) {
		super(`The image is ${reason}.`, options)
	}
}

export interface NewImage {
	/** A file the pipeline removes when done, whatever happens. */
	tempPath: string
	originalName: string
	alt: string
	createdBy: number | null
	/**
	 * The formats to make; both by default. The seed's many demo pages take WebP only, since AVIF
	 * is the slow one to encode (<ResponsiveImage> offers AVIF only when an image has it).
	 */
	formats?: readonly ImageFormat[]
}

const decodeOptions: SharpOptions = {
	// Checked again here, against a header that lied about its size.
	limitInputPixels: MAX_PIXELS,
	// An animated GIF or WebP gives its first frame.
	pages: 1,
	page: 0,
}

/**
 * Makes the variants of an image, stores them and records the image: all or nothing.
 * Refuses an image it cannot use with InvalidImageError; other failures (disk, database) are rethrown.
 * Either way nothing is left behind: no variant, no row, no temp file.
 */
export async function processImage(db: Database, storage: FileStorage, image: NewImage): Promise<ImageRow> {
	const tempFiles: string[] = []
	const keys: string[] = []
	try {
		const { width, height } = await measure(image.tempPath)
		const variants: ImageVariant[] = []
		for (const variantWidth of variantWidths(width, height)) {
			const resized = resizedTo(image.tempPath, variantWidth)
			const formats = image.formats ?? ['avif', 'webp']
			const encoded = await Promise.all([
				...(formats.includes('avif') ? [render('avif', encodeAs(resized.clone(), 'avif'))] : []),
				...(formats.includes('webp') ? [render('webp', encodeAs(resized.clone(), 'webp'))] : []),
			])
			for (const { format, data } of encoded) {
				const tempPath = storage.tempPath()
				tempFiles.push(tempPath)
				await fsp.writeFile(tempPath, data, { flag: 'wx' })
				const key = await storage.adopt(tempPath)
				keys.push(key)
				variants.push({ format, width: variantWidth, key, size: data.length })
			}
		}
		const [row] = await db
			.insert(images)
			.values({ originalName: image.originalName, width, height, variants, alt: image.alt, createdBy: image.createdBy })
			.returning()
		if (!row) throw new Error('The image was not recorded.')
		return row
	} catch (error) {
		// Settled, not all: a failed clean-up must not hide why the image failed.
		await Promise.allSettled([...tempFiles.map((file) => fsp.rm(file, { force: true })), ...keys.map((key) => storage.remove(key))])
		throw error
	} finally {
		await fsp.rm(image.tempPath, { force: true })
	}
}

/** An image at a variant's width: oriented first (sharp applies the EXIF orientation before resizing); no withMetadata, so none is kept. */
export function resizedTo(input: string | Buffer, width: number): Sharp {
	return sharp(input, decodeOptions).autoOrient().resize({ width, withoutEnlargement: true })
}

/** The encoder settings of every variant, made at upload or later (deferred). */
export function encodeAs(pipeline: Sharp, format: ImageFormat): Sharp {
	return format === 'avif' ? pipeline.avif({ quality: 50, effort: 4 }) : pipeline.webp({ quality: 75 })
}

/** The size the image shows at (after its EXIF orientation), read from its header only. */
async function measure(file: string): Promise<{ width: number; height: number }> {
	let metadata: Metadata
	try {
		// No pixel limit while reading the header: a huge image is then told apart from a broken one.
		metadata = await sharp(file, { ...decodeOptions, limitInputPixels: false }).metadata()
	} catch (error) {
		throw new InvalidImageError('unreadable', { cause: error })
	}
	if (!readableFormats.has(metadata.format)) throw new InvalidImageError('unreadable')
	const { width, height } = metadata.autoOrient
	if (width * height > MAX_PIXELS) throw new InvalidImageError('too-large')
	if (width < MIN_SIDE || height < MIN_SIDE) throw new InvalidImageError('too-small')
	return { width, height }
}

/**
 * The widths to make for an image: the steps up to its own width, and its own width when it
 * falls well between two steps (a 1000px picture is not cut down to 640), or is under the first.
 */
export function variantWidths(width: number, height: number): number[] {
	const widths: number[] = VARIANT_WIDTHS.filter((step) => step <= width)
	const largest = widths.at(-1)
	if (largest === undefined || (width < Math.max(...VARIANT_WIDTHS) && width > largest * 1.1)) widths.push(width)
	const fitting = widths.filter((step) => Math.round((step * height) / width) <= MAX_VARIANT_SIDE)
	if (fitting.length === 0) throw new InvalidImageError('too-large')
	return fitting
}

async function render(format: ImageFormat, pipeline: Sharp): Promise<{ format: ImageFormat; data: Buffer }> {
	try {
		return { format, data: await pipeline.toBuffer() }
	} catch (error) {
		// Encoding to memory touches no disk, so a failure here is the image's: corrupt or truncated data.
		throw new InvalidImageError('unreadable', { cause: error })
	}
}

export async function findImage(db: Database, id: string): Promise<ImageRow | undefined> {
	if (!isUuid(id)) return undefined
	const [row] = await db.select().from(images).where(eq(images.id, id)).limit(1)
	return row
}

/** Deletes an image and its variants; false when there is no such image. */
export async function deleteImage(db: Database, storage: FileStorage, id: string): Promise<boolean> {
	if (!isUuid(id)) return false
	// The row goes first: a file left behind by a failed removal only wastes space, a row without its files would be a broken picture.
	const [row] = await db.delete(images).where(eq(images.id, id)).returning()
	if (!row) return false
	// A deferred image's original goes too, should its variants not all be made yet.
	await Promise.all([...row.variants.map((variant) => storage.remove(variant.key)), storage.remove(deferredOriginalKey(row.id))])
	return true
}

/** Where a deferred image keeps its original until all its variants are made: a key of its own, derived from the image's id. */
export function deferredOriginalKey(imageId: string): string {
	return createHash('sha256').update(`ataa deferred original ${imageId}`).digest('hex')
}

/**
 * For seed code: renders an SVG to a PNG temp file, to be passed to processImage like an upload
 * (which removes it). The SVG is trusted input, never a user's.
 */
export async function generateImage(svg: string): Promise<string> {
	const tempPath = path.join(os.tmpdir(), `ataa-image-${randomUUID()}.png`)
	await sharp(Buffer.from(svg)).png().toFile(tempPath)
	return tempPath
}
