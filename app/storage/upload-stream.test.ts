import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { text } from 'node:stream/consumers'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FileNotFoundError, localFileStorage, type FileStorage } from '#app/storage/file-storage.server.ts'
import { cleanFileName, pdfUpload, receivePdfUpload, receiveUpload, receiveUploads, type UploadKind } from '#app/storage/upload-stream.server.ts'
import { minimalPdf, pdfOfSize } from '#tests/fixtures/pdf.ts'
import { multipartBody, pdfWithJavaScript } from '#tests/fixtures/attack-files.ts'

let dir: string
let root: string
let storage: FileStorage

beforeAll(() => {
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-upload-'))
	root = path.join(dir, 'store')
	storage = localFileStorage(root)
})

afterAll(() => {
	fs.rmSync(dir, { recursive: true, force: true })
})

function form(file: { bytes: Uint8Array<ArrayBuffer>; name: string; type?: string } | null, fields: Record<string, string> = {}): FormData {
	const data = new FormData()
	for (const [name, value] of Object.entries(fields)) data.append(name, value)
	// What a browser sends for a file input left empty: a nameless, empty part.
	data.append('document', file ? new File([file.bytes], file.name, { type: file.type ?? 'application/pdf' }) : new File([], ''))
	return data
}

function post(data: FormData): Request {
	return new Request('http://localhost/x', { method: 'POST', body: data })
}

function sha256(bytes: Uint8Array): string {
	return createHash('sha256').update(bytes).digest('hex')
}

function tempFiles(): string[] {
	const tmp = path.join(root, 'tmp')
	return fs.existsSync(tmp) ? fs.readdirSync(tmp) : []
}

const limits = { maxFileBytes: 64 * 1024 }

/** The form's request as a client that goes away halfway sends it: the first half, then an error. */
async function cutOffHalfway(data: FormData): Promise<Request> {
	const response = new Response(data)
	const body = new Uint8Array(await response.arrayBuffer())
	let pulls = 0
	const stream = new ReadableStream<Uint8Array>({
		pull(controller) {
			// Error on a later pull, so the first half has reached the disk by then.
			if (pulls++ === 0) controller.enqueue(body.slice(0, body.length / 2))
			else controller.error(new Error('client went away'))
		},
	})
	return new Request('http://localhost/x', { method: 'POST', headers: { 'content-type': response.headers.get('content-type') ?? '' }, body: stream, duplex: 'half' } as RequestInit)
}

describe('receivePdfUpload', () => {
	test('accepts a PDF with its size, sha256 and fields, and storage keeps it', async () => {
		const bytes = minimalPdf()
		const result = await receivePdfUpload(post(form({ bytes, name: 'هوية الأب.pdf' }, { kind: 'id-card', note: 'مرحبا' })), storage, limits)
		expect(result).toMatchObject({
			ok: true,
			fields: { kind: 'id-card', note: 'مرحبا' },
			file: { originalName: 'هوية الأب.pdf', size: bytes.length, sha256: sha256(bytes), mime: 'application/pdf' },
		})
		if (!result.ok || !result.file) throw new Error('expected a file')

		const key = await storage.adopt(result.file.tempPath)
		expect(key).toMatch(/^[0-9a-f]{64}$/)
		expect(fs.existsSync(path.join(root, 'files', key.slice(0, 2), key.slice(2, 4), key))).toBe(true)
		expect(tempFiles()).toEqual([])
		expect(await text(await storage.read(key))).toBe(new TextDecoder().decode(bytes))

		await storage.remove(key)
		await expect(storage.read(key)).rejects.toBeInstanceOf(FileNotFoundError)
		await storage.remove(key)
	})

	test('the test PDFs are exactly the size asked for, even where the xref offset gains a digit', () => {
		for (const size of [1024, 9_999, 10_000, 10_000_000]) expect(pdfOfSize(size).length).toBe(size)
	})

	test('accepts a file of exactly the limit; one byte more is too large and leaves nothing', async () => {
		const atLimit = await receivePdfUpload(post(form({ bytes: pdfOfSize(1024), name: 'a.pdf' })), storage, { maxFileBytes: 1024 })
		expect(atLimit).toMatchObject({ ok: true, file: { size: 1024 } })
		if (atLimit.ok && atLimit.file) fs.rmSync(atLimit.file.tempPath)

		const overLimit = await receivePdfUpload(post(form({ bytes: pdfOfSize(1025), name: 'a.pdf' }, { kind: 'x' })), storage, { maxFileBytes: 1024 })
		expect(overLimit).toEqual({ ok: false, fields: { kind: 'x' }, error: 'too-large' })
		expect(tempFiles()).toEqual([])
	})

	test('judges the bytes, not the name or Content-Type: text and PNG named .pdf are refused', async () => {
		const textFile = new TextEncoder().encode('just some text, not a PDF\n')
		expect(await receivePdfUpload(post(form({ bytes: textFile, name: 'x.pdf' })), storage, limits)).toMatchObject({ ok: false, error: 'not-pdf' })
		expect(tempFiles()).toEqual([])

		const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0])
		expect(await receivePdfUpload(post(form({ bytes: png, name: 'scan.pdf' })), storage, limits)).toMatchObject({ ok: false, error: 'not-pdf' })
		expect(tempFiles()).toEqual([])
	})

	test('a client that goes away mid-upload gets bad-request and leaves no temp file', async () => {
		expect(await receivePdfUpload(await cutOffHalfway(form({ bytes: pdfOfSize(48 * 1024), name: 'a.pdf' }, { kind: 'x' })), storage, limits)).toMatchObject({ ok: false, error: 'bad-request' })
		expect(tempFiles()).toEqual([])
	})

	test('a failure to write on our side throws instead of blaming the request', async () => {
		const unwritable: FileStorage = { ...storage, tempPath: () => path.join(dir, 'missing', 'upload') }
		await expect(receivePdfUpload(post(form({ bytes: pdfOfSize(48 * 1024), name: 'a.pdf' })), unwritable, limits)).rejects.toThrow(/ENOENT/)
	})

	test('a body that is not multipart is a bad request', async () => {
		const request = new Request('http://localhost/x', { method: 'POST', body: new URLSearchParams({ kind: 'x' }) })
		expect(await receivePdfUpload(request, storage, limits)).toEqual({ ok: false, fields: {}, error: 'bad-request' })
		const noBoundary = new Request('http://localhost/x', { method: 'POST', headers: { 'content-type': 'multipart/form-data' }, body: 'x' })
		expect(await receivePdfUpload(noBoundary, storage, limits)).toMatchObject({ ok: false, error: 'bad-request' })
	})

	test('an empty file input means no file', async () => {
		expect(await receivePdfUpload(post(form(null, { kind: 'x' })), storage, limits)).toEqual({ ok: true, fields: { kind: 'x' }, file: null })
		expect(tempFiles()).toEqual([])
	})

	test('the first value of a field wins; a field over its size limit is a bad request', async () => {
		const data = form({ bytes: minimalPdf(), name: 'a.pdf' }, { kind: 'first' })
		data.append('kind', 'second')
		const result = await receivePdfUpload(post(data), storage, limits)
		expect(result).toMatchObject({ ok: true, fields: { kind: 'first' } })
		if (result.ok && result.file) fs.rmSync(result.file.tempPath)

		const long = form({ bytes: minimalPdf(), name: 'a.pdf' }, { note: 'x'.repeat(101) })
		expect(await receivePdfUpload(post(long), storage, { ...limits, maxFieldBytes: 100 })).toMatchObject({ ok: false, error: 'bad-request' })
		expect(tempFiles()).toEqual([])
	})

	test('the original name loses its directories and control characters', async () => {
		// busboy already refuses most C0 controls in a part header; tab, C1 controls and bidi overrides get through.
		const result = await receivePdfUpload(post(form({ bytes: minimalPdf(), name: 'C:\\Users\\x\\k\ti\u0085d\u202Efdp.exe' })), storage, limits)
		expect(result).toMatchObject({ ok: true, file: { originalName: 'kidfdp.exe' } })
		if (result.ok && result.file) fs.rmSync(result.file.tempPath)
	})
})

describe('what every kind refuses', () => {
	test('a named file of 0 bytes is empty, not a missing file nor a wrong type', async () => {
		expect(await receivePdfUpload(post(form({ bytes: new Uint8Array(0), name: 'فارغ.pdf' }, { kind: 'x' })), storage, limits)).toEqual({ ok: false, fields: { kind: 'x' }, error: 'empty' })
		expect(tempFiles()).toEqual([])
	})

	test('a PDF carrying JavaScript is refused as unsafe, and nothing is left', async () => {
		expect(await receivePdfUpload(post(form({ bytes: pdfWithJavaScript(), name: 'تقرير.pdf' })), storage, limits)).toMatchObject({ ok: false, error: 'unsafe-pdf' })
		expect(tempFiles()).toEqual([])
	})

	test('control characters in a file name make its part header unreadable: bad-name, nothing kept', async () => {
		for (const name of ['a\u0000.pdf', 'هوية\u0007.pdf', 'x\u001b[2J.pdf']) {
			const { body, contentType } = multipartBody({ kind: 'x' }, { field: 'document', name, type: 'application/pdf', bytes: minimalPdf() })
			const request = new Request('http://localhost/x', { method: 'POST', headers: { 'content-type': contentType }, body: new Uint8Array(body) })
			expect(await receivePdfUpload(request, storage, limits)).toMatchObject({ ok: false, error: 'bad-name' })
		}
		expect(tempFiles()).toEqual([])
	})

	test('stopping a request at a file past its limit neither throws nor leaves anything', async () => {
		// Without a Content-Length: the parser is stopped as soon as busboy says the file passed the limit.
		const { body, contentType } = multipartBody({}, { field: 'document', name: 'كبير.pdf', type: 'application/pdf', bytes: pdfOfSize(200 * 1024) })
		// Chunk by chunk as the server asks, as from a socket: busboy then parses outside our await.
		let at = 0
		const stream = new ReadableStream<Uint8Array>(
			{
				pull(controller) {
					if (at >= body.length) return controller.close()
					controller.enqueue(new Uint8Array(body.subarray(at, at + 16 * 1024)))
					at += 16 * 1024
				},
			},
			{ highWaterMark: 0 },
		)
		const request = new Request('http://localhost/x', { method: 'POST', headers: { 'content-type': contentType }, body: stream, duplex: 'half' } as RequestInit)
		expect(await receiveUpload(request, storage, { ...limits, stopWhenTooLarge: true }, pdfUpload)).toMatchObject({ ok: false, error: 'too-large' })
		// An error thrown out of busboy after the answer would surface here as an uncaught exception.
		await new Promise((resolve) => setTimeout(resolve, 20))
		expect(tempFiles()).toEqual([])
	})
})

describe('cleanFileName', () => {
	test.each([
		['../../../../etc/passwd.pdf', 'passwd.pdf'],
		['..\\..\\Windows\\System32\\hosts.pdf', 'hosts.pdf'],
		['/var/lib/ataa/uploads/files/aa/bb/key', 'key'],
		['C:\\fakepath\\تقرير.pdf', 'تقرير.pdf'],
		['..', 'file.pdf'],
		['...', 'file.pdf'],
		['  ', 'file.pdf'],
		['هوية الأب\u202E\u0085fdp.exe\u2066\u2028.pdf', 'هوية الأبfdp.exe.pdf'],
		['\uFEFF\u200Fسجل\u061C الأسرة.pdf', 'سجل الأسرة.pdf'],
		// The joiners Arabic and Persian typing uses stay.
		['می\u200Cخواهم.pdf', 'می\u200Cخواهم.pdf'],
		[`${'ب'.repeat(250)}.pdf`, 'ب'.repeat(200)],
	])('%j -> %j', (name, expected) => {
		expect(cleanFileName(name, 'file.pdf')).toBe(expected)
	})
})

describe('receiveUploads', () => {
	const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0])
	const pngUpload: UploadKind<'image/png', 'not-png'> = { accept: (mime): mime is 'image/png' => mime === 'image/png', refusal: 'not-png', fallbackName: 'image' }
	const kinds = { photo: pngUpload, certificate: pdfUpload }

	function twoFiles(photo: Uint8Array<ArrayBuffer>, certificate: Uint8Array<ArrayBuffer>, fields: Record<string, string> = {}): FormData {
		const data = new FormData()
		for (const [name, value] of Object.entries(fields)) data.append(name, value)
		data.append('photo', new File([photo], 'صورة.png', { type: 'image/png' }))
		data.append('certificate', new File([certificate], 'شهادة.pdf', { type: 'application/pdf' }))
		return data
	}

	test('keeps each named file of its own kind, with the text fields', async () => {
		const result = await receiveUploads(post(twoFiles(png, minimalPdf(), { title: 'شهادة' })), storage, limits, kinds)
		expect(result).toMatchObject({
			ok: true,
			fields: { title: 'شهادة' },
			parts: { photo: { ok: true, file: { originalName: 'صورة.png', mime: 'image/png' } }, certificate: { ok: true, file: { originalName: 'شهادة.pdf', mime: 'application/pdf' } } },
		})
		if (!result.ok) throw new Error('expected files')
		for (const part of Object.values(result.parts)) if (part?.ok) fs.rmSync(part.file.tempPath)
		expect(tempFiles()).toEqual([])
	})

	test('refuses one file for itself and keeps the other: a PNG where the PDF goes, a file too large', async () => {
		const swapped = await receiveUploads(post(twoFiles(png, png)), storage, limits, kinds)
		expect(swapped).toMatchObject({ ok: true, parts: { photo: { ok: true }, certificate: { ok: false, error: 'not-pdf' } } })
		if (swapped.ok && swapped.parts.photo?.ok) fs.rmSync(swapped.parts.photo.file.tempPath)
		expect(tempFiles()).toEqual([])

		const tooLarge = await receiveUploads(post(twoFiles(png, pdfOfSize(2048))), storage, { maxFileBytes: 1024 }, kinds)
		expect(tooLarge).toMatchObject({ ok: true, parts: { photo: { ok: true }, certificate: { ok: false, error: 'too-large' } } })
		if (tooLarge.ok && tooLarge.parts.photo?.ok) fs.rmSync(tooLarge.parts.photo.file.tempPath)
		expect(tempFiles()).toEqual([])
	})

	test('ignores file parts of other names, and empty inputs', async () => {
		const data = new FormData()
		data.append('other', new File([minimalPdf()], 'x.pdf'))
		data.append('photo', new File([], ''))
		expect(await receiveUploads(post(data), storage, limits, kinds)).toEqual({ ok: true, fields: {}, parts: {} })
		expect(tempFiles()).toEqual([])
	})

	test('a request cut off after the first file keeps neither', async () => {
		expect(await receiveUploads(await cutOffHalfway(twoFiles(png, pdfOfSize(48 * 1024))), storage, limits, kinds)).toMatchObject({ ok: false, error: 'bad-request' })
		expect(tempFiles()).toEqual([])
	})
})

describe('localFileStorage', () => {
	test('refuses keys that are not keys, without touching anything outside its root', async () => {
		const victim = path.join(dir, 'victim')
		fs.writeFileSync(victim, 'keep me')
		for (const key of ['../../etc/passwd', '../victim', '../../victim', '../../../victim', '../../../../victim', 'A'.repeat(64), 'a'.repeat(63), '']) {
			await expect(storage.read(key)).rejects.toBeInstanceOf(FileNotFoundError)
			await expect(storage.remove(key)).rejects.toBeInstanceOf(FileNotFoundError)
		}
		expect(fs.readFileSync(victim, 'utf8')).toBe('keep me')
	})

	test('sweeps temp files a crash left behind, and only old ones', async () => {
		const old = storage.tempPath()
		const fresh = storage.tempPath()
		fs.writeFileSync(old, 'half an upload')
		fs.writeFileSync(fresh, 'an upload in progress')
		const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000)
		fs.utimesSync(old, twoDaysAgo, twoDaysAgo)
		expect(await storage.sweepTemp(24 * 3600 * 1000)).toBe(1)
		expect(fs.existsSync(old)).toBe(false)
		expect(fs.existsSync(fresh)).toBe(true)
		fs.rmSync(fresh)
		expect(await localFileStorage(path.join(dir, 'never-used')).sweepTemp(0)).toBe(0)
	})

	test('adopts only its own temp files', async () => {
		const elsewhere = path.join(dir, 'elsewhere.pdf')
		fs.writeFileSync(elsewhere, minimalPdf())
		await expect(storage.adopt(elsewhere)).rejects.toThrow(/not a temp file/)
		expect(fs.existsSync(elsewhere)).toBe(true)
	})
})
