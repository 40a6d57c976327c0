import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { buffer } from 'node:stream/consumers'
import { and, count, desc, eq, isNull } from 'drizzle-orm'
import { RouterContextProvider } from 'react-router'
import { PDFDocument } from 'pdf-lib'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import type * as fileStorage from '#app/storage/file-storage.server.ts'
import { encryptedFileStorage, localFileStorage } from '#app/storage/file-storage.server.ts'
import { FileKeyring } from '#app/storage/encryption.server.ts'
import { staffContext } from '#app/auth/user-context.server.ts'
import { hashResumeToken, newReference, newResumeToken } from '#app/cases/tokens.server.ts'
import { pageSlot } from '#app/cases/document-pages.ts'
import { scheduleDocuments } from '#app/cases/document-pages.server.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { saveEntry } from '#app/content/store.server.ts'
import { albums } from '#app/content/types.ts'
import { attachments, cases, contentEntries, documents, images } from '#app/db/schema.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { fileTooLarge } from '#app/text/messages.ts'
import { notVideo, videoTooLarge } from '#app/content/gallery/video-messages.ts'
import { BAD_FILE_NAME, EMPTY_FILE, UNSAFE_PDF } from '#app/storage/upload-messages.ts'
import { STORED_FILE_CSP } from '#app/storage/download.server.ts'
import { inspectPdf } from '#app/storage/pdf-active-content.server.ts'
import { action as applicantUpload } from '#app/routes/apply/upload.ts'
import { loader as applicantFile } from '#app/routes/apply/file.ts'
import { action as bulkUpload } from '#app/routes/admin/content-upload.ts'
import { action as contentEditor } from '#app/routes/admin/content-editor.tsx'
import { action as albumPhotos } from '#app/routes/admin/album-photos.tsx'
import { action as videoUpload } from '#app/routes/admin/video-upload.ts'
import { loader as documentFile } from '#app/routes/document.ts'
import { loader as imageFile } from '#app/images/serve.ts'
import { attackFiles, multipartBody, type AttackFile, type UploadTarget } from '#tests/fixtures/attack-files.ts'
import { randomNationalId } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { temporaryStorage } from '#tests/storage.ts'

// Every upload endpoint, called as the router calls it, with the attack corpus
// (tests/fixtures/attack-files.ts): each file is refused with its Arabic message, leaving no row and
// no byte in storage, or kept only in a harmless form (a random storage key, a cleaned name, an
// image re-encoded) and served with a Content-Disposition and the sandbox policy (nosniff is added
// to every response by server.mjs: tests/e2e/security/uploads.spec.ts sees it).

// Small limits, so that an oversized file is quick to make (read by getEnv on its first call).
vi.stubEnv('UPLOAD_MAX_MB', '0.2')
vi.stubEnv('DOCUMENT_MAX_MB', '0.3')
vi.stubEnv('VIDEO_MAX_MB', '0.4')
const UPLOAD_MAX = 200_000
const DOCUMENT_MAX = 300_000
const VIDEO_MAX = 400_000

const { dir, storage, remove } = temporaryStorage('attacks')
const app = vi.hoisted(() => ({ storage: undefined as unknown, caseStorage: undefined as unknown }))
vi.mock('#app/storage/file-storage.server.ts', async (importOriginal) => ({
	...(await importOriginal<typeof fileStorage>()),
	getFileStorage: () => app.storage,
	getCaseFileStorage: () => app.caseStorage,
}))
app.storage = storage
// Applicants' files: encrypted, in the same directory, as the app keeps them.
const caseKeys = new FileKeyring(randomBytes(32))
const caseStorage = encryptedFileStorage(localFileStorage(dir), () => caseKeys)
app.caseStorage = caseStorage
afterAll(remove)

const database = withAppDatabase()
const db = () => database.handle.db

let editor: PublicUser
let albumId: string
/** A private link per application type, each a draft whose file slots are open. */
const tokens: Record<string, string> = {}

async function draftCase(type: string): Promise<string> {
	const token = newResumeToken()
	await db().insert(cases).values({ type, reference: newReference(), applicantName: 'عبدالله', nationalId: randomNationalId(), mobile: '+966551234567', resumeTokenHash: hashResumeToken(token) })
	return token
}

beforeAll(async () => {
	editor = await createUser(db(), { name: 'محرر', email: `editor-${Date.now()}@ataa.test`, mobile: '0551234567', roles: ['content_editor'], password: 'Editor-Pass-123' })
	tokens['needy-families'] = await draftCase('needy-families')
	tokens['home-restoration'] = await draftCase('home-restoration')
	albumId = (await saveEntry(db(), albums, null, { title: 'ألبوم', slug: `album-${Date.now()}`, date: '2026-01-01' }, editor.id)).id
})

const staff = () => {
	const context = new RouterContextProvider()
	context.set(staffContext, editor)
	return context
}

/** What a caller sees: the status and the body (JSON, or an action's data), as the router would send it. */
async function seen(result: unknown): Promise<{ status: number; body: Record<string, unknown>; location: string | null }> {
	if (result instanceof Response) {
		const type = result.headers.get('content-type') ?? ''
		return { status: result.status, body: type.includes('json') ? ((await result.json()) as Record<string, unknown>) : {}, location: result.headers.get('location') }
	}
	if (result && typeof result === 'object' && 'init' in result && 'data' in result) {
		const wrapped = result as { data: Record<string, unknown>; init: ResponseInit | null }
		return { status: wrapped.init?.status ?? 200, body: wrapped.data, location: null }
	}
	return { status: 200, body: result as Record<string, unknown>, location: null }
}

/** A request as a browser sends a form with one file: multipart, its Content-Length said. */
function formRequest(url: string, fields: Record<string, string>, field: string, file: AttackFile, accept = 'application/json'): Request {
	const { body, contentType } = multipartBody(fields, { field, name: file.name, type: file.type, bytes: file.bytes })
	return new Request(url, { method: 'POST', headers: { 'content-type': contentType, 'content-length': String(body.length), accept, 'x-ataa-client-ip': '10.1.2.3' }, body: new Uint8Array(body) })
}

/** Every file under the storage root, temp files included, relative to it. */
function storedFiles(): string[] {
	return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((name) => fs.statSync(path.join(dir, name)).isFile()).sort()
}

async function rowCounts() {
	const [a] = await db().select({ value: count() }).from(attachments)
	const [d] = await db().select({ value: count() }).from(documents)
	const [i] = await db().select({ value: count() }).from(images)
	const [e] = await db().select({ value: count() }).from(contentEntries)
	return { attachments: a!.value, documents: d!.value, images: i!.value, entries: e!.value }
}

/** A kept file as the endpoint recorded it: the name shown, its storage keys, and its response as served. */
interface Kept {
	originalName: string
	keys: string[]
	served: () => Promise<Response>
}

interface Endpoint {
	name: string
	target: UploadTarget
	maxBytes: number
	post: (file: AttackFile) => Promise<{ status: number; message: string }>
	/** The message of each refusal, as this endpoint words it for `file`. */
	message: (refusal: string, file: AttackFile) => string
	latest: () => Promise<Kept>
}

const namedRefusal = (file: AttackFile, message: string) => `«${cleanName(file)}»: ${message}`
// The name the endpoint shows for a refused file: the cleaned name it would have had.
const cleanName = (file: AttackFile) => ('kept' in file.expected ? file.expected.shownName : file.name.split(/[/\\]/).pop()!)

async function latestAttachment(token: string): Promise<Kept> {
	const [row] = await db().select().from(attachments).orderBy(desc(attachments.createdAt)).limit(1)
	return { originalName: row!.originalName, keys: [row!.storageKey], served: () => applicantFile({ params: { token, fileId: row!.id }, request: new Request(`http://localhost/apply/r/${token}/files/${row!.id}`) } as never) as Promise<Response> }
}

async function latestDocument(): Promise<Kept> {
	const [row] = await db().select().from(documents).orderBy(desc(documents.createdAt)).limit(1)
	return { originalName: row!.originalName, keys: [row!.storageKey], served: () => documentFile({ params: { id: row!.id }, request: new Request(`http://localhost/documents/${row!.id}?view`) } as never) as Promise<Response> }
}

async function latestImage(): Promise<Kept> {
	const [row] = await db().select().from(images).orderBy(desc(images.createdAt)).limit(1)
	const variant = row!.variants.find((item) => item.format === 'webp')!
	return { originalName: row!.originalName, keys: row!.variants.map((item) => item.key), served: () => imageFile({ params: { id: row!.id, file: `${variant.width}.webp` } } as never) as Promise<Response> }
}

/**
 * A page of a document: the page as kept (a PDF as sent, a photo cleaned) and the document made of
 * the slot's pages, which is what is served. Its keys: the page's, then the document's.
 */
async function latestPage(token: string, slot: string): Promise<Kept> {
	const [page] = await db().select().from(attachments).where(eq(attachments.slot, pageSlot(slot))).orderBy(desc(attachments.createdAt)).limit(1)
	const [document] = await db()
		.select()
		.from(attachments)
		.where(and(eq(attachments.slot, slot), isNull(attachments.deletedAt)))
		.limit(1)
	return { originalName: page!.originalName, keys: [page!.storageKey, document!.storageKey], served: () => applicantFile({ params: { token, fileId: document!.id }, request: new Request(`http://localhost/apply/r/${token}/files/${document!.id}`) } as never) as Promise<Response> }
}

const NOT_ACCEPTED = 'الملف ليس صورة ولا PDF. صوّر المستند بالكاميرا، أو اختر صورة (JPEG أو PNG أو WebP أو HEIC) أو ملف PDF.'

function applicant(type: 'needy-families' | 'home-restoration', slot: string, target: UploadTarget): Endpoint {
	const definition = findDefinition(type)!
	return {
		name: `applicant ${type} «${slot}»`,
		target,
		maxBytes: UPLOAD_MAX,
		async post(file) {
			const token = tokens[type]!
			const result = await seen(await applicantUpload({ params: { token }, request: formRequest(`http://localhost/apply/r/${token}/files/upload`, { slot }, 'file', file), context: new RouterContextProvider() } as never))
			// A document's page is cleaned and the document made after the answer: what is kept is judged once they are.
			const [row] = await db().select({ id: cases.id }).from(cases).where(eq(cases.resumeTokenHash, hashResumeToken(token)))
			await scheduleDocuments(db(), definition, row!.id, [])
			return { status: result.status, message: String(result.body.message ?? '') }
		},
		message: (refusal) => ({ 'wrong-type': NOT_ACCEPTED, empty: EMPTY_FILE, 'unsafe-pdf': UNSAFE_PDF, 'too-large': fileTooLarge(UPLOAD_MAX), 'bad-name': BAD_FILE_NAME, 'too-many-pixels': TOO_MANY_PIXELS })[refusal]!,
		latest: () => (target === 'document' ? latestPage(tokens[type]!, slot) : latestAttachment(tokens[type]!)),
	}
}

const TOO_MANY_PIXELS = 'أبعاد الصورة أكبر مما يُقبل (أكثر من 40 مليون نقطة). التقطها بكاميرا الجوال من جديد أو اختر صورة أصغر.'

const endpoints: Endpoint[] = [
	applicant('needy-families', 'other', 'document'),
	applicant('home-restoration', 'house_photos', 'pdf-or-photo'),
	{
		name: 'staff documents library, bulk upload',
		target: 'pdf',
		maxBytes: DOCUMENT_MAX,
		async post(file) {
			const result = await seen(await bulkUpload({ params: { type: 'documents' }, request: formRequest('http://localhost/admin/content/documents/upload', { category: 'policies' }, 'files', file), context: staff() } as never))
			return { status: result.status, message: String(result.body.message ?? '') }
		},
		message: (refusal, file) =>
			refusal === 'bad-name'
				? BAD_FILE_NAME
				: namedRefusal(file, ({ 'wrong-type': 'الملف ليس PDF. اختر ملفاً بصيغة PDF.', empty: EMPTY_FILE, 'unsafe-pdf': UNSAFE_PDF, 'too-large': fileTooLarge(DOCUMENT_MAX) })[refusal]!),
		latest: latestDocument,
	},
	{
		name: 'staff document field (content editor)',
		target: 'pdf',
		maxBytes: DOCUMENT_MAX,
		async post(file) {
			const request = formRequest('http://localhost/admin/content/documents/new', { category: 'policies', title: `مستند ${file.id}`, order: '1' }, 'file-upload', file, 'text/html')
			const result = await seen(await contentEditor({ params: { type: 'documents' }, request, context: staff() } as never))
			const errors = (result.body.result as { error?: Record<string, string[]> } | undefined)?.error
			return { status: result.status, message: errors?.file?.[0] ?? '' }
		},
		message: (refusal) => ({ 'wrong-type': 'الملف ليس PDF. اختر ملفاً بصيغة PDF.', empty: EMPTY_FILE, 'unsafe-pdf': UNSAFE_PDF, 'too-large': fileTooLarge(DOCUMENT_MAX), 'bad-name': BAD_FILE_NAME })[refusal]!,
		latest: latestDocument,
	},
	{
		name: 'staff image field (content editor, news)',
		target: 'image',
		maxBytes: UPLOAD_MAX,
		async post(file) {
			const request = formRequest('http://localhost/admin/content/news/new', { NewsDate: '2026-01-01', title: `خبر ${file.id}`, details: '<p>نص</p>' }, 'img-upload', file, 'text/html')
			const result = await seen(await contentEditor({ params: { type: 'news' }, request, context: staff() } as never))
			const errors = (result.body.result as { error?: Record<string, string[]> } | undefined)?.error
			return { status: result.status, message: errors?.img?.[0] ?? '' }
		},
		message: (refusal) => ({ 'wrong-type': 'الملف ليس صورة. اختر صورة JPEG أو PNG أو WebP.', empty: EMPTY_FILE, 'too-large': fileTooLarge(UPLOAD_MAX), 'bad-name': BAD_FILE_NAME })[refusal]!,
		latest: latestImage,
	},
	{
		name: 'staff album photos',
		target: 'image',
		maxBytes: UPLOAD_MAX,
		async post(file) {
			const result = await seen(await albumPhotos({ params: { id: albumId }, request: formRequest(`http://localhost/admin/content/albums/${albumId}/photos`, {}, 'photos', file), context: staff() } as never))
			return { status: result.status, message: String((result.body.notice as { message?: string } | undefined)?.message ?? '') }
		},
		message: (refusal, file) =>
			refusal === 'bad-name'
				? BAD_FILE_NAME
				: `لم تُضف أي صورة. ${namedRefusal(file, ({ 'wrong-type': 'الملف ليس صورة. اختر صوراً بصيغة JPEG أو PNG أو WebP أو HEIC.', empty: EMPTY_FILE, 'too-large': 'حجم الصورة أو أبعادها أكبر من المسموح (حتى 40 مليون نقطة). صغّرها ثم أعد رفعها.' })[refusal]!)}`,
		latest: latestImage,
	},
	{
		name: 'staff video (sent ahead of its form)',
		target: 'video',
		maxBytes: VIDEO_MAX,
		async post(file) {
			const result = await seen(await videoUpload({ params: { type: 'videos' }, request: formRequest('http://localhost/admin/content/videos/video-upload', {}, 'video', file), context: staff() } as never))
			return { status: result.status, message: String(result.body.message ?? '') }
		},
		message: (refusal) => ({ 'wrong-type': notVideo, empty: EMPTY_FILE, 'too-large': videoTooLarge(VIDEO_MAX), 'bad-name': BAD_FILE_NAME })[refusal]!,
		latest: latestDocument,
	},
]

const corpus = new Map<string, AttackFile[]>()
beforeAll(async () => {
	for (const endpoint of endpoints) corpus.set(endpoint.name, await attackFiles(endpoint.target, endpoint.maxBytes))
})

const tally = { tried: 0, refused: 0, neutralised: 0, through: 0 }
afterAll(() => {
	// The closing note's figures: printed by the last test file run alone, or read from here.
	console.info(`attack uploads: ${tally.tried} tried on ${endpoints.length} endpoints; ${tally.refused} refused, ${tally.neutralised} kept harmless, ${tally.through} through`)
})

describe.each(endpoints)('$name', (endpoint) => {
	test('refuses each attack with its message and keeps nothing, or keeps it only harmless', async () => {
		const files = corpus.get(endpoint.name)!
		expect(files.length).toBe(endpoint.target === 'document' ? 34 : 30)
		for (const file of files) {
			tally.tried++
			const before = { rows: await rowCounts(), stored: storedFiles() }
			const { status, message } = await endpoint.post(file)
			const after = { rows: await rowCounts(), stored: storedFiles() }
			const label = `${endpoint.name} / ${file.id}`
			if ('refused' in file.expected) {
				expect(status, label).toBeGreaterThanOrEqual(400)
				expect(status, label).toBeLessThan(500)
				expect(message, label).toBe(endpoint.message(file.expected.refused, file))
				expect(after.rows, label).toEqual(before.rows)
				expect(after.stored, label).toEqual(before.stored)
				tally.refused++
				continue
			}
			expect(status, label).toBeLessThan(400)
			const kept = await endpoint.latest()
			expect(kept.originalName, label).toBe(file.expected.shownName)
			// Stored under random keys only, never under anything of the client's name.
			const added = after.stored.filter((name) => !before.stored.includes(name))
			expect(added.sort(), label).toEqual(kept.keys.map((key) => path.join('files', key.slice(0, 2), key.slice(2, 4), key)).sort())
			for (const key of kept.keys) expect(key, label).toMatch(/^[0-9a-f]{64}$/)
			// As kept: applicants' files decrypted (the encrypting storage reads public, plaintext files as they are).
			const bytes = await buffer(await caseStorage.read(kept.keys[0]!))
			if (file.expected.kept === 'as-sent') expect(Buffer.compare(bytes, Buffer.from(file.bytes)), label).toBe(0)
			else if (file.expected.kept === 'made-again') {
				// A PDF of ours, its pages as many as were sent, nothing active in it.
				const made = await PDFDocument.load(bytes, { updateMetadata: false })
				expect([made.getProducer(), made.getPageCount()], label).toEqual(['Ataa', (await PDFDocument.load(file.bytes)).getPageCount()])
				expect(inspectPdf(bytes), label).toEqual({ ok: true })
			} else {
				// Only pixels survive re-encoding: no page, no script, no archive.
				// sharp names AVIF by its container, HEIF; a document's page is a JPEG.
				expect(['webp', 'heif', 'jpeg'], label).toContain((await sharp(bytes).metadata()).format)
				for (const marker of ['<script', '<html', 'PK\u0003\u0004', 'Main-Class']) expect(bytes.toString('latin1'), label).not.toContain(marker)
			}
			const served = await kept.served()
			expect(served.headers.get('Content-Security-Policy'), label).toBe(`${STORED_FILE_CSP}; frame-ancestors 'none'`)
			expect(served.headers.get('Content-Type'), label).toMatch(/^(application\/pdf|image\/(webp|avif)|video\/mp4)$/)
			expect(served.headers.get('Content-Disposition'), label).toMatch(/^(attachment|inline); filename="[a-z]+\.[a-z0-9]+"; filename\*=UTF-8''[A-Za-z0-9%._~!-]+$/)
			await served.body?.cancel()
			tally.neutralised++
		}
		expect(storedFiles().filter((name) => name.startsWith('tmp'))).toEqual([])
	}, 120_000)
})

/** A route's action, called as the router calls it. */
type Route = (args: never) => Promise<unknown>

describe('a file too large is refused before its body is read', () => {
	/**
	 * A request with one file of `total` bytes in part `field`, whose body says (or does not say) its
	 * size, and counts the bytes the server pulls from it.
	 */
	function streamed(url: string, fields: Record<string, string>, field: string, total: number, declared: boolean, accept = 'application/json') {
		const { body: whole, contentType } = multipartBody(fields, { field, name: 'كبير.pdf', type: 'application/pdf', bytes: new Uint8Array(0) })
		// The fields and the file's part header; then its bytes. The closing boundary never comes if the server stops.
		const opening = whole.subarray(0, whole.length - contentType.split('boundary=')[1]!.length - 8)
		let sent = 0
		const chunk = new Uint8Array(16 * 1024).fill(0x25)
		// No bytes queued ahead: each chunk is made when the server asks for one, and counted then.
		const body = new ReadableStream<Uint8Array>(
			{
				pull(controller) {
					if (sent === 0) {
						sent += opening.length
						controller.enqueue(new Uint8Array(opening))
					} else if (sent < total) {
						sent += chunk.length
						controller.enqueue(chunk)
					} else controller.close()
				},
			},
			{ highWaterMark: 0 },
		)
		const headers: Record<string, string> = { 'content-type': contentType, accept, 'x-ataa-client-ip': '10.1.2.4' }
		if (declared) headers['content-length'] = String(total)
		return { request: new Request(url, { method: 'POST', headers, body, duplex: 'half' } as RequestInit), pulled: () => sent }
	}

	test('applicant: a Content-Length past the limit is answered 413 at once, not one byte read', async () => {
		const token = tokens['needy-families']!
		const before = { rows: await rowCounts(), stored: storedFiles() }
		const { request, pulled } = streamed(`http://localhost/apply/r/${token}/files/upload`, { slot: 'other' }, 'file', 50 * UPLOAD_MAX, true)
		const result = await seen(await applicantUpload({ params: { token }, request, context: new RouterContextProvider() } as never))
		expect(result).toMatchObject({ status: 413, body: { ok: false, error: 'too-large', message: fileTooLarge(UPLOAD_MAX) } })
		expect(pulled()).toBe(0)
		expect({ rows: await rowCounts(), stored: storedFiles() }).toEqual(before)
	})

	test('applicant without JavaScript: the same refusal, as a notice on the page it returns to', async () => {
		const token = tokens['needy-families']!
		const { request, pulled } = streamed(`http://localhost/apply/r/${token}/files/upload`, { slot: 'other' }, 'file', 50 * UPLOAD_MAX, true, 'text/html')
		const response = (await applicantUpload({ params: { token }, request, context: new RouterContextProvider() } as never)) as Response
		expect(response.status).toBe(302)
		expect(response.headers.get('Connection')).toBe('close')
		expect(response.headers.get('Set-Cookie')).toBeTruthy()
		expect(pulled()).toBe(0)
	})

	const cases: [name: string, route: () => Route, params: () => Record<string, string>, fields: Record<string, string>, field: string, limit: number, url: () => string][] = [
		['applicant', (): Route => applicantUpload, () => ({ token: tokens['needy-families']! }), { slot: 'other' }, 'file', UPLOAD_MAX, () => `http://localhost/apply/r/${tokens['needy-families']!}/files/upload`],
		['staff bulk upload', (): Route => bulkUpload, () => ({ type: 'documents' }), { category: 'policies' }, 'files', DOCUMENT_MAX, () => 'http://localhost/admin/content/documents/upload'],
		['staff document field', (): Route => contentEditor, () => ({ type: 'documents' }), { category: 'policies', title: 'كبير' }, 'file-upload', DOCUMENT_MAX, () => 'http://localhost/admin/content/documents/new'],
		['staff album photos', (): Route => albumPhotos, () => ({ id: albumId }), {}, 'photos', UPLOAD_MAX, () => `http://localhost/admin/content/albums/${albumId}/photos`],
		['staff video', (): Route => videoUpload, () => ({ type: 'videos' }), {}, 'video', VIDEO_MAX, () => 'http://localhost/admin/content/videos/video-upload'],
	]
	test.each(cases)('%s: a body that does not say its size is not read far past the limit', async (_, route, params, fields, field, limit, url) => {
		const before = { rows: await rowCounts(), stored: storedFiles() }
		const offered = 50 * limit
		const { request, pulled } = streamed(url(), fields, field, offered, false)
		const result = await seen(await route()({ params: params(), request, context: staff() } as never))
		expect(result.status).toBe(413)
		// The limit, and what was in flight when the parser stopped: far from the 50 times the limit offered.
		expect(pulled()).toBeLessThan(limit + 256 * 1024)
		expect({ rows: await rowCounts(), stored: storedFiles() }).toEqual(before)
	})
})
