import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { buffer } from 'node:stream/consumers'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { DatabaseHandle } from '#app/db/client.server.ts'
import { images } from '#app/db/schema.ts'
import { localFileStorage, type FileStorage } from '#app/storage/file-storage.server.ts'
import { receiveUpload, type UploadLimits } from '#app/storage/upload-stream.server.ts'
import { createTestDatabase } from '#tests/db.ts'
import { minimalPdf } from '#tests/fixtures/pdf.ts'
import {
	deleteImage,
	findImage,
	generateImage,
	InvalidImageError,
	processImage,
	imageUpload,
	variantWidths,
	type ImageRow,
} from './pipeline.server.ts'

let handle: DatabaseHandle
let dir: string
let root: string
let storage: FileStorage

beforeAll(async () => {
	handle = await createTestDatabase()
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-images-'))
	root = path.join(dir, 'store')
	storage = localFileStorage(root)
})

afterAll(async () => {
	await handle.close()
	fs.rmSync(dir, { recursive: true, force: true })
})

/** Every file kept in storage, wherever it is sharded. */
function storedFiles(): string[] {
	const files = path.join(root, 'files')
	if (!fs.existsSync(files)) return []
	return fs.readdirSync(files, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => entry.name)
}

function tempFiles(): string[] {
	const tmp = path.join(root, 'tmp')
	return fs.existsSync(tmp) ? fs.readdirSync(tmp) : []
}

/** An upload's temp file, as receiveUpload leaves it. */
function upload(bytes: Uint8Array): string {
	const tempPath = storage.tempPath()
	fs.writeFileSync(tempPath, bytes)
	return tempPath
}

function solid(width: number, height: number, background = '#2a6f97') {
	return sharp({ create: { width, height, channels: 3, background } })
}

async function rowCount(): Promise<number> {
	return (await handle.db.select({ id: images.id }).from(images)).length
}

async function variantBytes(row: ImageRow, format: 'avif' | 'webp', width: number): Promise<Buffer> {
	const variant = row.variants.find((item) => item.format === format && item.width === width)
	if (!variant) throw new Error(`no ${width}.${format}`)
	return buffer(await storage.read(variant.key))
}

const widthsOf = (row: ImageRow, format: 'avif' | 'webp') => row.variants.filter((item) => item.format === format).map((item) => item.width)

const exif = {
	IFD0: { Artist: 'Photographer', Copyright: 'Someone', Make: 'Camera maker' },
	IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '24/1 42/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '46/1 40/1 0/1' },
}

describe('processImage', () => {
	test('makes AVIF and WebP at every step up to the original, strips metadata and records the image', { timeout: 60_000 }, async () => {
		const bytes = await solid(2000, 1200).withExif(exif).jpeg().toBuffer()
		expect((await sharp(bytes).metadata()).exif).toBeDefined()
		const tempPath = upload(bytes)

		const row = await processImage(handle.db, storage, { tempPath, originalName: 'جولة ميدانية.jpg', alt: 'متطوعون يوزعون السلال', createdBy: null })
		expect(row).toMatchObject({ originalName: 'جولة ميدانية.jpg', alt: 'متطوعون يوزعون السلال', width: 2000, height: 1200, createdBy: null })
		expect(widthsOf(row, 'avif')).toEqual([320, 640, 1024, 1600])
		expect(widthsOf(row, 'webp')).toEqual([320, 640, 1024, 1600])
		expect(storedFiles()).toHaveLength(8)
		expect(fs.existsSync(tempPath)).toBe(false)
		expect(tempFiles()).toEqual([])

		for (const variant of row.variants) {
			const stored = await buffer(await storage.read(variant.key))
			expect(stored.length).toBe(variant.size)
			const metadata = await sharp(stored).metadata()
			expect(metadata.format).toBe(variant.format === 'avif' ? 'heif' : 'webp')
			if (variant.format === 'avif') expect(metadata.compression).toBe('av1')
			expect(metadata.width).toBe(variant.width)
			expect(metadata.height).toBe(Math.round((variant.width * 1200) / 2000))
			expect(metadata.exif).toBeUndefined()
			expect(metadata.xmp).toBeUndefined()
			expect(metadata.iptc).toBeUndefined()
			expect(stored.includes('Photographer')).toBe(false)
		}

		expect(await findImage(handle.db, row.id)).toEqual(row)
		const [stored] = await handle.db.select().from(images).where(eq(images.id, row.id))
		expect(stored?.variants).toEqual(row.variants)
	})

	test('applies the EXIF orientation, then drops it with the GPS position', { timeout: 60_000 }, async () => {
		// Stored landscape with a red corner top-left; orientation 6 shows it turned a quarter clockwise.
		const red = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#ff0000' } }).png().toBuffer()
		const bytes = await solid(2000, 1200, '#0000ff')
			.composite([{ input: red, top: 0, left: 0 }])
			.withExif(exif)
			.withMetadata({ orientation: 6 })
			.png()
			.toBuffer()
		expect(await sharp(bytes).metadata()).toMatchObject({ width: 2000, height: 1200, orientation: 6 })

		const row = await processImage(handle.db, storage, { tempPath: upload(bytes), originalName: 'photo.png', alt: '', createdBy: null })
		expect(row).toMatchObject({ width: 1200, height: 2000 })
		// 1200 is well past 1024: kept at its own width rather than cut down.
		expect(widthsOf(row, 'webp')).toEqual([320, 640, 1024, 1200])

		const small = await variantBytes(row, 'webp', 320)
		const metadata = await sharp(small).metadata()
		expect(metadata).toMatchObject({ width: 320, height: 533 })
		expect(metadata.orientation).toBeUndefined()
		expect(metadata.exif).toBeUndefined()
		const { data, info } = await sharp(small).raw().toBuffer({ resolveWithObject: true })
		const pixel = (x: number, y: number) => Array.from(data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3))
		const [topRightRed, , topRightBlue] = pixel(310, 10)
		const [topLeftRed, , topLeftBlue] = pixel(10, 10)
		expect(topRightRed).toBeGreaterThan(200)
		expect(topRightBlue).toBeLessThan(60)
		expect(topLeftRed).toBeLessThan(60)
		expect(topLeftBlue).toBeGreaterThan(200)

		const large = await sharp(await variantBytes(row, 'avif', 1200)).metadata()
		expect(large).toMatchObject({ width: 1200, height: 2000 })
		expect(large.exif).toBeUndefined()
	})

	test('a small image gets one width, its own; a GIF gives its first frame', { timeout: 30_000 }, async () => {
		const jpeg = await solid(200, 150).jpeg().toBuffer()
		const row = await processImage(handle.db, storage, { tempPath: upload(jpeg), originalName: 'a.jpg', alt: '', createdBy: null })
		expect(row.variants.map((item) => `${item.width}.${item.format}`).sort()).toEqual(['200.avif', '200.webp'])
		expect(await sharp(await variantBytes(row, 'webp', 200)).metadata()).toMatchObject({ width: 200, height: 150 })

		const frame = (background: string) => sharp({ create: { width: 48, height: 32, channels: 4, background } }).png().toBuffer()
		const gif = await sharp([await frame('#00ff00'), await frame('#ff0000')], { join: { animated: true } }).gif().toBuffer()
		const animated = await processImage(handle.db, storage, { tempPath: upload(gif), originalName: 'a.gif', alt: '', createdBy: null })
		expect(animated).toMatchObject({ width: 48, height: 32 })
		const webp = await sharp(await variantBytes(animated, 'webp', 48)).metadata()
		expect(webp).toMatchObject({ width: 48, height: 32 })
		expect(webp.pages).toBeUndefined()
	})

	test('asked for WebP only (the seed’s demo pages), it makes no AVIF', { timeout: 30_000 }, async () => {
		const tempPath = await generateImage('<svg xmlns="http://www.w3.org/2000/svg" width="800" height="450"><rect width="800" height="450" fill="#2a6f97"/></svg>')
		const row = await processImage(handle.db, storage, { tempPath, originalName: 'page.png', alt: 'صفحة', createdBy: null, formats: ['webp'] })
		expect(widthsOf(row, 'avif')).toEqual([])
		expect(widthsOf(row, 'webp')).toEqual(variantWidths(800, 450))
	})

	test('variant widths never exceed the original', () => {
		expect(variantWidths(2000, 1200)).toEqual([320, 640, 1024, 1600])
		expect(variantWidths(1600, 900)).toEqual([320, 640, 1024, 1600])
		expect(variantWidths(1024, 768)).toEqual([320, 640, 1024])
		expect(variantWidths(1050, 768)).toEqual([320, 640, 1024])
		expect(variantWidths(1000, 750)).toEqual([320, 640, 1000])
		expect(variantWidths(320, 200)).toEqual([320])
		expect(variantWidths(100, 100)).toEqual([100])
		// So tall that WebP could not hold it at the wider steps.
		expect(variantWidths(1000, 40_000)).toEqual([320])
		expect(() => variantWidths(16, 2_000_000)).toThrow(InvalidImageError)
	})

	test('refuses images over 40 megapixels, under 16 pixels a side, or not of an accepted format', { timeout: 30_000 }, async () => {
		const before = await rowCount()
		const cases: [Buffer, InvalidImageError['reason']][] = [
			[await solid(8000, 5001, '#ffffff').png().toBuffer(), 'too-large'],
			[await solid(15, 100).png().toBuffer(), 'too-small'],
			[Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="100" height="100"/></svg>'), 'unreadable'],
			[await solid(100, 100).tiff().toBuffer(), 'unreadable'],
		]
		for (const [bytes, reason] of cases) {
			const tempPath = upload(bytes)
			await expect(processImage(handle.db, storage, { tempPath, originalName: 'x', alt: '', createdBy: null })).rejects.toMatchObject({
				name: 'InvalidImageError',
				reason,
			})
			expect(fs.existsSync(tempPath)).toBe(false)
		}
		expect(await rowCount()).toBe(before)
	})

	test('a broken file leaves no variant, no row and no temp file', { timeout: 30_000 }, async () => {
		const before = { rows: await rowCount(), files: storedFiles() }
		// What file-type takes for a PNG: the signature, then junk.
		const junk = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('not really an image at all '.repeat(20))])
		// A real header, so the size is read, but the pixel data is cut off halfway.
		const png = await solid(900, 600).composite([{ input: await solid(300, 300, '#ff0000').png().toBuffer(), top: 10, left: 10 }]).png({ compressionLevel: 0 }).toBuffer()
		const truncated = png.subarray(0, png.length / 2)
		for (const bytes of [junk, truncated]) {
			const tempPath = upload(bytes)
			const error: unknown = await processImage(handle.db, storage, { tempPath, originalName: 'x.png', alt: '', createdBy: null }).catch((caught: unknown) => caught)
			expect(error).toBeInstanceOf(InvalidImageError)
			expect((error as InvalidImageError).reason).toBe('unreadable')
			expect(fs.existsSync(tempPath)).toBe(false)
		}
		expect(await rowCount()).toBe(before.rows)
		expect(storedFiles()).toEqual(before.files)
		expect(tempFiles()).toEqual([])
	})

	test('a failure after some variants are stored removes them all', { timeout: 30_000 }, async () => {
		const before = { rows: await rowCount(), files: storedFiles() }
		const bytes = await solid(700, 500).png().toBuffer()

		let adopted = 0
		const failing: FileStorage = {
			...storage,
			async adopt(tempPath) {
				if (++adopted === 3) throw new Error('disk full')
				return storage.adopt(tempPath)
			},
		}
		const tempPath = upload(bytes)
		await expect(processImage(handle.db, failing, { tempPath, originalName: 'x.png', alt: '', createdBy: null })).rejects.toThrow('disk full')
		expect(adopted).toBe(3)
		expect(fs.existsSync(tempPath)).toBe(false)
		expect(storedFiles()).toEqual(before.files)
		expect(tempFiles()).toEqual([])

		// Every variant stored, then the database refuses the row (no such user).
		const second = upload(bytes)
		await expect(processImage(handle.db, storage, { tempPath: second, originalName: 'x.png', alt: '', createdBy: 987_654 })).rejects.toThrow()
		expect(fs.existsSync(second)).toBe(false)
		expect(storedFiles()).toEqual(before.files)
		expect(tempFiles()).toEqual([])
		expect(await rowCount()).toBe(before.rows)
	})

	test('deleteImage removes the row and every variant', { timeout: 30_000 }, async () => {
		const before = storedFiles()
		const row = await processImage(handle.db, storage, { tempPath: upload(await solid(400, 300).png().toBuffer()), originalName: 'x.png', alt: '', createdBy: null })
		expect(storedFiles()).toHaveLength(before.length + 4)
		expect(await deleteImage(handle.db, storage, row.id)).toBe(true)
		expect(storedFiles()).toEqual(before)
		expect(await findImage(handle.db, row.id)).toBeUndefined()
		expect(await deleteImage(handle.db, storage, row.id)).toBe(false)
		expect(await deleteImage(handle.db, storage, 'not-a-uuid')).toBe(false)
		expect(await findImage(handle.db, "' or 1=1 --")).toBeUndefined()
	})

	test('generateImage renders SVG for seed code, which goes through the same pipeline', { timeout: 30_000 }, async () => {
		const tempPath = await generateImage('<svg xmlns="http://www.w3.org/2000/svg" width="800" height="450"><rect width="800" height="450" fill="#2a6f97"/></svg>')
		expect((await sharp(tempPath).metadata()).format).toBe('png')
		const row = await processImage(handle.db, storage, { tempPath, originalName: 'demo.png', alt: 'صورة توضيحية', createdBy: null })
		expect(row).toMatchObject({ width: 800, height: 450 })
		expect(widthsOf(row, 'avif')).toEqual([320, 640, 800])
		expect(fs.existsSync(tempPath)).toBe(false)
	})
})

describe('receiveUpload of an image (imageUpload)', () => {
	const receiveImage = (request: Request, store: FileStorage, uploadLimits: UploadLimits) => receiveUpload(request, store, uploadLimits, imageUpload)

	function post(file: { bytes: Uint8Array; name: string; type: string }, fields: Record<string, string> = {}): Request {
		const data = new FormData()
		for (const [name, value] of Object.entries(fields)) data.append(name, value)
		data.append('image', new File([new Uint8Array(file.bytes)], file.name, { type: file.type }))
		return new Request('http://localhost/x', { method: 'POST', body: data })
	}
	const limits = { maxFileBytes: 256 * 1024 }

	test('accepts the accepted formats, judged by their bytes', async () => {
		const samples: [Buffer, string][] = [
			[await solid(40, 30).jpeg().toBuffer(), 'image/jpeg'],
			[await solid(40, 30).png().toBuffer(), 'image/png'],
			[await solid(40, 30).webp().toBuffer(), 'image/webp'],
			[await solid(40, 30).avif().toBuffer(), 'image/avif'],
			[await solid(40, 30).gif().toBuffer(), 'image/gif'],
		]
		for (const [bytes, mime] of samples) {
			// The client's name and type say otherwise: only the bytes count.
			const result = await receiveImage(post({ bytes, name: 'صورة', type: 'application/octet-stream' }, { alt: 'وصف' }), storage, limits)
			expect(result).toMatchObject({ ok: true, fields: { alt: 'وصف' }, file: { mime, originalName: 'صورة', size: bytes.length } })
			if (result.ok && result.file) fs.rmSync(result.file.tempPath)
		}
		expect(tempFiles()).toEqual([])
	})

	test('refuses a text file or a PDF named .png, and a file over the limit, leaving nothing', async () => {
		const text = new TextEncoder().encode('just some text, not an image\n')
		expect(await receiveImage(post({ bytes: text, name: 'photo.png', type: 'image/png' }), storage, limits)).toMatchObject({ ok: false, error: 'not-image' })
		expect(await receiveImage(post({ bytes: minimalPdf(), name: 'photo.png', type: 'image/png' }), storage, limits)).toMatchObject({ ok: false, error: 'not-image' })
		const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>')
		expect(await receiveImage(post({ bytes: svg, name: 'logo.svg', type: 'image/svg+xml' }), storage, limits)).toMatchObject({ ok: false, error: 'not-image' })

		const big = await solid(40, 30).png().toBuffer()
		expect(await receiveImage(post({ bytes: big, name: 'a.png', type: 'image/png' }), storage, { maxFileBytes: big.length - 1 })).toMatchObject({
			ok: false,
			error: 'too-large',
		})
		expect(tempFiles()).toEqual([])
	})

	test('an upload goes on through processImage', { timeout: 30_000 }, async () => {
		const bytes = await solid(500, 400).jpeg().toBuffer()
		const result = await receiveImage(post({ bytes, name: 'C:\\fakepath\\زيارة.jpg', type: 'image/jpeg' }, { alt: 'زيارة' }), storage, limits)
		if (!result.ok || !result.file) throw new Error('expected a file')
		const row = await processImage(handle.db, storage, { tempPath: result.file.tempPath, originalName: result.file.originalName, alt: result.fields.alt ?? '', createdBy: null })
		expect(row).toMatchObject({ originalName: 'زيارة.jpg', alt: 'زيارة', width: 500, height: 400 })
		expect(tempFiles()).toEqual([])
	})
})
