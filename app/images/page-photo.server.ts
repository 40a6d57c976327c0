// A photo of a paper made a page of a document (app/cases/document-pages.server.ts): judged by its
// header before anything is decoded, then decoded under the pixel limit, upright, smaller, and
// encoded again with none of the phone's metadata.
import sharp, { type Metadata } from 'sharp'
import { MAX_PIXELS } from './pipeline.server.ts'

/** A page's photo, once cleaned: its long side at most this many pixels. */
export const PAGE_LONG_SIDE = 2000
/** The JPEG quality of a cleaned page: small print stays legible, a 12-megapixel photo becomes ~400 KB. */
export const PAGE_JPEG_QUALITY = 82

/**
 * What a photo's header says, read without decoding a pixel: refused when it is no picture sharp
 * reads, a HEIC whose codec this build does not carry, or larger than MAX_PIXELS (a decompression
 * bomb declares 50,000 by 50,000 pixels in a few hundred bytes).
 */
export async function inspectPhoto(path: string): Promise<'too-many-pixels' | 'unreadable-photo' | 'heic-unreadable' | null> {
	let meta: Metadata
	try {
		// The header only: the limit is ours to apply, below, with its own message.
		meta = await sharp(path, { limitInputPixels: false }).metadata()
	} catch {
		return 'unreadable-photo'
	}
	if (!meta.width || !meta.height) return 'unreadable-photo'
	if (meta.width * meta.height > MAX_PIXELS) return 'too-many-pixels'
	// sharp's libheif reads AV1 (AVIF-coded HEIF) but not HEVC, what iPhones and many Android phones write.
	if (meta.format === 'heif' && meta.compression === 'hevc') return 'heic-unreadable'
	return null
}

/**
 * A photo made a page: upright by its EXIF orientation, at most PAGE_LONG_SIDE px, on white where
 * it was transparent, a baseline JPEG with no metadata at all (sharp keeps none unless asked).
 */
export async function cleanPhoto(input: Buffer): Promise<{ jpeg: Buffer; width: number; height: number }> {
	const { data, info } = await sharp(input, { limitInputPixels: MAX_PIXELS, pages: 1 })
		.autoOrient()
		.resize({ width: PAGE_LONG_SIDE, height: PAGE_LONG_SIDE, fit: 'inside', withoutEnlargement: true })
		.flatten({ background: '#ffffff' })
		.jpeg({ quality: PAGE_JPEG_QUALITY })
		.toBuffer({ resolveWithObject: true })
	return { jpeg: data, width: info.width, height: info.height }
}

