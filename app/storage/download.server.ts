import { Readable } from 'node:stream'
import { data } from 'react-router'
import { FileNotFoundError, type FileStorage } from './file-storage.server.ts'

/**
 * A stored PDF as a download, never shown on our origin (server.mjs adds nosniff to every response).
 * The plain filename is for old clients; the UTF-8 one keeps an Arabic name. A file missing from
 * storage is a 404, not an error page.
 */
export async function pdfDownload(storage: FileStorage, file: { storageKey: string; size: number; originalName: string }, cacheControl: string): Promise<Response> {
	let stream: Readable
	try {
		stream = await storage.read(file.storageKey)
	} catch (error) {
		if (error instanceof FileNotFoundError) throw data(null, { status: 404 })
		throw error
	}
	return new Response(Readable.toWeb(stream) as ReadableStream, {
		headers: {
			'Content-Type': 'application/pdf',
			'Content-Length': String(file.size),
			'Content-Disposition': `attachment; filename="document.pdf"; filename*=UTF-8''${encodeURIComponent(file.originalName)}`,
			'Cache-Control': cacheControl,
		},
	})
}
