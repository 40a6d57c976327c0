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
import { logger } from '#app/utils/log.server.ts'

/** The process's connection: both drivers expose the same query builder, typed as node-postgres's. */
export type Connection = NodePgDatabase<typeof schema>

/**
 * A transaction opened on the connection. Its own `.transaction()` opens a savepoint, so a store
 * function that opens a transaction works the same when it is handed one.
 */
export type Transaction = Parameters<Parameters<Connection['transaction']>[0]>[0]

/**
 * What every store function takes: the connection, or a transaction already open on it. The app is
 * written against this one type, so a transaction is passed on as it is (no cast).
 */
export type Database = Connection | Transaction

export interface DatabaseHandle {
	db: Connection
	kind: 'pglite' | 'postgres'
	migrate(): Promise<void>
	close(): Promise<void>
	/**
	 * Calls `onMessage` with each NOTIFY on `channel` once its transaction commits, and with `null`
	 * when notices may have been missed (a PostgreSQL connection lost and made again). Resolves once
	 * listening; the function it gives stops.
	 */
	listen(channel: string, onMessage: (payload: string | null) => void): Promise<() => Promise<void>>
	/**
	 * PGlite only: its data directory as a gzipped tar, taken between transactions after a checkpoint,
	 * so it opens as the database stood (a backup of a running server, app/operations/backup.server.ts).
	 */
	dumpDataDir?(): Promise<Blob>
	/** PGlite only: the bytes of its WebAssembly memory (its own heap and shared buffers), apart from V8's. */
	wasmMemoryBytes?(): number
}

export interface DatabaseOptions {
	/** postgres://… to use a PostgreSQL server; otherwise PGlite. */
	url?: string
	/** PGlite data directory; omitted means in memory. */
	dataDir?: string
	/** PGlite in memory only: start from this dump (`dumpDataDir`) instead of an empty cluster (the tests' migrated template, tests/db.ts). */
	loadDataDir?: Blob
}

/** The committed drizzle-kit migrations, found from wherever this module was bundled to. */
export function migrationsFolder(): string {
	let dir = path.dirname(fileURLToPath(import.meta.url))
	for (;;) {
		const candidate = path.join(dir, 'drizzle', 'meta', '_journal.json')
		if (fs.existsSync(candidate)) return path.join(dir, 'drizzle')
		const parent = path.dirname(dir)
		if (parent === dir) throw new Error('The drizzle/ migrations folder was not found.')
		dir = parent
	}
}

/** The advisory lock's number that migrations hold on PostgreSQL: "ATAA" in ASCII. */
export const MIGRATION_LOCK = 0x41544141

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
	if (options.url) {
		const pool = new pg.Pool({ connectionString: options.url, max: 10 })
		let closing = false
		// An idle connection that the server drops (restart, failover) must not crash the process;
		// the pool replaces it on the next query.
		pool.on('error', (error) => {
			if (!closing) logger.error(`PostgreSQL connection lost: ${error.message}`)
		})
		const db = drizzlePg(pool, { schema })
		return {
			db,
			kind: 'postgres',
			migrate: async () => {
				// Several instances may start at once: one migrates at a time, holding a session-level
				// advisory lock on a connection of its own; the others wait for it, then find nothing left
				// to apply. The lock ends with the connection if the process dies mid-migration.
				const lock = await pool.connect()
				try {
					await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK])
					await migratePg(db, { migrationsFolder: migrationsFolder() })
				} finally {
					await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {})
					lock.release()
				}
			},
			listen: (channel, onMessage) => listenPg(options.url!, channel, onMessage),
			close: () => {
				closing = true
				return pool.end()
			},
		}
	}
	if (options.dataDir) fs.mkdirSync(options.dataDir, { recursive: true })
	// PostgreSQL's 128 MB of shared buffers are all touched at start, in the process's own memory:
	// 32 MB hold a foundation's working set, and the operating system's page cache keeps the rest
	// of the files (docs/performance.md, memory).
	const client = new PGlite({ dataDir: options.dataDir, loadDataDir: options.loadDataDir, extensions: { pg_trgm }, startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'] })
	const db = drizzlePglite(client, { schema })
	return {
		db: db as unknown as Connection,
		kind: 'pglite',
		migrate: () => migratePglite(db, { migrationsFolder: migrationsFolder() }),
		listen: async (channel, onMessage) => {
			const stop = await client.listen(channel, onMessage)
			return async () => {
				if (!client.closed) await stop()
			}
		},
		dumpDataDir: async () => {
			// A checkpoint first: the restored copy then starts without replaying the write-ahead log.
			// The dump waits for any transaction under way (PGlite's transaction lock) and holds
			// every query off until it is taken.
			await client.exec('checkpoint')
			return client._runExclusiveTransaction(() => client.dumpDataDir('gzip'))
		},
		// Not in PGlite's typed API: its Emscripten module's heap (docs/operations.md#memory).
		wasmMemoryBytes: () => (client as unknown as { mod?: { HEAPU8?: Uint8Array } }).mod?.HEAPU8?.byteLength ?? 0,
		close: () => client.close(),
	}
}

/**
 * LISTEN on a connection of its own (a pooled one may be handed to a query at any time). A lost
 * connection is made again after a second, and `null` tells the listener it may have missed notices.
 */
async function listenPg(url: string, channel: string, onMessage: (payload: string | null) => void): Promise<() => Promise<void>> {
	let client: pg.Client | undefined
	let stopped = false
	let retry: NodeJS.Timeout | undefined
	const connect = async (): Promise<void> => {
		// keepAlive: a connection dropped silently on the way is found out, and made again.
		const next = new pg.Client({ connectionString: url, keepAlive: true })
		next.on('notification', (message) => {
			if (message.channel === channel) onMessage(message.payload ?? '')
		})
		next.on('error', (error) => {
			if (stopped || client !== next) return
			logger.error(`PostgreSQL LISTEN ${channel} lost: ${error.message}`)
			client = undefined
			void next.end().catch(() => {})
			retry = setTimeout(() => void reconnect(), 1000)
		})
		try {
			await next.connect()
			await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`)
		} catch (error) {
			await next.end().catch(() => {})
			throw error
		}
		if (stopped) {
			await next.end().catch(() => {})
			return
		}
		client = next
	}
	const reconnect = async (): Promise<void> => {
		if (stopped) return
		try {
			await connect()
			onMessage(null)
		} catch {
			retry = setTimeout(() => void reconnect(), 1000)
		}
	}
	await connect()
	return async () => {
		stopped = true
		clearTimeout(retry)
		await client?.end().catch(() => {})
	}
}
