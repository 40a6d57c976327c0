import { createHash } from 'node:crypto'
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'
import * as tar from 'tar'
import { z } from 'zod'

/**
 * A backup archive (docs/operations.md, backups): one uncompressed tar whose first entry is
 * manifest.json, then the database's dump under database/, then every stored file under files/
 * (DATA_DIR/uploads/files, as stored: applicants' files stay encrypted). Not compressed: the dump
 * is compressed already, and pictures, PDFs and encrypted files do not shrink.
 */

export const BACKUP_FORMAT = 'ataa-backup'
export const BACKUP_VERSION = 1
export const MANIFEST = 'manifest.json'

/** The dump's name in the archive, by database. */
export const databaseEntry = { pglite: 'database/pgdata.tar.gz', postgres: 'database/postgres.dump' } as const
export type DatabaseKind = keyof typeof databaseEntry

/** Paths an archive may hold: the dump, and files under files/ without "..", hidden or empty segments. */
const entryPath = z.string().regex(/^(database\/(pgdata\.tar\.gz|postgres\.dump)|files(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)+)$/)

/** Whether the archive can hold a file under this path (files/ab/cd/<key>); backup refuses others. */
export const isEntryPath = (value: string) => entryPath.safeParse(value).success

const entrySchema = z.object({ path: entryPath, size: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) })
export type ManifestEntry = z.infer<typeof entrySchema>

const manifestSchema = z.object({
	format: z.literal(BACKUP_FORMAT),
	version: z.literal(BACKUP_VERSION),
	createdAt: z.iso.datetime(),
	database: z.object({
		kind: z.enum(['pglite', 'postgres']),
		/** The last migration applied (drizzle/meta/_journal.json's tag), or null before any. */
		lastMigration: z.string().nullable(),
	}),
	entries: z.array(entrySchema),
})
export type Manifest = z.infer<typeof manifestSchema>

/** What the operator is told, in one line, and the script exits with 1. */
export class BackupError extends Error {
	override name = 'BackupError'
}

export async function hashFile(file: string): Promise<{ size: number; sha256: string }> {
	const hash = createHash('sha256')
	let size = 0
	for await (const chunk of fs.createReadStream(file) as AsyncIterable<Buffer>) {
		hash.update(chunk)
		size += chunk.length
	}
	return { size, sha256: hash.digest('hex') }
}

/** `ataa-backup-2026-05-04T09-30-00Z.tar`: the UTC time, sortable, and valid as a file name everywhere. */
export function archiveName(date: Date): string {
	return `ataa-backup-${date.toISOString().replace(/\.\d+Z$/, 'Z').replaceAll(':', '-')}.tar`
}

/**
 * Writes the archive of what `staging` holds (the dump and the files, named as in `entries`)
 * with its manifest first, under a temporary name in `outDir`, flushes it and only then gives
 * it its name: an archive under its own name is always whole.
 */
export async function writeArchive(staging: string, manifest: Manifest, outDir: string, name: string): Promise<string> {
	await fsp.mkdir(outDir, { recursive: true })
	const target = path.join(outDir, name)
	if (fs.existsSync(target)) throw new BackupError(`${target} exists already; try again in a second.`)
	await fsp.writeFile(path.join(staging, MANIFEST), JSON.stringify(manifest, null, '\t') + '\n')
	const temp = path.join(outDir, `.${name}.${process.pid}.partial`)
	try {
		// portable: no user names or ids of this machine; the files are made by whoever restores.
		await tar.c({ cwd: staging, file: temp, portable: true, noDirRecurse: true }, [MANIFEST, ...manifest.entries.map((entry) => entry.path)])
		const handle = await fsp.open(temp, 'r+')
		try {
			// Applicants' data: readable by the operator's user only, as the data directory itself should be.
			await handle.chmod(0o600)
			await handle.sync()
		} finally {
			await handle.close()
		}
		await fsp.rename(temp, target)
	} catch (error) {
		await fsp.rm(temp, { force: true })
		throw error
	}
	return target
}

/**
 * Reads the whole archive and checks it against its manifest without writing anything: the
 * manifest comes first and is ours, every entry it names is there once with its size and SHA-256,
 * and nothing else is. Throws a BackupError saying whether the file is no Ataa backup or a damaged one.
 */
export async function verifyArchive(file: string): Promise<Manifest> {
	const name = path.basename(file)
	const notOurs = (why: string) => new BackupError(`${name} is not an Ataa backup (${why}); nothing was restored.`)
	const damaged = (why: string) => new BackupError(`${name} is damaged (${why}); nothing was restored. Use another copy of the backup.`)
	let stat: fs.Stats
	try {
		stat = await fsp.stat(file)
	} catch {
		throw new BackupError(`${file} does not exist.`)
	}
	if (!stat.isFile()) throw new BackupError(`${file} is not a file.`)

	let manifest: Manifest | undefined
	let manifestText = ''
	let first = true
	let problem: BackupError | undefined
	const seen = new Map<string, { size: number; sha256: string }>()
	const pending: Promise<void>[] = []
	const fail = (error: BackupError) => {
		problem ??= error
	}
	try {
		await tar.t({
			file,
			strict: true,
			onReadEntry: (entry) => {
				const isFirst = first
				first = false
				if (isFirst) {
					if (entry.path !== MANIFEST || entry.type !== 'File') fail(notOurs(`its first entry is ${entry.path}, not ${MANIFEST}`))
					if (entry.size > 64 * 1024 * 1024) fail(notOurs(`its ${MANIFEST} is too large`))
					entry.on('data', (chunk: Buffer) => {
						if (manifestText.length < 64 * 1024 * 1024) manifestText += chunk.toString('utf8')
					})
					return
				}
				if (entry.type !== 'File') fail(damaged(`it holds ${entry.path}, which is not a file`))
				if (seen.has(entry.path)) fail(damaged(`it holds ${entry.path} twice`))
				const hash = createHash('sha256')
				let size = 0
				entry.on('data', (chunk: Buffer) => {
					hash.update(chunk)
					size += chunk.length
				})
				pending.push(
					new Promise((resolve) =>
						entry.on('end', () => {
							seen.set(entry.path, { size, sha256: hash.digest('hex') })
							resolve()
						}),
					),
				)
			},
		})
	} catch (error) {
		if (first) throw notOurs('it is not a tar archive')
		throw damaged(`it cannot be read to its end: ${error instanceof Error ? error.message : error}`)
	}
	await Promise.all(pending)
	if (problem) throw problem
	if (first) throw notOurs('it is not a tar archive, or an empty one')
	try {
		manifest = manifestSchema.parse(JSON.parse(manifestText))
	} catch (error) {
		const raw = (() => {
			try {
				return JSON.parse(manifestText) as { format?: unknown; version?: unknown }
			} catch {
				return undefined
			}
		})()
		if (raw?.format === BACKUP_FORMAT && raw.version !== BACKUP_VERSION) throw new BackupError(`${name} is an Ataa backup of format version ${String(raw.version)}, which this version of Ataa does not read; nothing was restored.`)
		if (raw?.format === BACKUP_FORMAT) throw damaged(`its ${MANIFEST} is not valid: ${error instanceof z.ZodError ? error.issues[0]?.message : 'not JSON'}`)
		throw notOurs(`its ${MANIFEST} is not an Ataa manifest`)
	}
	const expected = new Map(manifest.entries.map((entry) => [entry.path, entry]))
	if (expected.size !== manifest.entries.length) throw damaged(`its ${MANIFEST} names a path twice`)
	const dumps = manifest.entries.filter((entry) => entry.path.startsWith('database/'))
	if (dumps.length !== 1 || dumps[0]!.path !== databaseEntry[manifest.database.kind]) throw damaged(`its ${MANIFEST} does not name the ${manifest.database.kind} database's dump`)
	for (const entry of manifest.entries) {
		const found = seen.get(entry.path)
		if (!found) throw damaged(`${entry.path} is missing`)
		if (found.size !== entry.size) throw damaged(`${entry.path} has ${found.size} bytes, not ${entry.size}`)
		if (found.sha256 !== entry.sha256) throw damaged(`${entry.path} does not match its SHA-256 checksum`)
	}
	for (const found of seen.keys()) if (!expected.has(found)) throw damaged(`it holds ${found}, which its ${MANIFEST} does not name`)
	return manifest
}

/**
 * Extracts a verified archive's entries into `dir` (new and empty) and checks them once more as
 * written, in case the archive changed since it was verified.
 */
export async function extractArchive(file: string, manifest: Manifest, dir: string): Promise<void> {
	const names = new Set(manifest.entries.map((entry) => entry.path))
	await fsp.mkdir(dir, { recursive: true })
	await tar.x({ file, cwd: dir, strict: true, preserveOwner: false, filter: (entryPath) => names.has(entryPath) })
	for (const entry of manifest.entries) {
		const written = await hashFile(path.join(dir, entry.path)).catch(() => undefined)
		if (written?.sha256 !== entry.sha256 || written.size !== entry.size) throw new BackupError(`${path.basename(file)} changed while it was restored (${entry.path}); nothing was restored.`)
	}
}
