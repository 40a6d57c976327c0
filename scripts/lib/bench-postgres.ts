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

/** A new, empty database next to `adminUrl`'s: its name (to drop it) and its URL. */
export async function createBenchDatabase(adminUrl: string): Promise<{ name: string; url: string }> {
	const name = `ataa_bench_${randomBytes(5).toString('hex')}`
	await withAdminClient(adminUrl, (client) => client.query(`create database ${name}`))
	const url = new URL(adminUrl)
	url.pathname = `/${name}`
	return { name, url: url.toString() }
}

export async function dropBenchDatabase(adminUrl: string, name: string): Promise<void> {
	await withAdminClient(adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`))
}
