import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import pg from 'pg'
import * as schema from './schema.ts'

/** Both drivers expose the same query builder; the app is written against this one type. */
export type Database = NodePgDatabase<typeof schema>

export interface DatabaseHandle {
	db: Database
	kind: 'pglite' | 'postgres'
	migrate(): Promise<void>
	close(): Promise<void>
}

export interface DatabaseOptions {
	/** postgres://… to use a PostgreSQL server; otherwise PGlite. */
	url?: string
	/** PGlite data directory; omitted means in memory. */
	dataDir?: string
}

/** The committed drizzle-kit migrations, found from wherever this module was bundled to. */
function migrationsFolder(): string {
	let dir = path.dirname(fileURLToPath(import.meta.url))
	for (;;) {
		const candidate = path.join(dir, 'drizzle', 'meta', '_journal.json')
		if (fs.existsSync(candidate)) return path.join(dir, 'drizzle')
		const parent = path.dirname(dir)
		if (parent === dir) throw new Error('The drizzle/ migrations folder was not found.')
		dir = parent
	}
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
	if (options.url) {
		const pool = new pg.Pool({ connectionString: options.url, max: 10 })
		let closing = false
		// An idle connection that the server drops (restart, failover) must not crash the process;
		// the pool replaces it on the next query.
		pool.on('error', (error) => {
			if (!closing) console.error('PostgreSQL connection lost:', error.message)
		})
		const db = drizzlePg(pool, { schema })
		return {
			db,
			kind: 'postgres',
			migrate: () => migratePg(db, { migrationsFolder: migrationsFolder() }),
			close: () => {
				closing = true
				return pool.end()
			},
		}
	}
	if (options.dataDir) fs.mkdirSync(options.dataDir, { recursive: true })
	const client = new PGlite({ dataDir: options.dataDir, extensions: { pg_trgm } })
	const db = drizzlePglite(client, { schema })
	return {
		db: db as unknown as Database,
		kind: 'pglite',
		migrate: () => migratePglite(db, { migrationsFolder: migrationsFolder() }),
		close: () => client.close(),
	}
}
