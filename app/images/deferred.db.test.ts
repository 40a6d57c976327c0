import fs from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import type { DatabaseHandle } from '#app/db/client.server.ts'
import { provideDatabase } from '#app/db/database.server.ts'
import { images } from '#app/db/schema.ts'
import type * as fileStorage from '#app/storage/file-storage.server.ts'
import type { FileStorage } from '#app/storage/file-storage.server.ts'
import { createTestDatabase } from '#tests/db.ts'
import { temporaryStorage } from '#tests/storage.ts'
import type * as pipelineModule from './pipeline.server.ts'
import { deferredOriginalKey, deleteImage, findImage, generateImage, processImage, type ImageRow } from './pipeline.server.ts'
import { finishDeferredImages, recordDeferredImage, seedPicture } from './deferred.server.ts'
import { toImageData } from './responsive-image.tsx'
import { loader } from './serve.ts'

// Counts the variants encoded, and gives the route the test's storage.
const app = vi.hoisted(() => ({ storage: undefined as unknown, encoded: 0 }))
vi.mock('#app/storage/file-storage.server.ts', async (importOriginal) => ({
	...(await importOriginal<typeof fileStorage>()),
	getFileStorage: () => app.storage,
}))
vi.mock('./pipeline.server.ts', async (importOriginal) => {
	const original = await importOriginal<typeof pipelineModule>()
	return {
		...original,
		encodeAs: (...args: Parameters<typeof original.encodeAs>) => {
			app.encoded++
			return original.encodeAs(...args)
		},
	}
})

let handle: DatabaseHandle
let root: string
let storage: FileStorage
let removeStorage: () => void

beforeAll(async () => {
	handle = await createTestDatabase()
	;({ dir: root, storage, remove: removeStorage } = temporaryStorage('deferred'))
	app.storage = storage
	provideDatabase(Promise.resolve(handle.db))
})

afterAll(async () => {
	provideDatabase(undefined)
	await handle.close()
	removeStorage()
})

/** Every file kept in storage, wherever it is sharded. */
function storedFiles(): string[] {
	const files = path.join(root, 'files')
	if (!fs.existsSync(files)) return []
	return fs
		.readdirSync(files, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => entry.name)
		.sort()
}

function tempFiles(): string[] {
	const tmp = path.join(root, 'tmp')
	return fs.existsSync(tmp) ? fs.readdirSync(tmp) : []
}

const drawing = (width: number, height: number, fill = '#0f6251') =>
	`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="${width}" height="${height}" fill="${fill}"/><circle cx="${width / 2}" cy="${height / 2}" r="${height / 3}" fill="#c08a2b"/></svg>`

function get(id: string, file: string) {
	return loader({ params: { id, file } } as Parameters<typeof loader>[0])
}

describe('deferred images', () => {
	test('are recorded at once with the variants an upload of the same picture gets, none made yet', async () => {
		const svg = drawing(1200, 850)
		const uploaded = await processImage(handle.db, storage, { tempPath: await generateImage(svg), originalName: 'demo.png', alt: 'شهادة', createdBy: null })
		const before = storedFiles()
		app.encoded = 0
		const id = await seedPicture(handle.db, storage, svg, 'شهادة', { formats: ['avif', 'webp'] })
		const row = (await findImage(handle.db, id))!
		expect(app.encoded).toBe(0)
		// The page shows the same: same size, same srcset (widths and formats, in the same order).
		expect({ ...toImageData(row), id: '' }).toEqual({ ...toImageData(uploaded), id: '' })
		expect(row.variants.every((variant) => variant.size === 0 && /^[0-9a-f]{64}$/.test(variant.key))).toBe(true)
		// Only the original was stored.
		expect(storedFiles()).toEqual([...before, deferredOriginalKey(id)].sort())
		expect(tempFiles()).toEqual([])
	})

	test('demo pictures are WebP only unless asked', async () => {
		const row = (await findImage(handle.db, await seedPicture(handle.db, storage, drawing(800, 1100), 'صفحة')))!
		expect(row.variants.map((variant) => `${variant.width}.${variant.format}`)).toEqual(['320.webp', '640.webp', '800.webp'])
	})

	test('a variant is made on its first request, once however many ask at the same time, then read back', async () => {
		const row = (await findImage(handle.db, await seedPicture(handle.db, storage, drawing(960, 720), 'ألبوم', { formats: ['avif', 'webp'] })))!
		const variant = row.variants.find((item) => item.format === 'avif' && item.width === 640)!
		app.encoded = 0
		const responses = await Promise.all(Array.from({ length: 5 }, () => get(row.id, '640.avif')))
		expect(app.encoded).toBe(1)
		const bodies = await Promise.all(responses.map(async (response) => Buffer.from(await response.arrayBuffer())))
		for (const [index, response] of responses.entries()) {
			expect(response.status).toBe(200)
			expect(response.headers.get('Content-Type')).toBe('image/avif')
			expect(response.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable')
			expect(response.headers.get('Content-Length')).toBe(String(bodies[index]!.length))
			expect(bodies[index]!.equals(bodies[0]!)).toBe(true)
		}
		const metadata = await sharp(bodies[0]).metadata()
		expect([metadata.format, metadata.width, metadata.height]).toEqual(['heif', 640, 480])
		expect(storedFiles()).toContain(variant.key)
		expect(tempFiles()).toEqual([])

		const again = await get(row.id, '640.avif')
		expect(Buffer.from(await again.arrayBuffer()).equals(bodies[0]!)).toBe(true)
		expect(app.encoded).toBe(1)
		// Other variants are still to make; a width the image does not have is still a 404.
		await expect(get(row.id, '1024.webp')).rejects.toMatchObject({ init: { status: 404 } })
	})

	test('the background pass makes the rest, removes the originals, and leaves the rows as they were', async () => {
		const rows = await pendingRows()
		expect(rows.length).toBeGreaterThan(0)
		app.encoded = 0
		const finished = await finishDeferredImages(handle.db, storage)
		expect(finished).toBe(rows.length)
		// 640.avif of the album picture was made by its request already.
		expect(app.encoded).toBe(rows.reduce((sum, row) => sum + row.variants.length, 0) - 1)
		for (const row of rows) {
			expect(storedFiles()).not.toContain(deferredOriginalKey(row.id))
			for (const variant of row.variants) {
				expect(storedFiles()).toContain(variant.key)
				const response = await get(row.id, `${variant.width}.${variant.format}`)
				const metadata = await sharp(Buffer.from(await response.arrayBuffer())).metadata()
				expect(metadata.width).toBe(variant.width)
			}
			expect(await findImage(handle.db, row.id)).toEqual(row)
		}
		expect(app.encoded).toBe(rows.reduce((sum, row) => sum + row.variants.length, 0) - 1)
		expect(await finishDeferredImages(handle.db, storage)).toBe(0)
		expect(tempFiles()).toEqual([])
	})

	test('the background pass stops between two variants when asked to', async () => {
		const row = await recordDeferredImage(handle.db, storage, { source: Buffer.from(drawing(1600, 900)), originalName: 'poster.png', alt: '', createdBy: null })
		const controller = new AbortController()
		app.encoded = 0
		const pass = finishDeferredImages(handle.db, storage, controller.signal)
		controller.abort()
		expect(await pass).toBe(0)
		expect(app.encoded).toBeLessThanOrEqual(1)
		expect(storedFiles()).toContain(deferredOriginalKey(row.id))
	})

	test('deleting a deferred image removes its original and whatever variants were made', async () => {
		const id = await seedPicture(handle.db, storage, drawing(700, 500), 'حذف')
		await get(id, '320.webp')
		const row = (await findImage(handle.db, id))!
		expect(await deleteImage(handle.db, storage, id)).toBe(true)
		const left = storedFiles()
		expect(left).not.toContain(deferredOriginalKey(id))
		for (const variant of row.variants) expect(left).not.toContain(variant.key)
		await expect(get(id, '320.webp')).rejects.toMatchObject({ init: { status: 404 } })
	})
})

async function pendingRows(): Promise<ImageRow[]> {
	const rows = await handle.db.select().from(images)
	return rows.filter((row) => row.variants.some((variant) => variant.size === 0) && storedFiles().includes(deferredOriginalKey(row.id)))
}
