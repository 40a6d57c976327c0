import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { DatabaseHandle } from '#app/db/client.server.ts'
import { contentEntries, contentViews } from '#app/db/schema.ts'
import { createTestDatabase } from '#tests/db.ts'
import { saveEntry } from './store.server.ts'
import { news } from './types.ts'
import { countView } from './views.server.ts'

let handle: DatabaseHandle
beforeAll(async () => {
	handle = await createTestDatabase()
})
afterAll(() => handle.close())

const browser = 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36'
const visit = (ip: string, userAgent = browser) => new Request('http://localhost/news/x', { headers: { 'x-ataa-client-ip': ip, 'user-agent': userAgent } })
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
