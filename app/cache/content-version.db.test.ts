import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { DatabaseHandle } from '#app/db/client.server.ts'
import { contentEntries, contentVersion, foundationInfo } from '#app/db/schema.ts'
import { createTestDatabase } from '#tests/db.ts'
import { seedDemoContent } from '#app/seed.server.ts'
import { saveEntry } from '#app/content/store.server.ts'
import { news } from '#app/content/types.ts'
import { CONTENT_CHANNEL } from './content-version.server.ts'

// The content version that the page cache and the content memo trust: raised in the same
// transaction as an edit of what public pages show, announced to every listener on commit, and
// left alone by what is not an edit (a counted visit, a case).

let handle: DatabaseHandle
beforeAll(async () => {
	handle = await createTestDatabase()
	await seedDemoContent(handle.db, { cases: false })
})
afterAll(() => handle.close())

const version = async () => (await handle.db.select({ version: contentVersion.version }).from(contentVersion))[0]!.version

/** Notices heard on the channel until `settled` resolves, then a moment for the last to arrive. */
async function heardDuring(action: () => Promise<unknown>): Promise<(string | null)[]> {
	const heard: (string | null)[] = []
	const stop = await handle.listen(CONTENT_CHANNEL, (payload) => heard.push(payload))
	try {
		await action()
		for (let wait = 0; wait < 15 && heard.length === 0; wait++) await new Promise((resolve) => setTimeout(resolve, 20))
		await new Promise((resolve) => setTimeout(resolve, 50))
	} finally {
		await stop()
	}
	return heard
}

test('an edit of foundation info raises the version and is announced with the new number', async () => {
	const before = await version()
	const heard = await heardDuring(() => handle.db.update(foundationInfo).set({ phone: '0112345678' }).where(eq(foundationInfo.id, 1)))
	expect(await version()).toBe(before + 1)
	expect(heard).toEqual([String(before + 1)])
})

test('publishing, editing and deleting an entry each raise it; a counted visit does not', async () => {
	const start = await version()
	const item = await saveEntry(handle.db, news, null, { title: 'خبر للنسخة', NewsDate: '2026-05-10', details: '<p>نص</p>', IsPublish: true }, null, 'إدارة الإعلام')
	const added = await version()
	expect(added).toBeGreaterThan(start)

	const heard = await heardDuring(() => handle.db.update(contentEntries).set({ views: sql`${contentEntries.views} + 1` }).where(eq(contentEntries.id, item.id)))
	expect(heard).toEqual([])
	expect(await version()).toBe(added)

	await saveEntry(handle.db, news, item.id, { title: 'خبر للنسخة، معدّل', NewsDate: '2026-05-10', details: '<p>نص</p>', IsPublish: true }, null)
	const edited = await version()
	expect(edited).toBeGreaterThan(added)
	await handle.db.delete(contentEntries).where(eq(contentEntries.id, item.id))
	expect(await version()).toBeGreaterThan(edited)
})

test('a rolled-back edit announces nothing and leaves the version', async () => {
	const before = await version()
	const heard = await heardDuring(() =>
		handle.db
			.transaction(async (tx) => {
				await tx.update(foundationInfo).set({ phone: '0119999999' }).where(eq(foundationInfo.id, 1))
				throw new Error('rolled back')
			})
			.catch(() => {}),
	)
	expect(heard).toEqual([])
	expect(await version()).toBe(before)
	expect((await handle.db.select({ phone: foundationInfo.phone }).from(foundationInfo))[0]!.phone).not.toBe('0119999999')
})

test('every column of an entry but its counted views and bookkeeping raises the version when changed', async () => {
	// The edit trigger names its columns; a column added later must be named too, or left out here on purpose.
	const result = await handle.db.execute<{ name: string }>(sql`
		select a.attname as name from pg_attribute a
		where a.attrelid = 'content_entries'::regclass and a.attnum > 0 and not a.attisdropped
			and a.attnum <> all ((select t.tgattr from pg_trigger t where t.tgname = 'content_entries_edit_content_version')::int2[])
		order by 1`)
	expect(result.rows.map((row) => row.name)).toEqual(['created_at', 'id', 'updated_by', 'views'])
})
