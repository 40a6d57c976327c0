import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { openDatabase, type DatabaseHandle } from '#app/db/client.server.ts'
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
