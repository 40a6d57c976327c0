import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { buffer } from 'node:stream/consumers'
import { and, desc, eq, isNull } from 'drizzle-orm'
import { scheduleDocuments } from '#app/cases/document-pages.server.ts'
import { homeRestoration } from '#app/forms/definitions/home-restoration.ts'
import { RouterContextProvider } from 'react-router'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { staffContext } from '#app/auth/user-context.server.ts'
import { hashResumeToken, newReference, newResumeToken } from '#app/cases/tokens.server.ts'
import { saveEntry } from '#app/content/store.server.ts'
import { albums } from '#app/content/types.ts'
import { attachments, cases, documents, images } from '#app/db/schema.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { action as applicantUpload } from '#app/routes/apply/upload.ts'
import { loader as applicantFile } from '#app/routes/apply/file.ts'
import { loader as staffCaseFile } from '#app/routes/admin/case-file.ts'
import { action as bulkUpload } from '#app/routes/admin/content-upload.ts'
import { action as albumPhotos } from '#app/routes/admin/album-photos.tsx'
import { encryptedLength, FileKeyring, headerKeyId, keyId, rotateFileKeys } from '#app/storage/encryption.server.ts'
import { encryptedFileStorage, getCaseFileStorage, getFileStorage } from '#app/storage/file-storage.server.ts'
import { buildPdf, multipartBody, streamObject } from '#tests/fixtures/attack-files.ts'
import { randomNationalId } from '#tests/fixtures/needy-families.ts'
import { pdfOfSize } from '#tests/fixtures/pdf.ts'
import { withAppDatabase } from '#tests/db.ts'

// Applicants' files go through the app as the router calls it, on the app's own storage in a temp
// DATA_DIR (read by getEnv on its first call): on disk they are encrypted under FILE_ENCRYPTION_KEY,
// and they come back byte for byte; public files stay as they were sent. Then `npm run
// files:rotate-key`'s work (rotateFileKeys, fed the attachments' keys as the command reads them).

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-encrypted-files-'))
const KEY = randomBytes(32)
vi.stubEnv('DATA_DIR', dataDir)
vi.stubEnv('FILE_ENCRYPTION_KEY', KEY.toString('hex'))
vi.stubEnv('FILE_ENCRYPTION_OLD_KEYS', '')
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

const database = withAppDatabase()
const db = () => database.handle.db
const local = () => getFileStorage()
const onDisk = (key: string) => fs.readFileSync(local().filePath(key))
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

const MARKER = 'ATAA-PLAINTEXT-MARKER-7f3c'
/**
 * A PDF of one page showing a picture of 150,000 bytes kept unpacked, a marker in its pixels: the
 * PDF made again of it (app/pdf/page-pdf.server.ts) holds the picture as it is, in three
 * 64 KiB chunks and a bit; were it stored unencrypted, the marker would be on disk.
 */
const pdf = (() => {
	const pixels = randomBytes(250 * 200 * 3)
	pixels.write(MARKER, 10, 'latin1')
	const drawing = 'q 250 0 0 200 0 0 cm /Im1 Do Q'
	return Buffer.from(
		buildPdf([
			'<< /Type /Catalog /Pages 2 0 R >>',
			'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
			'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 250 200] /Resources << /XObject << /Im1 4 0 R >> >> /Contents 5 0 R >>',
			streamObject('/Type /XObject /Subtype /Image /Width 250 /Height 200 /ColorSpace /DeviceRGB /BitsPerComponent 8', pixels.toString('latin1')),
			streamObject('', drawing),
		]),
	)
})()

let officer: PublicUser
let editor: PublicUser
const token = newResumeToken()
const reference = newReference()

beforeAll(async () => {
	officer = await createUser(db(), { name: 'مسؤول', email: `officer-${Date.now()}@ataa.test`, mobile: '0551234567', roles: ['case_officer'], password: 'Officer-Pass-123' })
	editor = await createUser(db(), { name: 'محرر', email: `editor-${Date.now()}@ataa.test`, mobile: '0551234568', roles: ['content_editor'], password: 'Editor-Pass-123' })
	await db().insert(cases).values({ type: 'home-restoration', reference, applicantName: 'عبدالله', nationalId: randomNationalId(), mobile: '+966551234567', resumeTokenHash: hashResumeToken(token) })
})

const as = (user: PublicUser) => {
	const context = new RouterContextProvider()
	context.set(staffContext, user)
	return context
}

function formRequest(url: string, fields: Record<string, string>, field: string, file: { name: string; type: string; bytes: Uint8Array }): Request {
	const { body, contentType } = multipartBody(fields, { field, ...file })
	return new Request(url, { method: 'POST', headers: { 'content-type': contentType, 'content-length': String(body.length), accept: 'application/json', 'x-ataa-client-ip': '10.9.8.7' }, body: new Uint8Array(body) })
}

async function upload(slot: string, file: { name: string; type: string; bytes: Uint8Array }) {
	const response = (await applicantUpload({ params: { token }, request: formRequest(`http://localhost/apply/r/${token}/files/upload`, { slot }, 'file', file), context: new RouterContextProvider() } as never)) as { data: { ok: boolean } }
	expect(response.data).toMatchObject({ ok: true })
	// A document's page is made into its document after the answer (app/cases/document-pages.server.ts): the file is the document.
	const [owner] = await db().select({ id: cases.id }).from(cases).where(eq(cases.reference, reference))
	await scheduleDocuments(db(), homeRestoration, owner!.id, [])
	const [row] = await db()
		.select()
		.from(attachments)
		.where(and(eq(attachments.slot, slot), isNull(attachments.deletedAt)))
		.orderBy(desc(attachments.createdAt))
		.limit(1)
	return row!
}

describe("an applicant's files", () => {
	test('a PDF is stored encrypted under FILE_ENCRYPTION_KEY and downloads byte for byte, whole or in part', async () => {
		const row = await upload('other', { name: 'تقرير.pdf', type: 'application/pdf', bytes: pdf })
		// What is kept is the PDF made again, its picture (and the marker) as it was.
		const made = await buffer(await getCaseFileStorage().read(row.storageKey))
		expect(made.equals(pdf)).toBe(false)
		expect(made.includes(MARKER)).toBe(true)
		expect(row).toMatchObject({ size: made.length, sha256: sha256(made) })

		const stored = onDisk(row.storageKey)
		expect(stored.subarray(0, 8).toString('latin1')).toBe('ATAAENC1')
		expect(headerKeyId(stored)).toBe(keyId(KEY))
		expect(stored.length).toBe(encryptedLength(made.length))
		expect(stored.includes(MARKER)).toBe(false)
		expect(stored.includes('%PDF')).toBe(false)
		// No plaintext copy left in the temp dir either.
		for (const name of fs.readdirSync(path.join(dataDir, 'uploads', 'tmp'))) expect(fs.readFileSync(path.join(dataDir, 'uploads', 'tmp', name)).includes(MARKER)).toBe(false)

		const response = (await applicantFile({ params: { token, fileId: row.id }, request: new Request(`http://localhost/apply/r/${token}/files/${row.id}`) } as never)) as Response
		expect(response.status).toBe(200)
		expect(response.headers.get('Content-Length')).toBe(String(made.length))
		expect(Buffer.from(await response.arrayBuffer()).equals(made)).toBe(true)

		// The staff preview asks for ranges (a PDF viewer does): one across the first chunk boundary.
		const request = new Request(`http://localhost/admin/cases/${reference}/files/${row.id}?inline=1`, { headers: { range: 'bytes=65530-65545' } })
		const part = (await staffCaseFile({ params: { reference, fileId: row.id }, request, context: as(officer) } as never)) as Response
		expect(part.status).toBe(206)
		expect(part.headers.get('Content-Range')).toBe(`bytes 65530-65545/${made.length}`)
		expect(Buffer.from(await part.arrayBuffer()).equals(made.subarray(65530, 65546))).toBe(true)
	})

	test('a photo is re-encoded, then stored encrypted; what comes back is the WebP', async () => {
		const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a7' } }).jpeg().toBuffer()
		const row = await upload('house_photos', { name: 'البيت.jpg', type: 'image/jpeg', bytes: jpeg })
		const stored = onDisk(row.storageKey)
		expect(stored.subarray(0, 8).toString('latin1')).toBe('ATAAENC1')
		await expect(sharp(stored).metadata()).rejects.toThrow()
		const response = (await applicantFile({ params: { token, fileId: row.id }, request: new Request(`http://localhost/apply/r/${token}/files/${row.id}`) } as never)) as Response
		const served = Buffer.from(await response.arrayBuffer())
		expect(sha256(served)).toBe(row.sha256)
		expect((await sharp(served).metadata()).format).toBe('webp')
	})
})

describe('public files stay as they are', () => {
	test('a document of the library is stored as sent', async () => {
		const sent = Buffer.from(pdfOfSize(5_000))
		const response = (await bulkUpload({ params: { type: 'documents' }, request: formRequest('http://localhost/admin/content/documents/upload', { category: 'policies' }, 'files', { name: 'لائحة.pdf', type: 'application/pdf', bytes: sent }), context: as(editor) } as never)) as Response | { data: unknown }
		expect(response instanceof Response ? response.status : 200).toBeLessThan(400)
		const [row] = await db().select().from(documents).orderBy(desc(documents.createdAt)).limit(1)
		expect(onDisk(row!.storageKey).equals(sent)).toBe(true)
	})

	test("an album's photo variants are plain image files", async () => {
		const album = await saveEntry(db(), albums, null, { title: 'ألبوم', slug: `album-${Date.now()}`, date: '2026-01-01' }, editor.id)
		const photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#a73' } }).jpeg().toBuffer()
		await albumPhotos({ params: { id: album.id }, request: formRequest(`http://localhost/admin/content/albums/${album.id}/photos`, {}, 'photos', { name: 'صورة.jpg', type: 'image/jpeg', bytes: photo }), context: as(editor) } as never)
		const [row] = await db().select().from(images).orderBy(desc(images.createdAt)).limit(1)
		expect(row!.variants.length).toBeGreaterThan(0)
		for (const variant of row!.variants) expect(['webp', 'avif', 'heif', 'jpeg']).toContain((await sharp(onDisk(variant.key)).metadata()).format)
	})
})

describe('key rotation (npm run files:rotate-key)', () => {
	const NEW_KEY = randomBytes(32)
	let legacy: { key: string; bytes: Buffer }
	let publicBefore: Map<string, Buffer>

	const attachmentKeys = async () => new Set((await db().select({ key: attachments.storageKey }).from(attachments)).map((row) => row.key))
	const rotate = async (keyring: FileKeyring) => {
		const keys = await attachmentKeys()
		return rotateFileKeys(local(), keyring, { isAttachment: (key) => keys.has(key) })
	}

	test('files under the old key are re-encrypted under the new one, and a file from before encryption is encrypted', async () => {
		// A file an applicant sent before encryption: plaintext on disk, its row as any other.
		const bytes = Buffer.from(pdfOfSize(70_000))
		const temp = local().tempPath()
		fs.writeFileSync(temp, bytes)
		const key = await local().adopt(temp)
		const [owner] = await db().select({ id: cases.id }).from(cases).where(eq(cases.reference, reference))
		await db().insert(attachments).values({ caseId: owner!.id, slot: 'other', originalName: 'قديم.pdf', contentType: 'application/pdf', size: bytes.length, sha256: sha256(bytes), storageKey: key })
		legacy = { key, bytes }
		const keys = await attachmentKeys()
		publicBefore = new Map()
		for await (const stored of local().keys()) if (!keys.has(stored)) publicBefore.set(stored, onDisk(stored))

		const report = await rotate(new FileKeyring(NEW_KEY, [KEY]))
		// The PDF kept as the page of «other files», the document made of it, the house's photo; and the file from before.
		expect(report).toEqual({ current: 0, reencrypted: 3, encrypted: 1, publicFiles: publicBefore.size, unchecked: 0, unknownKey: [], failed: [], removedMeanwhile: 0 })

		// Readable with the new key alone: the old one is no longer needed.
		const newOnly = encryptedFileStorage(local(), () => new FileKeyring(NEW_KEY))
		for (const row of await db().select().from(attachments)) {
			expect(headerKeyId(onDisk(row.storageKey))).toBe(keyId(NEW_KEY))
			expect(sha256(await buffer(await newOnly.read(row.storageKey)))).toBe(row.sha256)
		}
		expect(onDisk(legacy.key).includes('%PDF')).toBe(false)
		expect((await buffer(await newOnly.read(legacy.key))).equals(legacy.bytes)).toBe(true)
		// Public files untouched, byte for byte.
		for (const [stored, before] of publicBefore) expect(onDisk(stored).equals(before)).toBe(true)
		// No temp file left behind.
		expect(fs.readdirSync(path.join(dataDir, 'uploads', 'tmp'))).toEqual([])
	})

	test('a second run changes nothing', async () => {
		const before = onDisk(legacy.key)
		const report = await rotate(new FileKeyring(NEW_KEY, [KEY]))
		expect(report).toMatchObject({ current: 4, reencrypted: 0, encrypted: 0, publicFiles: publicBefore.size, unknownKey: [], failed: [] })
		expect(onDisk(legacy.key).equals(before)).toBe(true)
	})

	test('without the database, plaintext files are only counted; a file under a key not given is named, not touched', async () => {
		const other = new FileKeyring(randomBytes(32))
		const report = await rotateFileKeys(local(), other)
		expect(report).toMatchObject({ current: 0, reencrypted: 0, encrypted: 0, unchecked: publicBefore.size, failed: [] })
		expect(report.unknownKey.sort()).toEqual([...(await attachmentKeys())].sort())
		expect(headerKeyId(onDisk(legacy.key))).toBe(keyId(NEW_KEY))
	})
})
