import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { parseEnv } from '#app/utils/env.server.ts'
import { encryptedFileStorage, FileNotFoundError, getCaseFileStorage, getFileStorage, localFileStorage, parseStorageUrl, type FileStorage, type FileStorageDriver } from './file-storage.server.ts'
import { FileKeyring, headerKeyId, isEncrypted, keyId, rotateFileKeys } from './encryption.server.ts'
import { s3FileStorage } from './s3-storage.server.ts'
import { storageContract } from './storage-contract.ts'
import { startS3Server, type S3TestServer } from '../../scripts/lib/s3-server.ts'

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-storage-contract-'))
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

describe('local disk', () => {
	const storage = localFileStorage(path.join(root, 'local'))
	storageContract(() => storage)
})

describe('S3 (s3rver on a loopback port)', () => {
	let server: S3TestServer
	let storage: FileStorageDriver
	let port: number
	beforeAll(async () => {
		server = await startS3Server(path.join(root, 's3rver'), 'ataa-test')
		;({ port } = server)
		const choice = parseStorageUrl(`s3://ataa-test?endpoint=${server.endpoint}&region=us-east-1&forcePathStyle=true&prefix=ataa/`, path.join(root, 'data'))
		if (choice.kind !== 's3') throw new Error('expected the S3 driver')
		// s3rver takes its own fixed credentials.
		storage = s3FileStorage({ ...choice.options, credentials: server.credentials })
	})
	afterAll(async () => {
		await server.close()
	})
	// s3rver writes an object over the old one in place: a reader racing it is cut short (real S3 is not).
	storageContract(() => storage, { concurrentReaders: false })

	test('objects sit under the prefix and the sharded path', async () => {
		const temp = storage.tempPath()
		fs.writeFileSync(temp, 'x')
		const key = await storage.adopt(temp)
		expect(fs.readdirSync(path.join(root, 's3rver', 'ataa-test', 'ataa', 'files', key.slice(0, 2), key.slice(2, 4))).some((name) => name.startsWith(key))).toBe(true)
		expect(() => storage.filePath(key)).toThrow(/no local path/)
	})

	test('STORAGE_URL makes getFileStorage and getCaseFileStorage use the bucket, credentials from the AWS variables', async () => {
		vi.stubEnv('STORAGE_URL', `s3://ataa-test?endpoint=http://127.0.0.1:${port}&prefix=app`)
		vi.stubEnv('DATA_DIR', path.join(root, 'data-env'))
		vi.stubEnv('AWS_ACCESS_KEY_ID', 'S3RVER')
		vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'S3RVER')
		try {
			const files = getFileStorage()
			expect(files.kind).toBe('s3')
			expect(await files.writable()).toBe(true)
			const temp = files.tempPath()
			expect(temp.startsWith(path.join(root, 'data-env', 'uploads', 'tmp'))).toBe(true)
			fs.writeFileSync(temp, 'public')
			const key = await files.adopt(temp)
			expect(fs.readdirSync(path.join(root, 's3rver', 'ataa-test', 'app', 'files', key.slice(0, 2), key.slice(2, 4))).length).toBeGreaterThan(0)
			const caseFiles = getCaseFileStorage()
			const caseTemp = caseFiles.tempPath()
			fs.writeFileSync(caseTemp, 'an applicant\'s file')
			const caseKey = await caseFiles.adopt(caseTemp)
			const chunks: Buffer[] = []
			for await (const chunk of await caseFiles.read(caseKey, { start: 3, end: 11 })) chunks.push(chunk as Buffer)
			expect(Buffer.concat(chunks).toString()).toBe('applicant')
			// What the bucket holds is encrypted: the plain driver reads it as it is stored.
			const stored: Buffer[] = []
			for await (const chunk of await files.read(caseKey)) stored.push(chunk as Buffer)
			expect(isEncrypted(Buffer.concat(stored))).toBe(true)
			expect(Buffer.concat(stored).includes('applicant')).toBe(false)
		} finally {
			vi.unstubAllEnvs()
		}
	})

	test('files:rotate-key works on the bucket: old-key files re-encrypted, an old plaintext applicant file encrypted, public files untouched', async () => {
		const oldKey = randomBytes(32)
		const newKey = randomBytes(32)
		const encrypted = encryptedFileStorage(storage, () => new FileKeyring(oldKey))
		const store = async (target: FileStorage, bytes: Buffer) => {
			const temp = target.tempPath()
			fs.writeFileSync(temp, bytes)
			return target.adopt(temp)
		}
		const raw = async (key: string) => {
			const chunks: Buffer[] = []
			for await (const chunk of await storage.read(key)) chunks.push(chunk as Buffer)
			return Buffer.concat(chunks)
		}
		const secret = randomBytes(200_000)
		const underOld = await store(encrypted, secret)
		const legacy = await store(storage, Buffer.from('%PDF-1.4 an applicant file from before encryption'))
		const picture = await store(storage, Buffer.from('a public picture'))
		const before = new Set<string>()
		for await (const key of storage.keys()) before.add(key)
		const applicants = new Set([underOld, legacy])

		const report = await rotateFileKeys(storage, new FileKeyring(newKey, [oldKey]), { isAttachment: (key) => applicants.has(key) })
		expect(report).toMatchObject({ reencrypted: 1, encrypted: 1, unknownKey: [], failed: [], removedMeanwhile: 0 })
		expect(report.publicFiles).toBe(before.size - 2)
		const newOnly = encryptedFileStorage(storage, () => new FileKeyring(newKey))
		const read = async (key: string) => {
			const chunks: Buffer[] = []
			for await (const chunk of await newOnly.read(key)) chunks.push(chunk as Buffer)
			return Buffer.concat(chunks)
		}
		expect((await read(underOld)).equals(secret)).toBe(true)
		expect(headerKeyId(await raw(underOld))).toBe(keyId(newKey))
		expect((await raw(legacy)).includes('%PDF')).toBe(false)
		expect((await read(legacy)).toString()).toBe('%PDF-1.4 an applicant file from before encryption')
		expect((await raw(picture)).toString()).toBe('a public picture')
		// A second run finds everything done.
		expect(await rotateFileKeys(storage, new FileKeyring(newKey, [oldKey]), { isAttachment: (key) => applicants.has(key) })).toMatchObject({ reencrypted: 0, encrypted: 0, current: 2 })
	})

	test('a file purged while rotation rewrites it is not brought back', async () => {
		const oldKey = randomBytes(32)
		const newKey = randomBytes(32)
		const temp = storage.tempPath()
		fs.writeFileSync(temp, 'a purged applicant file')
		const purged = await encryptedFileStorage(storage, () => new FileKeyring(oldKey)).adopt(temp)
		const keysBefore = new Set<string>()
		for await (const key of storage.keys()) keysBefore.add(key)
		// Retention deletes the row while the new copy is uploaded (then the file, which the upload brings back).
		const asked: string[] = []
		const stillAttached = async (key: string) => {
			asked.push(key)
			return key !== purged
		}
		const report = await rotateFileKeys(storage, new FileKeyring(newKey, [oldKey]), { isAttachment: () => false, stillAttached })
		expect(asked).toEqual([purged])
		expect(report).toMatchObject({ reencrypted: 0, removedMeanwhile: 1, failed: [] })
		await expect(storage.size(purged)).rejects.toThrow(FileNotFoundError)
		const keysAfter = new Set<string>()
		for await (const key of storage.keys()) keysAfter.add(key)
		expect(keysAfter).toEqual(new Set([...keysBefore].filter((key) => key !== purged)))
	})

	test('writable() is false when the bucket does not answer', async () => {
		const missing = s3FileStorage({ bucket: 'no-such-bucket', endpoint: 'http://127.0.0.1:9', region: 'us-east-1', forcePathStyle: true, tempDir: path.join(root, 'tmp-missing'), credentials: { accessKeyId: 'x', secretAccessKey: 'x' } })
		expect(await missing.writable()).toBe(false)
	})

	test('a bucket that takes connections and never answers makes requests fail, not hang', async () => {
		const sockets = new Set<net.Socket>()
		const silent = net.createServer((socket) => sockets.add(socket))
		await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
		try {
			const endpoint = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`
			const stuck = s3FileStorage({ bucket: 'silent', endpoint, region: 'us-east-1', forcePathStyle: true, tempDir: path.join(root, 'tmp-silent'), credentials: { accessKeyId: 'x', secretAccessKey: 'x' }, timeouts: { answerMs: 500, readyMs: 500 } })
			// /readyz's question, and a download: both answer within their time, with false and an error.
			expect(await stuck.writable()).toBe(false)
			await expect(stuck.read('a'.repeat(64))).rejects.toThrow(/timeout|timed out/i)
			expect(sockets.size).toBeGreaterThan(0)
		} finally {
			for (const socket of sockets) socket.destroy()
			await new Promise((resolve) => silent.close(resolve))
		}
	}, 20_000)
})

describe('parseStorageUrl', () => {
	test('unset: the local disk under DATA_DIR/uploads, as before', () => {
		expect(parseStorageUrl(undefined, '/srv/ataa')).toEqual({ kind: 'local', root: '/srv/ataa/uploads' })
		expect(parseStorageUrl('', '/srv/ataa')).toEqual({ kind: 'local', root: '/srv/ataa/uploads' })
	})

	test('s3:// with every option', () => {
		expect(parseStorageUrl('s3://bucket?endpoint=http://127.0.0.1:9000&region=eu-central-1&forcePathStyle=true&prefix=ataa/', '/srv/ataa')).toEqual({
			kind: 's3',
			options: { bucket: 'bucket', endpoint: 'http://127.0.0.1:9000', region: 'eu-central-1', forcePathStyle: true, prefix: 'ataa/', tempDir: '/srv/ataa/uploads/tmp' },
		})
	})

	test('defaults: region from AWS_REGION else us-east-1, path style with an endpoint, a prefix gets its slash', () => {
		expect(parseStorageUrl('s3://bucket', '/d', 'me-south-1')).toMatchObject({ options: { region: 'me-south-1', forcePathStyle: false, endpoint: undefined, prefix: undefined } })
		expect(parseStorageUrl('s3://bucket?endpoint=https://s3.example.org&prefix=ataa', '/d')).toMatchObject({ options: { region: 'us-east-1', forcePathStyle: true, prefix: 'ataa/' } })
		expect(parseStorageUrl('s3://bucket?endpoint=https://s3.example.org&forcePathStyle=false', '/d')).toMatchObject({ options: { forcePathStyle: false } })
	})

	test('the environment check takes an s3:// bucket URL and says what else it wants', () => {
		expect(parseEnv({ STORAGE_URL: 's3://ataa-files?region=me-south-1' }).STORAGE_URL).toBe('s3://ataa-files?region=me-south-1')
		expect(parseEnv({}).STORAGE_URL).toBeUndefined()
		expect(() => parseEnv({ STORAGE_URL: 'https://ataa-files.s3.amazonaws.com' })).toThrow(/STORAGE_URL: must be s3:\/\/bucket/)
	})

	test('what is wrong is said', () => {
		expect(() => parseStorageUrl('https://bucket', '/d')).toThrow(/must be s3:\/\/bucket/)
		expect(() => parseStorageUrl('s3://bucket/ataa', '/d')).toThrow(/prefix=/)
		expect(() => parseStorageUrl('s3://bucket?regoin=x', '/d')).toThrow(/unknown parameter regoin/)
		expect(() => parseStorageUrl('s3://bucket?endpoint=ftp://x', '/d')).toThrow(/http/)
		expect(() => parseStorageUrl('s3://bucket?forcePathStyle=yes', '/d')).toThrow(/true or false/)
	})
})
