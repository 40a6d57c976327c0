import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import * as tar from 'tar'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type DatabaseHandle } from '#app/db/client.server.ts'
import { createUser } from '#app/domain/staff-users.server.ts'
import { submittedCase } from '#tests/fixtures/needy-families.ts'
import { testDatabaseUrl, withDatabase } from '#tests/postgres.ts'
import { BACKUP_FORMAT, MANIFEST, verifyArchive, type Manifest } from './backup-archive.server.ts'
import { restoreBackup } from './backup-restore.server.ts'
import { databaseSnapshot, filesSnapshot } from './backup-snapshot.ts'
import { createBackup, knownMigrations, registerBackupCommands } from './backup.server.ts'
import { startControlServer } from './control.server.ts'

const kind = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite'
let root: string
const databases: string[] = []

async function newPostgresDatabase(): Promise<string> {
	const name = `ataa_test_${randomBytes(6).toString('hex')}`
	const admin = new pg.Client({ connectionString: testDatabaseUrl })
	await admin.connect()
	await admin.query(`create database ${name}`)
	await admin.end()
	databases.push(name)
	return withDatabase(testDatabaseUrl, name)
}

/** A data directory (and, on PostgreSQL, a database) of its own, as an instance has. */
async function newInstance(name: string): Promise<{ dataDir: string; databaseUrl: string | undefined }> {
	return { dataDir: path.join(root, name), databaseUrl: kind === 'postgres' ? await newPostgresDatabase() : undefined }
}

const open = (instance: { dataDir: string; databaseUrl: string | undefined }) => openDatabase(instance.databaseUrl ? { url: instance.databaseUrl } : { dataDir: path.join(instance.dataDir, 'pgdata') })
const snapshot = (handle: DatabaseHandle) => databaseSnapshot(async (text) => (await handle.db.execute(sql.raw(text))) as unknown as { rows: Record<string, unknown>[] })

async function snapshotOf(instance: { dataDir: string; databaseUrl: string | undefined }) {
	const handle = await open(instance)
	try {
		return await snapshot(handle)
	} finally {
		await handle.close()
	}
}

let source: { dataDir: string; databaseUrl: string | undefined }
let sourceRows: Record<string, string[]>
let archive: string
let manifest: Manifest
const storedFiles: Record<string, Buffer> = {}

beforeAll(async () => {
	root = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-backup-test-'))
	source = await newInstance('source')
	const handle = await open(source)
	try {
		await handle.migrate()
		await submittedCase(handle.db, { name: 'سارة عبدالله الدوسري' })
		await createUser(handle.db, { name: 'خالد الموظف', email: 'khalid@example.org', mobile: '', roles: ['case_officer'], password: 'A-long-pass-phrase-1', temporary: false })
		sourceRows = await snapshot(handle)
	} finally {
		await handle.close()
	}
	// Stored files as the storage names them (files/ab/cd/<key>), one of them empty.
	for (const size of [0, 1, 70_000, 300_000]) {
		const key = randomBytes(32).toString('hex')
		const file = path.join(source.dataDir, 'uploads', 'files', key.slice(0, 2), key.slice(2, 4), key)
		fs.mkdirSync(path.dirname(file), { recursive: true })
		storedFiles[key] = randomBytes(size)
		fs.writeFileSync(file, storedFiles[key])
	}
	;({ file: archive, manifest } = await createBackup({ ...source, outDir: path.join(root, 'backups') }))
})

afterAll(async () => {
	fs.rmSync(root, { recursive: true, force: true })
	if (!databases.length) return
	const admin = new pg.Client({ connectionString: testDatabaseUrl })
	await admin.connect()
	for (const name of databases) await admin.query(`drop database if exists ${name} with (force)`)
	await admin.end()
})

describe(`a backup (${kind})`, () => {
	it('is one private, timestamped tar with a manifest of every entry’s size and SHA-256', async () => {
		expect(path.basename(archive)).toMatch(/^ataa-backup-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.tar$/)
		expect(fs.statSync(archive).mode & 0o777).toBe(0o600)
		expect(fs.readdirSync(path.dirname(archive))).toEqual([path.basename(archive)])
		expect(manifest).toMatchObject({ format: BACKUP_FORMAT, version: 1, database: { kind, lastMigration: knownMigrations().at(-1)!.tag } })
		const names: string[] = []
		await tar.t({ file: archive, onReadEntry: (entry) => void names.push(entry.path) })
		expect(names[0]).toBe(MANIFEST)
		expect(names.slice(1)).toEqual(manifest.entries.map((entry) => entry.path))
		expect(names[1]).toBe(kind === 'pglite' ? 'database/pgdata.tar.gz' : 'database/postgres.dump')
		for (const [key, bytes] of Object.entries(storedFiles)) {
			const entry = manifest.entries.find((item) => item.path === `files/${key.slice(0, 2)}/${key.slice(2, 4)}/${key}`)
			expect(entry).toEqual({ path: expect.any(String), size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') })
		}
		expect(await verifyArchive(archive)).toEqual(manifest)
	})

	it('restores into an empty instance every row and every file’s bytes', async () => {
		const target = await newInstance('restored')
		await restoreBackup({ archive, ...target })
		expect(await snapshotOf(target)).toEqual(sourceRows)
		expect(filesSnapshot(target.dataDir)).toEqual(filesSnapshot(source.dataDir))
		expect(Object.keys(filesSnapshot(target.dataDir))).toHaveLength(4)
		// The restored data directory holds nothing of the restore's own (no staging folder, no lock).
		expect(fs.readdirSync(target.dataDir).sort()).toEqual(kind === 'pglite' ? ['pgdata', 'uploads'] : ['uploads'])

		// A second restore into it is refused: it is no longer empty.
		await expect(restoreBackup({ archive, ...target })).rejects.toThrow(/already holds files: restore only into an empty data directory/)
		if (kind === 'postgres') {
			await expect(restoreBackup({ archive, dataDir: path.join(root, 'fresh-dir'), databaseUrl: target.databaseUrl })).rejects.toThrow(/already has tables: restore only into an empty database/)
			expect(fs.existsSync(path.join(root, 'fresh-dir'))).toBe(false)
		} else {
			const dataDir = path.join(root, 'half-used')
			fs.mkdirSync(path.join(dataDir, 'pgdata'), { recursive: true })
			fs.writeFileSync(path.join(dataDir, 'pgdata', 'PG_VERSION'), '17\n')
			await expect(restoreBackup({ archive, dataDir, databaseUrl: undefined })).rejects.toThrow(/already holds a database/)
			expect(fs.readdirSync(dataDir)).toEqual(['pgdata'])
		}
		expect(await snapshotOf(target)).toEqual(sourceRows)
	})

	// PostgreSQL is dumped by pg_dump whether a server runs or not: the control socket is PGlite's alone.
	if (kind === 'pglite')
		it('is taken by a running server that holds the embedded database, through its control socket', async () => {
		const handle = await open(source)
		// As a server holds the data directory: its lock names a live process that is not this one.
		fs.writeFileSync(path.join(source.dataDir, 'ataa.lock'), JSON.stringify({ pid: process.ppid, owner: 'server' }))
		registerBackupCommands(handle)
		const stop = await startControlServer(source.dataDir)
		let made: { file: string; manifest: Manifest }
		try {
			made = await createBackup({ ...source, outDir: path.join(root, 'backups-live') })
			// The script neither took the lock nor opened the database: the server's lock is as it was.
			expect(JSON.parse(fs.readFileSync(path.join(source.dataDir, 'ataa.lock'), 'utf8'))).toEqual({ pid: process.ppid, owner: 'server' })
		} finally {
			await stop()
			await handle.close()
			fs.rmSync(path.join(source.dataDir, 'ataa.lock'))
		}
		const target = await newInstance('restored-live')
		await restoreBackup({ archive: made.file, ...target })
		expect(await snapshotOf(target)).toEqual(sourceRows)
		expect(filesSnapshot(target.dataDir)).toEqual(filesSnapshot(source.dataDir))
	})
})

/**
 * A copy of the archive changed by `edit`, which gets the extracted entries' folder and the
 * manifest, and gives the entries to pack, in order (the manifest is written from what it left).
 */
async function altered(name: string, edit: (dir: string, manifest: Manifest) => string[]): Promise<string> {
	const dir = fs.mkdtempSync(path.join(root, 'edit-'))
	await tar.x({ file: archive, cwd: dir })
	const copy = structuredClone(manifest)
	const entries = edit(dir, copy)
	fs.writeFileSync(path.join(dir, MANIFEST), JSON.stringify(copy))
	const file = path.join(root, name)
	await tar.c({ cwd: dir, file, portable: true, noDirRecurse: true }, entries)
	return file
}

describe(`a restore (${kind}) refuses, with one clear line and the target untouched,`, () => {
	// Large enough that its bytes are found only in its own entry (a 1-byte file's byte is also somewhere in the dump).
	const firstFile = () => manifest.entries.find((entry) => entry.path.startsWith('files/') && entry.size >= 1000)!
	const entriesOf = () => [MANIFEST, ...manifest.entries.map((entry) => entry.path)]

	async function expectRefused(file: string, message: RegExp) {
		const target = await newInstance(`target-${randomBytes(4).toString('hex')}`)
		const error = await restoreBackup({ archive: file, ...target }).then(
			() => undefined,
			(caught: unknown) => caught,
		)
		expect(error).toBeInstanceOf(Error)
		expect((error as Error).name).toBe('BackupError')
		expect((error as Error).message).toMatch(message)
		expect((error as Error).message).not.toContain('\n')
		expect(fs.existsSync(target.dataDir), 'the data directory was not even made').toBe(false)
		if (target.databaseUrl) {
			const client = new pg.Client({ connectionString: target.databaseUrl })
			await client.connect()
			const { rows } = await client.query(`select count(*)::int as count from pg_tables where schemaname in ('public', 'drizzle')`)
			await client.end()
			expect(rows[0].count, 'tables in the target database').toBe(0)
		}
	}

	it('an archive with one byte of a file changed', async () => {
		const bytes = fs.readFileSync(archive)
		const content = storedFiles[path.basename(firstFile().path)]!
		const at = bytes.indexOf(content, bytes.indexOf(Buffer.from(firstFile().path)))
		expect(at).toBeGreaterThan(0)
		bytes[at + 100] = bytes[at + 100]! ^ 0xff
		const file = path.join(root, 'one-byte.tar')
		fs.writeFileSync(file, bytes)
		await expectRefused(file, new RegExp(`one-byte.tar is damaged \\(${firstFile().path} does not match its SHA-256 checksum\\); nothing was restored`))
	})

	it('a truncated archive', async () => {
		const bytes = fs.readFileSync(archive)
		const file = path.join(root, 'truncated.tar')
		fs.writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2)))
		await expectRefused(file, /truncated.tar is damaged \(.*\); nothing was restored/)
	})

	it('an archive missing a file its manifest names', async () => {
		const file = await altered('missing.tar', () => entriesOf().filter((entry) => entry !== firstFile().path))
		await expectRefused(file, new RegExp(`missing.tar is damaged \\(${firstFile().path} is missing\\)`))
	})

	it('an archive with a file its manifest does not name', async () => {
		const file = await altered('extra.tar', (dir) => {
			fs.writeFileSync(path.join(dir, 'files', 'extra.pdf'), 'not ours')
			return [...entriesOf(), 'files/extra.pdf']
		})
		await expectRefused(file, /extra.tar is damaged \(it holds files\/extra.pdf, which its manifest.json does not name\)/)
	})

	it('a size that does not match the manifest', async () => {
		const file = await altered('size.tar', (_dir, copy) => {
			copy.entries.find((entry) => entry.path === firstFile().path)!.size += 1
			return entriesOf()
		})
		await expectRefused(file, new RegExp(`size.tar is damaged \\(${firstFile().path} has ${firstFile().size} bytes, not ${firstFile().size + 1}\\)`))
	})

	it('a tar that is not an Ataa backup, a manifest of another format, and a file that is no tar', async () => {
		const foreignDir = fs.mkdtempSync(path.join(root, 'foreign-'))
		fs.writeFileSync(path.join(foreignDir, 'photo.jpg'), randomBytes(2000))
		await tar.c({ cwd: foreignDir, file: path.join(root, 'holiday.tar') }, ['photo.jpg'])
		await expectRefused(path.join(root, 'holiday.tar'), /holiday.tar is not an Ataa backup \(its first entry is photo.jpg, not manifest.json\); nothing was restored/)

		const other = await altered('other-format.tar', (_dir, copy) => {
			;(copy as { format: string }).format = 'another-backup'
			return entriesOf()
		})
		await expectRefused(other, /other-format.tar is not an Ataa backup \(its manifest.json is not an Ataa manifest\)/)

		fs.writeFileSync(path.join(root, 'random.tar'), randomBytes(5000))
		await expectRefused(path.join(root, 'random.tar'), /random.tar is not an Ataa backup \(it is not a tar archive/)
		await expectRefused(path.join(root, 'no-such-file.tar'), /no-such-file.tar does not exist/)
	})

	it('a backup made by a newer version, or of the other kind of database', async () => {
		const newer = await altered('newer.tar', (_dir, copy) => {
			copy.database.lastMigration = '0099_from_the_future'
			return entriesOf()
		})
		await expectRefused(newer, /made by a newer version of Ataa \(its database is at migration 0099_from_the_future/)

		const target = path.join(root, 'other-kind')
		const databaseUrl = kind === 'pglite' ? await newPostgresDatabase() : undefined
		await expect(restoreBackup({ archive, dataDir: target, databaseUrl })).rejects.toThrow(kind === 'pglite' ? /This backup is of the embedded database .*: unset DATABASE_URL to restore it/ : /This backup is of PostgreSQL .*: set DATABASE_URL to an empty PostgreSQL database/)
		expect(fs.existsSync(target)).toBe(false)
	})
})
