import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll } from 'vitest'
import { openDatabase, type DatabaseHandle } from '#app/db/client.server.ts'
import { provideDatabase } from '#app/db/database.server.ts'
import { testDatabaseUrl, withDatabase } from './postgres.ts'

/**
 * A migrated, empty database for one test file: in-memory PGlite, or a new database on the test
 * PostgreSQL server (dropped again by `close`), as the vitest project sets TEST_DB.
 */
export async function createTestDatabase(): Promise<DatabaseHandle> {
	if (process.env.TEST_DB !== 'postgres') {
		const handle = await openDatabase({})
		await handle.migrate()
		return handle
	}
	const name = `ataa_test_${randomBytes(6).toString('hex')}`
	const admin = new pg.Client({ connectionString: testDatabaseUrl })
	await admin.connect()
	await admin.query(`create database ${name}`)
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
