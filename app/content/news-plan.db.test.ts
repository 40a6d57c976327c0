import { sql } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { withAppDatabase } from '#tests/db.ts'
import { entriesQuery } from './store.server.ts'
import { albums, news, videos } from './types.ts'

// A dated list's page (the news, the albums, the videos, newest first) is read from its index
// (drizzle/0033), a page at a time: it costs the same at 10,000 items as at 12. The planner is told
// not to sort when it has another way, so a list no index orders still shows «Sort»; and the plan
// is the generic one a prepared statement ends with, which an index on a parameter's value cannot serve.

const app = withAppDatabase()

/** The plan PostgreSQL keeps for the prepared statement once it stops planning for each value (a generic plan). */
async function plan(statement: { sql: string; params: unknown[] }): Promise<string> {
	const params = statement.params.map((value) => (typeof value === 'number' ? String(value) : `'${String(value).replaceAll("'", "''")}'`))
	return app.handle.db.transaction(async (tx) => {
		await tx.execute(sql`set local enable_seqscan = off`)
		await tx.execute(sql`set local enable_sort = off`)
		await tx.execute(sql`set local plan_cache_mode = force_generic_plan`)
		await tx.execute(sql.raw(`prepare list_page as ${statement.sql}`))
		const rows = (await tx.execute(sql.raw(`explain execute list_page${params.length ? `(${params.join(', ')})` : ''}`))) as unknown as { rows: Record<string, string>[] }
		await tx.execute(sql`deallocate list_page`)
		return rows.rows.map((row) => Object.values(row)[0]).join('\n')
	})
}

test.each([
	['the news visitors see', news, { publishedOnly: true }, 'content_entries_news_by_date'],
	['the news staff see', news, {}, 'content_entries_news_by_date'],
	['the albums', albums, {}, 'content_entries_albums_by_date'],
	['the videos', videos, {}, 'content_entries_videos_by_date'],
] as const)('%s, a page at a time, are read in their order from an index', async (_what, type, query, index) => {
	const explained = await plan(entriesQuery(app.handle.db, type, { offset: 12, limit: 6 }, query).toSQL())
	expect(explained).not.toMatch(/Sort|Seq Scan/)
	expect(explained).toContain(index)
})
