import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { expect, test } from 'vitest'
import { CHUNK_SIZE, FileKeyring, isEncrypted } from './encryption.server.ts'
import { encryptedFileStorage, FileNotFoundError, type FileStorage, type FileStorageDriver } from './file-storage.server.ts'

async function collect(stream: Readable): Promise<Buffer> {
	const parts: Buffer[] = []
	for await (const part of stream) parts.push(part as Buffer)
	return Buffer.concat(parts)
}

async function store(storage: FileStorage, bytes: Buffer): Promise<string> {
	const temp = storage.tempPath()
	fs.writeFileSync(temp, bytes)
	return storage.adopt(temp)
}

/** Whole file and ranges: first byte, across the 64 KiB chunk boundaries (the encrypted format's, and a read stream's), last byte. */
async function expectReads(storage: FileStorage, key: string, bytes: Buffer): Promise<void> {
	expect((await collect(await storage.read(key))).equals(bytes)).toBe(true)
	const ranges = [
		{ start: 0, end: 0 },
		{ start: CHUNK_SIZE - 10, end: 2 * CHUNK_SIZE + 10 },
		{ start: CHUNK_SIZE, end: CHUNK_SIZE },
		{ start: 1000, end: 1999 },
		{ start: bytes.length - 1, end: bytes.length - 1 },
	]
	for (const range of ranges) {
		const got = await collect(await storage.read(key, range))
		expect(got.equals(bytes.subarray(range.start, range.end + 1)), `bytes ${range.start}-${range.end}`).toBe(true)
	}
}

/**
 * The behaviour every storage driver owes the app (app/storage/file-storage.server.ts, FileStorage),
 * registered as tests on the driver `storage()` returns when they run (after the caller's beforeAll).
 * `concurrentReaders: false` leaves out readers racing a replacement: for a stand-in server that
 * rewrites an object in place (s3rver), where S3 itself replaces it whole.
 */
export function storageContract(storage: () => FileStorageDriver, { concurrentReaders = true }: { concurrentReaders?: boolean } = {}): void {
	const bytes = randomBytes(3 * CHUNK_SIZE + 1234)

	test('adopt stores a temp file under a new key and removes the temp file; reads give it whole and in ranges', async () => {
		const temp = storage().tempPath()
		fs.writeFileSync(temp, bytes)
		const key = await storage().adopt(temp)
		expect(key).toMatch(/^[0-9a-f]{64}$/)
		expect(fs.existsSync(temp)).toBe(false)
		expect(await storage().size(key)).toBe(bytes.length)
		await expectReads(storage(), key, bytes)
		const listed: string[] = []
		for await (const found of storage().keys()) listed.push(found)
		expect(listed).toContain(key)
	})

	test('place replaces a file in one step: a reader meanwhile sees the old file or the new one', async () => {
		const key = randomBytes(32).toString('hex')
		const before = randomBytes(2 * CHUNK_SIZE + 7)
		const after = randomBytes(3 * CHUNK_SIZE + 11)
		const first = storage().tempPath()
		fs.writeFileSync(first, before)
		await storage().place(first, key, { durable: true })
		const second = storage().tempPath()
		fs.writeFileSync(second, after)
		const readers = Array.from({ length: concurrentReaders ? 6 : 0 }, async () => collect(await storage().read(key)))
		const placing = storage().place(second, key)
		const seen = await Promise.all([...readers, placing.then(async () => collect(await storage().read(key)))])
		for (const got of seen) expect(got.equals(before) || got.equals(after)).toBe(true)
		expect((await collect(await storage().read(key))).equals(after)).toBe(true)
		expect(fs.existsSync(second)).toBe(false)
	})

	test('a removed file, a key never stored and what is not a key are FileNotFoundError; removing twice is no error', async () => {
		const key = await store(storage(), bytes)
		await storage().remove(key)
		await storage().remove(key)
		await expect(storage().read(key)).rejects.toBeInstanceOf(FileNotFoundError)
		await expect(storage().read(key, { start: 0, end: 9 })).rejects.toBeInstanceOf(FileNotFoundError)
		await expect(storage().size(key)).rejects.toBeInstanceOf(FileNotFoundError)
		await expect(storage().read(randomBytes(32).toString('hex'))).rejects.toBeInstanceOf(FileNotFoundError)
		for (const bad of ['', 'nope', '../../etc/passwd', 'AB'.repeat(32), `${'a'.repeat(64)}/x`]) {
			await expect(storage().read(bad)).rejects.toBeInstanceOf(FileNotFoundError)
		}
	})

	test('a 20 MB file goes in and comes back by streams alone (compared by SHA-256)', async () => {
		const size = 20 * 1024 * 1024
		const temp = storage().tempPath()
		const written = createHash('sha256')
		// Written piece by piece, so that the test itself never holds the file either.
		async function* pieces() {
			for (let left = size; left > 0; left -= 256 * 1024) {
				const piece = randomBytes(Math.min(left, 256 * 1024))
				written.update(piece)
				yield piece
			}
		}
		await pipeline(pieces(), fs.createWriteStream(temp))
		const key = await storage().adopt(temp)
		expect(await storage().size(key)).toBe(size)
		const read = createHash('sha256')
		let largest = 0
		for await (const part of await storage().read(key)) {
			read.update(part as Buffer)
			largest = Math.max(largest, (part as Buffer).length)
		}
		expect(read.digest('hex')).toBe(written.digest('hex'))
		expect(largest).toBeLessThan(size / 4)
		const tail = await collect(await storage().read(key, { start: size - 100, end: size - 1 }))
		expect(tail.length).toBe(100)
		await storage().remove(key)
	})

	test('writable() is true, and sweepTemp removes only old temp files', async () => {
		expect(await storage().writable()).toBe(true)
		const old = storage().tempPath()
		const fresh = storage().tempPath()
		fs.writeFileSync(old, 'left by a crash')
		fs.writeFileSync(fresh, 'being written')
		const hourAgo = new Date(Date.now() - 3_600_000)
		fs.utimesSync(old, hourAgo, hourAgo)
		expect(await storage().sweepTemp(60_000)).toBe(1)
		expect(fs.existsSync(old)).toBe(false)
		expect(fs.existsSync(fresh)).toBe(true)
		fs.rmSync(fresh)
	})

	test('the encrypting storage on top: stored encrypted, read back whole and in ranges; plaintext from before encryption still reads', async () => {
		const encrypted = encryptedFileStorage(storage(), () => new FileKeyring(Buffer.alloc(32, 7)))
		const key = await store(encrypted, bytes)
		const raw = await collect(await storage().read(key))
		expect(isEncrypted(raw)).toBe(true)
		expect(raw.includes(bytes.subarray(0, 64))).toBe(false)
		await expectReads(encrypted, key, bytes)
		const replacement = randomBytes(CHUNK_SIZE + 3)
		const temp = encrypted.tempPath()
		fs.writeFileSync(temp, replacement)
		await encrypted.place(temp, key)
		await expectReads(encrypted, key, replacement)
		await encrypted.remove(key)
		await expect(encrypted.read(key)).rejects.toBeInstanceOf(FileNotFoundError)
		const plain = await store(storage(), bytes)
		await expectReads(encrypted, plain, bytes)
		const empty = await store(storage(), Buffer.alloc(0))
		expect((await collect(await encrypted.read(empty))).length).toBe(0)
	})
}
