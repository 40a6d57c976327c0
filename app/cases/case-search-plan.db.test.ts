import { and, sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { expect, test } from 'vitest'
import { withAppDatabase } from '#tests/db.ts'
import { searchCondition } from './case-lists.server.ts'

// The staff search by a reference, a national ID's first digits or a mobile is served by indexes
// whatever the database's collation (a plain index serves LIKE 'digits%' only under "C"). The
// planner is told not to scan the table when it has another way: a search no index can serve still
// shows «Seq Scan», so the plan says whether one can (docs/performance.md).

const app = withAppDatabase()

async function plan(query: string): Promise<string> {
	const where = new PgDialect().sqlToQuery(and(searchCondition(query))!)
	const params = where.params.map((value) => `'${String(value).replaceAll("'", "''")}'`)
	const condition = where.sql.replace(/\$(\d+)/g, (_, n: string) => params[Number(n) - 1]!)
	return app.handle.db.transaction(async (tx) => {
		await tx.execute(sql`set local enable_seqscan = off`)
		const rows = (await tx.execute(sql.raw(`explain select id from cases where ${condition}`))) as unknown as { rows: Record<string, string>[] }
		return rows.rows.map((row) => Object.values(row)[0]).join('\n')
	})
}

test.each([
	['a national ID’s first digits', '1076', 'cases_national_id_prefix'],
	['a whole national ID', '1076543212', 'cases_national_id'],
	['a mobile', '0551234567', 'cases_mobile_idx'],
	['a reference’s first characters', 'BHCG', 'cases_reference_prefix'],
])('%s is found through an index, not by reading every case', async (_what, query, index) => {
	const explained = await plan(query)
	expect(explained).not.toMatch(/Seq Scan on cases/)
	expect(explained).toContain(index)
})

