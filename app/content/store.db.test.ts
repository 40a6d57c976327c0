import { afterAll, beforeAll, expect, test } from 'vitest'
import type { DatabaseHandle } from '#app/db/client.server.ts'
import { contentEntries } from '#app/db/schema.ts'
import { createTestDatabase } from '#tests/db.ts'
import { countEntries, deleteEntry, entryMonths, getEntry, getSingleton, InvalidContentError, listEntries, saveEntry } from './store.server.ts'
import { chairmanSpeech, committees } from './types.ts'
import { createUser } from '#app/domain/staff-users.server.ts'

let handle: DatabaseHandle
let userId: number
beforeAll(async () => {
	handle = await createTestDatabase()
	userId = (await createUser(handle.db, { name: 'محرر', email: 'editor@example.org', mobile: '', roles: ['content_editor'], password: 'Editor-Pass-1' })).id
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

test('visitors’ queries: published only, Arabic-folded search over title and body, month, newest first, months with counts', async () => {
	const { news } = await import('./types.ts')
	const save = (title: string, NewsDate: string, IsPublish: boolean, details = '<p>نص</p>') => saveEntry(handle.db, news, null, { title, NewsDate, IsPublish, details }, userId, 'محرر الأخبار')
	const march = await save('توزيع السلال الغذائية على الأُسَر', '2025-03-10', true)
	const april = await save('ترميم منازل', '2025-04-02', true, '<p>شراكة مع <strong>جمعية البِرّ</strong> &amp; المتطوعين</p>')
	const draft = await save('مسودة أسرة', '2025-04-20', false)
	const ids = async (query: Parameters<typeof listEntries<typeof news>>[3]) => (await listEntries(handle.db, news, undefined, query)).map((entry) => entry.id)

	expect(await ids({})).toEqual([draft.id, april.id, march.id])
	expect(await ids({ publishedOnly: true })).toEqual([april.id, march.id])
	// «اسرة» finds «الأُسَر» in a title; words in the body are found with their tags gone.
	expect(await ids({ publishedOnly: true, search: 'الاسر' })).toEqual([march.id])
	expect(await ids({ search: 'جمعية البر' })).toEqual([april.id])
	expect(await ids({ search: '& المتطوعين' })).toEqual([april.id])
	// Every word, in any order, not the phrase as typed.
	expect(await ids({ search: 'المتطوعين ترميم' })).toEqual([april.id])
	expect(await ids({ search: 'ترميم الأسر' })).toEqual([])
	expect(await ids({ search: '%' })).toEqual([])
	expect(await ids({ month: '2025-04' })).toEqual([draft.id, april.id])
	expect(await countEntries(handle.db, news, { publishedOnly: true, month: '2025-04' })).toBe(1)
	expect(await entryMonths(handle.db, news, { publishedOnly: true })).toEqual([
		{ month: '2025-04', count: 1 },
		{ month: '2025-03', count: 1 },
	])
	expect(march.authorName).toBe('محرر الأخبار')
	// The author stays whoever edits it later.
	const edited = await saveEntry(handle.db, news, march.id, { title: 'عنوان جديد', NewsDate: '2025-03-10', IsPublish: true, details: '<p>نص</p>' }, userId, 'غيره')
	expect(edited.authorName).toBe('محرر الأخبار')
	expect(await getEntry(handle.db, news, draft.id, { publishedOnly: true })).toBeUndefined()
})
