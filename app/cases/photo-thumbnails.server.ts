import { buffer } from 'node:stream/consumers'
import { encodeAs, resizedTo } from '#app/images/pipeline.server.ts'
import type { FileStorage } from '#app/storage/file-storage.server.ts'

// The case view's visit photos as thumbnails (issue 37, part 2.10): a 1600-pixel photo weighs some
// 250 KB, and the case view showed each at full size on every open. The thumbnail is made from the
// stored photo by the image pipeline's own resize and encoder, served through the case's file route
// (the same authorization and audit), and kept in memory for the next open; the full photo is a
// link away.

/** Wide enough for a grid cell of the case view (about 160 CSS pixels) on a screen of 2 device pixels a pixel. */
export const THUMBNAIL_WIDTH = 320
/** Thumbnails kept, the least recently shown dropped first: some 15 KB each. */
const KEPT = 300

const kept = new Map<string, Buffer>()

/** The photo's thumbnail as WebP; FileNotFoundError (from the storage) when its bytes are gone. */
export async function photoThumbnail(storage: FileStorage, file: { id: string; storageKey: string }): Promise<Buffer> {
	// Keyed by the stored bytes, not the row: a key is never reused for other bytes.
	const hit = kept.get(file.storageKey)
	if (hit) {
		kept.delete(file.storageKey)
		kept.set(file.storageKey, hit)
		return hit
	}
	const photo = await buffer(await storage.read(file.storageKey))
	const thumbnail = await encodeAs(resizedTo(photo, THUMBNAIL_WIDTH), 'webp').toBuffer()
	kept.set(file.storageKey, thumbnail)
	if (kept.size > KEPT) kept.delete(kept.keys().next().value!)
	return thumbnail
}
