// The benches' throw-away PostgreSQL databases, made and dropped on the server of this machine.
import { randomBytes } from 'node:crypto'
import pg from 'pg'

export async function withAdminClient<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
	const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 10_000 })
	await client.connect()
	try {
		return await work(client)
	} finally {
		await client.end()
	}
}

/** A new, empty database next to `adminUrl`'s (named `prefix`_<random>): its name (to drop it) and its URL. */
export async function createBenchDatabase(adminUrl: string, prefix = 'ataa_bench'): Promise<{ name: string; url: string }> {
	if (!/^[a-z_]{1,40}$/.test(prefix)) throw new Error(`not a database name prefix: ${prefix}`)
	const name = `${prefix}_${randomBytes(5).toString('hex')}`
	await withAdminClient(adminUrl, (client) => client.query(`create database ${name}`))
	const url = new URL(adminUrl)
	url.pathname = `/${name}`
	return { name, url: url.toString() }
}

export async function dropBenchDatabase(adminUrl: string, name: string): Promise<void> {
	await withAdminClient(adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`))
}
