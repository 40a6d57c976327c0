import { randomBytes } from 'node:crypto'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { openDatabase } from '#app/db/client.server.ts'
import { testDatabaseUrl, withDatabase } from './postgres.ts'

async function adminQuery(sql: string) {
	const client = new pg.Client({ connectionString: testDatabaseUrl, connectionTimeoutMillis: 5000 })
	try {
		await client.connect()
		await client.query(sql)
	} finally {
		await client.end().catch(() => {})
	}
}

/**
 * Fails the run loudly when the PostgreSQL half of the suite has no server: it is never skipped
 * silently. Then migrates one database that each test file's database is copied from (tests/db.ts),
 * dropped after the run.
 */
export default async function postgresTemplate(project: TestProject) {
	try {
		await adminQuery('select 1')
	} catch (error) {
		throw new Error(
			`PostgreSQL is not reachable at ${testDatabaseUrl} (${(error as Error).message}).\n` +
				'The data-layer tests must run on PostgreSQL too. Start it (see README, "Running on PostgreSQL"),\n' +
				'set TEST_DATABASE_URL, or — by hand only — SKIP_POSTGRES=1 to leave those tests out.',
		)
	}
	const name = `ataa_test_template_${randomBytes(6).toString('hex')}`
	await adminQuery(`create database ${name}`)
	// Closed before any copy is made: a database is copied only while nobody is connected to it.
	const handle = await openDatabase({ url: withDatabase(testDatabaseUrl, name) })
	try {
		await handle.migrate()
	} finally {
		await handle.close()
	}
	project.provide('postgresTemplate', name)
	return () => adminQuery(`drop database if exists ${name} with (force)`)
}
