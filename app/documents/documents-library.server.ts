import { eq } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { documents } from '#app/db/schema.ts'
import type { FileStorage } from '#app/storage/file-storage.server.ts'
import type { ReceivedFile } from '#app/storage/upload-stream.server.ts'
import { isUuid } from '#app/utils/uuid.ts'

// Files staff publish beside content (a certificate's scan, a report, a video). Public by design:
// anyone with the page can download them. Applicants' files never come here (app/cases).

export type DocumentRow = typeof documents.$inferSelect

/** What a page needs to offer a download. */
export interface DocumentData {
	id: string
	name: string
	size: number
	/** application/pdf or video/… */
	mediaType: string
	/** Downloads it; `${href}?view` opens it in the browser. */
	href: string
}

export const toDocumentData = (row: DocumentRow): DocumentData => ({ id: row.id, name: row.originalName, size: row.size, mediaType: row.mediaType, href: `/documents/${row.id}` })

/** Moves an accepted upload (a PDF or a video, checked by its bytes; PDF when `mime` is absent) into storage and records it: all or nothing. */
export async function storeDocument(db: Database, storage: FileStorage, file: Pick<ReceivedFile, 'tempPath' | 'originalName' | 'size' | 'sha256'> & { mime?: string }, createdBy: number | null): Promise<DocumentRow> {
	const storageKey = await storage.adopt(file.tempPath)
	try {
		const [row] = await db.insert(documents).values({ originalName: file.originalName, mediaType: file.mime ?? 'application/pdf', size: file.size, sha256: file.sha256, storageKey, createdBy }).returning()
		return row!
	} catch (error) {
		await storage.remove(storageKey)
		throw error
	}
}

export async function findDocument(db: Database, id: string): Promise<DocumentRow | undefined> {
	if (!isUuid(id)) return undefined
	const [row] = await db.select().from(documents).where(eq(documents.id, id)).limit(1)
	return row
}

/** Deletes a document and its file; false when there is no such document. */
export async function deleteDocument(db: Database, storage: FileStorage, id: string): Promise<boolean> {
	if (!isUuid(id)) return false
	// The row goes first: a file left behind only wastes space, a row without its file would be a broken link.
	const [row] = await db.delete(documents).where(eq(documents.id, id)).returning()
	if (!row) return false
	await storage.remove(row.storageKey)
	return true
}
