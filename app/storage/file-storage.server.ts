import { randomBytes, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { getEnv } from '#app/utils/env.server.ts'

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

export function localFileStorage(root: string): FileStorage {
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

async function syncDirectory(dir: string): Promise<void> {
	const handle = await fsp.open(dir, 'r')
	try {
		await handle.sync()
	} finally {
		await handle.close()
	}
}

let storage: FileStorage | undefined

/** The app's storage, under DATA_DIR/uploads. */
export function getFileStorage(): FileStorage {
	storage ??= localFileStorage(path.join(getEnv().dataDir, 'uploads'))
	return storage
}

/**
 * Where applicants' files (a case's attachments) are kept: the same storage as public files for
 * now; encrypted at rest once app/storage/encryption lands.
 */
export function getCaseFileStorage(): FileStorage {
	return getFileStorage()
}
