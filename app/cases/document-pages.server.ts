// The pages of an applicant's documents, and the one PDF each document becomes
// (docs/decisions/015-documents-from-photos.md). A photo is received and kept as sent (encrypted,
// like every applicant file) and the applicant is answered at once; then, off the request, it is
// decoded under a pixel limit, turned upright by its EXIF orientation, made at most 2,000 px on its
// long side and encoded again as a JPEG that holds nothing of the phone's metadata (no GPS position,
// no device, no time), and the original is removed. A PDF is kept only made again (app/runner/files.server.ts,
// docs/security.md#uploads). Each time a slot's pages change, its document is made again: every
// page, in the order the applicant chose, on an A4 page, as one PDF (pdf-lib); one PDF alone is
// that PDF made again, its pages of their own size. Once the application is sent only the
// documents are kept; their pages go.
import { createHash } from 'node:crypto'
import fsp from 'node:fs/promises'
import { buffer } from 'node:stream/consumers'
import { and, asc, eq, inArray, isNull, like, notLike, or, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { attachments, caseEvents, cases } from '#app/db/schema.ts'
import { makeDocument, remakePdf } from '#app/pdf/page-pdf.server.ts'
import type { ApplicationDef } from '#app/forms/definition.ts'
import { cleanPhoto } from '#app/images/page-photo.server.ts'
import { getCaseFileStorage, type FileStorage } from '#app/storage/file-storage.server.ts'
import type { ReceivedFile } from '#app/storage/upload-stream.server.ts'
import { describeError, logger } from '#app/utils/log.server.ts'
import { canEditSlot } from './journey.ts'
import { caseHoldings, PAGE_SLOT_PREFIX, pageSlot, slotOfPage } from './document-pages.ts'
import { STAFF_SLOT_PREFIX } from './staff-files.ts'

type AttachmentRow = typeof attachments.$inferSelect

/** Why a page is refused; each has its message (app/forms/upload-form.tsx). */
export type PageRefusal = 'too-many-pixels' | 'unreadable-photo' | 'heic-unreadable' | 'pdf-locked' | 'pdf-unreadable' | 'too-many-pages' | 'case-full' | 'case-too-large'

export class PageRefusedError extends Error {
	constructor(readonly reason: PageRefusal) {
		super(reason)
	}
}

export class PageLockedError extends Error {}

export interface PageLimits {
	/** DOCUMENT_MAX_PAGES: the pages of one document, a PDF's pages included. */
	pages: number
	/** CASE_MAX_FILES: every file the case holds, pages and the documents made of them together. */
	files: number
	/** CASE_MAX_MB in bytes: every file the case holds, pages and documents together. */
	caseBytes: number
}

// ——— Pages of a case ———

const livePage = (caseId: string) => and(eq(attachments.caseId, caseId), isNull(attachments.deletedAt), like(attachments.slot, `${PAGE_SLOT_PREFIX}%`))

/** The case's pages, by slot and in the applicant's order. */
export async function listPages(db: Database, caseId: string): Promise<AttachmentRow[]> {
	return db
		.select()
		.from(attachments)
		.where(livePage(caseId))
		.orderBy(asc(attachments.slot), asc(attachments.position), asc(attachments.createdAt))
}

/** One page of the case, or undefined. */
export async function findPage(db: Database, caseId: string, pageId: string): Promise<AttachmentRow | undefined> {
	const [row] = await db
		.select()
		.from(attachments)
		.where(and(livePage(caseId), eq(attachments.id, pageId)))
	return row
}

async function lockEditable(tx: Database, definition: ApplicationDef, caseId: string, slot: string) {
	const [locked] = await tx.select().from(cases).where(eq(cases.id, caseId)).for('update')
	if (!locked || !canEditSlot(locked, definition, slot)) throw new PageLockedError()
	return locked
}

/**
 * The slot's document no longer matches its pages (one added, removed or moved): marked so, in the
 * change's transaction, a start after a stop before it was made again knows to make it.
 */
async function markStale(tx: Database, caseId: string, slot: string): Promise<void> {
	await tx
		.update(attachments)
		.set({ status: 'processing' })
		.where(and(eq(attachments.caseId, caseId), eq(attachments.slot, slot), isNull(attachments.deletedAt)))
}

/**
 * Adds a received file as the last page(s) of `slot`'s document: a photo waiting to be cleaned, or
 * a PDF with its pages. Under the case's lock: the pages of a document, and the case's bytes, stay
 * within `limits` (PageRefusedError, nothing changed). A document the slot held before its first
 * page (sent earlier, or given before pages existed) becomes its first page, so nothing is lost.
 */
export async function addPage(
	db: Database,
	definition: ApplicationDef,
	caseId: string,
	slot: string,
	file: { originalName: string; contentType: string; size: number; sha256: string; storageKey: string; pages: number; status: 'ready' | 'processing' },
	limits: PageLimits,
): Promise<AttachmentRow> {
	return db.transaction(async (tx) => {
		await lockEditable(tx, definition, caseId, slot)
		const live = await tx
			.select()
			.from(attachments)
			.where(and(eq(attachments.caseId, caseId), isNull(attachments.deletedAt), notLike(attachments.slot, `${STAFF_SLOT_PREFIX}%`)))
		const pages = live.filter((row) => row.slot === pageSlot(slot))
		// Before its first page, what the slot held (a document sent earlier, files given before
		// documents had pages) becomes its first pages: the new page joins them, nothing is lost.
		const earlier = pages.length ? [] : live.filter((row) => row.slot === slot)
		const pageCount = [...pages, ...earlier].reduce((sum, row) => sum + (row.pages ?? 1), 0) + file.pages
		if (pageCount > limits.pages) throw new PageRefusedError('too-many-pages')
		// What the case will hold with this page, and the slot's document made again with it.
		const after = caseHoldings([...live.map((row) => (earlier.includes(row) ? { ...row, slot: pageSlot(slot) } : row)), { slot: pageSlot(slot), size: file.size }])
		if (after.files > limits.files) throw new PageRefusedError('case-full')
		if (after.bytes > limits.caseBytes) throw new PageRefusedError('case-too-large')
		let position = pages.reduce((last, row) => Math.max(last, row.position ?? 0), 0)
		for (const row of earlier) {
			position += 1
			await tx.update(attachments).set({ slot: pageSlot(slot), position }).where(eq(attachments.id, row.id))
		}
		const [row] = await tx
			.insert(attachments)
			.values({ caseId, slot: pageSlot(slot), position: position + 1, ...file })
			.returning()
		await tx.insert(caseEvents).values({ caseId, kind: 'file_added', data: { slot, name: file.originalName } })
		await markStale(tx, caseId, slot)
		return row!
	})
}

/** Removes a page; the last page of a document takes the document with it. Returns the keys to remove from storage. */
export async function removePage(db: Database, definition: ApplicationDef, caseId: string, pageId: string): Promise<{ slot: string; keys: string[] } | undefined> {
	const page = await findPage(db, caseId, pageId)
	if (!page) return undefined
	const slot = slotOfPage(page.slot)!
	return db.transaction(async (tx) => {
		await lockEditable(tx, definition, caseId, slot)
		const [removed] = await tx
			.update(attachments)
			.set({ deletedAt: sql`now()` })
			.where(and(eq(attachments.id, page.id), isNull(attachments.deletedAt)))
			.returning()
		if (!removed) return undefined
		await tx.insert(caseEvents).values({ caseId, kind: 'file_removed', data: { slot, name: removed.originalName } })
		const keys = [removed.storageKey]
		const [left] = await tx
			.select({ id: attachments.id })
			.from(attachments)
			.where(and(livePage(caseId), eq(attachments.slot, page.slot)))
			.limit(1)
		if (!left) {
			const documents = await tx
				.update(attachments)
				.set({ deletedAt: sql`now()` })
				.where(and(eq(attachments.caseId, caseId), eq(attachments.slot, slot), isNull(attachments.deletedAt)))
				.returning({ key: attachments.storageKey })
			keys.push(...documents.map((document) => document.key))
		} else await markStale(tx, caseId, slot)
		return { slot, keys }
	})
}

/** Moves a page one place earlier or later in its document; false when it is already first or last. */
export async function movePage(db: Database, definition: ApplicationDef, caseId: string, pageId: string, to: 'earlier' | 'later'): Promise<boolean> {
	const page = await findPage(db, caseId, pageId)
	if (!page) return false
	const slot = slotOfPage(page.slot)!
	return db.transaction(async (tx) => {
		await lockEditable(tx, definition, caseId, slot)
		const order = await tx
			.select({ id: attachments.id })
			.from(attachments)
			.where(and(livePage(caseId), eq(attachments.slot, page.slot)))
			.orderBy(asc(attachments.position), asc(attachments.createdAt))
		const at = order.findIndex((row) => row.id === page.id)
		const other = to === 'earlier' ? at - 1 : at + 1
		if (at < 0 || other < 0 || other >= order.length) return false
		;[order[at], order[other]] = [order[other]!, order[at]!]
		// Numbered again 1..n: positions stay whole and distinct however often pages move.
		for (const [index, row] of order.entries()) await tx.update(attachments).set({ position: index + 1 }).where(eq(attachments.id, row.id))
		await markStale(tx, caseId, slot)
		return true
	})
}

// ——— Making the pages and documents, off the request ———

async function readStored(storage: FileStorage, key: string): Promise<Buffer> {
	return buffer(await storage.read(key))
}

async function keep(storage: FileStorage, bytes: Buffer): Promise<{ key: string; size: number; sha256: string }> {
	const tempPath = storage.tempPath()
	await fsp.writeFile(tempPath, bytes, { flag: 'wx' })
	try {
		return { key: await storage.adopt(tempPath), size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }
	} catch (error) {
		await fsp.rm(tempPath, { force: true })
		throw error
	}
}

/** Cleans one photo waiting as a page; a photo that cannot be decoded is marked failed (its bytes go). */
async function processPhoto(db: Database, storage: FileStorage, page: AttachmentRow): Promise<void> {
	let cleaned
	try {
		cleaned = await cleanPhoto(await readStored(storage, page.storageKey))
	} catch (error) {
		logger.warn({ page: page.id, error: describeError(error) }, 'A page photo could not be read')
		const [failed] = await db
			.update(attachments)
			.set({ status: 'failed' })
			.where(and(eq(attachments.id, page.id), eq(attachments.status, 'processing')))
			.returning()
		if (failed) await storage.remove(page.storageKey)
		return
	}
	const kept = await keep(storage, cleaned.jpeg)
	const [done] = await db
		.update(attachments)
		.set({ status: 'ready', storageKey: kept.key, size: kept.size, sha256: kept.sha256, contentType: 'image/jpeg', originalName: page.originalName.replace(/\.[^.]{1,5}$/, '') + '.jpg' })
		.where(and(eq(attachments.id, page.id), eq(attachments.status, 'processing'), eq(attachments.storageKey, page.storageKey), isNull(attachments.deletedAt)))
		.returning()
	// The original is not kept; if the page went meanwhile (removed, or cleaned elsewhere), neither is the copy.
	await storage.remove(done ? page.storageKey : kept.key)
}

/** The pages' order and bytes a document was made from: it is kept only if they are still the same. */
const signature = (pages: readonly AttachmentRow[]) => pages.map((page) => `${page.id}:${page.position}:${page.storageKey}:${page.status}`).join(',')

/**
 * Makes `slot`'s document again from its pages, unless one is still being cleaned (its turn comes
 * when it is). The new document replaces the old in one transaction, and only if the pages did not
 * change while it was made; otherwise the change's own turn makes it.
 */
async function buildDocument(db: Database, storage: FileStorage, caseId: string, slot: string, title: string): Promise<void> {
	const pages = (await listPages(db, caseId)).filter((page) => page.slot === pageSlot(slot))
	if (pages.length === 0 || pages.some((page) => page.status === 'processing')) return
	const usable = pages.filter((page) => page.status === 'ready')
	const items = await Promise.all(usable.map(async (page) => ({ kind: page.contentType === 'application/pdf' ? ('pdf' as const) : ('photo' as const), bytes: await readStored(storage, page.storageKey) })))
	// A document given whole as one PDF is that PDF's pages, each of its own size, under its own name.
	// Made again here too, though its page was made again when it was given: a page kept before that
	// (a document sent earlier, become the first page when staff reopened it) was not.
	const single = usable.length === 1 && items[0]!.kind === 'pdf' ? usable[0]! : undefined
	const made = single ? await remakePdf(items[0]!.bytes, single.originalName.replace(/\.pdf$/i, '')) : items.length ? await makeDocument(title, items) : null
	if (typeof made === 'string') throw new Error(`The document's one PDF could not be made again: ${made}`)
	const kept = made ? await keep(storage, made.pdf) : null
	const name = single ? single.originalName : `${title}.pdf`
	const replaced = await db.transaction(async (tx) => {
		await tx.select({ id: cases.id }).from(cases).where(eq(cases.id, caseId)).for('update')
		const now = await tx
			.select()
			.from(attachments)
			.where(and(livePage(caseId), eq(attachments.slot, pageSlot(slot))))
			.orderBy(asc(attachments.slot), asc(attachments.position), asc(attachments.createdAt))
		if (signature(now) !== signature(pages)) return null
		const old = await tx
			.update(attachments)
			.set({ deletedAt: sql`now()` })
			.where(and(eq(attachments.caseId, caseId), eq(attachments.slot, slot), isNull(attachments.deletedAt)))
			.returning({ key: attachments.storageKey })
		if (kept && made) await tx.insert(attachments).values({ caseId, slot, originalName: name, contentType: 'application/pdf', size: kept.size, sha256: kept.sha256, storageKey: kept.key, pages: made.pages })
		return old
	})
	if (replaced === null) {
		if (kept) await storage.remove(kept.key)
		return
	}
	await Promise.all(replaced.map((old) => storage.remove(old.key)))
}

/** Each slot's label, for its document's title and file name. */
function slotLabel(definition: ApplicationDef, slot: string): string {
	for (const section of definition.sections) for (const file of section.files ?? []) if (file.slot === slot) return file.label
	return slot
}

// One piece of work a time in this process: a photo takes a decode's memory (tens of MB for a
// 12-megapixel JPEG), and ten families sending at once should not take ten of them.
let queue: Promise<void> = Promise.resolve()
/** Cases whose turn is waiting (not started), with the slots to make again: a second change rides on the same turn. */
const waiting = new Map<string, { turn: Promise<void>; slots: Set<string> | 'all' }>()

async function runCase(db: Database, definition: ApplicationDef, caseId: string, only: Set<string> | 'all'): Promise<void> {
	const storage = getCaseFileStorage()
	const pages = await listPages(db, caseId)
	const processing = pages.filter((row) => row.status === 'processing')
	for (const page of processing) await processPhoto(db, storage, page)
	// A slot changed, or one whose photo was just cleaned (after a restart, nobody named it).
	const slots = new Set(pages.map((page) => slotOfPage(page.slot)!).filter((slot) => only === 'all' || only.has(slot) || processing.some((page) => page.slot === pageSlot(slot))))
	for (const slot of slots) await buildDocument(db, storage, caseId, slot, slotLabel(definition, slot))
}

/**
 * Cleans the case's waiting photos and makes the documents of `slots` (all of them when absent)
 * again, after the work already queued. The returned promise settles when that is done (it never
 * rejects: a failure is logged, and the next change, or the check before sending, tries again).
 */
export function scheduleDocuments(db: Database, definition: ApplicationDef, caseId: string, slots?: readonly string[]): Promise<void> {
	const already = waiting.get(caseId)
	if (already) {
		if (!slots) already.slots = 'all'
		else if (already.slots !== 'all') for (const slot of slots) already.slots.add(slot)
		return already.turn
	}
	const entry: { turn: Promise<void>; slots: Set<string> | 'all' } = { turn: Promise.resolve(), slots: slots ? new Set(slots) : 'all' }
	entry.turn = queue.then(async () => {
		waiting.delete(caseId)
		try {
			await runCase(db, definition, caseId, entry.slots)
		} catch (error) {
			logger.error({ case: caseId, error: describeError(error) }, 'A case’s documents could not be made')
		}
	})
	waiting.set(caseId, entry)
	queue = entry.turn
	return entry.turn
}

/**
 * Cases whose work a stop cut short: photos still waiting to be cleaned, or pages whose document
 * was never made, or not made again after they changed. Their turn again.
 */
export async function resumeDocuments(db: Database, definitionOf: (programme: string) => ApplicationDef | undefined): Promise<number> {
	// No document yet, or one its pages changed after (marked by the change, cleared by the new one).
	const noDocument = sql`not exists (select 1 from ${attachments} as made where made.case_id = ${attachments.caseId} and made.slot = substr(${attachments.slot}, ${PAGE_SLOT_PREFIX.length + 1}) and made.deleted_at is null and made.status = 'ready')`
	const rows = await db
		.selectDistinct({ caseId: attachments.caseId, programme: cases.type, slot: attachments.slot })
		.from(attachments)
		.innerJoin(cases, eq(cases.id, attachments.caseId))
		.where(and(like(attachments.slot, `${PAGE_SLOT_PREFIX}%`), isNull(attachments.deletedAt), or(eq(attachments.status, 'processing'), noDocument)))
	// Only the slots that need it: a document already made from its pages is not made again at each start.
	const byCase = new Map<string, { programme: string; slots: string[] }>()
	for (const row of rows) {
		const entry = byCase.get(row.caseId) ?? { programme: row.programme, slots: [] }
		entry.slots.push(slotOfPage(row.slot)!)
		byCase.set(row.caseId, entry)
	}
	for (const [caseId, { programme, slots }] of byCase) {
		const definition = definitionOf(programme)
		if (definition) void scheduleDocuments(db, definition, caseId, slots)
	}
	return byCase.size
}

/**
 * Once the application is sent: its documents are what is kept; their pages (the cleaned photos,
 * and the PDFs given as pages) go, rows and bytes. Called after the documents were made.
 */
export async function dropPages(db: Database, caseId: string): Promise<number> {
	const dropped = await db
		.update(attachments)
		.set({ deletedAt: sql`now()` })
		.where(livePage(caseId))
		.returning({ key: attachments.storageKey })
	const storage = getCaseFileStorage()
	await Promise.all(dropped.map((row) => storage.remove(row.key)))
	return dropped.length
}

/** The case's pages as they are now, in one string: what changed between two readings. */
export async function pagesSignature(db: Database, caseId: string): Promise<string> {
	return signature(await listPages(db, caseId))
}

/** Whether a slot's pages are all made into its document: none waiting, none unreadable. */
export async function pagesPending(db: Database, caseId: string): Promise<{ processing: number; failed: string[] }> {
	const pages = await db
		.select({ slot: attachments.slot, status: attachments.status })
		.from(attachments)
		.where(and(livePage(caseId), inArray(attachments.status, ['processing', 'failed'])))
	return { processing: pages.filter((page) => page.status === 'processing').length, failed: [...new Set(pages.filter((page) => page.status === 'failed').map((page) => slotOfPage(page.slot)!))] }
}

/** Keeps a received file's bytes (still encrypted at rest, as sent) for a page. */
export async function adoptReceived(file: ReceivedFile): Promise<string> {
	return getCaseFileStorage().adopt(file.tempPath)
}
