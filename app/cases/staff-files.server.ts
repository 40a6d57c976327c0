// Keeping the files staff add to a case (app/cases/staff-files.ts): a home visit's photos from the
// study page, and the receipt of aid in kind from the payments screen. Judged by their bytes as the
// applicant's are; a photo is re-encoded (upright, at most 2000 px, no metadata: no GPS position of
// the family's home, no phone model) and every file is encrypted at rest (getCaseFileStorage).
import { and, asc, eq, isNull, like, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { attachments, caseEvents, cases } from '#app/db/schema.ts'
import { getCaseFileStorage } from '#app/storage/file-storage.server.ts'
import { isUuid } from '#app/utils/uuid.ts'
import type { ContentRefusal, PartResult, ReceivedFile, RequestRefusal } from '#app/storage/upload-stream.server.ts'
import { reencodePhoto, UnreadablePhotoError } from './attachment-upload.server.ts'
import { CaseChangeError } from './status-changes.server.ts'
import type { AttachmentRow } from './case-store.server.ts'
import { MAX_VISIT_PHOTOS, STAFF_SLOT_PREFIX, VISIT_PHOTO_SLOT, type staffFileErrors } from './staff-files.ts'

export type StaffFileRefusal = keyof typeof staffFileErrors | 'too-large' | ContentRefusal | RequestRefusal

/** A staff file kept in storage, its row not yet written. */
export interface StoredStaffFile {
	originalName: string
	contentType: string
	size: number
	sha256: string
	storageKey: string
}

/**
 * Keeps a received file in storage: a photo re-encoded first, a PDF as it is (the upload already
 * refused one with active content). An unreadable photo is refused and nothing is left behind.
 */
export async function storeStaffFile(file: ReceivedFile): Promise<{ ok: true; stored: StoredStaffFile } | { ok: false; error: 'unreadable-photo' }> {
	const storage = getCaseFileStorage()
	let kept: ReceivedFile = file
	// Any picture is drawn again (its first frame): what is kept is never the bytes that were sent.
	if (file.mime.startsWith('image/')) {
		try {
			kept = await reencodePhoto(storage, file)
		} catch (error) {
			if (error instanceof UnreadablePhotoError) return { ok: false, error: 'unreadable-photo' }
			throw error
		}
	}
	const storageKey = await storage.adopt(kept.tempPath)
	return { ok: true, stored: { originalName: kept.originalName, contentType: kept.mime, size: kept.size, sha256: kept.sha256, storageKey } }
}

/** Removes kept files whose rows were never written (a refusal after they were stored). */
export async function discardStaffFiles(files: readonly StoredStaffFile[]): Promise<void> {
	const storage = getCaseFileStorage()
	await Promise.all(files.map((file) => storage.remove(file.storageKey)))
}

/** Writes a staff file's row and its line in the case's history; inside the caller's transaction. */
export async function insertStaffFile(tx: Database, caseId: string, slot: string, file: StoredStaffFile, actorId: number): Promise<AttachmentRow> {
	const [row] = await tx
		.insert(attachments)
		.values({ caseId, slot, ...file })
		.returning()
	await tx.insert(caseEvents).values({ caseId, actorId, kind: 'file_added', data: { slot, name: file.originalName } })
	return row!
}

/** The case's live staff files, oldest first: its visit photos and its receipts. */
export async function listStaffFiles(db: Database, caseId: string): Promise<AttachmentRow[]> {
	return db
		.select()
		.from(attachments)
		.where(and(eq(attachments.caseId, caseId), isNull(attachments.deletedAt), like(attachments.slot, `${STAFF_SLOT_PREFIX}%`)))
		.orderBy(asc(attachments.createdAt), asc(attachments.id))
}

export interface PhotosAdded {
	added: number
	refused: { name: string; error: StaffFileRefusal }[]
}

async function lockStudiedCase(tx: Database, caseId: string) {
	const [locked] = await tx.select().from(cases).where(eq(cases.id, caseId)).for('update')
	if (!locked || locked.deletedAt) throw new CaseChangeError('الطلب غير موجود أو محذوف')
	if (!locked.submittedAt) throw new CaseChangeError('لم يُرسل هذا الطلب بعد')
	if (locked.purgedAt) throw new CaseChangeError('أُتلفت بيانات هذا الطلب وفق مدة الاحتفاظ')
	return locked
}

/**
 * Adds a home visit's photos to a case, each judged on its own (a good photo is not lost because the
 * one beside it is not a photo). Past MAX_VISIT_PHOTOS the rest are refused; a case deleted, not
 * sent or purged refuses them all (CaseChangeError) and keeps nothing.
 */
export async function addVisitPhotos(db: Database, caseId: string, parts: readonly PartResult[], actor: { id: number }): Promise<PhotosAdded> {
	const refused: PhotosAdded['refused'] = []
	const stored: StoredStaffFile[] = []
	for (const part of parts) {
		if (!part.ok) {
			refused.push({ name: part.originalName ?? '', error: part.error as StaffFileRefusal })
			continue
		}
		const kept = await storeStaffFile(part.file)
		if (kept.ok) stored.push(kept.stored)
		else refused.push({ name: part.file.originalName, error: kept.error })
	}
	let written: StoredStaffFile[] = []
	try {
		written = await db.transaction(async (tx) => {
			await lockStudiedCase(tx, caseId)
			const [held] = await tx
				.select({ n: sql<number>`count(*)::int` })
				.from(attachments)
				.where(and(eq(attachments.caseId, caseId), eq(attachments.slot, VISIT_PHOTO_SLOT), isNull(attachments.deletedAt)))
			const room = Math.max(0, MAX_VISIT_PHOTOS - (held?.n ?? 0))
			for (const file of stored.slice(0, room)) await insertStaffFile(tx, caseId, VISIT_PHOTO_SLOT, file, actor.id)
			return stored.slice(0, room)
		})
	} finally {
		await discardStaffFiles(stored.filter((file) => !written.includes(file)))
	}
	for (const file of stored.filter((item) => !written.includes(item))) refused.push({ name: file.originalName, error: 'too-many' })
	return { added: written.length, refused }
}

/** Removes one of a case's visit photos: its bytes leave storage; the row stays for the history. */
export async function removeVisitPhoto(db: Database, caseId: string, fileId: string, actor: { id: number }): Promise<boolean> {
	if (!isUuid(fileId)) return false
	const removed = await db.transaction(async (tx) => {
		await lockStudiedCase(tx, caseId)
		const [row] = await tx
			.update(attachments)
			.set({ deletedAt: sql`now()` })
			.where(and(eq(attachments.id, fileId), eq(attachments.caseId, caseId), eq(attachments.slot, VISIT_PHOTO_SLOT), isNull(attachments.deletedAt)))
			.returning()
		if (row) await tx.insert(caseEvents).values({ caseId, actorId: actor.id, kind: 'file_removed', data: { slot: row.slot, name: row.originalName } })
		return row
	})
	if (removed) await getCaseFileStorage().remove(removed.storageKey)
	return Boolean(removed)
}
