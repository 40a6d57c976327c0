import { Readable } from 'node:stream'
import { data } from 'react-router'
import { FileNotFoundError, type FileStorage } from './file-storage.server.ts'
import { cleanFileName } from '#app/storage/upload-stream.server.ts'

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
 * The Content-Security-Policy of every stored file we serve: were a browser ever to take one for a
 * page (an old browser, a proxy that drops the Content-Type), it would be a sandboxed page with an
 * opaque origin that may load nothing and run no script, so it could reach neither the session nor
 * the site. Chromium still shows a PDF under it, framed or in a tab (tests/e2e/security/uploads.spec.ts).
 */
export const STORED_FILE_CSP = "sandbox; default-src 'none'"

/** What a stored file may be served as; anything else (a row from before a check, a bug) goes out as bytes to download. */
const servedTypes = new Set(['application/pdf', 'image/webp', 'image/avif', 'image/jpeg', 'image/png', 'video/mp4', 'video/webm', 'video/quicktime'])

/**
 * The headers that go with every stored file, here and at /images: its type, the sandbox policy
 * and a Content-Disposition (`nosniff` is on every response already: server.mjs, from
 * app/utils/security-headers.ts; a second one here would be sent twice). `inline` is kept only for
 * types a browser shows without running them (a PDF in its viewer, an image, a video); anything
 * else is an attachment. `framedBy: 'self'` lets our own pages frame the file (the staff case
 * view's preview); otherwise no page may.
 */
export function storedFileHeaders(file: { originalName: string; contentType: string }, disposition: 'attachment' | 'inline', framedBy: 'self' | 'none' = 'none'): Record<string, string> {
	const contentType = servedTypes.has(file.contentType) ? file.contentType : 'application/octet-stream'
	const shown = contentType === 'application/octet-stream' ? 'attachment' : disposition
	const fallback = fallbackName(contentType)
	return {
		'Content-Type': contentType,
		'Content-Disposition': `${shown}; filename="${fallback}"; filename*=UTF-8''${encodeRfc5987(withExtensionOf(cleanFileName(file.originalName, fallback), fallback))}`,
		'Content-Security-Policy': `${STORED_FILE_CSP}; frame-ancestors '${framedBy}'`,
	}
}

/**
 * A stored file as a response (see storedFileHeaders): `attachment` unless asked otherwise. The
 * plain filename is for old clients; the UTF-8 one (RFC 6266 `filename*`) keeps an Arabic name. A
 * `Range` request gets 206 with that part, so a video seeks on a phone. A file missing from storage
 * is a 404, not an error page.
 */
export async function fileResponse(
	storage: FileStorage,
	/** `contentType`: PDF when absent. */
	file: { storageKey: string; size: number; originalName: string; contentType?: string },
	cacheControl: string,
	disposition: 'attachment' | 'inline' = 'attachment',
	request?: Request,
	/** Who may frame it: our own pages ('self', the staff case view's preview) or nobody. */
	framedBy: 'self' | 'none' = 'none',
): Promise<Response> {
	const range = byteRange(request?.headers.get('range') ?? null, file.size)
	const headers: Record<string, string> = {
		...storedFileHeaders({ originalName: file.originalName, contentType: file.contentType ?? 'application/pdf' }, disposition, framedBy),
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

/** encodeURIComponent leaves ' ( ) * as they are, which RFC 5987's value may not hold. */
const encodeRfc5987 = (value: string) => encodeURIComponent(value).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)

const fallbackNames: Record<string, string> = {
	'application/pdf': 'document.pdf',
	'image/webp': 'photo.webp',
	'image/avif': 'photo.avif',
	'image/jpeg': 'photo.jpg',
	'image/png': 'photo.png',
	'video/mp4': 'video.mp4',
	'video/webm': 'video.webm',
	'video/quicktime': 'video.mov',
}
const fallbackName = (contentType: string) => fallbackNames[contentType] ?? 'file.bin'

/**
 * The name a download is saved under ends as its bytes are: «كشف.pdf.exe» of a PDF saves as
 * «كشف.pdf.exe.pdf», so that no file is saved to open as a program. A name already right is kept.
 */
function withExtensionOf(name: string, fallback: string): string {
	const extension = fallback.slice(fallback.lastIndexOf('.'))
	const same = extension === '.jpg' ? /\.(jpe?g)$/i : new RegExp(`\\${extension}$`, 'i')
	return same.test(name) ? name : `${name}${extension}`
}
