import { data } from 'react-router'
import type { Route } from './+types/document'
import { getDb } from '#app/db/database.server.ts'
import { findDocument } from '#app/documents/documents-library.server.ts'
import { fileResponse } from '#app/storage/download.server.ts'
import { getFileStorage } from '#app/storage/file-storage.server.ts'

/**
 * A published file, for anyone; cached for good, since a file never changes (a new upload is a new
 * id). `?view` opens a PDF in the browser's viewer (the library's «عرض» links) and a video plays in
 * place; otherwise it downloads. Videos answer `Range` requests, so a phone can seek.
 */
export async function loader({ params, request }: Route.LoaderArgs) {
	// findDocument checks the id is a uuid before it reaches the database.
	const document = await findDocument(await getDb(), params.id)
	if (!document) throw data(null, { status: 404 })
	const inline = new URL(request.url).searchParams.has('view') || document.mediaType.startsWith('video/')
	return fileResponse(getFileStorage(), { ...document, contentType: document.mediaType }, 'public, max-age=31536000, immutable', inline ? 'inline' : 'attachment', request)
}
