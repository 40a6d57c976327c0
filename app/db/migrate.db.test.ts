import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { readFileSync } from 'node:fs'
import { and, eq, sql } from 'drizzle-orm'
import { startCase } from '#app/cases/case-store.server.ts'
import { caseSections } from '#app/db/schema.ts'
import { medicalCase } from '#app/forms/definitions/medical-case.ts'
import { basicAnswers, randomNationalId } from '#tests/fixtures/needy-families.ts'
import { describe, expect, it } from 'vitest'
import { openDatabase, MIGRATION_LOCK } from '#app/db/client.server.ts'
import { createTestDatabase } from '#tests/db.ts'
import { testDatabaseUrl, withDatabase } from '#tests/postgres.ts'

describe('migrations', () => {
	it('a second start applies nothing and keeps the data', async () => {
		const handle = await createTestDatabase()
		try {
			await handle.db.execute(sql`insert into app_secrets (name, value) values ('migrate-test', 'kept')`)
			const before = await handle.db.execute<{ count: number }>(sql`select count(*)::int as count from drizzle.__drizzle_migrations`)
			await handle.migrate()
			const after = await handle.db.execute<{ count: number }>(sql`select count(*)::int as count from drizzle.__drizzle_migrations`)
			expect(after.rows[0]!.count).toBe(before.rows[0]!.count)
			const kept = await handle.db.execute<{ value: string }>(sql`select value from app_secrets where name = 'migrate-test'`)
			expect(kept.rows.map((row) => row.value)).toEqual(['kept'])
		} finally {
			await handle.close()
		}
	})

	it('0016 removes the family members saved with no answer, keeping the others in order', async () => {
		const handle = await createTestDatabase()
		try {
			const { row } = await startCase(handle.db, medicalCase, basicAnswers(randomNationalId()))
			const members = [{ _key: 'a'.repeat(16), FamilyName: 'مريم' }, { _key: 'b'.repeat(16) }, { _key: 'c'.repeat(16), Age: 7 }]
			// Saved as the list was before blank rows were refused (app/forms/schema.ts isBlankRow).
			await handle.db.insert(caseSections).values({ caseId: row.id, section: 'family', answers: { members } })
			await handle.db.execute(sql.raw(readFileSync('drizzle/0016_drop_blank_family_members.sql', 'utf8')))
			const [family] = await handle.db.select().from(caseSections).where(and(eq(caseSections.caseId, row.id), eq(caseSections.section, 'family')))
			expect(family!.answers).toEqual({ members: [members[0], members[2]] })
		} finally {
			await handle.close()
		}
	})

	// Several app instances on one PostgreSQL start together (docs/operations.md#upgrades): their
	// migrations must not run side by side. PGlite is one process's database (its data-directory lock).
	if (process.env.TEST_DB !== 'postgres') return
	it('four instances migrating one new database at once apply each migration once, and all start', async () => {
		const name = `ataa_test_${randomBytes(6).toString('hex')}`
		const admin = new pg.Client({ connectionString: testDatabaseUrl })
		await admin.connect()
		await admin.query(`create database ${name}`)
		const handles = await Promise.all([1, 2, 3, 4].map(() => openDatabase({ url: withDatabase(testDatabaseUrl, name) })))
		try {
			const results = await Promise.allSettled(handles.map((handle) => handle.migrate()))
			expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled'])
			const applied = await handles[0]!.db.execute<{ hash: string; times: number }>(sql`select hash, count(*)::int as times from drizzle.__drizzle_migrations group by hash`)
			expect(applied.rows.length).toBeGreaterThan(10)
			expect(applied.rows.every((row) => row.times === 1)).toBe(true)
			// Nobody holds this database's lock once they are done (other test files migrate databases of their own at the same time: their locks are theirs).
			const held = await handles[0]!.db.execute<{ count: number }>(
				sql`select count(*)::int as count from pg_locks where locktype = 'advisory' and objid = ${MIGRATION_LOCK} and database = (select oid from pg_database where datname = current_database())`,
			)
			expect(held.rows[0]!.count).toBe(0)
		} finally {
			await Promise.all(handles.map((handle) => handle.close()))
			await admin.query(`drop database if exists ${name} with (force)`)
			await admin.end()
		}
	})
})
