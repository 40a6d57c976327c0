import fs from 'node:fs'
import path from 'node:path'
import { buffer } from 'node:stream/consumers'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { withMedia } from '#app/content/public.server.ts'
import { getSingleton, saveEntry } from '#app/content/store.server.ts'
import { qualityCertificate } from '#app/content/types.ts'
import type { DatabaseHandle } from '#app/db/client.server.ts'
import { generateImage, processImage } from '#app/images/pipeline.server.ts'
import { FileNotFoundError } from '#app/storage/file-storage.server.ts'
import { createTestDatabase } from '#tests/db.ts'
import { minimalPdf } from '#tests/fixtures/pdf.ts'
import { stagedFile, temporaryStorage } from '#tests/storage.ts'
import { deleteDocument, findDocument, storeDocument } from '#app/documents/documents-library.server.ts'

const { dir, storage, remove } = temporaryStorage('documents')
let handle: DatabaseHandle

beforeAll(async () => {
	handle = await createTestDatabase()
})
afterAll(async () => {
	await handle.close()
	remove()
})

const upload = (bytes: Uint8Array, originalName: string) => stagedFile(storage, bytes, originalName)

test('a stored document keeps its bytes and name; ids that are not ours find nothing', async () => {
	const bytes = minimalPdf()
	const row = await storeDocument(handle.db, storage, upload(bytes, 'شهادة الجودة.pdf'), null)
	const found = await findDocument(handle.db, row.id)
	expect(found).toMatchObject({ originalName: 'شهادة الجودة.pdf', size: bytes.length })
	expect(new Uint8Array(await buffer(await storage.read(found!.storageKey)))).toEqual(bytes)
	expect(fs.readdirSync(path.join(dir, 'tmp'))).toEqual([])

	expect(await findDocument(handle.db, 'not-a-uuid')).toBeUndefined()
	expect(await findDocument(handle.db, '00000000-0000-4000-8000-000000000000')).toBeUndefined()

	expect(await deleteDocument(handle.db, storage, row.id)).toBe(true)
	expect(await findDocument(handle.db, row.id)).toBeUndefined()
	await expect(storage.read(row.storageKey)).rejects.toBeInstanceOf(FileNotFoundError)
	expect(await deleteDocument(handle.db, storage, row.id)).toBe(false)
	expect(await deleteDocument(handle.db, storage, 'not-a-uuid')).toBe(false)
})

test('a certificate page gets its image and its PDF, ready to show and download', async () => {
	const image = await processImage(handle.db, storage, { tempPath: await generateImage('<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="#0f6251"/></svg>'), originalName: 'c.png', alt: '', createdBy: null })
	const pdf = await storeDocument(handle.db, storage, upload(minimalPdf(), 'ISO 9001.pdf'), null)
	await saveEntry(handle.db, qualityCertificate, null, { image: image.id, pdf: pdf.id, caption: 'شهادة' }, null)

	const [shown] = await withMedia(handle.db, qualityCertificate, [(await getSingleton(handle.db, qualityCertificate))!])
	expect(shown?.images.image?.id).toBe(image.id)
	expect(shown?.documents.pdf).toEqual({ id: pdf.id, name: 'ISO 9001.pdf', size: minimalPdf().length, mediaType: 'application/pdf', href: `/documents/${pdf.id}` })

	// Without a PDF the page simply offers none.
	await saveEntry(handle.db, qualityCertificate, (await getSingleton(handle.db, qualityCertificate))!.id, { image: image.id, caption: 'شهادة' }, null)
	const [plain] = await withMedia(handle.db, qualityCertificate, [(await getSingleton(handle.db, qualityCertificate))!])
	expect(plain?.documents.pdf).toBeNull()
})
