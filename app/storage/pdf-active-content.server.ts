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
// refuse good scans. Objects packed into a compressed object stream (PDF 1.5) are unpacked through
// every filter of their chain (/Filter [/FlateDecode /FlateDecode] is inflated twice) and read the
// same way, and so is an object stream found inside one; every object stream must be one we could
// unpack, or the file is refused too, since its contents could not be judged. An /Encrypt name
// changes nothing: a file really encrypted has object streams that cannot be unpacked, and is refused.
//
// This check is the first refusal only: what is kept of an applicant's PDF is never the file as
// sent but its pages drawn again (app/pdf/page-pdf.server.ts), whatever this check missed.

/**
 * HTML where a browser sniffing the file's type would look for it: a PDF that is also a web page (a
 * polyglot) is made to be opened as the page. No scan or export carries it.
 */
const htmlNearStart = /<(?:!doctype\s+html|html|head|body|script|iframe|svg)[\s>/]/i
const SNIFFED_BYTES = 1024

/** Names of parts that act: scripts, programs to launch, files carried inside, forms that send or fetch data. */
const activeNames = new Set(['javascript', 'rendition', 'launch', 'embeddedfile', 'embeddedfiles', 'richmedia', 'xfa', 'gotoe', 'submitform', 'importdata'])

/** Whether a PDF name (decoded, without its slash) names a part that acts, in any case of letters. */
export const isActiveName = (name: string) => activeNames.has(name.toLowerCase())

/** Filters this check unpacks, by their names and abbreviations. */
const decoders: Record<string, (data: Buffer, budget: number) => Buffer> = {
	flatedecode: inflate,
	fl: inflate,
	asciihexdecode: asciiHex,
	ahx: asciiHex,
	ascii85decode: ascii85,
	a85: ascii85,
	runlengthdecode: runLength,
	rl: runLength,
}

/** Names in a stream's dictionary that say it is packed some way this check does not unpack (LZW is not used for object streams). */
const unreadableNames = new Set(['predictor', 'crypt', 'lzwdecode', 'lzw'])

/** The most bytes all of a file's object streams may unpack to: more is refused as unreadable (a zip bomb). */
const MAX_UNPACKED_BYTES = 64 * 1024 * 1024

/** How deep object streams found inside object streams are followed. */
const MAX_DEPTH = 4

export type PdfVerdict = { ok: true } | { ok: false; reason: 'active'; name: string } | { ok: false; reason: 'unreadable' }

// A PDF name: a slash and the characters up to the next white space or delimiter.
const namePattern = /\/([^\0\t\n\f\r ()<>[\]{}/%]*)/g

function decodeName(raw: string): string {
	return raw.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))).toLowerCase()
}

function* namesIn(text: string): Generator<{ name: string; at: number; end: number }> {
	for (const match of text.matchAll(namePattern)) yield { name: decodeName(match[1]!), at: match.index, end: match.index + match[0].length }
}

class Unreadable extends Error {}

/** Sync flush: a stream whose last bytes are missing or followed by an end of line still gives what it holds. */
function inflate(data: Buffer, budget: number): Buffer {
	return zlib.inflateSync(data, { maxOutputLength: Math.max(budget, 1), finishFlush: zlib.constants.Z_SYNC_FLUSH })
}

const isSpace = (byte: number) => byte === 0x00 || byte === 0x09 || byte === 0x0a || byte === 0x0c || byte === 0x0d || byte === 0x20

function asciiHex(data: Buffer): Buffer {
	const digits: number[] = []
	for (const byte of data) {
		if (byte === 0x3e) break
		if (isSpace(byte)) continue
		const digit = parseInt(String.fromCharCode(byte), 16)
		if (Number.isNaN(digit)) throw new Unreadable()
		digits.push(digit)
	}
	if (digits.length % 2) digits.push(0)
	const out = Buffer.alloc(digits.length / 2)
	for (let index = 0; index < out.length; index++) out[index] = digits[2 * index]! * 16 + digits[2 * index + 1]!
	return out
}

function ascii85(data: Buffer): Buffer {
	const out: number[] = []
	let group: number[] = []
	let start = 0
	if (data[0] === 0x3c && data[1] === 0x7e) start = 2
	const flush = (count: number) => {
		let value = 0
		for (let index = 0; index < 5; index++) value = value * 85 + (group[index] ?? 84)
		for (let index = 0; index < count - 1; index++) out.push((value >>> (24 - 8 * index)) & 0xff)
	}
	for (let index = start; index < data.length; index++) {
		const byte = data[index]!
		if (byte === 0x7e) break
		if (isSpace(byte)) continue
		if (byte === 0x7a && group.length === 0) {
			out.push(0, 0, 0, 0)
			continue
		}
		if (byte < 0x21 || byte > 0x75) throw new Unreadable()
		group.push(byte - 0x21)
		if (group.length === 5) {
			flush(5)
			group = []
		}
	}
	if (group.length === 1) throw new Unreadable()
	if (group.length) flush(group.length)
	return Buffer.from(out)
}

function runLength(data: Buffer): Buffer {
	const out: Buffer[] = []
	for (let index = 0; index < data.length; ) {
		const length = data[index]!
		if (length === 128) break
		if (length < 128) {
			out.push(data.subarray(index + 1, index + 2 + length))
			index += length + 2
		} else {
			out.push(Buffer.alloc(257 - length, data[index + 1] ?? 0))
			index += 2
		}
	}
	return Buffer.concat(out)
}

// The keyword that starts a stream's bytes: "stream" and its end of line, not the end of "endstream".
const streamKeyword = /(?<![A-Za-z])stream(?:\r\n|\n|\r)/g
// Where an object starts ("12 0 obj"): a stream's dictionary is what follows the last one before it.
const objectStart = /\d+\s+\d+\s+obj(?![A-Za-z])/g

/**
 * The filters of a stream's dictionary, in the order they apply; undefined when it names two
 * different chains (no reader is sure which it takes) or a filter whose value is not a name or an array of names.
 */
function filterChain(dictionary: string): string[] | undefined {
	const chains = new Set<string>()
	const names = [...namesIn(dictionary)]
	for (const [index, { name, end }] of names.entries()) {
		if (name !== 'filter') continue
		const rest = dictionary.slice(end).trimStart()
		if (rest.startsWith('[')) {
			const close = rest.indexOf(']')
			if (close === -1) return undefined
			const inside = rest.slice(1, close)
			if (inside.replace(namePattern, '').trim()) return undefined
			chains.add([...namesIn(inside)].map((filter) => filter.name).join(' '))
		} else if (rest.startsWith('/')) chains.add(names[index + 1]!.name)
		else return undefined
	}
	if (chains.size > 1) return undefined
	const [chain] = chains
	return chain ? chain.split(' ') : []
}

/** The verdict on `text` (a file, or an object stream unpacked from one), `budget.left` bytes left to unpack. */
function inspectText(text: string, bytes: Buffer, depth: number, budget: { left: number }): PdfVerdict {
	const names = [...namesIn(text)]
	const found = names.find(({ name }) => activeNames.has(name))
	if (found) return { ok: false, reason: 'active', name: found.name }
	const objectStreams = names.filter(({ name }) => name === 'objstm').map(({ at }) => at)
	if (objectStreams.length === 0) return { ok: true }
	if (depth >= MAX_DEPTH) return { ok: false, reason: 'unreadable' }

	const unpacked = new Set<number>()
	let segmentStart = 0
	streamKeyword.lastIndex = 0
	for (let match = streamKeyword.exec(text); match; match = streamKeyword.exec(text)) {
		const dataStart = match.index + match[0].length
		const endstream = text.indexOf('endstream', dataStart)
		const dataEnd = endstream === -1 ? text.length : endstream
		const owned = objectStreams.filter((at) => at >= segmentStart && at < match!.index)
		if (owned.length) {
			const segment = text.slice(segmentStart, match.index)
			const starts = [...segment.matchAll(objectStart)]
			const dictionary = segment.slice(starts.at(-1)?.index ?? 0)
			const chain = filterChain(dictionary)
			if (!chain || [...namesIn(dictionary)].some(({ name }) => unreadableNames.has(name))) return { ok: false, reason: 'unreadable' }
			let data = bytes.subarray(dataStart, dataEnd)
			try {
				for (const filter of chain) {
					const decode = decoders[filter]
					if (!decode) return { ok: false, reason: 'unreadable' }
					data = decode(data, budget.left)
					budget.left -= data.length
					if (budget.left < 0) return { ok: false, reason: 'unreadable' }
				}
			} catch {
				// Not what its filter says (not zlib, say), or larger than what is left of the budget.
				return { ok: false, reason: 'unreadable' }
			}
			const inside = inspectText(data.toString('latin1'), data, depth + 1, budget)
			if (!inside.ok) return inside
			for (const at of owned) unpacked.add(at)
		}
		segmentStart = endstream === -1 ? text.length : endstream + 'endstream'.length
		streamKeyword.lastIndex = segmentStart
	}
	// An object stream named where no stream follows it (inside the bytes of another stream, say) could not be judged.
	return objectStreams.every((at) => unpacked.has(at)) ? { ok: true } : { ok: false, reason: 'unreadable' }
}

/**
 * Whether a PDF's bytes pass: no active part, in the file's own objects or in its object streams,
 * and no HTML where a browser sniffs. `bytes` are the whole file (at most the upload limit, some megabytes).
 */
export function inspectPdf(bytes: Uint8Array): PdfVerdict {
	const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
	// One character per byte: offsets in the text are offsets in the file.
	const text = buffer.toString('latin1')
	const verdict = inspectText(text, buffer, 0, { left: MAX_UNPACKED_BYTES })
	if (verdict.ok && htmlNearStart.test(text.slice(0, SNIFFED_BYTES))) return { ok: false, reason: 'active', name: 'html' }
	return verdict
}
