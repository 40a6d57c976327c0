import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { buffer } from 'node:stream/consumers'
import { and, asc, eq, isNull } from 'drizzle-orm'
import { PDFDocument, PDFName, type PDFRawStream, type PDFDict } from 'pdf-lib'
import sharp from 'sharp'
import { afterAll, expect, test } from 'vitest'
import { findApplicationByToken, listAttachments, loadSavedState, saveSection, startCase, submitCase, type CaseRow } from '#app/cases/case-store.server.ts'
import { attachments, cases } from '#app/db/schema.ts'
import { Status } from './case-statuses.ts'
import { needyFamilies } from '#app/forms/definitions/needy-families.ts'
import { saveConsent } from '#app/privacy/consent-store.server.ts'
import { addFile } from '#app/runner/files.server.ts'
import { runStep } from '#app/runner/steps.server.ts'
import { getCaseFileStorage } from '#app/storage/file-storage.server.ts'
import type { UploadResult } from '#app/storage/upload-stream.server.ts'
import type { AttachmentMime } from './attachment-upload.server.ts'
import { basicAnswers, randomNationalId, sectionAnswers } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { stagedFile } from '#tests/storage.ts'
import { pngDeclaring } from '#tests/fixtures/attack-files.ts'
import { addPage, dropPages, listPages, PageRefusedError, resumeDocuments, scheduleDocuments } from './document-pages.server.ts'
import { makeDocument } from '#app/pdf/page-pdf.server.ts'
import { caseHoldings, pageSlot } from './document-pages.ts'
import { inspectPdf } from '#app/storage/pdf-active-content.server.ts'
import { encodedVariants } from '#tests/fixtures/pdf-encoded-variants.ts'
import { findSection } from './journey.ts'

// A document given as photos (docs/decisions/015-documents-from-photos.md): its pages are cleaned
// and made one PDF, in the order the applicant chose, through the runner the upload route calls.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-document-pages-'))
process.env.DATA_DIR = dataDir
const app = withAppDatabase()
const db = () => app.handle.db
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

/**
 * A phone's photo of `width` × `height` pixels as the sensor stored it, with EXIF orientation 6
 * (shown turned a quarter: `height` wide), a GPS position and the phone's make and model.
 */
const phonePhoto = (width: number, height: number, colour: string) =>
	sharp({ create: { width, height, channels: 3, background: colour } })
		.jpeg()
		.withExif({ IFD0: { Make: 'ThePhoneMaker', Model: 'Cheap-1' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '24/1 42/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '46/1 40/1 0/1' } })
		.withMetadata({ orientation: 6 })
		.toBuffer()

const plainPhoto = (width: number, height: number, format: 'png' | 'webp') => sharp({ create: { width, height, channels: 3, background: '#3366aa' } })[format]().toBuffer()

async function draft(): Promise<{ row: CaseRow; token: string }> {
	const started = await startCase(db(), needyFamilies, basicAnswers(randomNationalId(), '0551234567'))
	await saveConsent(db(), started.row.id, 'given')
	for (const [key, value] of Object.entries(sectionAnswers)) await saveSection(db(), needyFamilies, started.row, key, value)
	return started
}

async function run(token: string) {
	const found = await findApplicationByToken(db(), token)
	return { db: db(), definition: needyFamilies, row: found!.row, state: found!.state }
}

/** What the upload route hands the runner for one file sent to `slot`, judged by its bytes as `mime`. */
function received(bytes: Uint8Array, name: string, mime: AttachmentMime, slot: string): UploadResult<AttachmentMime, 'not-accepted'> {
	return { ok: true, fields: { slot }, file: { ...stagedFile(getCaseFileStorage(), bytes, name), mime } }
}

async function give(token: string, slot: string, bytes: Uint8Array, name: string, mime: AttachmentMime = 'image/jpeg') {
	return addFile(await run(token), received(bytes, name, mime, slot))
}

async function settle(token: string) {
	const { row } = await run(token)
	await scheduleDocuments(db(), needyFamilies, row.id)
}

async function documentOf(row: CaseRow, slot: string) {
	const [document] = (await listAttachments(db(), row.id)).filter((file) => file.slot === slot)
	if (!document) return undefined
	const bytes = await buffer(await getCaseFileStorage().read(document.storageKey))
	return { row: document, bytes, pdf: await PDFDocument.load(bytes, { updateMetadata: false }) }
}

/** Each page's size (landscape or portrait) and the pixel size of the picture drawn on it. */
function pagesOf(pdf: PDFDocument) {
	return pdf.getPages().map((page) => {
		const objects = page.node.Resources()!.lookup(PDFName.of('XObject')) as PDFDict
		const [name] = objects.keys()
		const image = pdf.context.lookup(objects.get(name!)) as PDFRawStream
		const { width, height } = page.getSize()
		return { orientation: width > height ? 'landscape' : 'portrait', image: `${image.dict.get(PDFName.of('Width'))}x${image.dict.get(PDFName.of('Height'))}` }
	})
}

async function pageChange(token: string, intent: 'delete-page' | 'move-page', pageId: string, to?: 'earlier' | 'later') {
	const application = await run(token)
	const section = findSection(needyFamilies, 'files')!
	const form = new FormData()
	form.set('intent', intent)
	form.set('pageId', pageId)
	if (to) form.set('to', to)
	return runStep({ ...application, section }, form, { kind: 'applicant', override: null })
}

test('three photos become one three-page PDF, upright, in the order chosen; moving and removing a page make it again', async () => {
	const { row, token } = await draft()
	// Sideways on the sensor: 600 × 400 stored, 400 × 600 once turned by its EXIF orientation.
	expect(await give(token, 'family_report', await phonePhoto(600, 400, '#aa3333'), 'IMG_0001.jpg')).toEqual({ kind: 'file-added', slot: 'family_report' })
	expect(await give(token, 'family_report', await plainPhoto(500, 300, 'png'), 'screenshot.png', 'image/png')).toEqual({ kind: 'file-added', slot: 'family_report' })
	expect(await give(token, 'family_report', await plainPhoto(320, 320, 'webp'), 'page3.webp', 'image/webp')).toEqual({ kind: 'file-added', slot: 'family_report' })
	// The slot counts as given at once: «حفظ ومتابعة» need not wait for the PDF.
	expect((await loadSavedState(db(), row.id)).fileCounts.family_report).toBe(3)
	await settle(token)

	const made = (await documentOf(row, 'family_report'))!
	expect(made.row).toMatchObject({ contentType: 'application/pdf', pages: 3, originalName: 'سجل الأسرة.pdf' })
	expect(pagesOf(made.pdf)).toEqual([
		{ orientation: 'portrait', image: '400x600' },
		{ orientation: 'landscape', image: '500x300' },
		{ orientation: 'portrait', image: '320x320' },
	])
	// Nothing of the phone's: no make, no model, no EXIF block, no GPS tags; the PDF's own metadata is a title.
	for (const marker of ['ThePhoneMaker', 'Cheap-1', 'Exif', 'GPS']) expect(made.bytes.includes(marker)).toBe(false)
	expect({ author: made.pdf.getAuthor(), producer: made.pdf.getProducer(), creator: made.pdf.getCreator(), created: made.pdf.getCreationDate() }).toEqual({ author: undefined, producer: 'Ataa', creator: 'Ataa', created: undefined })
	const pages = await listPages(db(), row.id)
	expect(pages.map((page) => [page.position, page.status, page.contentType])).toEqual([
		[1, 'ready', 'image/jpeg'],
		[2, 'ready', 'image/jpeg'],
		[3, 'ready', 'image/jpeg'],
	])
	for (const page of pages) {
		const meta = await sharp(await buffer(await getCaseFileStorage().read(page.storageKey))).metadata()
		expect({ exif: meta.exif, orientation: meta.orientation }).toEqual({ exif: undefined, orientation: undefined })
	}

	// The third page moved before the second, then the first removed.
	expect(await pageChange(token, 'move-page', pages[2]!.id, 'earlier')).toEqual({ kind: 'page-changed', slot: 'family_report', done: 'moved' })
	await settle(token)
	expect(pagesOf((await documentOf(row, 'family_report'))!.pdf).map((page) => page.image)).toEqual(['400x600', '320x320', '500x300'])
	expect(await pageChange(token, 'delete-page', pages[0]!.id)).toEqual({ kind: 'page-changed', slot: 'family_report', done: 'removed' })
	await settle(token)
	expect(pagesOf((await documentOf(row, 'family_report'))!.pdf).map((page) => page.image)).toEqual(['320x320', '500x300'])
	// A page already first cannot move earlier; nothing changes.
	const [first] = await listPages(db(), row.id)
	expect(await pageChange(token, 'move-page', first!.id, 'earlier')).toEqual({ kind: 'page-changed', slot: undefined, done: 'moved' })
})

test('a PDF given as pages joins the document; the last page removed takes the document with it', async () => {
	const { row, token } = await draft()
	const pdf = await PDFDocument.create()
	pdf.addPage([600, 800])
	pdf.addPage([600, 800])
	await give(token, 'identity', await phonePhoto(300, 200, '#33aa33'), 'front.jpg')
	expect(await give(token, 'identity', await pdf.save(), 'back.pdf', 'application/pdf')).toEqual({ kind: 'file-added', slot: 'identity' })
	await settle(token)
	const made = (await documentOf(row, 'identity'))!
	expect(made.row.pages).toBe(3)
	expect(made.pdf.getPageCount()).toBe(3)
	for (const page of await listPages(db(), row.id)) await pageChange(token, 'delete-page', page.id)
	await settle(token)
	expect(await documentOf(row, 'identity')).toBeUndefined()
	expect((await loadSavedState(db(), row.id)).fileCounts.identity).toBeUndefined()
})

test('refused, with nothing kept: a decompression bomb, a file that is no picture, a locked or broken PDF, one page too many', async () => {
	const { row, token } = await draft()
	// A PNG whose header declares 50,000 × 50,000 pixels: refused from its header, never decoded.
	const bomb = await pngDeclaring(50_000, 50_000)
	expect(await give(token, 'identity', bomb, 'bomb.png', 'image/png')).toMatchObject({ kind: 'file-refused', error: 'too-many-pixels' })
	// Bytes that claim JPEG but are not a picture at all.
	expect(await give(token, 'identity', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('<html><script>alert(1)</script></html>')]), 'photo.jpg')).toMatchObject({ kind: 'file-refused', error: 'unreadable-photo' })
	expect(await give(token, 'identity', Buffer.from('%PDF-1.7\n<html><script>alert(1)</script>\n%%EOF'), 'report.pdf', 'application/pdf')).toMatchObject({ kind: 'file-refused', error: 'pdf-unreadable' })
	expect(await listPages(db(), row.id)).toEqual([])

	const photo = await phonePhoto(40, 30, '#777777')
	for (let page = 0; page < 10; page++) expect(await give(token, 'other', photo, `p${page}.jpg`)).toMatchObject({ kind: 'file-added' })
	expect(await give(token, 'other', photo, 'p10.jpg')).toMatchObject({ kind: 'file-refused', error: 'too-many-pages' })
	expect(await listPages(db(), row.id)).toHaveLength(10)
	// Nothing refused is left in storage: once the pages are made, the temp directory holds no file of ours.
	await settle(token)
	expect(fs.readdirSync(path.join(dataDir, 'uploads', 'tmp'))).toEqual([])
})

test('once sent, the documents are kept and their pages go, rows and bytes; a document sent earlier becomes the first page when one is added', async () => {
	const { row, token } = await draft()
	await give(token, 'identity', await phonePhoto(300, 200, '#aaaa33'), 'front.jpg')
	await give(token, 'identity', await phonePhoto(300, 200, '#33aaaa'), 'back.jpg')
	await give(token, 'family_report', await phonePhoto(300, 200, '#aa33aa'), 'record.jpg')
	await settle(token)
	const pageKeys = (await listPages(db(), row.id)).map((page) => page.storageKey)
	await submitCase(db(), needyFamilies, (await run(token)).row)
	expect(await dropPages(db(), row.id)).toBe(3)
	expect(await listPages(db(), row.id)).toEqual([])
	for (const key of pageKeys) await expect(getCaseFileStorage().read(key)).rejects.toThrow()
	expect((await documentOf(row, 'identity'))!.pdf.getPageCount()).toBe(2)

	// Staff ask for the identity again: the document as sent becomes page 1, the new photo page 2.
	await db().update(cases).set({ status: Status.Incomplete, reopened: { sections: [], slots: ['identity'] } }).where(eq(cases.id, row.id))
	expect(await give(token, 'identity', await phonePhoto(300, 200, '#333333'), 'clearer.jpg')).toEqual({ kind: 'file-added', slot: 'identity' })
	await settle(token)
	const live = await db()
		.select()
		.from(attachments)
		.where(and(eq(attachments.caseId, row.id), eq(attachments.slot, pageSlot('identity')), isNull(attachments.deletedAt)))
		.orderBy(asc(attachments.position))
	expect(live.map((page) => [page.position, page.contentType])).toEqual([
		[1, 'application/pdf'],
		[2, 'image/jpeg'],
	])
	expect((await documentOf(row, 'identity'))!.pdf.getPageCount()).toBe(3)
})

test('a start takes up what a stop cut short: a photo not yet cleaned, pages whose document was never made', async () => {
	const { row, token } = await draft()
	await give(token, 'identity', await phonePhoto(300, 200, '#123456'), 'front.jpg')
	await settle(token)
	// As if the server stopped before either: the page back to waiting, its document gone.
	const [page] = await listPages(db(), row.id)
	await db().update(attachments).set({ status: 'processing' }).where(eq(attachments.id, page!.id))
	await db().delete(attachments).where(and(eq(attachments.caseId, row.id), eq(attachments.slot, 'identity')))
	expect(await resumeDocuments(db(), (programme) => (programme === 'needy-families' ? needyFamilies : undefined))).toBeGreaterThanOrEqual(1)
	await settle(token)
	expect((await documentOf(row, 'identity'))!.pdf.getPageCount()).toBe(1)
})

test('a start makes again a document whose pages changed before a stop, and leaves a current one as it is', async () => {
	const { row, token } = await draft()
	await give(token, 'identity', await phonePhoto(300, 200, '#123456'), 'front.jpg')
	await give(token, 'family_report', await phonePhoto(300, 200, '#654321'), 'report.jpg')
	await settle(token)
	const current = (await documentOf(row, 'family_report'))!.row
	// A page kept and its change committed, then the stop: nobody made the identity's document again.
	const storage = getCaseFileStorage()
	const back = (await makeDocument('back', [{ kind: 'photo', bytes: await sharp({ create: { width: 200, height: 300, channels: 3, background: '#000' } }).jpeg().toBuffer() }])).pdf
	const staged = stagedFile(storage, back, 'back.pdf')
	await addPage(db(), needyFamilies, row.id, 'identity', { originalName: 'back.pdf', contentType: 'application/pdf', size: staged.size, sha256: staged.sha256, storageKey: await storage.adopt(staged.tempPath), pages: 1, status: 'ready' }, { pages: 10, files: 40, caseBytes: 50_000_000 })
	expect((await documentOf(row, 'identity'))!.pdf.getPageCount()).toBe(1)
	expect(await resumeDocuments(db(), (programme) => (programme === 'needy-families' ? needyFamilies : undefined))).toBeGreaterThanOrEqual(1)
	// Its turn, waited for by a turn that makes nothing itself.
	await scheduleDocuments(db(), needyFamilies, row.id, [])
	expect((await documentOf(row, 'identity'))!.pdf.getPageCount()).toBe(2)
	// The document whose pages did not change is the same file: a link to it still works.
	expect((await documentOf(row, 'family_report'))!.row.storageKey).toBe(current.storageKey)
})

test('no PDF is kept as sent: its page and its document are its pages drawn again, whatever its encoding hid', async () => {
	// Given to the runner directly: the check of names (the first refusal, in the upload route) is not there to help.
	for (const variant of encodedVariants()) {
		const { row, token } = await draft()
		expect(await give(token, 'proof_of_residence', variant.bytes, 'كشف.pdf', 'application/pdf'), variant.id).toMatchObject({ kind: 'file-added' })
		await settle(token)
		const [page] = (await listPages(db(), row.id)).filter((candidate) => candidate.slot === pageSlot('proof_of_residence'))
		const pageBytes = await buffer(await getCaseFileStorage().read(page!.storageKey))
		const document = (await documentOf(row, 'proof_of_residence'))!
		expect(document.row.originalName, variant.id).toBe('كشف.pdf')
		for (const bytes of [pageBytes, document.bytes]) {
			expect(Buffer.compare(bytes, Buffer.from(variant.bytes)), variant.id).not.toBe(0)
			expect(inspectPdf(bytes), variant.id).toEqual({ ok: true })
			const read = await PDFDocument.load(bytes, { updateMetadata: false })
			expect([read.getPageCount(), read.getProducer(), read.catalog.keys().map((key) => key.decodeText()).sort()], variant.id).toEqual([1, 'Ataa', ['Pages', 'Type']])
			expect(read.getPage(0).node.Annots(), variant.id).toBeUndefined()
		}
	}
})

test('the caps count what the case will hold: every page, and the document made of each slot’s pages', async () => {
	const { row } = await draft()
	const storage = getCaseFileStorage()
	const page = async (slot: string, size: number, limits: { files: number; caseBytes: number }) => {
		const staged = stagedFile(storage, Buffer.alloc(size, 0x20), 'page.pdf')
		return addPage(db(), needyFamilies, row.id, slot, { originalName: 'page.pdf', contentType: 'application/pdf', size, sha256: staged.sha256, storageKey: await storage.adopt(staged.tempPath), pages: 1, status: 'ready' }, { pages: 10, ...limits })
	}
	// Two pages of the identity and its document, one of the family record and its: five files.
	await page('identity', 100, { files: 5, caseBytes: 10_000 })
	await page('identity', 100, { files: 5, caseBytes: 10_000 })
	await page('family_report', 100, { files: 5, caseBytes: 10_000 })
	await expect(page('family_report', 100, { files: 5, caseBytes: 10_000 })).rejects.toThrow(new PageRefusedError('case-full'))
	// 300 bytes of pages, and as much again in their documents: 600; a page of one byte is two more.
	await expect(page('other', 1, { files: 40, caseBytes: 602 })).resolves.toBeDefined()
	await expect(page('other', 1, { files: 40, caseBytes: 603 })).rejects.toThrow(new PageRefusedError('case-too-large'))
	expect(caseHoldings(await listPages(db(), row.id))).toEqual({ files: 7, bytes: 602 })
})
