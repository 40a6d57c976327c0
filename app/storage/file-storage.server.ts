import { randomBytes, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import fsp, { type FileHandle } from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { getEnv } from '#app/utils/env.server.ts'
import { createEncryptStream, HEADER_LENGTH, isEncrypted, loadFileKeys, readEncrypted, type FileKeyring } from './encryption.server.ts'

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

/** The local storage, with what the encrypting storage and the key rotation need besides. */
export interface LocalFileStorage extends FileStorage {
	/** Where the file of this key is (or would be); throws FileNotFoundError for what is not a key. */
	filePath(key: string): string
	/** Every stored file's key, walking the shard directories (temp files are not stored files). */
	keys(): AsyncGenerator<string>
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

		async remove(key) {
			await fsp.rm(filePath(key), { force: true })
		},

		tempPath() {
			fs.mkdirSync(tmpDir, { recursive: true })
			return path.join(tmpDir, randomUUID())
		},

		async writable() {
			try {
				await fsp.mkdir(tmpDir, { recursive: true })
				await fsp.access(tmpDir, fs.constants.W_OK)
				return true
			} catch {
				return false
			}
		},

		async sweepTemp(maxAgeMs) {
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
		},
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
 * Storage that keeps files encrypted (app/storage/encryption.server.ts) in `local`, under the keys
 * `keys()` gives (asked for on the first file written or read, so that removing a file needs none).
 * A file stored before encryption, with no encrypted header, is read as it is. Temp files are
 * plaintext, as the upload reader writes them: `adopt` and `place` encrypt them into new temp files
 * and remove them.
 */
export function encryptedFileStorage(local: LocalFileStorage, keys: () => FileKeyring): FileStorage {
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

let storage: LocalFileStorage | undefined

/** The app's storage, under DATA_DIR/uploads: public files (content pictures, documents, videos), kept as they are. */
export function getFileStorage(): LocalFileStorage {
	storage ??= localFileStorage(path.join(getEnv().dataDir, 'uploads'))
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
 * Where applicants' files (a case's attachments) are kept: the same directory as public files,
 * encrypted with AES-256-GCM under FILE_ENCRYPTION_KEY (docs/operations.md#encryption-at-rest).
 * Every read, write and removal of an attachment goes through it.
 */
export function getCaseFileStorage(): FileStorage {
	caseStorage ??= encryptedFileStorage(getFileStorage(), () => getFileKeys())
	return caseStorage
}
