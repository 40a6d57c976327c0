import zlib from 'node:zlib'

// What a PDF may not carry to be kept: anything that acts when it is opened rather than shows
// pages. Chromium's viewer runs a PDF's JavaScript (its <embed> says javascript="allow"), and the
// staff who read applicants' files, or the visitors who download the foundation's reports, may
// open them in a desktop reader that runs far more (Launch opens programs, an embedded file can be
// an executable). Stripping such parts would mean rewriting the file, and a rewritten certificate
// or bank statement is no longer the one that was sent; so the file is refused, with a message
// that says how to make a clean copy (print it to a new PDF). An ordinary scan, a Word export or a
// bank's statement carries none of these.
//
// The check reads names (/Name tokens) only, never strings or page text, and decodes #xx escapes
// (/J#61vaScript is /JavaScript to every reader). The two letters /JS alone are not looked for:
// they act only inside an action whose type is named /JavaScript or /Rendition, which are looked
// for, and two letters turn up by chance in the compressed bytes of a scanned page often enough to
// refuse good scans. Objects packed into a compressed object stream (PDF 1.5) are unpacked and read
// the same way; every object stream must be one we could unpack, or the file is refused too, since
// its contents could not be judged.

/**
 * HTML where a browser sniffing the file's type would look for it: a PDF that is also a web page (a
 * polyglot) is made to be opened as the page. No scan or export carries it.
 */
const htmlNearStart = /<(?:!doctype\s+html|html|head|body|script|iframe|svg)[\s>/]/i
const SNIFFED_BYTES = 1024

/** Names of parts that act: scripts, programs to launch, files carried inside, forms that send or fetch data. */
const activeNames = new Set(['javascript', 'rendition', 'launch', 'embeddedfile', 'embeddedfiles', 'richmedia', 'xfa', 'gotoe', 'submitform', 'importdata'])

/** Filters that say an object stream is packed some way this check does not unpack. */
const unreadableFilters = new Set(['asciihexdecode', 'ahx', 'ascii85decode', 'a85', 'lzwdecode', 'lzw', 'runlengthdecode', 'rl', 'crypt', 'predictor'])

/** The most bytes all of a file's object streams may unpack to: more is refused as unreadable (a zip bomb). */
const MAX_UNPACKED_BYTES = 64 * 1024 * 1024

export type PdfVerdict = { ok: true } | { ok: false; reason: 'active'; name: string } | { ok: false; reason: 'unreadable' }

// A PDF name: a slash and the characters up to the next white space or delimiter.
const namePattern = /\/([^\0\t\n\f\r ()<>[\]{}/%]*)/g

function decodeName(raw: string): string {
	return raw.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))).toLowerCase()
}

function* namesIn(text: string): Generator<{ name: string; at: number }> {
	for (const match of text.matchAll(namePattern)) yield { name: decodeName(match[1]!), at: match.index }
}

/** The first active name in `text`, if any. */
function activeName(text: string): string | undefined {
	for (const { name } of namesIn(text)) if (activeNames.has(name)) return name
	return undefined
}

// The keyword that starts a stream's bytes: "stream" and its end of line, not the end of "endstream".
const streamKeyword = /(?<![A-Za-z])stream(?:\r\n|\n|\r)/g

/**
 * Whether a PDF's bytes are safe to keep: no active part, in the file's own objects or in its
 * object streams. `bytes` are the whole file (at most the upload limit, some megabytes).
 */
export function inspectPdf(bytes: Uint8Array): PdfVerdict {
	// One character per byte: offsets in the text are offsets in the file.
	const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')
	const names = [...namesIn(text)]
	const found = names.find(({ name }) => activeNames.has(name))
	if (found) return { ok: false, reason: 'active', name: found.name }
	if (htmlNearStart.test(text.slice(0, SNIFFED_BYTES))) return { ok: false, reason: 'active', name: 'html' }

	const objectStreams = names.filter(({ name }) => name === 'objstm').map(({ at }) => at)
	if (objectStreams.length === 0) return { ok: true }
	// An encrypted file's object streams are encrypted too: they cannot be read without its key. Banks
	// send statements locked against editing, and a family cannot be asked to remake one: such a file
	// is kept on what its readable names show (an action's dictionary outside an object stream is
	// never encrypted). It is only ever served as a download or in Chromium's sandboxed viewer, under
	// a sandbox policy (app/storage/download.server.ts); docs/security.md#uploads says so.
	if (names.some(({ name }) => name === 'encrypt')) return { ok: true }

	const unpacked = new Set<number>()
	let budget = MAX_UNPACKED_BYTES
	let segmentStart = 0
	streamKeyword.lastIndex = 0
	for (let match = streamKeyword.exec(text); match; match = streamKeyword.exec(text)) {
		const dataStart = match.index + match[0].length
		const endstream = text.indexOf('endstream', dataStart)
		const dataEnd = endstream === -1 ? text.length : endstream
		// The names between the end of the stream before and this one include this stream's dictionary.
		const owned = objectStreams.filter((at) => at >= segmentStart && at < match!.index)
		if (owned.length) {
			const dictionary = [...namesIn(text.slice(segmentStart, match.index))].map(({ name }) => name)
			if (dictionary.some((name) => unreadableFilters.has(name))) return { ok: false, reason: 'unreadable' }
			const flate = dictionary.includes('flatedecode') || dictionary.includes('fl')
			let content: string
			try {
				const data = Buffer.from(bytes.buffer, bytes.byteOffset + dataStart, dataEnd - dataStart)
				// Sync flush: a stream whose last bytes are missing or followed by an end of line still gives what it holds.
				content = flate ? zlib.inflateSync(data, { maxOutputLength: budget, finishFlush: zlib.constants.Z_SYNC_FLUSH }).toString('latin1') : data.toString('latin1')
			} catch {
				// Not a zlib stream, or larger than what is left of the budget.
				return { ok: false, reason: 'unreadable' }
			}
			budget -= content.length
			const inside = activeName(content)
			if (inside) return { ok: false, reason: 'active', name: inside }
			for (const at of owned) unpacked.add(at)
		}
		segmentStart = endstream === -1 ? text.length : endstream + 'endstream'.length
		streamKeyword.lastIndex = segmentStart
	}
	// An object stream named where no stream follows it (inside the bytes of another stream, say) could not be judged.
	return objectStreams.every((at) => unpacked.has(at)) ? { ok: true } : { ok: false, reason: 'unreadable' }
}
