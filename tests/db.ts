import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import pg from 'pg'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, inject } from 'vitest'
import { openDatabase, type DatabaseHandle } from '#app/db/client.server.ts'
import { provideDatabase } from '#app/db/database.server.ts'
import { testDatabaseUrl, withDatabase } from './postgres.ts'

declare module 'vitest' {
	export interface ProvidedContext {
		/** A migrated, empty PGlite cluster dumped to this file once per run (tests/pglite-global-setup.ts). */
		pgliteTemplate?: string
		/** A migrated, empty PostgreSQL database each test file's database is copied from (tests/postgres-global-setup.ts). */
		postgresTemplate?: string
	}
}

/**
 * A migrated, empty database for one test file: in-memory PGlite, or a new database on the test
 * PostgreSQL server (dropped again by `close`), as the vitest project sets TEST_DB. Each starts
 * from the run's migrated template when there is one: migrating PGlite from nothing took 4–10 s a
 * file, loading the migrated dump 1–3 s. `migrate` then finds nothing left to apply.
 */
export async function createTestDatabase(): Promise<DatabaseHandle> {
	if (process.env.TEST_DB !== 'postgres') {
		const template = inject('pgliteTemplate')
		const handle = await openDatabase(template ? { loadDataDir: new Blob([fs.readFileSync(template)]) } : {})
		await handle.migrate()
		return handle
	}
	const name = `ataa_test_${randomBytes(6).toString('hex')}`
	const template = inject('postgresTemplate')
	const admin = new pg.Client({ connectionString: testDatabaseUrl })
	await admin.connect()
	await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`)
	await admin.end()
	const handle = await openDatabase({ url: withDatabase(testDatabaseUrl, name) })
	await handle.migrate()
	return {
		...handle,
		async close() {
			await handle.close()
			const dropper = new pg.Client({ connectionString: testDatabaseUrl })
			await dropper.connect()
			await dropper.query(`drop database if exists ${name} with (force)`)
			await dropper.end()
		},
	}
}

/**
 * For tests of route modules: a test database that the app's own `getDb()` answers with, for the
 * whole file (opened before the first test, closed after the last).
 */
export function withAppDatabase(): { readonly handle: DatabaseHandle } {
	const current = {} as { handle: DatabaseHandle }
	beforeAll(async () => {
		current.handle = await createTestDatabase()
		provideDatabase(Promise.resolve(current.handle.db))
	})
	afterAll(async () => {
		provideDatabase(undefined)
		await current.handle.close()
	})
	return current
}

/**
 * PostgreSQL only: whether a statement of this database waits on a lock within about five seconds
 * (a second transaction held up by a first, as a race test arranges it).
 */
export async function someoneWaitsOnALock(db: DatabaseHandle['db']): Promise<boolean> {
	for (let tries = 0; tries < 250; tries++) {
		const result = (await db.execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)) as unknown as { rows: { n: number }[] }
		if (result.rows[0]!.n > 0) return true
		await new Promise((resolve) => setTimeout(resolve, 20))
	}
	return false
}
