import fsp from 'node:fs/promises'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { DatabaseHandle } from '#app/db/client.server.ts'
import { deleteEntry, saveEntry } from '#app/content/store.server.ts'
import { albums, photos } from '#app/content/types.ts'
import { createUser } from '#app/domain/staff-users.server.ts'
import { generateImage } from '#app/images/pipeline.server.ts'
import { createTestDatabase } from '#tests/db.ts'
import { temporaryStorage } from '#tests/storage.ts'
import { addedMessage, addPhotos, albumBySlug, albumCards, albumPhotos, countAlbumPhotos, nextPhotoOrder } from '#app/content/gallery/albums.server.ts'

let handle: DatabaseHandle
let userId: number
const { storage, remove } = temporaryStorage('gallery')

beforeAll(async () => {
	handle = await createTestDatabase()
	userId = (await createUser(handle.db, { name: 'محرر', email: 'gallery@example.org', mobile: '', roles: ['content_editor'], password: 'Editor-Pass-1' })).id
})
afterAll(async () => {
	await handle.close()
	remove()
})

const square = (fill: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="48"><rect width="64" height="48" fill="${fill}"/></svg>`

/** Two generated photos as the upload reader hands them over, and one file it refused. */
async function received() {
	const [a, b] = await Promise.all([generateImage(square('#0f6251')), generateImage(square('#c08a2b'))])
	// Moved into the storage's temp folder, where the upload reader leaves what it receives.
	const staged = async (tempPath: string, originalName: string) => {
		const target = storage.tempPath()
		await fsp.copyFile(tempPath, target)
		await fsp.rm(tempPath)
		return { ok: true as const, file: { tempPath: target, originalName, size: 0, sha256: '', mime: 'image/png' } }
	}
	return [await staged(a, 'أ.png'), { ok: false as const, error: 'not-image', originalName: 'clip.mp4' }, await staged(b, 'ب.png')]
}

test('every album is listed with its photo count and cover; an album’s photos come in their order, deleted ones left out', async () => {
	const older = await saveEntry(handle.db, albums, null, { title: 'ألبوم قديم', slug: 'old-album', date: '2024-01-01' }, userId)
	const newer = await saveEntry(handle.db, albums, null, { title: 'ألبوم جديد', slug: 'new-album', date: '2025-06-01' }, userId)

	expect(await nextPhotoOrder(handle.db, newer.id)).toBe(1)
	const outcome = await addPhotos(handle.db, storage, newer.id, await received(), userId)
	expect(outcome).toEqual({ added: 2, refused: ['«clip.mp4»: الملف ليس صورة. اختر صوراً بصيغة JPEG أو PNG أو WebP أو HEIC.'] })
	expect(addedMessage(outcome)).toBe('تمت إضافة صورتين بنجاح. «clip.mp4»: الملف ليس صورة. اختر صوراً بصيغة JPEG أو PNG أو WebP أو HEIC.')
	expect(await nextPhotoOrder(handle.db, newer.id)).toBe(3)

	const list = await albumPhotos(handle.db, newer.id)
	expect(list.map((photo) => photo.data.order)).toEqual([1, 2])
	expect(list.every((photo) => photo.images.image?.variants.length)).toBe(true)

	// Newest first; the cover is the first photo until one is chosen.
	let cards = await albumCards(handle.db)
	expect(cards.map((card) => [card.slug, card.count])).toEqual([
		['new-album', 2],
		['old-album', 0],
	])
	expect(cards[0]!.cover?.id).toBe(list[0]!.images.image!.id)
	expect(cards[1]!.cover).toBeNull()

	await saveEntry(handle.db, albums, newer.id, { ...newer.data, cover: list[1]!.id }, userId)
	cards = await albumCards(handle.db)
	expect(cards[0]!.cover?.id).toBe(list[1]!.images.image!.id)

	await deleteEntry(handle.db, photos, list[0]!.id, userId)
	expect(await countAlbumPhotos(handle.db, newer.id)).toBe(1)
	expect((await albumCards(handle.db))[0]!.count).toBe(1)
	expect((await albumBySlug(handle.db, 'old-album'))?.id).toBe(older.id)
	expect(await albumBySlug(handle.db, 'missing')).toBeUndefined()
})
