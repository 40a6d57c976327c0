import { once } from 'node:events'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import busboy from 'busboy'
import { fileTypeFromFile } from 'file-type'
import type { FileStorage } from '#app/storage/file-storage.server.ts'
import { inspectPdf } from '#app/storage/pdf-active-content.server.ts'

export interface UploadLimits {
	maxFileBytes: number
	/** Per text field; default 10 000. */
	maxFieldBytes?: number
	/** Default 20. */
	maxFields?: number
	/**
	 * Refuse the whole request ('too-large', nothing kept) the moment one file passes its limit,
	 * instead of reading the rest of the body to judge the other files: a video sent without a
	 * Content-Length is not read to its end.
	 */
	stopWhenTooLarge?: boolean
}

/** What a kind of upload accepts, judged by the bytes (file-type), never by the client's name or Content-Type. */
export interface UploadKind<Mime extends string, Refusal extends string> {
	accept: (mime: string) => mime is Mime
	/** The error when the bytes are of another type, or of no known type. */
	refusal: Refusal
	/** The original name when nothing is left of the client's after cleaning. */
	fallbackName: string
	/** A smaller limit than the request's `maxFileBytes` for files of this kind (a poster image beside a video). */
	maxBytes?: number
}

export interface ReceivedFile<Mime extends string = string> {
	tempPath: string
	originalName: string
	size: number
	sha256: string
	mime: Mime
}

/**
 * Refusals of any kind of file, whatever it accepts: a file of 0 bytes (a named file with nothing
 * in it, not an empty file input), and a PDF that carries scripts, programs or files of its own
 * (app/storage/pdf-active-content.server.ts).
 */
export type ContentRefusal = 'empty' | 'unsafe-pdf'

/** The request itself is refused: broken or cut off, or a file's part header unreadable (control characters in its name). */
export type RequestRefusal = 'bad-request' | 'bad-name'

export type UploadResult<Mime extends string = 'application/pdf', Refusal extends string = 'not-pdf'> =
	| { ok: true; fields: Record<string, string>; file: ReceivedFile<Mime> }
	/** No file part, or an empty file input. */
	| { ok: true; fields: Record<string, string>; file: null }
	| { ok: false; fields: Record<string, string>; error: 'too-large' | Refusal | ContentRefusal | RequestRefusal }

/** One named file of a multi-file form: kept, or refused for itself while the others may be fine. */
export type PartResult<Mime extends string = string, Refusal extends string = string> = { ok: true; file: ReceivedFile<Mime> } | { ok: false; error: 'too-large' | Refusal | ContentRefusal; originalName?: string }

type AnyKind = UploadKind<string, string>
type KindMime<K> = K extends UploadKind<infer Mime, string> ? Mime : never
type KindRefusal<K> = K extends UploadKind<string, infer Refusal> ? Refusal : never

/** Only the parts that carried a file. */
type PartsOf<Kinds extends Record<string, AnyKind>> = { [Name in keyof Kinds]?: PartResult<KindMime<Kinds[Name]>, KindRefusal<Kinds[Name]>> }

export type UploadsResult<Kinds extends Record<string, AnyKind>> =
	| { ok: true; fields: Record<string, string>; parts: PartsOf<Kinds> }
	/** The request itself is broken or cut off (or, with `stopWhenTooLarge`, the file `part` too large): nothing is kept. */
	| { ok: false; fields: Record<string, string>; error: RequestRefusal | 'too-large'; part?: string; originalName?: string }

interface SavedFile {
	size: number
	sha256: string
}

const pdf: UploadKind<'application/pdf', 'not-pdf'> = {
	accept: (mime): mime is 'application/pdf' => mime === 'application/pdf',
	refusal: 'not-pdf',
	fallbackName: 'file.pdf',
}

/** What a PDF-only file input accepts. */
export const pdfUpload = pdf

/** `receiveUpload` for one PDF. */
export function receivePdfUpload(request: Request, storage: FileStorage, limits: UploadLimits): Promise<UploadResult> {
	return receiveUpload(request, storage, limits, pdf)
}

/**
 * Streams a multipart request's one file to a temp file of `storage`, with its small text fields,
 * and keeps it only when its bytes are of a type `kind` accepts. The file part may have any name.
 * On success the caller adopts the temp file or removes it; on any failure nothing is left on disk.
 * Failures on our side (disk full, permissions) throw rather than blame the request.
 */
export async function receiveUpload<Mime extends string, Refusal extends string>(
	request: Request,
	storage: FileStorage,
	limits: UploadLimits,
	kind: UploadKind<Mime, Refusal>,
): Promise<UploadResult<Mime, Refusal>> {
	const result = await receiveParts(request, storage, limits, () => kind, 1)
	if (!result.ok) return result
	const [part] = result.parts.values()
	if (!part) return { ok: true, fields: result.fields, file: null }
	return part.ok ? { ok: true, fields: result.fields, file: part.file as ReceivedFile<Mime> } : { ok: false, fields: result.fields, error: part.error as 'too-large' | Refusal | ContentRefusal }
}

/**
 * `receiveUpload` for a form with several file inputs, each named in `kinds` with what it accepts;
 * parts of other names are ignored. Each file is kept or refused on its own (a good photo is not
 * lost because the PDF beside it is too large); the caller adopts or removes every kept temp file.
 */
export async function receiveUploads<Kinds extends Record<string, AnyKind>>(request: Request, storage: FileStorage, limits: UploadLimits, kinds: Kinds): Promise<UploadsResult<Kinds>> {
	const result = await receiveParts(request, storage, limits, (name) => (Object.hasOwn(kinds, name) ? kinds[name] : undefined), Object.keys(kinds).length)
	if (!result.ok) return result
	return { ok: true, fields: result.fields, parts: Object.fromEntries(result.parts) as PartsOf<Kinds> }
}

/**
 * Every file of one `<input type=file multiple>` named `name`, each kept or refused on its own, in
 * the order sent (the documents library's «several files at once»); other parts are ignored.
 */
export async function receiveMultipleUploads<Mime extends string, Refusal extends string>(
	request: Request,
	storage: FileStorage,
	limits: UploadLimits,
	name: string,
	kind: UploadKind<Mime, Refusal>,
	maxFiles: number,
): Promise<{ ok: true; fields: Record<string, string>; files: PartResult<Mime, Refusal>[] } | { ok: false; fields: Record<string, string>; error: RequestRefusal | 'too-large'; originalName?: string }> {
	const result = await receiveParts(request, storage, limits, (part) => (part === name ? kind : undefined), maxFiles, name)
	if (!result.ok) return result
	return { ok: true, fields: result.fields, files: [...result.parts.values()] as PartResult<Mime, Refusal>[] }
}

/** Room for a multipart body's boundaries, part headers and small text fields beside its files. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024

/**
 * Whether a request says, by its Content-Length, that it carries more than `maxFileBytes` in each of
 * `files` files (plus the multipart overhead): it can then be refused (413) before its body is read.
 * A request without a Content-Length (chunked) is judged by the byte count as it streams.
 */
export function declaredTooLarge(request: Request, maxFileBytes: number, files = 1): boolean {
	const declared = Number(request.headers.get('content-length'))
	return Number.isFinite(declared) && declared > maxFileBytes * files + MULTIPART_OVERHEAD_BYTES
}

interface Incoming {
	kind: AnyKind
	tempPath: string
	originalName: string
	saving: Promise<SavedFile>
	tooLarge: boolean
}

async function receiveParts(
	request: Request,
	storage: FileStorage,
	limits: UploadLimits,
	kindFor: (partName: string) => AnyKind | undefined,
	maxFiles: number,
	/** A part name whose files are all kept, told apart by their order (an input with `multiple`). */
	multiple?: string,
): Promise<{ ok: true; fields: Record<string, string>; parts: Map<string, PartResult> } | { ok: false; fields: Record<string, string>; error: RequestRefusal | 'too-large'; part?: string; originalName?: string }> {
	// No prototype, so a field named __proto__ is just a field.
	const fields: Record<string, string> = Object.create(null)
	const contentType = request.headers.get('content-type') ?? ''
	if (contentType.split(';')[0]?.trim().toLowerCase() !== 'multipart/form-data' || !request.body) {
		return { ok: false, fields, error: 'bad-request' }
	}
	let parser: busboy.Busboy
	try {
		parser = busboy({
			headers: { 'content-type': contentType },
			// Browsers send file names as raw UTF-8; busboy's default, latin1, would garble Arabic names.
			defParamCharset: 'utf8',
			limits: {
				files: maxFiles,
				// One byte more than allowed, so that "truncated" means "too large".
				fileSize: limits.maxFileBytes + 1,
				fields: limits.maxFields ?? 20,
				fieldSize: limits.maxFieldBytes ?? 10_000,
			},
		})
	} catch {
		// No boundary in the header.
		return { ok: false, fields, error: 'bad-request' }
	}

	const incoming = new Map<string, Incoming>()
	// A cut-off or dropped field would otherwise pass on silently as a shorter or missing value.
	let fieldsTruncated = false
	let writeError: unknown
	let requestTooLarge = false
	// With `stopWhenTooLarge`: the file input whose file passed its limit, and the file's name, so the reply can name them.
	let tooLargePart: string | undefined
	let tooLargeName: string | undefined

	parser.on('field', (name, value, info) => {
		if (info.valueTruncated) fieldsTruncated = true
		else if (!Object.hasOwn(fields, name)) fields[name] = value
	})
	parser.on('fieldsLimit', () => {
		fieldsTruncated = true
	})
	parser.on('file', (partName, stream, info) => {
		const kind = kindFor(partName)
		const name = partName === multiple ? `${partName}:${incoming.size}` : partName
		// An empty file input arrives as a part without a file name; a second file of one name is not ours to keep.
		if (!info.filename || !kind || incoming.has(name)) {
			// busboy breaks the part's stream when the body stops short (a client gone, a body past its
			// limit): an error nobody listened for would stop the server.
			stream.on('error', () => {})
			stream.resume()
			return
		}
		const tempPath = storage.tempPath()
		const overLimit = () => {
			part.tooLarge = true
			if (!limits.stopWhenTooLarge || requestTooLarge) return
			requestTooLarge = true
			tooLargePart = partName
			tooLargeName = part.originalName
			// No more of the body is read (bodyChunks asks requestTooLarge), and the parser is stopped
			// once busboy is done with this chunk, not now: it says 'limit' from inside its own parsing
			// and goes on to mark the file stream it holds, which destroying it here would take away
			// (a TypeError thrown out of the request's stream, uncaught: it would stop the server).
			queueMicrotask(() => parser.destroy(new Error('A file passed its limit.')))
		}
		const saving = saveFile(stream, tempPath, kind.maxBytes, overLimit)
		const part: Incoming = { kind, tempPath, originalName: cleanFileName(info.filename, kind.fallbackName), saving, tooLarge: false }
		stream.once('limit', overLimit)
		saving.catch((error: unknown) => {
			// busboy breaks the file stream only while failing itself, so any other failure is the disk's.
			if (parser.errored) return
			writeError = error
			// Nobody reads the file stream any more: busboy would wait for that forever.
			parser.destroy(error as Error)
		})
		incoming.set(name, part)
	})

	let broken = false
	let badName = false
	try {
		// The whole body is bounded too: bytes in parts nobody keeps (a field past its size, a part of
		// another name, a preamble) are read and dropped, and a chunked body of them could go on for ever.
		const bodyMaxBytes = limits.maxFileBytes * maxFiles + MULTIPART_OVERHEAD_BYTES
		const tooLong = () => {
			requestTooLarge = true
		}
		await pipeline(Readable.from(bodyChunks(request.body as NodeReadableStream<Uint8Array>, () => requestTooLarge, bodyMaxBytes, tooLong)), parser)
	} catch (error) {
		// The client went away, or the body is not well-formed multipart.
		broken = true
		// busboy's word for a part header it cannot read, in a body that did arrive whole (a client
		// that went away fails with its own error): a browser sends one only for a file name with
		// control characters in it (upload.test.ts pins this).
		badName = error instanceof Error && error.message === 'Malformed part header'
	}

	const kept = new Set<string>()
	try {
		// Every write settles before any temp file is judged or removed, so none can be recreated.
		const saved = await Promise.allSettled([...incoming.values()].map((part) => part.saving))
		if (writeError) throw writeError
		if (requestTooLarge) return { ok: false, fields, error: 'too-large', part: tooLargePart, originalName: tooLargeName }
		if (badName) return { ok: false, fields, error: 'bad-name' }
		if (broken || fieldsTruncated || saved.some((outcome) => outcome.status === 'rejected')) return { ok: false, fields, error: 'bad-request' }
		const parts = new Map<string, PartResult>()
		for (const [[name, part], outcome] of zip([...incoming], saved)) {
			if (outcome.status !== 'fulfilled') continue
			if (part.tooLarge) {
				parts.set(name, { ok: false, error: 'too-large', originalName: part.originalName })
				continue
			}
			if (outcome.value.size === 0) {
				parts.set(name, { ok: false, error: 'empty', originalName: part.originalName })
				continue
			}
			// The part's Content-Type and file name are the client's say-so; the bytes are not.
			const mime = (await fileTypeFromFile(part.tempPath))?.mime
			if (mime === undefined || !part.kind.accept(mime)) {
				parts.set(name, { ok: false, error: part.kind.refusal, originalName: part.originalName })
				continue
			}
			// A PDF is read whole (it is at most the upload limit) for scripts and files it carries.
			if (mime === 'application/pdf' && !inspectPdf(await fsp.readFile(part.tempPath)).ok) {
				parts.set(name, { ok: false, error: 'unsafe-pdf', originalName: part.originalName })
				continue
			}
			kept.add(part.tempPath)
			parts.set(name, { ok: true, file: { tempPath: part.tempPath, originalName: part.originalName, ...outcome.value, mime } })
		}
		return { ok: true, fields, parts }
	} finally {
		await Promise.all([...incoming.values()].filter((part) => !kept.has(part.tempPath)).map((part) => fsp.rm(part.tempPath, { force: true })))
	}
}

/**
 * The request body's chunks, read one at a time (the socket is paused while the disk catches up).
 * Stopping early releases the body rather than cancelling it: cancelling would destroy the socket
 * too, and then no answer (413) could reach the client.
 */
async function* bodyChunks(body: NodeReadableStream<Uint8Array>, stopped: () => boolean, maxBytes: number, tooLong: () => void): AsyncGenerator<Uint8Array> {
	const reader = body.getReader()
	let read = 0
	try {
		while (!stopped()) {
			const { done, value } = await reader.read()
			if (done) return
			read += value.byteLength
			if (read > maxBytes) return tooLong()
			yield value
		}
	} finally {
		reader.releaseLock()
	}
}

function zip<A, B>(left: readonly A[], right: readonly B[]): [A, B][] {
	return left.map((item, index) => [item, right[index]!])
}

/**
 * Streams a file part to disk, hashing and counting on the way. Past `maxBytes` (its kind's own
 * limit) the rest is read and dropped, not written, and `overLimit` is told once.
 */
async function saveFile(source: Readable, tempPath: string, maxBytes = Infinity, overLimit?: () => void): Promise<SavedFile> {
	const hash = createHash('sha256')
	let size = 0
	const out = fs.createWriteStream(tempPath, { flags: 'wx' })
	try {
		await pipeline(
			source,
			async function* (chunks: AsyncIterable<Buffer>) {
				for await (const chunk of chunks) {
					if (size > maxBytes) continue
					hash.update(chunk)
					size += chunk.length
					if (size > maxBytes) overLimit?.()
					else yield chunk
				}
			},
			out,
		)
	} catch (error) {
		// A stream destroyed while its file is still being opened creates the file afterwards: wait
		// for it to close, so the caller's clean-up finds (and removes) the file. On a busy machine the
		// open can come last (app/content/gallery/video-upload.test.ts saw a temp file left behind).
		if (!out.closed) await once(out, 'close').catch(() => {})
		throw error
	}
	return { size, sha256: hash.digest('hex') }
}

/**
 * Characters never kept in a file's name: control characters (C0, DEL and C1), the bidi marks,
 * embeddings, overrides and isolates that can disguise an extension ("fdp.exe" shown as "exe.pdf"),
 * line and paragraph separators, and the byte order mark. Arabic letters and the joiners Arabic
 * and Persian typing uses (ZWNJ, ZWJ) stay.
 */
const unsafeCharacters = /[\p{Cc}\p{Zl}\p{Zp}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/gu

/**
 * The name a file is shown and downloaded under: the client's name without its folders (a
 * Windows or POSIX path, "../" included), unsafe characters or surrounding spaces, at most 200
 * characters; `fallback` when nothing is left, or only dots. The name is only ever shown or sent in
 * Content-Disposition: storage keys are random (file-storage.server.ts), never made from it.
 */
export function cleanFileName(filename: string, fallback: string): string {
	const base = filename.replace(unsafeCharacters, '').split(/[/\\]/).pop() ?? ''
	const name = Array.from(base.trim()).slice(0, 200).join('').trim()
	return /^\.*$/.test(name) ? fallback : name
}
