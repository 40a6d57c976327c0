import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { DatabaseHandle } from '#app/db/client.server.ts'
import { documents, images } from '#app/db/schema.ts'
import { findDocument, storeDocument } from '#app/documents/documents-library.server.ts'
import { createUser } from '#app/domain/staff-users.server.ts'
import { findImage, generateImage, processImage } from '#app/images/pipeline.server.ts'
import { FileNotFoundError } from '#app/storage/file-storage.server.ts'
import { createTestDatabase } from '#tests/db.ts'
import { minimalPdf } from '#tests/fixtures/pdf.ts'
import { stagedFile, temporaryStorage } from '#tests/storage.ts'
import { KEPT_UPLOAD_MS, sweepUnreferencedMedia } from './media-sweep.server.ts'
import { deleteEntry, saveEntry } from './store.server.ts'
import { members, qualityCertificate } from './types.ts'

const { storage, remove } = temporaryStorage('media-sweep')
let handle: DatabaseHandle

beforeAll(async () => {
	handle = await createTestDatabase()
})
afterAll(async () => {
	await handle.close()
	remove()
})

const image = async () =>
	processImage(handle.db, storage, { tempPath: await generateImage('<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="#0f6251"/></svg>'), originalName: 'p.png', alt: '', createdBy: null })

const pdf = () => storeDocument(handle.db, storage, stagedFile(storage, minimalPdf(), 'c.pdf'), null)

test('pictures and PDFs no entry names are deleted with their files once they are old; the rest stay', async () => {
	const now = new Date()
	const old = new Date(now.getTime() - 2 * KEPT_UPLOAD_MS - 60_000)
	const named = await image()
	const namedByDeleted = await image()
	const abandoned = await image()
	const recent = await image()
	const namedPdf = await pdf()
	const abandonedPdf = await pdf()
	await handle.db.update(images).set({ createdAt: old }).where(eq(images.id, named.id))
	await handle.db.update(images).set({ createdAt: old }).where(eq(images.id, namedByDeleted.id))
	await handle.db.update(images).set({ createdAt: old }).where(eq(images.id, abandoned.id))
	await handle.db.update(documents).set({ createdAt: old })

	await saveEntry(handle.db, members, null, { memberName: 'سارة العتيبي', memberPosition: 'عضو', memberImg: named.id }, null)
	const deleted = await saveEntry(handle.db, members, null, { memberName: 'خالد الشهري', memberPosition: 'عضو', memberImg: namedByDeleted.id }, null)
	const editor = await createUser(handle.db, { name: 'محرر', email: 'editor@example.org', mobile: '', roles: ['content_editor'], password: 'Editor-Pass-1' })
	expect(await deleteEntry(handle.db, members, deleted.id, editor.id)).toBe(true)
	await saveEntry(handle.db, qualityCertificate, null, { image: named.id, pdf: namedPdf.id, caption: 'شهادة' }, null)

	expect(await sweepUnreferencedMedia(handle.db, storage, now)).toEqual({ images: 1, documents: 1 })

	expect(await findImage(handle.db, abandoned.id)).toBeUndefined()
	for (const variant of abandoned.variants) await expect(storage.read(variant.key)).rejects.toBeInstanceOf(FileNotFoundError)
	expect(await findDocument(handle.db, abandonedPdf.id)).toBeUndefined()
	await expect(storage.read(abandonedPdf.storageKey)).rejects.toBeInstanceOf(FileNotFoundError)

	// Named by an entry (even a deleted one, kept for the record), or young enough to be saved still.
	for (const kept of [named, namedByDeleted, recent]) {
		expect(await findImage(handle.db, kept.id)).toBeDefined()
		await storage.read(kept.variants[0]!.key).then((stream) => stream.destroy())
	}
	expect(await findDocument(handle.db, namedPdf.id)).toBeDefined()

	// Nothing more to do on a second run.
	expect(await sweepUnreferencedMedia(handle.db, storage, now)).toEqual({ images: 0, documents: 0 })
})
