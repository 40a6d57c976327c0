import { Readable } from 'node:stream'
import { data } from 'react-router'
import { FileNotFoundError, type FileStorage } from './file-storage.server.ts'

/**
 * A stored PDF as a download (server.mjs adds nosniff to every response); `inline` only for staff's
 * preview of an applicant's PDF, already checked by its bytes when it was uploaded.
 * The plain filename is for old clients; the UTF-8 one keeps an Arabic name. A file missing from
 * storage is a 404, not an error page.
 */
export async function pdfDownload(
	storage: FileStorage,
	/** `contentType`: an applicant's photo is image/webp; PDF when absent. */
	file: { storageKey: string; size: number; originalName: string; contentType?: string },
	cacheControl: string,
	disposition: 'attachment' | 'inline' = 'attachment',
): Promise<Response> {
	let stream: Readable
	try {
		stream = await storage.read(file.storageKey)
	} catch (error) {
		if (error instanceof FileNotFoundError) throw data(null, { status: 404 })
		throw error
	}
	return new Response(Readable.toWeb(stream) as ReadableStream, {
		headers: {
			'Content-Type': file.contentType ?? 'application/pdf',
			'Content-Length': String(file.size),
			'Content-Disposition': `${disposition}; filename="${file.contentType === 'image/webp' ? 'photo.webp' : 'document.pdf'}"; filename*=UTF-8''${encodeURIComponent(file.originalName)}`,
			'Cache-Control': cacheControl,
		},
	})
}
