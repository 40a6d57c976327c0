import { data } from 'react-router'
import type { Route } from './+types/document'
import { getDb } from '#app/db/database.server.ts'
import { findDocument } from '#app/documents/documents.server.ts'
import { pdfDownload } from '#app/storage/download.server.ts'
import { getFileStorage } from '#app/storage/file-storage.server.ts'

/** A published PDF, for anyone; cached for good, since a document never changes (a new upload is a new id). */
export async function loader({ params }: Route.LoaderArgs) {
	// findDocument checks the id is a uuid before it reaches the database.
	const document = await findDocument(await getDb(), params.id)
	if (!document) throw data(null, { status: 404 })
	return pdfDownload(getFileStorage(), document, 'public, max-age=31536000, immutable')
}
