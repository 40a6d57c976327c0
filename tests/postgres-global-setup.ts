import pg from 'pg'
import { testDatabaseUrl } from './postgres.ts'

/** Fails the run loudly when the PostgreSQL half of the suite has no server: it is never skipped silently. */
export default async function checkPostgres() {
	const client = new pg.Client({ connectionString: testDatabaseUrl, connectionTimeoutMillis: 5000 })
	try {
		await client.connect()
		await client.query('select 1')
	} catch (error) {
		throw new Error(
			`PostgreSQL is not reachable at ${testDatabaseUrl} (${(error as Error).message}).\n` +
				'The data-layer tests must run on PostgreSQL too. Start it (see README, "Running on PostgreSQL"),\n' +
				'set TEST_DATABASE_URL, or — by hand only — SKIP_POSTGRES=1 to leave those tests out.',
		)
	} finally {
		await client.end().catch(() => {})
	}
}
