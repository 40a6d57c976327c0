import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import type { DatabaseHandle } from '#app/db/client.server.ts'
import type * as fileStorage from '#app/storage/file-storage.server.ts'
import { localFileStorage, type FileStorage } from '#app/storage/file-storage.server.ts'
import { provideDatabase } from '#app/db/database.server.ts'
import { createTestDatabase } from '#tests/db.ts'
import { processImage, type ImageRow } from './pipeline.server.ts'
import { loader } from './serve.ts'

// The route reads the app's database and storage; here they are the test's.
const app = vi.hoisted(() => ({ storage: undefined as unknown }))
vi.mock('#app/storage/file-storage.server.ts', async (importOriginal) => ({
	...(await importOriginal<typeof fileStorage>()),
	getFileStorage: () => app.storage,
}))

let handle: DatabaseHandle
let dir: string
let storage: FileStorage
let row: ImageRow

beforeAll(async () => {
	handle = await createTestDatabase()
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-serve-'))
	storage = localFileStorage(dir)
	provideDatabase(Promise.resolve(handle.db))
	app.storage = storage
	const tempPath = storage.tempPath()
	fs.writeFileSync(tempPath, await sharp({ create: { width: 700, height: 400, channels: 3, background: '#2a6f97' } }).png().toBuffer())
	row = await processImage(handle.db, storage, { tempPath, originalName: 'x.png', alt: '', createdBy: null })
}, 30_000)

afterAll(async () => {
	provideDatabase(undefined)
	await handle.close()
	fs.rmSync(dir, { recursive: true, force: true })
})

function get(id: string, file: string) {
	return loader({ params: { id, file } } as Parameters<typeof loader>[0])
}

describe('GET /images/:id/:file', () => {
	test('streams a variant with its type, length and a cache of a year', async () => {
		for (const variant of row.variants) {
			const response = await get(row.id, `${variant.width}.${variant.format}`)
			expect(response.status).toBe(200)
			expect(response.headers.get('Content-Type')).toBe(`image/${variant.format}`)
			expect(response.headers.get('Content-Length')).toBe(String(variant.size))
			expect(response.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable')
			const body = Buffer.from(await response.arrayBuffer())
			expect(body.length).toBe(variant.size)
			expect((await sharp(body).metadata()).width).toBe(variant.width)
		}
	})

	test('anything else is a 404', async () => {
		const notFound = { init: { status: 404 } }
		await expect(get(row.id, '1024.webp')).rejects.toMatchObject(notFound)
		await expect(get(row.id, '0640.webp')).rejects.toMatchObject(notFound)
		await expect(get(row.id, '640.png')).rejects.toMatchObject(notFound)
		await expect(get(row.id, '640.webp.exe')).rejects.toMatchObject(notFound)
		await expect(get(row.id, '../640.webp')).rejects.toMatchObject(notFound)
		await expect(get('00000000-0000-4000-8000-000000000000', '640.webp')).rejects.toMatchObject(notFound)
		await expect(get('not-a-uuid', '640.webp')).rejects.toMatchObject(notFound)

		// A row whose file is gone (removed by hand, a restore without uploads) is a 404, not an error page.
		const variant = row.variants.find((item) => item.width === 640 && item.format === 'avif')
		if (!variant) throw new Error('no 640.avif')
		await storage.remove(variant.key)
		await expect(get(row.id, '640.avif')).rejects.toMatchObject(notFound)
	})
})
