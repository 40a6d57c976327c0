import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Readable, Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { afterAll, describe, expect, test } from 'vitest'
import { parseEnv } from '#app/utils/env.server.ts'
import { CHUNK_SIZE, createDecryptStream, createEncryptStream, EncryptedFileError, encryptedLength, FileKeyring, HEADER_LENGTH, headerKeyId, KEY_FILE_NAME, keyId, loadFileKeys, TAG_LENGTH } from './encryption.server.ts'
import { encryptedFileStorage, FileNotFoundError, localFileStorage } from './file-storage.server.ts'

const SEALED = CHUNK_SIZE + TAG_LENGTH
const keyA = randomBytes(32)
const keyB = randomBytes(32)
const keyC = randomBytes(32)

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-encryption-'))
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))
const local = localFileStorage(path.join(root, 'uploads'))
const storage = encryptedFileStorage(local, () => new FileKeyring(keyA))

async function collect(stream: Readable): Promise<Buffer> {
	const parts: Buffer[] = []
	for await (const part of stream) parts.push(part as Buffer)
	return Buffer.concat(parts)
}

const encrypt = (plaintext: Buffer, key = keyA) => collect(Readable.from(split(plaintext)).pipe(createEncryptStream(key)))
const decrypt = (sealed: Buffer, keyring = new FileKeyring(keyA)) => collect(Readable.from(split(sealed)).compose(createDecryptStream(keyring)))

/** As a file arrives from a disk or a socket: in pieces that do not line up with the chunks. */
function split(bytes: Buffer): Buffer[] {
	const parts: Buffer[] = []
	for (let offset = 0, step = 1; offset < bytes.length; offset += step, step = (step * 7 + 13) % 100_003 || 1) parts.push(bytes.subarray(offset, offset + step))
	return parts
}

/** A plaintext file stored through the encrypting storage; returns its key. */
async function store(plaintext: Buffer, target = storage): Promise<string> {
	const temp = target.tempPath()
	fs.writeFileSync(temp, plaintext)
	return target.adopt(temp)
}

const onDisk = (key: string) => fs.readFileSync(local.filePath(key))
const rewrite = (key: string, bytes: Buffer) => fs.writeFileSync(local.filePath(key), bytes)

describe('round trips', () => {
	for (const size of [0, 1, CHUNK_SIZE - 1, CHUNK_SIZE, CHUNK_SIZE + 1, 3_000_000]) {
		test(`${size} bytes: stored encrypted, read back byte for byte`, async () => {
			const plaintext = randomBytes(size)
			const sealed = await encrypt(plaintext)
			expect(sealed.length).toBe(encryptedLength(size))
			expect(sealed.subarray(0, 8).toString('latin1')).toBe('ATAAENC1')
			expect(headerKeyId(sealed)).toBe(keyId(keyA))
			if (size >= 32) expect(sealed.includes(plaintext.subarray(0, 32))).toBe(false)
			expect((await decrypt(sealed)).equals(plaintext)).toBe(true)

			const key = await store(plaintext)
			expect(onDisk(key).length).toBe(encryptedLength(size))
			expect((await collect(await storage.read(key))).equals(plaintext)).toBe(true)
		})
	}

	test('the same file encrypted twice gives different bytes (a salt of its own)', async () => {
		const plaintext = Buffer.from('%PDF-1.7 the same family record')
		expect((await encrypt(plaintext)).equals(await encrypt(plaintext))).toBe(false)
	})

	test('adopt leaves no plaintext temp file behind', async () => {
		const key = await store(Buffer.from('%PDF-1.7 ATAA-MARKER-TEMP'))
		const temps = fs.readdirSync(path.join(root, 'uploads', 'tmp'))
		for (const name of temps) expect(fs.readFileSync(path.join(root, 'uploads', 'tmp', name)).includes('ATAA-MARKER-TEMP')).toBe(false)
		expect(onDisk(key).includes('ATAA-MARKER-TEMP')).toBe(false)
	})
})

describe('byte ranges', () => {
	const plaintext = randomBytes(3 * CHUNK_SIZE + 100)
	const size = plaintext.length
	let key: string
	const range = async (start: number, end: number) => collect(await storage.read(key, { start, end }))

	test('any range, within a chunk or across chunk boundaries, is the plaintext bytes', async () => {
		key = await store(plaintext)
		const ranges: Array<[number, number]> = [
			[0, 0],
			[0, CHUNK_SIZE - 1],
			[CHUNK_SIZE - 1, CHUNK_SIZE],
			[CHUNK_SIZE, CHUNK_SIZE],
			[CHUNK_SIZE - 10, 2 * CHUNK_SIZE + 10],
			[5, size - 1],
			[3 * CHUNK_SIZE, size - 1],
			[size - 1, size - 1],
			[1000, 2000],
		]
		for (const [start, end] of ranges) expect((await range(start, end)).equals(plaintext.subarray(start, end + 1)), `${start}-${end}`).toBe(true)
	})

	test('only the chunks that hold the range are opened', async () => {
		const sealed = onDisk(key)
		const damaged = Buffer.from(sealed)
		damaged[HEADER_LENGTH + 2 * SEALED + 5]! ^= 1
		rewrite(key, damaged)
		expect((await range(10, CHUNK_SIZE + 10)).equals(plaintext.subarray(10, CHUNK_SIZE + 11))).toBe(true)
		await expect(range(2 * CHUNK_SIZE, 2 * CHUNK_SIZE + 1)).rejects.toThrow(EncryptedFileError)
		await expect(range(CHUNK_SIZE, 3 * CHUNK_SIZE)).rejects.toThrow(/chunk 2/)
		rewrite(key, sealed)
	})

	test('a range in the last chunk of a file cut at a chunk boundary fails', async () => {
		const sealed = onDisk(key)
		rewrite(key, sealed.subarray(0, HEADER_LENGTH + 3 * SEALED))
		await expect(range(2 * CHUNK_SIZE, 2 * CHUNK_SIZE + 5)).rejects.toThrow(EncryptedFileError)
		rewrite(key, sealed)
	})
})

describe('a damaged, altered or cut file fails, and never reads as complete', () => {
	const plaintext = randomBytes(2 * CHUNK_SIZE + 500)
	let sealed: Buffer
	let key: string

	/** Both readers, the stream and the storage's whole-file read, on the same bytes. */
	async function expectRefused(bytes: Buffer, message: RegExp = /./) {
		await expect(decrypt(bytes)).rejects.toThrow(EncryptedFileError)
		await expect(decrypt(bytes)).rejects.toThrow(message)
		rewrite(key, bytes)
		await expect((async () => collect(await storage.read(key)))()).rejects.toThrow(EncryptedFileError)
		rewrite(key, sealed)
	}

	const flipped = (at: number) => {
		const copy = Buffer.from(sealed)
		copy[at]! ^= 0x40
		return copy
	}

	test('untouched, it reads', async () => {
		key = await store(plaintext)
		sealed = onDisk(key)
		expect((await decrypt(sealed)).equals(plaintext)).toBe(true)
	})

	test('a flipped byte in the header (its salt)', () => expectRefused(flipped(HEADER_LENGTH - 3), /altered or damaged/))
	test('a flipped byte in the key id: a key not configured', () => expectRefused(flipped(10), /neither FILE_ENCRYPTION_KEY nor one of FILE_ENCRYPTION_OLD_KEYS/))
	test('a flipped byte in the format version', () => expectRefused(flipped(8), /format version/))
	test('a flipped byte inside a chunk', () => expectRefused(flipped(HEADER_LENGTH + SEALED + 1000), /chunk 1/))
	test('a flipped byte in a tag', () => expectRefused(flipped(HEADER_LENGTH + SEALED - 1), /chunk 0|first chunk/))
	test('the last chunk dropped', () => expectRefused(sealed.subarray(0, HEADER_LENGTH + 2 * SEALED), /chunk 1/))
	test('cut in the middle of a chunk', () => expectRefused(sealed.subarray(0, HEADER_LENGTH + SEALED + 100), /chunk 1/))
	test('cut in the header', () => expectRefused(sealed.subarray(0, 20)))
	test('bytes added at the end', () => expectRefused(Buffer.concat([sealed, randomBytes(40)])))
	test('chunks swapped', () =>
		expectRefused(Buffer.concat([sealed.subarray(0, HEADER_LENGTH), sealed.subarray(HEADER_LENGTH + SEALED, HEADER_LENGTH + 2 * SEALED), sealed.subarray(HEADER_LENGTH, HEADER_LENGTH + SEALED), sealed.subarray(HEADER_LENGTH + 2 * SEALED)])))

	test('a damaged file passes on no byte of the damaged chunk', async () => {
		const received: Buffer[] = []
		const stream = Readable.from(split(flipped(HEADER_LENGTH + 2 * SEALED + 3))).compose(createDecryptStream(new FileKeyring(keyA)))
		await expect(
			(async () => {
				for await (const part of stream) received.push(part as Buffer)
			})(),
		).rejects.toThrow(EncryptedFileError)
		// At most the two whole chunks before it, each checked, and nothing of the third.
		const passed = Buffer.concat(received)
		expect(passed.length).toBeLessThanOrEqual(2 * CHUNK_SIZE)
		expect(passed.equals(plaintext.subarray(0, passed.length))).toBe(true)
	})

	test('the wrong key: refused before a byte is read, naming the key id', async () => {
		const other = encryptedFileStorage(local, () => new FileKeyring(keyB))
		await expect(other.read(key)).rejects.toThrow(`encrypted under key ${keyId(keyA)}`)
		await expect(decrypt(sealed, new FileKeyring(keyB))).rejects.toThrow(EncryptedFileError)
	})
})

describe('keys', () => {
	test('the key id in the header picks the key among the old ones', async () => {
		const underA = await encrypt(Buffer.from('under A'), keyA)
		const underB = await encrypt(Buffer.from('under B'), keyB)
		const keyring = new FileKeyring(keyC, [keyA, keyB])
		expect((await decrypt(underA, keyring)).toString()).toBe('under A')
		expect((await decrypt(underB, keyring)).toString()).toBe('under B')
		await expect(decrypt(underB, new FileKeyring(keyC, [keyA]))).rejects.toThrow(keyId(keyB))
		// A new file is written under the current key only.
		const rotated = encryptedFileStorage(local, () => keyring)
		expect(headerKeyId(onDisk(await store(Buffer.from('new'), rotated)))).toBe(keyId(keyC))
	})

	test('a file stored before encryption is read as it is, whole or in part', async () => {
		const temp = local.tempPath()
		fs.writeFileSync(temp, '%PDF-1.4 legacy plaintext')
		const key = await local.adopt(temp)
		expect((await collect(await storage.read(key))).toString()).toBe('%PDF-1.4 legacy plaintext')
		expect((await collect(await storage.read(key, { start: 9, end: 14 }))).toString()).toBe('legacy')
		await expect(storage.read('ab'.repeat(32))).rejects.toBeInstanceOf(FileNotFoundError)
	})

	test('production without FILE_ENCRYPTION_KEY: the server does not start, and is told how to make one', () => {
		const dataDir = fs.mkdtempSync(path.join(root, 'prod-'))
		const env = parseEnv({ NODE_ENV: 'production', DATA_DIR: dataDir })
		let error: unknown
		try {
			loadFileKeys(env, () => {})
		} catch (caught) {
			error = caught
		}
		expect(error).toMatchObject({ name: 'EnvError' })
		expect((error as Error).message).toContain('FILE_ENCRYPTION_KEY is not set')
		expect((error as Error).message).toContain("randomBytes(32).toString('hex')")
		expect(fs.existsSync(path.join(dataDir, KEY_FILE_NAME))).toBe(false)
		// server.mjs keeps the operator's NODE_ENV as ATAA_ENV: the same refusal.
		expect(() => loadFileKeys(parseEnv({ ATAA_ENV: 'production', NODE_ENV: 'production', DATA_DIR: dataDir }), () => {})).toThrow('FILE_ENCRYPTION_KEY is not set')
		const key = randomBytes(32)
		expect(loadFileKeys(parseEnv({ NODE_ENV: 'production', DATA_DIR: dataDir, FILE_ENCRYPTION_KEY: key.toString('hex') }), () => {}).current.equals(key)).toBe(true)
	})

	test('outside production without a key: one is made once in DATA_DIR (0600), with a warning', () => {
		const dataDir = fs.mkdtempSync(path.join(root, 'demo-'))
		const warnings: string[] = []
		const first = loadFileKeys(parseEnv({ NODE_ENV: 'development', DATA_DIR: dataDir }), (line) => warnings.push(line))
		const file = path.join(dataDir, KEY_FILE_NAME)
		expect(fs.statSync(file).mode & 0o777).toBe(0o600)
		expect(fs.readFileSync(file, 'utf8').trim()).toBe(first.current.toString('hex'))
		expect(warnings.join('\n')).toContain('In production set FILE_ENCRYPTION_KEY')
		const second = loadFileKeys(parseEnv({ NODE_ENV: 'development', DATA_DIR: dataDir }), () => {})
		expect(second.current.equals(first.current)).toBe(true)
		// Once the operator sets a key, the made one is still read (as an old key) until rotation.
		const withKey = loadFileKeys(parseEnv({ NODE_ENV: 'production', DATA_DIR: dataDir, FILE_ENCRYPTION_KEY: keyC.toString('hex') }), () => {})
		expect(withKey.current.equals(keyC)).toBe(true)
		expect(withKey.key(keyId(first.current))?.equals(first.current)).toBe(true)
	})
})

test('memory: 200 MB stream through encryption and back with a chunk or two held, never the file', { timeout: 60_000 }, async () => {
	const total = 200 * 1024 * 1024
	const block = randomBytes(1024 * 1024)
	let produced = 0
	const source = new Readable({
		read() {
			if (produced >= total) return this.push(null)
			// Each megabyte differs a little, so no two chunks are alike.
			block.writeUInt32BE(produced, 0)
			produced += block.length
			this.push(Buffer.from(block))
		},
	})
	const plainHash = createHash('sha256')
	const roundHash = createHash('sha256')
	let largest = 0
	let peakArrayBuffers = 0
	const baseline = process.memoryUsage().arrayBuffers
	source.on('data', (part: Buffer) => plainHash.update(part))
	let largestSealed = 0
	let received = 0
	const encryptor = createEncryptStream(keyA)
	encryptor.on('data', (part: Buffer) => (largestSealed = Math.max(largestSealed, part.length)))
	const sink = new Writable({
		write(part: Buffer, _encoding, callback) {
			largest = Math.max(largest, part.length)
			received += part.length
			roundHash.update(part)
			peakArrayBuffers = Math.max(peakArrayBuffers, process.memoryUsage().arrayBuffers - baseline)
			callback()
		},
	})
	await pipeline(source, encryptor, createDecryptStream(new FileKeyring(keyA)), sink)
	expect(received).toBe(total)
	expect(roundHash.digest('hex')).toBe(plainHash.digest('hex'))
	// Each piece passed on is one chunk: sealed, or opened.
	expect(largest).toBe(CHUNK_SIZE)
	expect(largestSealed).toBe(CHUNK_SIZE + TAG_LENGTH)
	// Buffers not yet collected count too; the file held whole would be 200 MB or more.
	expect(peakArrayBuffers).toBeLessThan(100 * 1024 * 1024)
})
