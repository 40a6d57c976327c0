// The process's database handle. A leaf: it knows only the Database type, so every module may ask
// for the database without importing start-up code (app/bootstrap.server.ts opens, migrates and
// seeds it, then hands it over here).
import { sql } from 'drizzle-orm'
import type { Database } from './client.server.ts'

// Kept on globalThis so the dev server's module reloads reuse one database.
const slot = globalThis as typeof globalThis & { __ataaDatabase?: Promise<Database> }

/** Called by start-up with the database being prepared; requests wait for it. */
export function provideDatabase(database: Promise<Database> | undefined): void {
	slot.__ataaDatabase = database
}

/** The database, once start-up has prepared it. */
export function getDb(): Promise<Database> {
	if (!slot.__ataaDatabase) {
		return Promise.reject(new Error('The database is not open: app/bootstrap.server.ts prepare() must run first.'))
	}
	return slot.__ataaDatabase
}

/** Whether the process's database answers a query (the health and readiness routes); throws when it does not. */
export async function pingDatabase(): Promise<void> {
	const db = await getDb()
	await db.execute(sql`select 1`)
}
