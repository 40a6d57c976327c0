import fs from 'node:fs'
import path from 'node:path'
import { count } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest'
import type { DatabaseHandle } from '#app/db/client.server.ts'
import { contentEntries, documents } from '#app/db/schema.ts'
import { storeDocument } from '#app/documents/documents-library.server.ts'
import { declaredTooLarge, MULTIPART_OVERHEAD_BYTES } from '#app/storage/upload-stream.server.ts'
import { createTestDatabase } from '#tests/db.ts'
import { minimalPdf } from '#tests/fixtures/pdf.ts'
import { stagedFile, temporaryStorage } from '#tests/storage.ts'
import { receiveBulkUpload, titleFromFileName } from './bulk-upload.server.ts'
import { BULK_INPUT } from './list-filter.ts'
import { countEntries, listEntries, saveEntry } from './store.server.ts'
import { libraryDocuments } from './types.ts'

const { dir, storage, remove } = temporaryStorage('bulk')
let handle: DatabaseHandle
const limit = 64 * 1024

beforeAll(async () => {
	handle = await createTestDatabase()
})
afterAll(async () => {
	await handle.close()
	remove()
})
beforeEach(async () => {
	await handle.db.delete(contentEntries)
	await handle.db.delete(documents)
})

/** Every file under the storage directory, temp files included. */
function storedFiles(): string[] {
	return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((name) => fs.statSync(path.join(dir, name)).isFile())
}

const documentRows = async () => (await handle.db.select({ value: count() }).from(documents))[0]!.value

function bulkRequest(category: string, files: { name: string; bytes: Uint8Array<ArrayBuffer> }[]): Request {
	const data = new FormData()
	data.append('category', category)
	for (const file of files) data.append(BULK_INPUT, new File([file.bytes], file.name, { type: 'application/pdf' }))
	return new Request('http://localhost/admin/content/documents', { method: 'POST', body: data })
}

const receive = (request: Request) => receiveBulkUpload(handle.db, storage, libraryDocuments, request, { maxFileBytes: limit, userId: null })
const html = new TextEncoder().encode('<!doctype html><html><body><script>alert(1)</script></body></html>')

test('a list filtered by category shows only that category, and counts it', async () => {
	const file = (await storeDocument(handle.db, storage, stagedFile(storage, minimalPdf(), 'a.pdf'), null)).id
	await saveEntry(handle.db, libraryDocuments, null, { category: 'policies', title: 'سياسة تعارض المصالح', file, order: 1 }, null)
	await saveEntry(handle.db, libraryDocuments, null, { category: 'governance-2023', title: 'محاضر اجتماعات مجلس الإدارة', number: 13, file, order: 1 }, null)
	const policies = await listEntries(handle.db, libraryDocuments, undefined, { where: { category: 'policies' } })
	expect(policies.map((entry) => entry.data.title)).toEqual(['سياسة تعارض المصالح'])
	expect(await countEntries(handle.db, libraryDocuments, { where: { category: 'governance-2023' } })).toBe(1)
	expect(await countEntries(handle.db, libraryDocuments)).toBe(2)
})

test('several PDFs at once become one entry each, in the category, titled by their names, after those already there', async () => {
	const first = await receive(bulkRequest('financial', [{ name: 'القوائم المالية 2024.pdf', bytes: minimalPdf() }]))
	expect(first).toMatchObject({ ok: true, created: 1 })
	const outcome = await receive(
		bulkRequest('financial', [
			{ name: 'تقرير الربع الأول.PDF', bytes: minimalPdf() },
			{ name: 'تقرير_الربع_الثاني.pdf', bytes: minimalPdf(10) },
		]),
	)
	expect(outcome).toEqual({ ok: true, filter: 'financial', created: 2, refused: false, message: 'تم رفع ملفين إلى «التقارير المالية».' })
	const entries = await listEntries(handle.db, libraryDocuments, undefined, { where: { category: 'financial' } })
	expect(entries.map((entry) => [entry.data.title, entry.data.year, entry.data.order])).toEqual([
		['القوائم المالية 2024', 2024, 1],
		['تقرير الربع الأول', 0, 2],
		['تقرير الربع الثاني', 0, 3],
	])
	expect(await documentRows()).toBe(3)
	expect(fs.readdirSync(path.join(dir, 'tmp'))).toEqual([])
})

test('a numbered section (governance) goes on from its highest number, never renumbering', async () => {
	const file = (await storeDocument(handle.db, storage, stagedFile(storage, minimalPdf(), 'b.pdf'), null)).id
	await saveEntry(handle.db, libraryDocuments, null, { category: 'governance-2023', title: 'محاضر اجتماعات مجلس الإدارة', number: 13, file, order: 1 }, null)
	expect(await receive(bulkRequest('governance-2023', [{ name: 'بند جديد.pdf', bytes: minimalPdf() }]))).toMatchObject({ ok: true, created: 1 })
	const entries = await listEntries(handle.db, libraryDocuments, undefined, { where: { category: 'governance-2023' } })
	// After item 13 (2023 has no 12), the new one is 14.
	expect(entries.map((entry) => [entry.data.title, entry.data.number])).toEqual([
		['محاضر اجتماعات مجلس الإدارة', 13],
		['بند جديد', 14],
	])
})

test('a file named .pdf whose bytes are HTML is refused and leaves nothing: no entry, no document, no file', async () => {
	const before = storedFiles()
	const outcome = await receive(bulkRequest('policies', [{ name: 'سياسة.pdf', bytes: html }]))
	expect(outcome).toMatchObject({ ok: false, status: 400, message: '«سياسة.pdf»: الملف ليس PDF. اختر ملفاً بصيغة PDF.' })
	expect(await countEntries(handle.db, libraryDocuments)).toBe(0)
	expect(await documentRows()).toBe(0)
	expect(storedFiles()).toEqual(before)

	// Beside a real PDF, the real one is kept and the page says which was refused.
	const mixed = await receive(
		bulkRequest('policies', [
			{ name: 'سياسة الهدايا.pdf', bytes: minimalPdf() },
			{ name: 'برنامج.pdf', bytes: new Uint8Array([0x4d, 0x5a, 0x90, 0x00, ...new Array(60).fill(0)]) },
		]),
	)
	expect(mixed).toMatchObject({ ok: true, created: 1, refused: true })
	expect(mixed.message).toContain('«برنامج.pdf»: الملف ليس PDF')
	expect(await documentRows()).toBe(1)
})

test('too large: refused by its declared length before the body is read, or as it streams; nothing kept', async () => {
	const body = new ReadableStream<Uint8Array>({
		pull() {
			throw new Error('the body must not be read')
		},
	})
	const declared = new Request('http://localhost/x', {
		method: 'POST',
		headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(limit * 20 + MULTIPART_OVERHEAD_BYTES + 1) },
		body,
		duplex: 'half',
	} as RequestInit)
	expect(await receive(declared)).toMatchObject({ ok: false, status: 413, unread: true })

	const before = storedFiles()
	const streamed = await receive(bulkRequest('policies', [{ name: 'كبير.pdf', bytes: minimalPdf(limit + 10) }]))
	expect(streamed).toMatchObject({ ok: false, status: 413, message: '«كبير.pdf»: حجم الملف أكبر من 66 كيلوبايت. اختر ملفاً أصغر.' })
	expect(await countEntries(handle.db, libraryDocuments)).toBe(0)
	expect(await documentRows()).toBe(0)
	expect(storedFiles()).toEqual(before)
})

test('an unknown category or no file is refused, keeping nothing', async () => {
	expect(await receive(bulkRequest('not-a-category', [{ name: 'a.pdf', bytes: minimalPdf() }]))).toMatchObject({ ok: false, message: 'الرجاء اختيار القسم.' })
	expect(await receive(bulkRequest('policies', []))).toMatchObject({ ok: false, message: 'الرجاء اختيار ملف PDF واحد على الأقل.' })
	expect(await documentRows()).toBe(0)
	expect(fs.readdirSync(path.join(dir, 'tmp'))).toEqual([])
})

test('a title is the file name without its extension; a request is too large only past the files and the overhead', () => {
	expect(titleFromFileName('سياسة تعارض المصالح.pdf')).toBe('سياسة تعارض المصالح')
	expect(titleFromFileName('تقرير__2024 .PDF')).toBe('تقرير 2024')
	expect(titleFromFileName('.pdf')).toBe('مستند')
	const sized = (bytes: number) => new Request('http://localhost/x', { method: 'POST', headers: { 'content-length': String(bytes) }, body: 'x' })
	expect(declaredTooLarge(sized(1000 + MULTIPART_OVERHEAD_BYTES), 1000)).toBe(false)
	expect(declaredTooLarge(sized(1001 + MULTIPART_OVERHEAD_BYTES), 1000)).toBe(true)
	expect(declaredTooLarge(sized(2000 + MULTIPART_OVERHEAD_BYTES), 1000, 2)).toBe(false)
	expect(declaredTooLarge(new Request('http://localhost/x', { method: 'POST', body: 'x' }), 1)).toBe(false)
})
