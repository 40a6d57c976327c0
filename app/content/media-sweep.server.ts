import { and, lt, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { contentEntries, documents, images } from '#app/db/schema.ts'
import { deleteDocument } from '#app/documents/documents-library.server.ts'
import { deleteImage } from '#app/images/pipeline.server.ts'
import type { FileStorage } from '#app/storage/file-storage.server.ts'

// Pictures and PDFs are stored the moment they are uploaded, before the form around them is
// valid: a try that fails keeps them for the next one. Abandoned there, they would stay forever.

/** How long an upload from a failed try may still be saved with its form. */
export const KEPT_UPLOAD_MS = 24 * 60 * 60 * 1000

/**
 * Deletes pictures and PDFs that no content entry names (deleted entries count: they are kept for
 * the record) and that are older than twice the window in which a failed try may still save them.
 * Returns how many of each went.
 */
export async function sweepUnreferencedMedia(db: Database, storage: FileStorage, now = new Date()): Promise<{ images: number; documents: number }> {
	const before = new Date(now.getTime() - 2 * KEPT_UPLOAD_MS)
	// An entry names a file by its id somewhere in its JSON data; ids are random UUIDs, so a match is never by chance.
	const unnamed = (id: typeof images.id | typeof documents.id) =>
		sql`not exists (select 1 from ${contentEntries} where strpos(${contentEntries.data}::text, ${id}::text) > 0)`
	const lostImages = await db.select({ id: images.id }).from(images).where(and(lt(images.createdAt, before), unnamed(images.id)))
	const lostDocuments = await db.select({ id: documents.id }).from(documents).where(and(lt(documents.createdAt, before), unnamed(documents.id)))
	for (const { id } of lostImages) await deleteImage(db, storage, id)
	for (const { id } of lostDocuments) await deleteDocument(db, storage, id)
	return { images: lostImages.length, documents: lostDocuments.length }
}
