import fs from 'node:fs'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { parseEnv } from '#app/utils/env.server.ts'
import { getCaseFileStorage, getFileStorage, localFileStorage, parseStorageUrl, type FileStorageDriver } from './file-storage.server.ts'
import { s3FileStorage } from './s3-storage.server.ts'
import { storageContract } from './storage-contract.ts'

// s3rver ships no types: only what the test uses of it.
interface S3rverServer {
	run(): Promise<AddressInfo>
	close(): Promise<void>
}
type S3rverClass = new (options: { address: string; port: number; silent: boolean; directory: string; configureBuckets: Array<{ name: string }> }) => S3rverServer
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-storage-contract-'))
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

describe('local disk', () => {
	const storage = localFileStorage(path.join(root, 'local'))
	storageContract(() => storage)
})

describe('S3 (s3rver on a loopback port)', () => {
	let server: S3rverServer
	let storage: FileStorageDriver
	let port: number
	beforeAll(async () => {
		server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: path.join(root, 's3rver'), configureBuckets: [{ name: 'ataa-test' }] })
		;({ port } = await server.run())
		const choice = parseStorageUrl(`s3://ataa-test?endpoint=http://127.0.0.1:${port}&region=us-east-1&forcePathStyle=true&prefix=ataa/`, path.join(root, 'data'))
		if (choice.kind !== 's3') throw new Error('expected the S3 driver')
		// s3rver takes its own fixed credentials.
		storage = s3FileStorage({ ...choice.options, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } })
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
		} finally {
			vi.unstubAllEnvs()
		}
	})

	test('writable() is false when the bucket does not answer', async () => {
		const missing = s3FileStorage({ bucket: 'no-such-bucket', endpoint: 'http://127.0.0.1:9', region: 'us-east-1', forcePathStyle: true, tempDir: path.join(root, 'tmp-missing'), credentials: { accessKeyId: 'x', secretAccessKey: 'x' } })
		expect(await missing.writable()).toBe(false)
	})
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
