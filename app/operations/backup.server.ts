import { execFile, spawn } from 'node:child_process'
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { migrationsFolder, openDatabase, type Database, type DatabaseHandle } from '#app/db/client.server.ts'
import { lockDataDir } from '#app/utils/data-dir-lock.server.ts'
import { archiveName, BackupError, databaseEntry, hashFile, isEntryPath, writeArchive, type DatabaseKind, type Manifest, type ManifestEntry, BACKUP_FORMAT, BACKUP_VERSION } from './backup-archive.server.ts'
import { ControlCommandError, ControlUnavailableError, registerControlCommand, registerControlStream, requestControl, requestControlStream } from './control.server.ts'

/**
 * `npm run backup` (scripts/backup.ts; docs/operations.md, backups): the database first, then the
 * stored files, so every file a dumped row names is in the archive (a file is written before any
 * row names it). The files are hard-linked into a staging folder before they are read: a file
 * replaced or removed while the archive is written is still archived as it was.
 */

export interface BackupOptions {
	dataDir: string
	/** PostgreSQL; PGlite in DATA_DIR/pgdata when undefined. */
	databaseUrl: string | undefined
	outDir: string
	log?: (line: string) => void
}

export async function createBackup(options: BackupOptions): Promise<{ file: string; manifest: Manifest }> {
	const { dataDir, databaseUrl, outDir, log = () => {} } = options
	const kind: DatabaseKind = databaseUrl ? 'postgres' : 'pglite'
	const createdAt = new Date()
	await fsp.mkdir(dataDir, { recursive: true })
	const staging = await fsp.mkdtemp(path.join(dataDir, '.backup-'))
	try {
		const dumpPath = path.join(staging, databaseEntry[kind])
		await fsp.mkdir(path.dirname(dumpPath), { recursive: true })
		const lastMigration = databaseUrl ? await dumpPostgres(databaseUrl, dumpPath) : await dumpPglite(dataDir, dumpPath, log)
		log(`Database (${kind}) dumped: ${(await fsp.stat(dumpPath)).size} bytes.`)
		const files = await stageFiles(path.join(dataDir, 'uploads', 'files'), path.join(staging, 'files'))
		const entries: ManifestEntry[] = []
		for (const relative of [databaseEntry[kind], ...files]) entries.push({ path: relative, ...(await hashFile(path.join(staging, relative))) })
		const manifest: Manifest = { format: BACKUP_FORMAT, version: BACKUP_VERSION, createdAt: createdAt.toISOString(), database: { kind, lastMigration }, entries }
		const file = await writeArchive(staging, manifest, outDir, archiveName(createdAt))
		log(`Files: ${files.length}. Archive: ${file} (${(await fsp.stat(file)).size} bytes).`)
		return { file, manifest }
	} finally {
		await fsp.rm(staging, { recursive: true, force: true })
	}
}

/**
 * The embedded database: opened by this process when no server holds it, otherwise dumped by the
 * server itself on request over its control socket (app/operations/control.server.ts).
 */
async function dumpPglite(dataDir: string, target: string, log: (line: string) => void): Promise<string | null> {
	const pgdata = path.join(dataDir, 'pgdata')
	if (!fs.existsSync(path.join(pgdata, 'PG_VERSION'))) throw new BackupError(`There is no database in ${pgdata}: is DATA_DIR right?`)
	let release: () => void
	try {
		release = lockDataDir(dataDir, 'backup')
	} catch (lockError) {
		// A server holds the data directory: it makes the dump.
		try {
			const lastMigration = JSON.parse(await requestControl(dataDir, 'last-migration')) as string | null
			const out = fs.createWriteStream(target)
			for await (const chunk of requestControlStream(dataDir, 'backup-database')) if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()))
			await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())))
			log('The running server made the database dump.')
			return lastMigration
		} catch (error) {
			if (error instanceof ControlUnavailableError) throw new BackupError(`${lockError instanceof Error ? lockError.message : lockError} It does not answer on its control socket ${path.join(dataDir, 'ataa.sock')}.`)
			if (error instanceof ControlCommandError) throw new BackupError(`The server could not dump the database: ${error.message}`)
			throw error
		}
	}
	try {
		const handle = await openDatabase({ dataDir: pgdata })
		try {
			await fsp.writeFile(target, Buffer.from(await (await handle.dumpDataDir!()).arrayBuffer()))
			return await lastAppliedMigration(handle.db)
		} finally {
			await handle.close()
		}
	} finally {
		release()
	}
}

/** The server's side: what `npm run backup` asks a server that holds the embedded database for. */
export function registerBackupCommands(handle: DatabaseHandle): void {
	registerControlCommand('last-migration', async () => JSON.stringify(await lastAppliedMigration(handle.db)))
	registerControlStream('backup-database', async function* () {
		const dump = Buffer.from(await (await handle.dumpDataDir!()).arrayBuffer())
		// In pieces of 1 MB, so the socket's backpressure paces the sending.
		for (let start = 0; start < dump.length; start += 1 << 20) yield dump.subarray(start, start + (1 << 20))
	})
}

interface JournalEntry {
	tag: string
	when: number
}

/** This version's migrations, oldest first (drizzle/meta/_journal.json). */
export function knownMigrations(): JournalEntry[] {
	const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder(), 'meta', '_journal.json'), 'utf8')) as { entries: JournalEntry[] }
	return journal.entries
}

/**
 * The tag of the last migration applied to `db`: drizzle records each one's journal time as its
 * created_at. A time this version does not know (a newer version's) is given as `unknown-<time>`.
 */
export async function lastAppliedMigration(db: Database): Promise<string | null> {
	let rows: { created_at: string | number }[]
	try {
		rows = (await db.execute(sql`select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`)).rows as typeof rows
	} catch {
		return null
	}
	if (!rows[0]) return null
	const when = Number(rows[0].created_at)
	return knownMigrations().find((entry) => entry.when === when)?.tag ?? `unknown-${when}`
}

/** libpq's connection for the client tools: the password in the environment, not on the command line where `ps` shows it. */
export function libpqConnection(databaseUrl: string): { dbname: string; env: NodeJS.ProcessEnv } {
	const url = new URL(databaseUrl)
	const password = decodeURIComponent(url.password)
	url.password = ''
	return { dbname: url.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } }
}

const run = promisify(execFile)

/** The major version of a PostgreSQL client tool (pg_dump, pg_restore) on the PATH. */
export async function toolMajorVersion(tool: 'pg_dump' | 'pg_restore'): Promise<number> {
	let stdout: string
	try {
		stdout = (await run(tool, ['--version'])).stdout
	} catch {
		throw new BackupError(`${tool} was not found: install PostgreSQL's client tools (on Debian: apt install postgresql-client).`)
	}
	const major = /\(PostgreSQL\)\s+(\d+)/.exec(stdout)?.[1]
	if (!major) throw new BackupError(`${tool} --version said "${stdout.trim()}", not a PostgreSQL version.`)
	return Number(major)
}

export async function serverMajorVersion(client: pg.Client): Promise<number> {
	const { rows } = await client.query<{ server_version_num: string }>('show server_version_num')
	return Math.floor(Number(rows[0]!.server_version_num) / 10_000)
}

/** Runs a client tool; its last lines of errors become the BackupError's message. */
export function runTool(tool: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
	return new Promise((resolve, reject) => {
		const child = spawn(tool, args, { env, stdio: ['ignore', 'ignore', 'pipe'] })
		let stderr = ''
		child.stderr.on('data', (chunk: Buffer) => {
			stderr = (stderr + chunk.toString('utf8')).slice(-4000)
		})
		child.on('error', (error) => reject(new BackupError(`${tool} could not be run: ${error.message}`)))
		child.on('close', (code) => {
			if (code === 0) resolve()
			else reject(new BackupError(`${tool} failed: ${stderr.trim().split('\n').slice(-3).join(' ') || `exit code ${code}`}`))
		})
	})
}

/** pg_dump's custom format: consistent by itself (one snapshot), while the server keeps serving. */
async function dumpPostgres(databaseUrl: string, target: string): Promise<string | null> {
	const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 })
	try {
		await client.connect()
	} catch (error) {
		throw new BackupError(`Could not connect to DATABASE_URL: ${error instanceof Error ? error.message : error}`)
	}
	let lastMigration: string | null
	try {
		const [tool, server] = await Promise.all([toolMajorVersion('pg_dump'), serverMajorVersion(client)])
		if (tool < server) throw new BackupError(`pg_dump ${tool} cannot dump a PostgreSQL ${server} server: install PostgreSQL ${server}'s client tools (on Debian: apt install postgresql-client-${server}) and put them first on the PATH.`)
		const { rows } = await client.query<{ created_at: string }>(`select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`).catch(() => ({ rows: [] as { created_at: string }[] }))
		const when = rows[0] ? Number(rows[0].created_at) : undefined
		lastMigration = when === undefined ? null : (knownMigrations().find((entry) => entry.when === when)?.tag ?? `unknown-${when}`)
	} finally {
		await client.end()
	}
	const { dbname, env } = libpqConnection(databaseUrl)
	await runTool('pg_dump', ['--format=custom', `--file=${target}`, `--dbname=${dbname}`], env)
	return lastMigration
}

/**
 * Hard-links every stored file into `staging` (a copy when the two are on different filesystems);
 * a file removed meanwhile is left out. Returns their paths as the archive names them (files/…).
 */
async function stageFiles(filesDir: string, staging: string): Promise<string[]> {
	let names: string[]
	try {
		names = (await fsp.readdir(filesDir, { recursive: true })).sort()
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
		throw error
	}
	const staged: string[] = []
	for (const name of names) {
		const source = path.join(filesDir, name)
		const stat = await fsp.lstat(source).catch(() => undefined)
		if (!stat?.isFile()) continue
		const target = path.join(staging, name)
		await fsp.mkdir(path.dirname(target), { recursive: true })
		try {
			await fsp.link(source, target)
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code
			if (code === 'ENOENT') continue
			if (code !== 'EXDEV' && code !== 'EPERM') throw error
			try {
				await fsp.copyFile(source, target)
			} catch (copyError) {
				if ((copyError as NodeJS.ErrnoException).code === 'ENOENT') continue
				throw copyError
			}
		}
		const entry = `files/${name.split(path.sep).join('/')}`
		if (!isEntryPath(entry)) throw new BackupError(`${source} has a name no backup may hold (letters, digits, ".", "_" and "-" only): move it out of ${filesDir}.`)
		staged.push(entry)
	}
	return staged
}
