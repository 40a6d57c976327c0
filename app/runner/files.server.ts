// A file received for one of a case's slots, judged and kept: the runner's side of an upload. The
// route (app/routes/apply/upload.ts) streams the request's body into storage and answers; this
// decides, from the file's bytes and the case, whether the slot takes it, and stores it.
import { createHash } from 'node:crypto'
import fs from 'node:fs/promises'
import { addAttachment, AttachmentLimitError, CaseLockedError, type CaseRow } from '#app/cases/case-store.server.ts'
import { canEditSlot, type SavedState } from '#app/cases/journey.ts'
import { kindOfMime, reencodePhoto, UnreadablePhotoError, type AttachmentMime } from '#app/cases/attachment-upload.server.ts'
import type { Database } from '#app/db/client.server.ts'
import type { ApplicationDef } from '#app/forms/definition.ts'
import { isDocumentSlot } from '#app/cases/document-pages.ts'
import { addPage, PageLockedError, PageRefusedError, scheduleDocuments } from '#app/cases/document-pages.server.ts'
import { inspectPhoto } from '#app/images/page-photo.server.ts'
import { remakePdf, type PdfRefusal } from '#app/pdf/page-pdf.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { isOffered } from '#app/forms/conditions.ts'
import type { UploadError } from '#app/forms/upload-form.tsx'
import { getCaseFileStorage } from '#app/storage/file-storage.server.ts'
import type { ReceivedFile, UploadResult } from '#app/storage/upload-stream.server.ts'

export type FileOutcome = { kind: 'file-added'; slot: string } | { kind: 'file-refused'; error: UploadError; slot: string }

/** The slot a case's file goes in, by name, with the section that holds it. */
export function findSlot(definition: ApplicationDef, name: string) {
	const section = definition.sections.find((candidate) => candidate.files?.some((slot) => slot.slot === name))
	return section ? { section, slot: section.files!.find((slot) => slot.slot === name)! } : undefined
}

/**
 * Keeps a received file in its slot, or says why not: the honeypot filled in, no file, a slot
 * that is not offered (a health or bank slot without consent) or not reopened, neither a PDF nor a
 * photo, an unreadable photo, or a limit reached. A document's slot takes the file as its next
 * page(s) and is answered at once: the photo is cleaned and the document made after the answer
 * (app/cases/document-pages.server.ts). A house's photos are re-encoded here, each kept on its own.
 * A refused file leaves nothing behind.
 */
export async function addFile(run: { db: Database; definition: ApplicationDef; row: CaseRow; state: SavedState }, received: UploadResult<AttachmentMime, 'not-accepted'>): Promise<FileOutcome> {
	const { db, definition, row, state } = run
	const storage = getCaseFileStorage()
	const slotName = received.fields.slot ?? ''
	const slot = findSlot(definition, slotName)?.slot
	const refuse = async (error: UploadError): Promise<FileOutcome> => {
		if (received.ok && received.file) await fs.rm(received.file.tempPath, { force: true })
		return { kind: 'file-refused', error, slot: slotName }
	}
	// The honeypot was filled in: a bot, not a family. Keep nothing.
	if (received.ok && received.file && received.fields.website) return refuse('bad-request')
	if (!received.ok) return refuse(received.error)
	if (!received.file) return refuse('no-file')
	// A health or bank slot takes files only once the applicant consented (docs/product.md#privacy-and-consent).
	if (!slot || !isOffered(slot, state.consent)) return refuse('bad-slot')
	if (!canEditSlot(row, definition, slot.slot)) return refuse('locked-slot')
	const kind = kindOfMime(received.file.mime)
	if (!kind) return refuse('not-accepted')
	if (isDocumentSlot(slot)) return addDocumentPage(run, slot.slot, received.file, kind, refuse)
	let file: ReceivedFile = received.file
	if (kind === 'pdf') {
		const remade = await remadeFile(received.file, getEnv().DOCUMENT_MAX_PAGES)
		if (typeof remade === 'string') return refuse(remade)
		file = remade.file
	} else {
		try {
			file = await reencodePhoto(storage, received.file)
		} catch (error) {
			if (error instanceof UnreadablePhotoError) return { kind: 'file-refused', error: 'unreadable-photo', slot: slotName }
			throw error
		}
	}
	const key = await storage.adopt(file.tempPath)
	try {
		const added = await addAttachment(db, definition, row, { slot: slot.slot, originalName: file.originalName, contentType: file.mime, size: file.size, sha256: file.sha256, storageKey: key })
		// A slot that takes one file: the file it replaced leaves storage too.
		await Promise.all(added.replaced.map((old) => storage.remove(old.storageKey)))
	} catch (error) {
		await storage.remove(key)
		if (error instanceof CaseLockedError) return { kind: 'file-refused', error: 'locked-slot', slot: slot.slot }
		if (error instanceof AttachmentLimitError) return { kind: 'file-refused', error: error.limit, slot: slot.slot }
		throw error
	}
	return { kind: 'file-added', slot: slot.slot }
}

/**
 * A received PDF made again (app/pdf/page-pdf.server.ts) into a new temp file, which replaces
 * it: no applicant's PDF is kept as sent. Refused when locked, unreadable or of more than `maxPages` pages.
 */
async function remadeFile(file: ReceivedFile, maxPages: number): Promise<{ file: ReceivedFile; pages: number } | PdfRefusal> {
	const storage = getCaseFileStorage()
	const remade = await remakePdf(await fs.readFile(file.tempPath), file.originalName.replace(/\.pdf$/i, ''), maxPages)
	if (typeof remade === 'string') return remade
	const tempPath = storage.tempPath()
	await fs.writeFile(tempPath, remade.pdf, { flag: 'wx' })
	await fs.rm(file.tempPath, { force: true })
	return { file: { ...file, tempPath, size: remade.pdf.length, sha256: createHash('sha256').update(remade.pdf).digest('hex') }, pages: remade.pages }
}

/**
 * A document's next page(s). A photo's header is read (its size, never its pixels: a decompression
 * bomb is refused here) and the photo kept as sent, encrypted, to be cleaned in the background; a
 * PDF is made again at once (its pages counted first: no more than a document holds are drawn).
 * Then the applicant is answered, and the document is made in the background.
 */
async function addDocumentPage(run: { db: Database; definition: ApplicationDef; row: CaseRow }, slot: string, file: ReceivedFile, kind: 'pdf' | 'photo', refuse: (error: UploadError) => Promise<FileOutcome>): Promise<FileOutcome> {
	const { db, definition, row } = run
	const storage = getCaseFileStorage()
	const env = getEnv()
	let pages = 1
	if (kind === 'photo') {
		const judged = await inspectPhoto(file.tempPath)
		if (typeof judged === 'string') return refuse(judged)
	} else {
		const remade = await remadeFile(file, env.DOCUMENT_MAX_PAGES)
		if (typeof remade === 'string') return refuse(remade)
		;({ file, pages } = remade)
	}
	const key = await storage.adopt(file.tempPath)
	try {
		await addPage(db, definition, row.id, slot, { originalName: file.originalName, contentType: file.mime, size: file.size, sha256: file.sha256, storageKey: key, pages, status: kind === 'photo' ? 'processing' : 'ready' }, { pages: env.DOCUMENT_MAX_PAGES, files: env.CASE_MAX_FILES, caseBytes: env.caseMaxBytes })
	} catch (error) {
		await storage.remove(key)
		if (error instanceof PageLockedError) return { kind: 'file-refused', error: 'locked-slot', slot }
		if (error instanceof PageRefusedError) return { kind: 'file-refused', error: error.reason, slot }
		throw error
	}
	void scheduleDocuments(db, definition, row.id, [slot])
	return { kind: 'file-added', slot }
}
