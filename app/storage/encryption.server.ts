import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import path from 'node:path'
import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream'
import { pipeline as pipelinePromise } from 'node:stream/promises'
import { EnvError, type Env } from '#app/utils/env.server.ts'
import { logger } from '#app/utils/log.server.ts'

// Applicants' files are kept encrypted (docs/operations.md#encryption-at-rest). The format is a
// chunked AEAD stream (the STREAM construction): the file is sealed 64 KiB at a time, each chunk
// with AES-256-GCM, so a file of any size is encrypted and decrypted with a chunk or two in memory,
// and a byte range is read by opening only the chunks that hold it.
//
//   header   'ATAAENC1' | version (1 byte) | key id (8 bytes) | salt (32 bytes)       49 bytes
//   chunk i  ciphertext (64 KiB, the last one 0..64 KiB) | GCM tag (16 bytes)
//
// Each file has its own key and nonce prefix, derived with HKDF-SHA256 from the master key and the
// file's random salt. Chunk i is sealed under the nonce prefix (7 bytes) | i (4 bytes, big-endian)
// | 1 for the last chunk else 0, with the whole header as additional data. So a changed header, a
// flipped byte, chunks swapped or dropped, a file cut short or lengthened, or the wrong key all fail
// a tag check: the reader's stream errors, and never ends as if the file were whole.

const MAGIC = Buffer.from('ATAAENC1', 'latin1')
const VERSION = 1
const KEY_ID_LENGTH = 8
const SALT_LENGTH = 32
const PREFIX_LENGTH = 7
export const HEADER_LENGTH = MAGIC.length + 1 + KEY_ID_LENGTH + SALT_LENGTH
/** Plaintext bytes per chunk. */
export const CHUNK_SIZE = 64 * 1024
export const TAG_LENGTH = 16
/** A chunk as stored: its ciphertext and its tag. */
const SEALED_CHUNK = CHUNK_SIZE + TAG_LENGTH
/** Chunk counters are 4 bytes: files up to 256 TiB, far past any upload limit. */
const MAX_CHUNKS = 2 ** 32

/** A file that cannot be decrypted: damaged, altered, cut short, or under a key not configured. */
export class EncryptedFileError extends Error {
	override name = 'EncryptedFileError'
}

/** The short public name of a key, written in each file's header: which key opens it, without saying the key. */
export function keyId(key: Buffer): string {
	return createHmac('sha256', key).update('ataa key id').digest().subarray(0, KEY_ID_LENGTH).toString('hex')
}

/** The current key, which encrypts, and earlier keys, which still decrypt (until rotation has re-encrypted their files). */
export class FileKeyring {
	readonly current: Buffer
	readonly currentId: string
	readonly #byId = new Map<string, Buffer>()

	constructor(current: Buffer, old: readonly Buffer[] = []) {
		if (current.length !== 32) throw new Error('A file encryption key is 32 bytes.')
		this.current = current
		this.currentId = keyId(current)
		for (const key of [...old, current]) {
			if (key.length !== 32) throw new Error('A file encryption key is 32 bytes.')
			this.#byId.set(keyId(key), key)
		}
	}

	/** The key with this id, or undefined when it is not configured. */
	key(id: string): Buffer | undefined {
		return this.#byId.get(id)
	}
}

/** Whether these first bytes of a file are the header of an encrypted file (not a plaintext one from before encryption). */
export function isEncrypted(head: Uint8Array): boolean {
	return head.length >= MAGIC.length && MAGIC.equals(head.subarray(0, MAGIC.length))
}

/** The id of the key a file was encrypted under, read from its header. */
export function headerKeyId(head: Uint8Array): string {
	if (!isEncrypted(head) || head.length < HEADER_LENGTH) throw new EncryptedFileError('Not an encrypted file (no complete header).')
	return Buffer.from(head.subarray(MAGIC.length + 1, MAGIC.length + 1 + KEY_ID_LENGTH)).toString('hex')
}

/** How many bytes an encrypted file of `plainLength` bytes takes: the header, the plaintext, a tag per chunk (at least one). */
export function encryptedLength(plainLength: number): number {
	return HEADER_LENGTH + plainLength + chunkCount(plainLength) * TAG_LENGTH
}

const chunkCount = (plainLength: number) => Math.max(1, Math.ceil(plainLength / CHUNK_SIZE))

interface FileCipher {
	header: Buffer
	key: Buffer
	prefix: Buffer
}

function deriveFileCipher(master: Buffer, header: Buffer): FileCipher {
	const salt = header.subarray(HEADER_LENGTH - SALT_LENGTH, HEADER_LENGTH)
	const derived = Buffer.from(hkdfSync('sha256', master, salt, 'ataa file v1', 32 + PREFIX_LENGTH))
	return { header, key: derived.subarray(0, 32), prefix: derived.subarray(32) }
}

function nonce(cipher: FileCipher, counter: number, last: boolean): Buffer {
	if (counter >= MAX_CHUNKS) throw new EncryptedFileError('The file has more chunks than the format counts.')
	const value = Buffer.alloc(12)
	cipher.prefix.copy(value, 0)
	value.writeUInt32BE(counter, PREFIX_LENGTH)
	value[11] = last ? 1 : 0
	return value
}

function seal(cipher: FileCipher, counter: number, last: boolean, plaintext: Buffer): Buffer {
	const gcm = createCipheriv('aes-256-gcm', cipher.key, nonce(cipher, counter, last))
	gcm.setAAD(cipher.header)
	const body = gcm.update(plaintext)
	gcm.final()
	return Buffer.concat([body, gcm.getAuthTag()])
}

/** Opens one sealed chunk; the plaintext is returned only once its tag has been checked. */
function open(cipher: FileCipher, counter: number, last: boolean, sealed: Buffer): Buffer {
	if (sealed.length < TAG_LENGTH) throw new EncryptedFileError(`The encrypted file ends early, inside chunk ${counter}: it was cut short.`)
	const gcm = createDecipheriv('aes-256-gcm', cipher.key, nonce(cipher, counter, last))
	gcm.setAAD(cipher.header)
	gcm.setAuthTag(sealed.subarray(sealed.length - TAG_LENGTH))
	const body = gcm.update(sealed.subarray(0, sealed.length - TAG_LENGTH))
	try {
		gcm.final()
	} catch {
		throw new EncryptedFileError(
			counter === 0
				? 'The encrypted file cannot be opened: its header or first chunk was altered or damaged, or it is cut short.'
				: `The encrypted file cannot be opened at chunk ${counter}: it was altered, damaged, reordered or cut short.`,
		)
	}
	return body
}

/** Bytes collected until a whole chunk (or header) is there; no more than a chunk and one read are ever held. */
class Pending {
	#parts: Buffer[] = []
	length = 0

	push(part: Buffer): void {
		if (part.length === 0) return
		this.#parts.push(part)
		this.length += part.length
	}

	take(count: number): Buffer {
		const whole = this.#parts.length === 1 ? this.#parts[0]! : Buffer.concat(this.#parts, this.length)
		const taken = whole.subarray(0, count)
		const rest = whole.subarray(count)
		this.#parts = rest.length ? [rest] : []
		this.length = rest.length
		return taken
	}
}

/** A stream that encrypts what is written to it under `key` (the current key), in the format above. */
export function createEncryptStream(key: Buffer): Transform {
	const header = Buffer.concat([MAGIC, Buffer.from([VERSION]), Buffer.from(keyId(key), 'hex'), randomBytes(SALT_LENGTH)])
	const cipher = deriveFileCipher(key, header)
	const pending = new Pending()
	let counter = 0
	return new Transform({
		construct(callback) {
			this.push(header)
			callback()
		},
		transform(part: Buffer, _encoding, callback: TransformCallback) {
			try {
				pending.push(part)
				// A full chunk is sealed as "not the last" only once a byte after it has arrived.
				while (pending.length > CHUNK_SIZE) this.push(seal(cipher, counter++, false, pending.take(CHUNK_SIZE)))
				callback()
			} catch (error) {
				callback(error as Error)
			}
		},
		flush(callback) {
			try {
				this.push(seal(cipher, counter++, true, pending.take(pending.length)))
				callback()
			} catch (error) {
				callback(error as Error)
			}
		},
	})
}

interface DecryptOptions {
	/** Given when reading a range: the file's header, and the counters of the chunks the input starts and stops at. */
	range?: { cipher: FileCipher; first: number; last: number; final: number; skip: number; length: number }
}

function decryptTransform(keyring: FileKeyring, { range }: DecryptOptions = {}): Transform {
	const pending = new Pending()
	let cipher = range?.cipher
	let counter = range?.first ?? 0
	let skip = range?.skip ?? 0
	let remaining = range?.length ?? Infinity

	function emit(stream: Transform, plaintext: Buffer) {
		const start = Math.min(skip, plaintext.length)
		skip -= start
		const end = Math.min(plaintext.length, start + remaining)
		remaining -= end - start
		if (end > start) stream.push(plaintext.subarray(start, end))
	}

	return new Transform({
		transform(part: Buffer, _encoding, callback: TransformCallback) {
			try {
				pending.push(part)
				if (!cipher) {
					if (pending.length < HEADER_LENGTH) return callback()
					cipher = parseHeader(pending.take(HEADER_LENGTH), keyring)
				}
				// A whole sealed chunk with more after it is not the last one.
				while (pending.length > SEALED_CHUNK) {
					if (range && counter >= range.last) throw new EncryptedFileError('The encrypted file is longer than its chunks say.')
					emit(this, open(cipher, counter, false, pending.take(SEALED_CHUNK)))
					counter++
				}
				callback()
			} catch (error) {
				callback(error as Error)
			}
		},
		flush(callback) {
			try {
				if (!cipher) throw new EncryptedFileError('The encrypted file ends inside its header: it was cut short.')
				if (range && counter !== range.last) throw new EncryptedFileError('The encrypted file ends early: it was cut short.')
				const final = range ? counter === range.final : true
				emit(this, open(cipher, counter, final, pending.take(pending.length)))
				callback()
			} catch (error) {
				callback(error as Error)
			}
		},
	})
}

function parseHeader(header: Buffer, keyring: FileKeyring): FileCipher {
	if (!isEncrypted(header)) throw new EncryptedFileError('Not an encrypted file: its first bytes are not ATAAENC1.')
	if (header[MAGIC.length] !== VERSION) throw new EncryptedFileError(`The encrypted file is in format version ${header[MAGIC.length]}, which this version of Ataa does not read.`)
	const id = headerKeyId(header)
	const key = keyring.key(id)
	if (!key) throw new EncryptedFileError(`The file was encrypted under key ${id}, which is neither FILE_ENCRYPTION_KEY nor one of FILE_ENCRYPTION_OLD_KEYS.`)
	return deriveFileCipher(key, Buffer.from(header))
}

/** A stream that decrypts a whole encrypted file written to it, under whichever configured key its header names. */
export function createDecryptStream(keyring: FileKeyring): Transform {
	return decryptTransform(keyring)
}

/**
 * The plaintext of an encrypted file open as `handle` (of `fileSize` bytes), whole or the bytes
 * `start`..`end` (both included): only the chunks that hold them are read and opened. The header
 * is checked first, so a file under a key not configured throws here, before anything is sent. The
 * handle is closed when the stream ends or fails.
 */
export async function readEncrypted(handle: FileHandle, fileSize: number, keyring: FileKeyring, range?: { start: number; end: number }): Promise<Readable> {
	const header = Buffer.alloc(HEADER_LENGTH)
	const { bytesRead } = await handle.read(header, 0, HEADER_LENGTH, 0)
	if (bytesRead < HEADER_LENGTH) throw new EncryptedFileError('The encrypted file ends inside its header: it was cut short.')
	const cipher = parseHeader(header, keyring)
	const body = fileSize - HEADER_LENGTH
	if (body < TAG_LENGTH) throw new EncryptedFileError('The encrypted file has no chunk: it was cut short.')
	// Every chunk but the last is whole; the last one holds 0..64 KiB and its tag. A file cut at a
	// chunk boundary makes an earlier chunk look last: its tag, sealed as not last, then fails.
	const final = Math.ceil(body / SEALED_CHUNK) - 1
	const plainLength = body - (final + 1) * TAG_LENGTH
	const start = range?.start ?? 0
	const end = Math.min(range?.end ?? Infinity, plainLength - 1)
	// Nothing asked for (an empty file): its one chunk is still opened, so a damaged one fails.
	const first = start > end ? final : Math.floor(start / CHUNK_SIZE)
	const last = start > end ? final : Math.floor(end / CHUNK_SIZE)
	const source = handle.createReadStream({ start: HEADER_LENGTH + first * SEALED_CHUNK, end: Math.min(fileSize, HEADER_LENGTH + (last + 1) * SEALED_CHUNK) - 1 })
	const length = Math.max(0, end - start + 1)
	return pipeline(source, decryptTransform(keyring, { range: { cipher, first, last, final, skip: start - first * CHUNK_SIZE, length } }), () => {})
}

/** Where a key is kept outside production when FILE_ENCRYPTION_KEY is not set. */
export const KEY_FILE_NAME = 'file-encryption.key'

export const MAKE_KEY_COMMAND = `node -e "console.log(require('node:crypto').randomBytes(32).toString('hex'))"`

/** The key NODE_ENV=test uses when none is set: this process's own, never written anywhere. */
let testKey: Buffer | undefined

/**
 * The keys applicants' files are encrypted with, from FILE_ENCRYPTION_KEY and FILE_ENCRYPTION_OLD_KEYS.
 * In production a missing FILE_ENCRYPTION_KEY is an EnvError (the server does not start). Outside
 * production (the demo, development) a key is made once in DATA_DIR/file-encryption.key and used,
 * with a warning; under tests, a key of the process's own. A key file left in DATA_DIR once
 * FILE_ENCRYPTION_KEY is set is read as an old key, so that files encrypted under it stay readable
 * until `npm run files:rotate-key` has re-encrypted them.
 */
export function loadFileKeys(env: Env, warn: (line: string) => void = (line) => logger.warn(line)): FileKeyring {
	const old: Buffer[] = env.FILE_ENCRYPTION_OLD_KEYS.map((hex) => Buffer.from(hex, 'hex'))
	const keyFile = path.join(env.dataDir, KEY_FILE_NAME)
	const fileKey = readKeyFile(keyFile)
	if (env.FILE_ENCRYPTION_KEY) {
		const current = Buffer.from(env.FILE_ENCRYPTION_KEY, 'hex')
		if (fileKey && !fileKey.equals(current)) {
			old.push(fileKey)
			warn(`${keyFile} is read as an old key: run npm run files:rotate-key to re-encrypt its files under FILE_ENCRYPTION_KEY, then delete it (docs/operations.md#encryption-at-rest).`)
		}
		return new FileKeyring(current, old)
	}
	if (env.NODE_ENV === 'production') {
		throw new EnvError(
			[
				'FILE_ENCRYPTION_KEY is not set. In production, applicants\' files are encrypted under a key of your own.',
				`  Make one with:  ${MAKE_KEY_COMMAND}`,
				'  Keep it outside DATA_DIR and outside the backups (without it the files cannot be read), and set FILE_ENCRYPTION_KEY to it.',
				'  See docs/operations.md#encryption-at-rest.',
			].join('\n'),
		)
	}
	if (env.NODE_ENV === 'test' && !fileKey) {
		testKey ??= randomBytes(32)
		return new FileKeyring(testKey, old)
	}
	if (fileKey) {
		warn(`Applicants' files are encrypted under the key in ${keyFile}, made for this demo install. In production set FILE_ENCRYPTION_KEY (docs/operations.md#encryption-at-rest).`)
		return new FileKeyring(fileKey, old)
	}
	const key = randomBytes(32)
	fs.mkdirSync(env.dataDir, { recursive: true })
	try {
		fs.writeFileSync(keyFile, `${key.toString('hex')}\n`, { flag: 'wx', mode: 0o600 })
	} catch (error) {
		// Another process made it first: use that one.
		if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadFileKeys(env, warn)
		throw error
	}
	warn(`Made a key for applicants' files in ${keyFile} (this demo install only). In production set FILE_ENCRYPTION_KEY instead, kept outside DATA_DIR and the backups (docs/operations.md#encryption-at-rest).`)
	return new FileKeyring(key, old)
}

function readKeyFile(file: string): Buffer | undefined {
	let text: string
	try {
		text = fs.readFileSync(file, 'utf8').trim()
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
		throw error
	}
	if (!/^[0-9a-fA-F]{64}$/.test(text)) throw new EnvError(`${file} does not hold a key of 64 hexadecimal characters. Restore it from where you keep it, or set FILE_ENCRYPTION_KEY.`)
	return Buffer.from(text, 'hex')
}

/** What key rotation needs of a storage driver, the local disk's or a bucket's (app/storage/file-storage.server.ts, FileStorageDriver). */
interface RotatableStorage {
	keys(): AsyncGenerator<string>
	size(key: string): Promise<number>
	read(key: string, range?: { start: number; end: number }): Promise<Readable>
	tempPath(): string
	place(tempPath: string, key: string, options?: { durable?: boolean }): Promise<void>
	remove(key: string): Promise<void>
}

export interface RotationOptions {
	/** Whether a plaintext file is an applicant's (to be encrypted); unset, plaintext files are only counted. */
	isAttachment?: (key: string) => boolean
	/**
	 * Asked after a file is replaced: whether a row still points to it. Retention deletes a case's
	 * rows before its files, so a file purged while it was being re-encrypted is found here and
	 * removed again, not brought back.
	 */
	stillAttached?: (key: string) => Promise<boolean>
}

/** The storage's FileNotFoundError (by name: file-storage.server.ts imports this module). */
const isNotFound = (error: unknown) => error instanceof Error && (error.name === 'FileNotFoundError' || (error as NodeJS.ErrnoException).code === 'ENOENT')

export interface RotationReport {
	/** Already under the current key: left as they are. */
	current: number
	/** Were under an old key: now under the current one. */
	reencrypted: number
	/** Applicants' files stored before encryption: now encrypted. */
	encrypted: number
	/** Plaintext files that are not applicants' (public pictures, documents, videos): left as they are. */
	publicFiles: number
	/** Plaintext files not looked at, because which ones are applicants' was not known (no database). */
	unchecked: number
	/** Keys of files under a key that is not configured. */
	unknownKey: string[]
	/** Keys of files that could not be decrypted (damaged or altered), with why. */
	failed: Array<{ key: string; error: string }>
	/** Removed by the server (retention) while they were being rewritten: removed again. */
	removedMeanwhile: number
}

/**
 * Re-encrypts every encrypted file not under the current key (with the old key its header names),
 * and encrypts the plaintext files `isAttachment` says are applicants' (those stored before
 * encryption; without `isAttachment`, plaintext files are only counted). Each file is replaced in
 * one step (place: a rename on disk, a completed upload in a bucket), so a server reading with both
 * keys sees the old file or the new one.
 * Files under the current key are skipped: a second run, or one after an interruption, carries on.
 */
export async function rotateFileKeys(storage: RotatableStorage, keyring: FileKeyring, { isAttachment, stillAttached }: RotationOptions = {}): Promise<RotationReport> {
	const report: RotationReport = { current: 0, reencrypted: 0, encrypted: 0, publicFiles: 0, unchecked: 0, unknownKey: [], failed: [], removedMeanwhile: 0 }
	for await (const key of storage.keys()) {
		let head: Buffer
		try {
			head = await readHead(storage, key)
		} catch (error) {
			// Removed by the server since the walk listed it: nothing to do.
			if (isNotFound(error)) continue
			throw error
		}
		let transform: Transform[]
		if (isEncrypted(head)) {
			const id = head.length >= HEADER_LENGTH ? headerKeyId(head) : ''
			if (id === keyring.currentId) {
				report.current++
				continue
			}
			if (!keyring.key(id)) {
				report.unknownKey.push(key)
				continue
			}
			transform = [createDecryptStream(keyring), createEncryptStream(keyring.current)]
		} else if (!isAttachment) {
			report.unchecked++
			continue
		} else if (!isAttachment(key)) {
			report.publicFiles++
			continue
		} else {
			transform = [createEncryptStream(keyring.current)]
		}
		const temp = storage.tempPath()
		try {
			await pipelinePromise([await storage.read(key), ...transform, fs.createWriteStream(temp, { flags: 'wx' })])
			// The server may have removed the file meanwhile (an applicant deleted it): do not bring it back.
			if (!(await exists(storage, key))) {
				fs.rmSync(temp, { force: true })
				continue
			}
			await storage.place(temp, key, { durable: true })
		} catch (error) {
			fs.rmSync(temp, { force: true })
			if (isNotFound(error)) continue
			if (!(error instanceof EncryptedFileError)) throw error
			report.failed.push({ key, error: error.message })
			continue
		}
		// Purged between the check above and the replacement (on a bucket, an upload's time): gone again.
		if (stillAttached && !(await stillAttached(key))) {
			await storage.remove(key)
			report.removedMeanwhile++
			continue
		}
		if (transform.length === 2) report.reencrypted++
		else report.encrypted++
	}
	return report
}

/** The first HEADER_LENGTH bytes of a stored file (fewer when it is shorter). */
async function readHead(storage: RotatableStorage, key: string): Promise<Buffer> {
	const size = await storage.size(key)
	if (size === 0) return Buffer.alloc(0)
	const chunks: Buffer[] = []
	for await (const chunk of await storage.read(key, { start: 0, end: Math.min(size, HEADER_LENGTH) - 1 })) chunks.push(chunk as Buffer)
	return Buffer.concat(chunks)
}

async function exists(storage: RotatableStorage, key: string): Promise<boolean> {
	try {
		await storage.size(key)
		return true
	} catch (error) {
		if (isNotFound(error)) return false
		throw error
	}
}
