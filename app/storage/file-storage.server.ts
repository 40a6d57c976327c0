import { randomBytes, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import fsp, { type FileHandle } from 'node:fs/promises'
import path from 'node:path'
import { PassThrough, Readable, pipeline as pipeStreams } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { getEnv } from '#app/utils/env.server.ts'
import { createEncryptStream, HEADER_LENGTH, isEncrypted, loadFileKeys, readEncrypted, type FileKeyring } from './encryption.server.ts'
import type { S3StorageOptions } from './s3-storage.server.ts'

/** What a caller records about a kept file. */
export interface StoredFile {
	key: string
	size: number
	sha256: string
}

export interface FileStorage {
	/** Moves a finished temp file into storage under a new random key. */
	adopt(tempPath: string): Promise<string>
	/**
	 * Moves a finished temp file into storage under a key chosen by the caller, replacing any file
	 * there in one step (a reader sees the old file or the new one, never part of one). Unless
	 * `durable`, nothing is flushed to disk: for files that can be made again (an image's variants).
	 */
	place(tempPath: string, key: string, options?: { durable?: boolean }): Promise<void>
	/**
	 * The file, or the bytes `start`..`end` of it (both included, as HTTP ranges count). Throws
	 * FileNotFoundError when there is no such file (or the key is not a key at all).
	 */
	read(key: string, range?: { start: number; end: number }): Promise<Readable>
	/** No error when the file is already gone. */
	remove(key: string): Promise<void>
	/** A new unique path in the storage's own temp dir, on the same filesystem so adopt's rename is atomic. */
	tempPath(): string
	/** Removes temp files older than `maxAgeMs` (left by a crash mid-upload); returns how many. */
	sweepTemp(maxAgeMs: number): Promise<number>
	/** Whether files can be written now (for /readyz): the storage's temp dir exists and is writable. */
	writable(): Promise<boolean>
}

export class FileNotFoundError extends Error {
	override name = 'FileNotFoundError'
}

const keyPattern = /^[0-9a-f]{64}$/

/** Whether a driver's local temp dir (where uploads are written before they are kept) can be written now. */
export async function tempDirWritable(tmpDir: string): Promise<boolean> {
	try {
		await fsp.mkdir(tmpDir, { recursive: true })
		await fsp.access(tmpDir, fs.constants.W_OK)
		return true
	} catch {
		return false
	}
}

/** Removes a driver's temp files older than `maxAgeMs` (left by a crash mid-upload); returns how many. */
export async function sweepTempDir(tmpDir: string, maxAgeMs: number): Promise<number> {
	let names: string[]
	try {
		names = await fsp.readdir(tmpDir)
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0
		throw error
	}
	const cutoff = Date.now() - maxAgeMs
	let removed = 0
	for (const name of names) {
		const file = path.join(tmpDir, name)
		const stat = await fsp.stat(file).catch(() => undefined)
		if (!stat?.isFile() || stat.mtimeMs >= cutoff) continue
		await fsp.rm(file, { force: true })
		removed++
	}
	return removed
}

/** A storage driver (local disk, or S3 by STORAGE_URL), with what the encrypting storage and the key rotation need besides. */
export interface FileStorageDriver extends FileStorage {
	kind: 'local' | 's3'
	/** The stored file's length in bytes; throws FileNotFoundError when there is no such file. */
	size(key: string): Promise<number>
	/**
	 * Where the file of this key is (or would be) on local disk; throws FileNotFoundError for what is
	 * not a key. S3 keeps no local files: there it always throws (key rotation is local-disk only).
	 */
	filePath(key: string): string
	/** Every stored file's key, walking the shard directories (temp files are not stored files). */
	keys(): AsyncGenerator<string>
}

/** The local-disk storage, under DATA_DIR/uploads unless STORAGE_URL says otherwise. */
export interface LocalFileStorage extends FileStorageDriver {
	kind: 'local'
}

export function localFileStorage(root: string): LocalFileStorage {
	const filesDir = path.resolve(root, 'files')
	const tmpDir = path.resolve(root, 'tmp')

	// Keys come from URLs and the database: check them before they go anywhere near a path.
	function filePath(key: string): string {
		if (!keyPattern.test(key)) throw new FileNotFoundError('Not a file key.')
		return path.join(filesDir, key.slice(0, 2), key.slice(2, 4), key)
	}

	async function place(tempPath: string, key: string, { durable = false }: { durable?: boolean } = {}): Promise<void> {
		// Only our own temp files: anything else would be moved out from under its owner.
		if (path.dirname(path.resolve(tempPath)) !== tmpDir) throw new Error(`${tempPath} is not a temp file of this storage.`)
		const target = filePath(key)
		if (durable) {
			const handle = await fsp.open(tempPath, 'r+')
			try {
				await handle.sync()
			} finally {
				await handle.close()
			}
		}
		const dir = path.dirname(target)
		const firstCreated = await fsp.mkdir(dir, { recursive: true })
		await fsp.rename(tempPath, target)
		if (!durable) return
		// The rename lives in the shard dir; a newly made shard dir is in turn an entry of its parent.
		for (let current = dir; ; current = path.dirname(current)) {
			await syncDirectory(current)
			if (!firstCreated || current === path.dirname(firstCreated)) break
		}
	}

	return {
		kind: 'local',

		filePath,

		async *keys() {
			for (const first of await listDir(filesDir)) {
				for (const second of await listDir(path.join(filesDir, first))) {
					for (const name of await listDir(path.join(filesDir, first, second))) {
						if (keyPattern.test(name) && name.startsWith(first + second)) yield name
					}
				}
			}
		},

		async adopt(tempPath) {
			const key = randomBytes(32).toString('hex')
			await place(tempPath, key, { durable: true })
			return key
		},

		place,

		async read(key, range) {
			try {
				const handle = await fsp.open(filePath(key), 'r')
				return handle.createReadStream(range)
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new FileNotFoundError(`No file ${key}.`)
				throw error
			}
		},

		async size(key) {
			try {
				return (await fsp.stat(filePath(key))).size
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new FileNotFoundError(`No file ${key}.`)
				throw error
			}
		},

		async remove(key) {
			await fsp.rm(filePath(key), { force: true })
		},

		tempPath() {
			fs.mkdirSync(tmpDir, { recursive: true })
			return path.join(tmpDir, randomUUID())
		},

		writable: () => tempDirWritable(tmpDir),

		sweepTemp: (maxAgeMs) => sweepTempDir(tmpDir, maxAgeMs),
	}
}

async function listDir(dir: string): Promise<string[]> {
	try {
		return (await fsp.readdir(dir)).sort()
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return []
		throw error
	}
}

async function syncDirectory(dir: string): Promise<void> {
	const handle = await fsp.open(dir, 'r')
	try {
		await handle.sync()
	} finally {
		await handle.close()
	}
}

/**
 * Storage that keeps files encrypted (app/storage/encryption.server.ts) in `local` (either driver),
 * under the keys `keys()` gives (asked for on the first file written or read, so that removing a
 * file needs none). A file stored before encryption, with no encrypted header, is read as it is.
 * Temp files are plaintext, as the upload reader writes them: `adopt` and `place` encrypt them into
 * new temp files (local disk with either driver) and remove them.
 */
export function encryptedFileStorage(local: FileStorageDriver, keys: () => FileKeyring): FileStorage {
	/** The temp file encrypted into a new temp file; the plaintext one is removed, whatever happens. */
	async function encrypt(tempPath: string): Promise<string> {
		const encrypted = local.tempPath()
		try {
			await pipeline(fs.createReadStream(tempPath), createEncryptStream(keys().current), fs.createWriteStream(encrypted, { flags: 'wx' }))
			return encrypted
		} catch (error) {
			await fsp.rm(encrypted, { force: true })
			throw error
		} finally {
			await fsp.rm(tempPath, { force: true })
		}
	}

	async function withEncrypted<T>(tempPath: string, store: (encrypted: string) => Promise<T>): Promise<T> {
		const encrypted = await encrypt(tempPath)
		try {
			return await store(encrypted)
		} catch (error) {
			await fsp.rm(encrypted, { force: true })
			throw error
		}
	}

	return {
		adopt: (tempPath) => withEncrypted(tempPath, (encrypted) => local.adopt(encrypted)),
		place: (tempPath, key, options) => withEncrypted(tempPath, (encrypted) => local.place(encrypted, key, options)),

		async read(key, range) {
			if (local.kind !== 'local') return readThrough(local, key, keys, range)
			let handle: FileHandle
			try {
				handle = await fsp.open(local.filePath(key), 'r')
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new FileNotFoundError(`No file ${key}.`)
				throw error
			}
			try {
				const head = Buffer.alloc(HEADER_LENGTH)
				const { bytesRead } = await handle.read(head, 0, HEADER_LENGTH, 0)
				if (!isEncrypted(head.subarray(0, bytesRead))) return handle.createReadStream({ start: range?.start ?? 0, end: range?.end })
				return await readEncrypted(handle, (await handle.stat()).size, keys(), range)
			} catch (error) {
				await handle.close()
				throw error
			}
		},

		remove: (key) => local.remove(key),
		tempPath: () => local.tempPath(),
		sweepTemp: (maxAgeMs) => local.sweepTemp(maxAgeMs),
		writable: () => local.writable(),
	}
}

/**
 * An encrypted file read through the FileStorage interface alone (a driver with no local file to
 * hold open): the header, then only the sealed chunks the range needs, as readEncrypted reads them
 * from a file handle. A file replaced between the two reads fails its authentication (the new
 * file's salt differs): the reader gets an error, never a mix of the two files.
 */
async function readThrough(driver: FileStorageDriver, key: string, keys: () => FileKeyring, range?: { start: number; end: number }): Promise<Readable> {
	const size = await driver.size(key)
	// A zero-length object has no byte to ask a range of (S3 answers 416): as the local file, an empty stream.
	if (size === 0) return Readable.from([])
	const chunks: Buffer[] = []
	for await (const chunk of await driver.read(key, { start: 0, end: Math.min(size, HEADER_LENGTH) - 1 })) chunks.push(chunk as Buffer)
	const head = Buffer.concat(chunks)
	if (!isEncrypted(head)) return driver.read(key, range)
	const handle = {
		async read(buffer: Buffer, offset: number, length: number, position: number) {
			return { bytesRead: head.copy(buffer, offset, position, position + length), buffer }
		},
		createReadStream({ start, end }: { start: number; end: number }) {
			const out = new PassThrough()
			driver.read(key, { start, end }).then(
				(source) => pipeStreams(source, out, () => {}),
				(error: Error) => out.destroy(error),
			)
			return out
		},
	}
	return readEncrypted(handle as unknown as FileHandle, size, keys(), range)
}

export type StorageChoice = { kind: 'local'; root: string } | { kind: 's3'; options: S3StorageOptions }

/**
 * Which storage STORAGE_URL asks for: unset, the local disk under DATA_DIR/uploads; or
 * s3://bucket?endpoint=http://127.0.0.1:9000&region=us-east-1&forcePathStyle=true&prefix=ataa/
 * (region else AWS_REGION, else us-east-1; temp files still under DATA_DIR/uploads/tmp).
 */
export function parseStorageUrl(url: string | undefined, dataDir: string, awsRegion?: string): StorageChoice {
	const root = path.join(dataDir, 'uploads')
	if (!url) return { kind: 'local', root }
	let parsed: URL
	try {
		parsed = new URL(url)
	} catch {
		throw new Error(`STORAGE_URL "${url}" is not a URL like s3://bucket?region=…`)
	}
	if (parsed.protocol !== 's3:' || !parsed.hostname) throw new Error(`STORAGE_URL "${url}" must be s3://bucket?endpoint=…&region=…`)
	if (parsed.pathname && parsed.pathname !== '/') throw new Error(`STORAGE_URL "${url}": put a key prefix in ?prefix=, not in the path`)
	const query = parsed.searchParams
	const known = new Set(['endpoint', 'region', 'forcePathStyle', 'prefix'])
	const unknown = [...query.keys()].filter((name) => !known.has(name))
	if (unknown.length) throw new Error(`STORAGE_URL "${url}": unknown parameter ${unknown.join(', ')} (known: ${[...known].join(', ')})`)
	const endpoint = query.get('endpoint') || undefined
	if (endpoint && !/^https?:\/\//.test(endpoint)) throw new Error(`STORAGE_URL "${url}": endpoint must be an http:// or https:// URL`)
	const forcePathStyle = query.get('forcePathStyle')
	if (forcePathStyle !== null && !['true', 'false'].includes(forcePathStyle)) throw new Error(`STORAGE_URL "${url}": forcePathStyle must be true or false`)
	const prefix = query.get('prefix') || undefined
	return {
		kind: 's3',
		options: {
			bucket: parsed.hostname,
			endpoint,
			region: query.get('region') || awsRegion || 'us-east-1',
			// Self-hosted servers rarely have a host name per bucket: path style whenever an endpoint is given.
			forcePathStyle: forcePathStyle === null ? Boolean(endpoint) : forcePathStyle === 'true',
			prefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
			tempDir: path.join(root, 'tmp'),
		},
	}
}

/**
 * The S3 driver, its module (and the AWS SDK) loaded on first use only, so that the local-disk
 * default never loads them (and the S3 module may import this one without a cycle).
 */
function lazyS3Storage(options: S3StorageOptions): FileStorageDriver {
	let loaded: Promise<FileStorageDriver> | undefined
	const driver = () => (loaded ??= import('./s3-storage.server.ts').then((module) => module.s3FileStorage(options)))
	const tmpDir = path.resolve(options.tempDir)
	return {
		kind: 's3',
		filePath() {
			throw new Error('Files kept in S3 have no local path (STORAGE_URL): this needs the local-disk storage.')
		},
		async *keys() {
			yield* (await driver()).keys()
		},
		adopt: async (tempPath) => (await driver()).adopt(tempPath),
		place: async (tempPath, key, placeOptions) => (await driver()).place(tempPath, key, placeOptions),
		read: async (key, range) => (await driver()).read(key, range),
		size: async (key) => (await driver()).size(key),
		remove: async (key) => (await driver()).remove(key),
		// The same directory the S3 driver takes its temp files from (it refuses others).
		tempPath() {
			fs.mkdirSync(tmpDir, { recursive: true })
			return path.join(tmpDir, randomUUID())
		},
		sweepTemp: async (maxAgeMs) => (await driver()).sweepTemp(maxAgeMs),
		writable: async () => (await driver()).writable(),
	}
}

let storage: FileStorageDriver | undefined

/**
 * The app's storage for public files (content pictures, documents, videos), kept as they are:
 * under DATA_DIR/uploads, or in the S3 bucket STORAGE_URL names.
 */
export function getFileStorage(): FileStorageDriver {
	if (!storage) {
		const env = getEnv()
		const choice = parseStorageUrl(env.STORAGE_URL, env.dataDir, process.env.AWS_REGION)
		storage = choice.kind === 'local' ? localFileStorage(choice.root) : lazyS3Storage(choice.options)
	}
	return storage
}

let keyring: FileKeyring | undefined

/** The keys of applicants' files, from the environment (app/storage/encryption.server.ts, loadFileKeys); start-up asks first, so a missing key stops it. */
export function getFileKeys(log?: (line: string) => void): FileKeyring {
	keyring ??= loadFileKeys(getEnv(), log)
	return keyring
}

let caseStorage: FileStorage | undefined

/**
 * Where applicants' files (a case's attachments) are kept: the same storage as public files,
 * encrypted with AES-256-GCM under FILE_ENCRYPTION_KEY (docs/operations.md#encryption-at-rest).
 * Every read, write and removal of an attachment goes through it.
 */
export function getCaseFileStorage(): FileStorage {
	caseStorage ??= encryptedFileStorage(getFileStorage(), () => getFileKeys())
	return caseStorage
}
