import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { buffer } from 'node:stream/consumers'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { openDatabase } from '#app/db/client.server.ts'
import { attachments, cases } from '#app/db/schema.ts'
import { FileKeyring, headerKeyId, keyId } from '#app/storage/encryption.server.ts'
import { encryptedFileStorage, localFileStorage } from '#app/storage/file-storage.server.ts'
import { randomNationalId } from '#tests/fixtures/needy-families.ts'

// The operator's command itself, run as `npm run files:rotate-key` runs it, on a data directory
// with the embedded database: beside a running server (its lock held), then with the server stopped.

const run = promisify(execFile)
const root = path.resolve(import.meta.dirname, '..')
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-rotate-'))
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))
const OLD = randomBytes(32)
const NEW = randomBytes(32)
const local = localFileStorage(path.join(dataDir, 'uploads'))

function put(storage: { tempPath(): string; adopt(temp: string): Promise<string> }, bytes: Buffer): Promise<string> {
	const temp = storage.tempPath()
	fs.writeFileSync(temp, bytes)
	return storage.adopt(temp)
}

const files = {} as { underOld: string; legacy: string; publicFile: string }
const legacyBytes = Buffer.from('%PDF-1.4 an applicant file from before encryption')
const publicBytes = Buffer.from('%PDF-1.4 a public document')

beforeAll(async () => {
	files.underOld = await put(encryptedFileStorage(local, () => new FileKeyring(OLD)), Buffer.from('%PDF-1.4 under the old key'))
	files.legacy = await put(local, legacyBytes)
	files.publicFile = await put(local, publicBytes)
	const handle = await openDatabase({ dataDir: path.join(dataDir, 'pgdata') })
	try {
		await handle.migrate()
		const [row] = await handle.db.insert(cases).values({ type: 'needy-families', reference: 'AT-ROTATE-1', applicantName: 'عبدالله', nationalId: randomNationalId(), mobile: '+966551234567', resumeTokenHash: 'x'.repeat(64) }).returning()
		for (const [key, name] of [
			[files.underOld, 'new.pdf'],
			[files.legacy, 'old.pdf'],
		] as const) {
			await handle.db.insert(attachments).values({ caseId: row!.id, slot: 'other', originalName: name, contentType: 'application/pdf', size: 1, sha256: 'ab'.repeat(32), storageKey: key })
		}
	} finally {
		await handle.close()
	}
}, 60_000)

async function rotate() {
	const env = { PATH: process.env.PATH, NODE_ENV: 'production', DATA_DIR: dataDir, FILE_ENCRYPTION_KEY: NEW.toString('hex'), FILE_ENCRYPTION_OLD_KEYS: OLD.toString('hex') }
	return run(path.join(root, 'node_modules/.bin/tsx'), ['scripts/rotate-file-key.ts'], { cwd: root, env })
}

const onDisk = (key: string) => fs.readFileSync(local.filePath(key))

test('beside a running server: files under the old key are re-encrypted; plaintext ones wait, and it says why', { timeout: 60_000 }, async () => {
	// A live process holds the data directory, as the server does.
	fs.writeFileSync(path.join(dataDir, 'ataa.lock'), JSON.stringify({ pid: process.pid, owner: 'server' }))
	try {
		const { stdout } = await rotate()
		expect(stdout).toContain('Re-encrypted from an old key: 1')
		expect(stdout).toContain('Plaintext files not looked at: 2')
		expect(stdout).toContain('stop the server and run this command again')
	} finally {
		fs.rmSync(path.join(dataDir, 'ataa.lock'))
	}
	expect(headerKeyId(onDisk(files.underOld))).toBe(keyId(NEW))
	expect(onDisk(files.legacy).equals(legacyBytes)).toBe(true)
})

test('with the server stopped: the applicant file from before encryption is encrypted, the public one left as it is', { timeout: 60_000 }, async () => {
	const { stdout } = await rotate()
	expect(stdout).toContain('Already under the current key: 1')
	expect(stdout).toContain("Applicants' files stored before encryption, now encrypted: 1")
	expect(stdout).toContain('Public files (pictures, documents, videos), left unencrypted: 1')
	expect(stdout).toContain('No file needs the old keys any more')
	expect(headerKeyId(onDisk(files.legacy))).toBe(keyId(NEW))
	expect(onDisk(files.publicFile).equals(publicBytes)).toBe(true)
	const newOnly = encryptedFileStorage(local, () => new FileKeyring(NEW))
	expect((await buffer(await newOnly.read(files.legacy))).equals(legacyBytes)).toBe(true)
	expect((await buffer(await newOnly.read(files.underOld))).toString()).toBe('%PDF-1.4 under the old key')
})
