import { Readable } from 'node:stream'
import { data } from 'react-router'
import { FileNotFoundError, type FileStorage } from './file-storage.server.ts'

/** The part of a file a `Range: bytes=…` header asks for; null for the whole file, 'unsatisfiable' for none of it. */
export function byteRange(header: string | null, size: number): { start: number; end: number } | null | 'unsatisfiable' {
	// One range only: a player seeking asks for one; several would need a multipart answer.
	const match = header?.trim().match(/^bytes=(\d*)-(\d*)$/)
	if (!match || (match[1] === '' && match[2] === '')) return null
	if (size === 0) return 'unsatisfiable'
	if (match[1] === '') {
		// «the last N bytes»
		const length = Number(match[2])
		return length === 0 ? 'unsatisfiable' : { start: Math.max(0, size - length), end: size - 1 }
	}
	const start = Number(match[1])
	const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1)
	return start >= size || end < start ? 'unsatisfiable' : { start, end }
}

/**
 * A stored file as a response (server.mjs adds nosniff to every response): `attachment` unless
 * asked otherwise — `inline` only for files checked by their bytes at upload (a PDF, a video, an
 * applicant's photo for staff), never for anything a browser would run as a page. The plain
 * filename is for old clients; the UTF-8 one (RFC 6266 `filename*`) keeps an Arabic name. A
 * `Range` request gets 206 with that part, so a video seeks on a phone. A file missing from
 * storage is a 404, not an error page.
 */
export async function fileResponse(
	storage: FileStorage,
	/** `contentType`: PDF when absent. */
	file: { storageKey: string; size: number; originalName: string; contentType?: string },
	cacheControl: string,
	disposition: 'attachment' | 'inline' = 'attachment',
	request?: Request,
): Promise<Response> {
	const contentType = file.contentType ?? 'application/pdf'
	const range = byteRange(request?.headers.get('range') ?? null, file.size)
	const headers: Record<string, string> = {
		'Content-Type': contentType,
		'Content-Disposition': `${disposition}; filename="${fallbackName(contentType)}"; filename*=UTF-8''${encodeURIComponent(file.originalName)}`,
		'Cache-Control': cacheControl,
		'Accept-Ranges': 'bytes',
	}
	if (range === 'unsatisfiable') return new Response(null, { status: 416, headers: { ...headers, 'Content-Range': `bytes */${file.size}` } })
	let stream: Readable
	try {
		stream = await storage.read(file.storageKey, range ?? undefined)
	} catch (error) {
		if (error instanceof FileNotFoundError) throw data(null, { status: 404 })
		throw error
	}
	const body = Readable.toWeb(stream) as ReadableStream
	if (!range) return new Response(body, { headers: { ...headers, 'Content-Length': String(file.size) } })
	return new Response(body, {
		status: 206,
		headers: { ...headers, 'Content-Length': String(range.end - range.start + 1), 'Content-Range': `bytes ${range.start}-${range.end}/${file.size}` },
	})
}

const fallbackNames: Record<string, string> = { 'image/webp': 'photo.webp', 'video/mp4': 'video.mp4', 'video/webm': 'video.webm', 'video/quicktime': 'video.mov' }
const fallbackName = (contentType: string) => fallbackNames[contentType] ?? 'document.pdf'
