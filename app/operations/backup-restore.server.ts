import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import pg from 'pg'
import { openDatabase } from '#app/db/client.server.ts'
import { lockDataDir } from '#app/utils/data-dir-lock.server.ts'
import { BackupError, databaseEntry, extractArchive, verifyArchive, type Manifest } from './backup-archive.server.ts'
import { knownMigrations, lastAppliedMigration, libpqConnection, runTool, serverMajorVersion, toolMajorVersion } from './backup.server.ts'

/**
 * `npm run restore -- <archive>` (scripts/restore.ts; docs/operations.md, restore). The archive is
 * read whole and checked against its manifest before anything is written; then the target must be
 * empty (no database, no stored files); then the archive is extracted beside the target, the
 * database restored, and only at the end are the database and files moved into place.
 */

export interface RestoreOptions {
	archive: string
	dataDir: string
	/** PostgreSQL; PGlite in DATA_DIR/pgdata when undefined. */
	databaseUrl: string | undefined
	log?: (line: string) => void
}

const kindName = { pglite: 'the embedded database (PGlite, DATA_DIR/pgdata)', postgres: 'PostgreSQL (DATABASE_URL)' } as const

export async function restoreBackup(options: RestoreOptions): Promise<Manifest> {
	const { archive, dataDir, databaseUrl, log = () => {} } = options
	const manifest = await verifyArchive(archive)
	const files = manifest.entries.length - 1
	log(`${path.basename(archive)}: made ${manifest.createdAt}, ${kindName[manifest.database.kind]}, migration ${manifest.database.lastMigration ?? 'none'}, ${files} files; every checksum matches.`)
	const kind = databaseUrl ? 'postgres' : 'pglite'
	if (manifest.database.kind !== kind) {
		throw new BackupError(
			`This backup is of ${kindName[manifest.database.kind]}, and this restore would go into ${kindName[kind]}: ${manifest.database.kind === 'pglite' ? 'unset DATABASE_URL' : 'set DATABASE_URL to an empty PostgreSQL database'} to restore it.`,
		)
	}
	const last = manifest.database.lastMigration
	if (last !== null && !knownMigrations().some((entry) => entry.tag === last)) {
		throw new BackupError(`This backup was made by a newer version of Ataa (its database is at migration ${last}, which this version does not have): restore it with that version or a later one.`)
	}

	const filesDir = path.join(dataDir, 'uploads', 'files')
	const release = databaseUrl ? () => {} : lockDataDir(dataDir, 'restore')
	try {
		if (!(await isEmptyDir(filesDir))) throw new BackupError(`${filesDir} already holds files: restore only into an empty data directory.`)
		if (!databaseUrl && !(await isEmptyDir(path.join(dataDir, 'pgdata')))) throw new BackupError(`${path.join(dataDir, 'pgdata')} already holds a database: restore only into an empty data directory.`)
		if (databaseUrl) await ensureEmptyPostgres(databaseUrl)

		await fsp.mkdir(dataDir, { recursive: true })
		const staging = await fsp.mkdtemp(path.join(dataDir, '.restore-'))
		try {
			await extractArchive(archive, manifest, staging)
			const dump = path.join(staging, databaseEntry[kind])
			if (databaseUrl) {
				const { dbname, env } = libpqConnection(databaseUrl)
				// One transaction: a failure leaves the database as empty as it was.
				await runTool('pg_restore', ['--no-owner', '--no-privileges', '--no-comments', '--exit-on-error', '--single-transaction', `--dbname=${dbname}`, dump], env)
			} else {
				await loadPglite(dump, path.join(staging, 'pgdata'))
			}
			await checkRestored(manifest, databaseUrl, path.join(staging, 'pgdata'))
			log('Database restored.')
			// Into place: the files, then (PGlite) the database. Same filesystem, so each is one rename.
			await fsp.mkdir(path.dirname(filesDir), { recursive: true })
			await fsp.rm(filesDir, { recursive: true, force: true })
			await fsp.mkdir(path.join(staging, 'files'), { recursive: true })
			await fsp.rename(path.join(staging, 'files'), filesDir)
			if (!databaseUrl) {
				await fsp.rm(path.join(dataDir, 'pgdata'), { recursive: true, force: true })
				await fsp.rename(path.join(staging, 'pgdata'), path.join(dataDir, 'pgdata'))
			}
			log(`Files restored into ${filesDir}.`)
		} finally {
			await fsp.rm(staging, { recursive: true, force: true })
		}
	} finally {
		release()
	}
	return manifest
}

async function isEmptyDir(dir: string): Promise<boolean> {
	try {
		return (await fsp.readdir(dir)).length === 0
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true
		throw error
	}
}

async function ensureEmptyPostgres(databaseUrl: string): Promise<void> {
	const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 })
	try {
		await client.connect()
	} catch (error) {
		throw new BackupError(`Could not connect to DATABASE_URL: ${error instanceof Error ? error.message : error}`)
	}
	try {
		const { rows } = await client.query<{ count: string }>(`select count(*) from pg_tables where schemaname in ('public', 'drizzle')`)
		if (Number(rows[0]!.count) > 0) throw new BackupError(`The database in DATABASE_URL already has tables: restore only into an empty database (createdb a new one).`)
		const [tool, server] = await Promise.all([toolMajorVersion('pg_restore'), serverMajorVersion(client)])
		if (tool < server) throw new BackupError(`pg_restore ${tool} cannot restore into a PostgreSQL ${server} server: install PostgreSQL ${server}'s client tools (on Debian: apt install postgresql-client-${server}) and put them first on the PATH.`)
	} finally {
		await client.end()
	}
}

/** PGlite unpacks its dump (a tar of its data directory) into a new data directory. */
async function loadPglite(dump: string, pgdata: string): Promise<void> {
	const client = new PGlite({ dataDir: pgdata, loadDataDir: await fs.openAsBlob(dump), extensions: { pg_trgm } })
	await client.waitReady
	await client.close()
}

/** The restored database opens and is at the backup's migration. */
async function checkRestored(manifest: Manifest, databaseUrl: string | undefined, pgdata: string): Promise<void> {
	const handle = await openDatabase(databaseUrl ? { url: databaseUrl } : { dataDir: pgdata })
	try {
		const last = await lastAppliedMigration(handle.db)
		if (last !== manifest.database.lastMigration) throw new BackupError(`The restored database is at migration ${last ?? 'none'}, not ${manifest.database.lastMigration ?? 'none'} as the backup says.`)
	} finally {
		await handle.close()
	}
}
