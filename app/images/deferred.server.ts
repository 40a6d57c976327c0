import { randomBytes, randomUUID } from 'node:crypto'
import fsp from 'node:fs/promises'
import { buffer } from 'node:stream/consumers'
import { asc, sql } from 'drizzle-orm'
import sharp from 'sharp'
import type { Database } from '#app/db/client.server.ts'
import { images } from '#app/db/schema.ts'
import { FileNotFoundError, type FileStorage } from '#app/storage/file-storage.server.ts'
import { describeError, logger } from '#app/utils/log.server.ts'
import { deferredOriginalKey, encodeAs, resizedTo, variantWidths, type ImageFormat, type ImageRow, type ImageVariant } from './pipeline.server.ts'

// Deferred images: the demo seed's pictures are recorded at once, so a first start is quick. The
// row lists every variant processImage would make (the pages' HTML is the same before and after
// they exist), each with its storage key chosen and a size of 0. The original (a drawing's SVG, a
// video frame's PNG) waits in storage; each variant is made from it the first time it is asked for
// (/images/:id/:file) or by the background pass after start-up, whichever comes first, and the
// original is removed once all are made. Staff uploads never take this path: processImage makes
// their variants before the upload is answered.

export interface DeferredImage {
	/** The original: the app's own drawing or video frame, never a user's file (an SVG is read as is). */
	source: Buffer
	originalName: string
	alt: string
	createdBy: number | null
	/** As processImage's: both by default. */
	formats?: readonly ImageFormat[]
}

/** A variant listed but perhaps not made yet: its bytes come from deferredVariant. */
export function isDeferred(variant: ImageVariant): boolean {
	return variant.size === 0
}

/** Records an image whose variants are made later; its original is kept until then. */
export async function recordDeferredImage(db: Database, storage: FileStorage, image: DeferredImage): Promise<ImageRow> {
	const { width, height } = (await sharp(image.source).metadata()).autoOrient
	const formats = (['avif', 'webp'] as const).filter((format) => (image.formats ?? ['avif', 'webp']).includes(format))
	const variants: ImageVariant[] = variantWidths(width, height).flatMap((variantWidth) => formats.map((format) => ({ format, width: variantWidth, key: randomBytes(32).toString('hex'), size: 0 })))
	const id = randomUUID()
	const originalKey = deferredOriginalKey(id)
	const tempPath = storage.tempPath()
	try {
		await fsp.writeFile(tempPath, image.source, { flag: 'wx' })
		// Flushed like an upload: lost, it could not be made again.
		await storage.place(tempPath, originalKey, { durable: true })
		const [row] = await db.insert(images).values({ id, originalName: image.originalName, width, height, variants, alt: image.alt, createdBy: image.createdBy }).returning()
		if (!row) throw new Error('The image was not recorded.')
		return row
	} catch (error) {
		await Promise.allSettled([fsp.rm(tempPath, { force: true }), storage.remove(originalKey)])
		throw error
	}
}

/**
 * For seed code: a drawing (the seed's own SVG) recorded as a deferred image; returns its id. In
 * WebP only unless asked: every browser takes it, and AVIF takes about twelve times as long to
 * encode, which made the background pass of a first start three minutes of a core instead of
 * seconds. A picture staff upload in its place gets both formats, like any other upload.
 */
export async function seedPicture(db: Database, storage: FileStorage, svg: string, alt: string, options: { originalName?: string; formats?: readonly ImageFormat[] } = {}): Promise<string> {
	const row = await recordDeferredImage(db, storage, { source: Buffer.from(svg), originalName: options.originalName ?? 'demo.svg', alt, createdBy: null, formats: options.formats ?? ['webp'] })
	return row.id
}

// The variants being made in this process, by key: whoever asks for one meanwhile waits for the same bytes.
const making = new Map<string, Promise<Buffer>>()

/**
 * A deferred variant's bytes: read if it was made already, else made now from the original (once,
 * however many ask at the same time), stored and returned. Throws FileNotFoundError when neither
 * is there (the image was deleted meanwhile).
 */
export function deferredVariant(storage: FileStorage, imageId: string, variant: ImageVariant): Promise<Buffer> {
	let job = making.get(variant.key)
	if (!job) {
		job = makeVariant(storage, imageId, variant).finally(() => making.delete(variant.key))
		making.set(variant.key, job)
	}
	return job
}

async function makeVariant(storage: FileStorage, imageId: string, variant: ImageVariant): Promise<Buffer> {
	const made = await readStored(storage, variant.key)
	if (made) return made
	const original = await readStored(storage, deferredOriginalKey(imageId))
	if (!original) {
		// Another server on the same DATA_DIR may have made it and then removed the original just now.
		const madeMeanwhile = await readStored(storage, variant.key)
		if (madeMeanwhile) return madeMeanwhile
		throw new FileNotFoundError(`No original for image ${imageId}.`)
	}
	const data = await encodeAs(resizedTo(original, variant.width), variant.format).toBuffer()
	const tempPath = storage.tempPath()
	try {
		await fsp.writeFile(tempPath, data, { flag: 'wx' })
		// Renamed into place, so no reader meets half a file; not flushed, since it can be made again.
		await storage.place(tempPath, variant.key)
	} catch (error) {
		await fsp.rm(tempPath, { force: true })
		throw error
	}
	return data
}

async function readStored(storage: FileStorage, key: string): Promise<Buffer | undefined> {
	try {
		return await buffer(await storage.read(key))
	} catch (error) {
		if (error instanceof FileNotFoundError) return undefined
		throw error
	}
}

/**
 * Makes every variant still deferred, one at a time (the other core stays free for requests), and
 * removes each image's original once its variants are all there. Returns how many images it
 * finished; stops early, between two variants, when `signal` is aborted.
 */
export async function finishDeferredImages(db: Database, storage: FileStorage, signal?: AbortSignal): Promise<number> {
	const rows = await db
		.select({ id: images.id, variants: images.variants })
		.from(images)
		.where(sql`${images.variants} @> '[{"size": 0}]'::jsonb`)
		.orderBy(asc(images.createdAt))
	let finished = 0
	for (const row of rows) {
		const originalKey = deferredOriginalKey(row.id)
		// Only the image's original tells whether something is left to make.
		if (!(await readStored(storage, originalKey))) continue
		try {
			for (const variant of row.variants.filter(isDeferred)) {
				if (signal?.aborted) return finished
				await deferredVariant(storage, row.id, variant)
			}
		} catch (error) {
			// Deleted meanwhile, original and all.
			if (error instanceof FileNotFoundError) continue
			throw error
		}
		await storage.remove(originalKey)
		finished++
	}
	return finished
}

let background: { controller: AbortController; done: Promise<void> } | undefined

/** Starts finishDeferredImages in the background (start-up calls this once the app is prepared). */
export function startFinishingImages(db: Database, storage: FileStorage, log: (line: string) => void): void {
	if (background) return
	const controller = new AbortController()
	const started = performance.now()
	const done = finishDeferredImages(db, storage, controller.signal).then(
		(count) => {
			if (count > 0 && !controller.signal.aborted) log(`Demo pictures: the variants of ${count} images were made in the background (${((performance.now() - started) / 1000).toFixed(1)} s).`)
		},
		(error: unknown) => logger.error({ error: describeError(error) }, 'Making deferred image variants failed'),
	)
	background = { controller, done }
}

/** Stops the background pass, waiting for the variant under way; shutdown calls this before closing the database. */
export async function stopFinishingImages(): Promise<void> {
	const current = background
	background = undefined
	if (!current) return
	current.controller.abort()
	await current.done
}
