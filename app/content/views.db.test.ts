import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { DatabaseHandle } from '#app/db/client.server.ts'
import { contentEntries, contentViews } from '#app/db/schema.ts'
import { createTestDatabase } from '#tests/db.ts'
import { saveEntry } from './store.server.ts'
import { news } from './types.ts'
import { provideDatabase } from '#app/db/database.server.ts'
import { countViews, flushViews, noteView, viewTag, visitorOf } from './views.server.ts'

let handle: DatabaseHandle
beforeAll(async () => {
	handle = await createTestDatabase()
})
afterAll(() => handle.close())

const browser = 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36'
const secret = 'a key of the test'
/** One visit counted alone: the entry's new count, or null when it did not count. */
const countView = async (_db: unknown, type: typeof news, entryId: string, [address, userAgent]: [string, string]) => {
	const visitor = visitorOf(secret, address, userAgent)
	if (!visitor) return null
	return (await countViews(handle.db, type, [{ entryId, visitor }])).get(entryId) ?? null
}
const visit = (ip: string, userAgent = browser): [string, string] => [ip, userAgent]
const saveNews = (title: string, IsPublish: boolean) => saveEntry(handle.db, news, null, { title, NewsDate: '2026-05-10', details: '<p>نص</p>', IsPublish }, null, 'إدارة الإعلام')
const viewsOf = async (id: string) => (await handle.db.select({ views: contentEntries.views }).from(contentEntries).where(eq(contentEntries.id, id)))[0]!.views

test('a visitor counts once in the window, another visitor counts too, a bot never', async () => {
	const item = await saveNews('خبر للعد', true)
	expect(await countView(handle.db, news, item.id, visit('10.0.0.1'))).toBe(1)
	expect(await countView(handle.db, news, item.id, visit('10.0.0.1'))).toBeNull()
	expect(await viewsOf(item.id)).toBe(1)
	// Same address, another browser: another person behind a shared network.
	expect(await countView(handle.db, news, item.id, visit('10.0.0.2'))).toBe(2)
	expect(await countView(handle.db, news, item.id, visit('10.0.0.3', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'))).toBeNull()
	expect(await countView(handle.db, news, item.id, visit('10.0.0.3', ''))).toBeNull()
	expect(await viewsOf(item.id)).toBe(2)
	// No address is stored: only the keyed hash.
	const visitors = await handle.db.select().from(contentViews).where(eq(contentViews.entryId, item.id))
	expect(visitors).toHaveLength(2)
	for (const row of visitors) expect(row.visitor).not.toContain('10.0.0')
})

test('after the window the same visitor counts again, and old rows of other visitors are purged', async () => {
	const item = await saveNews('خبر قديم الزيارة', true)
	expect(await countView(handle.db, news, item.id, visit('10.0.1.1'))).toBe(1)
	expect(await countView(handle.db, news, item.id, visit('10.0.1.2'))).toBe(2)
	await handle.db
		.update(contentViews)
		.set({ seenAt: sql`now() - interval '7 hours'` })
		.where(eq(contentViews.entryId, item.id))
	expect(await countView(handle.db, news, item.id, visit('10.0.1.1'))).toBe(3)
	// The other visitor's old row went with that visit; the one who came back is kept.
	expect(await handle.db.select().from(contentViews).where(eq(contentViews.entryId, item.id))).toHaveLength(1)
	expect(await countView(handle.db, news, item.id, visit('10.0.1.1'))).toBeNull()
	expect(await viewsOf(item.id)).toBe(3)
	// Old rows of an entry nobody reads any more go too, with any other entry's visit.
	const forgotten = await saveNews('خبر لم يعد يُقرأ', true)
	await countView(handle.db, news, forgotten.id, visit('10.0.1.3'))
	await handle.db.update(contentViews).set({ seenAt: sql`now() - interval '7 hours'` }).where(eq(contentViews.entryId, forgotten.id))
	await countView(handle.db, news, item.id, visit('10.0.1.4'))
	expect(await handle.db.select().from(contentViews).where(eq(contentViews.entryId, forgotten.id))).toHaveLength(0)
})

test('an unpublished, deleted or unknown entry is not counted', async () => {
	const draft = await saveNews('مسودة', false)
	expect(await countView(handle.db, news, draft.id, visit('10.0.2.1'))).toBeNull()
	expect(await viewsOf(draft.id)).toBe(0)
	const gone = await saveNews('محذوف', true)
	await handle.db
		.update(contentEntries)
		.set({ deletedAt: sql`now()` })
		.where(eq(contentEntries.id, gone.id))
	expect(await countView(handle.db, news, gone.id, visit('10.0.2.1'))).toBeNull()
	expect(await countView(handle.db, news, '00000000-0000-4000-8000-000000000000', visit('10.0.2.1'))).toBeNull()
	expect(await countView(handle.db, news, 'not-a-uuid', visit('10.0.2.1'))).toBeNull()
	expect(await handle.db.select().from(contentViews).where(eq(contentViews.entryId, draft.id))).toHaveLength(0)
})

test('visits noted on the way (cache hits) are written together: each visitor once, bots and other tags never', async () => {
	const item = await saveNews('خبر يقرؤه كثيرون', true)
	const other = await saveNews('خبر آخر', true)
	provideDatabase(Promise.resolve(handle.db))
	try {
		const tag = viewTag(news, item.id)
		for (let i = 0; i < 30; i++) noteView(tag, `10.0.3.${i % 10}`, browser)
		noteView(tag, '10.0.3.1', `${browser} another`)
		noteView(tag, '10.0.3.99', 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)')
		noteView(tag, '10.0.3.98', '')
		noteView(viewTag(news, other.id), '10.0.3.1', browser)
		noteView(`slides ${item.id}`, '10.0.3.50', browser)
		noteView('news not-a-uuid', '10.0.3.51', browser)
		await flushViews()
		expect(await viewsOf(item.id)).toBe(11)
		expect(await viewsOf(other.id)).toBe(1)
		// The same visitors again within the window: nothing more.
		for (let i = 0; i < 10; i++) noteView(tag, `10.0.3.${i}`, browser)
		await flushViews()
		expect(await viewsOf(item.id)).toBe(11)
		// Two batches in a row, the second while the first is being written, each visitor in one.
		noteView(tag, '10.0.4.1', browser)
		const first = flushViews()
		noteView(tag, '10.0.4.2', browser)
		await Promise.all([first, flushViews()])
		expect(await viewsOf(item.id)).toBe(13)
	} finally {
		provideDatabase(undefined)
	}
})

test('a batch with one visitor noted twice for one entry counts once (the statement would fail otherwise)', async () => {
	const item = await saveNews('خبر مكرر الزيارة', true)
	const visitor = visitorOf(secret, '10.0.5.1', browser)!
	const counted = await countViews(handle.db, news, [
		{ entryId: item.id, visitor },
		{ entryId: item.id, visitor },
		{ entryId: 'not-a-uuid', visitor },
	])
	expect(counted.get(item.id)).toBe(1)
})
