import { afterAll, beforeAll, expect, test } from 'vitest'
import type { DatabaseHandle } from '#app/db/client.server.ts'
import { contentEntries } from '#app/db/schema.ts'
import { createTestDatabase } from '#tests/db.ts'
import { countEntries, deleteEntry, getSingleton, InvalidContentError, listEntries, saveEntry } from './store.server.ts'
import { chairmanSpeech, committees } from './types.ts'
import { createUser } from '#app/domain/users.server.ts'

let handle: DatabaseHandle
let userId: number
beforeAll(async () => {
	handle = await createTestDatabase()
	userId = (await createUser(handle.db, { name: 'محرر', email: 'editor@example.org', mobile: '', role: 'content_editor', password: 'Editor-Pass-1' })).id
})
afterAll(() => handle.close())

test('entries are validated by their content type, ordered, and soft-deleted', async () => {
	await expect(saveEntry(handle.db, committees, null, { name: '' }, userId)).rejects.toBeInstanceOf(InvalidContentError)
	const second = await saveEntry(handle.db, committees, null, { name: 'لجنة ب', members: 'أ', duties: '<p>مهام</p>', order: '٢' }, userId)
	const first = await saveEntry(handle.db, committees, null, { name: 'لجنة أ', members: 'ب', duties: '<p>مهام</p>', order: 1, extra: 'dropped' }, userId)
	expect(first.data).not.toHaveProperty('extra')
	expect((await listEntries(handle.db, committees)).map((entry) => entry.id)).toEqual([first.id, second.id])

	await saveEntry(handle.db, committees, first.id, { name: 'لجنة أ المعدلة', members: 'ب', duties: '<p>مهام</p>', order: 3 }, userId)
	expect((await listEntries(handle.db, committees)).map((entry) => (entry.data as { name: string }).name)).toEqual(['لجنة ب', 'لجنة أ المعدلة'])

	expect(await deleteEntry(handle.db, committees, second.id, userId)).toBe(true)
	expect(await deleteEntry(handle.db, committees, second.id, userId)).toBe(false)
	expect(await countEntries(handle.db, committees)).toBe(1)
	// Kept in the table for the record.
	expect((await handle.db.select().from(contentEntries)).length).toBe(2)
})

test('a singleton has one entry that is replaced', async () => {
	expect(await getSingleton(handle.db, chairmanSpeech)).toBeUndefined()
	const entry = await saveEntry(handle.db, chairmanSpeech, null, { chairmanName: 'د. عبدالرحمن', CEOspeechDetails: '<p>كلمة</p>' }, userId)
	await saveEntry(handle.db, chairmanSpeech, entry.id, { chairmanName: 'د. عبدالرحمن', CEOspeechDetails: '<p>كلمة محدثة</p>' }, userId)
	expect(((await getSingleton(handle.db, chairmanSpeech))!.data as { CEOspeechDetails: string }).CEOspeechDetails).toBe('<p>كلمة محدثة</p>')
	await expect(saveEntry(handle.db, chairmanSpeech, null, { chairmanName: 'x' }, userId)).rejects.toBeInstanceOf(InvalidContentError)
})
