import { deflateSync } from 'node:zlib'
import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { inspectPdf } from './pdf-active-content.server.ts'
import {
	buildPdf,
	pdfHtmlPolyglot,
	pdfWith,
	pdfWithEmbeddedExecutable,
	pdfWithEscapedJavaScript,
	pdfWithJavaScript,
	pdfWithJavaScriptInObjectStream,
	pdfWithLaunch,
	streamObject,
} from '#tests/fixtures/attack-files.ts'
import { minimalPdf, pdfOfSize } from '#tests/fixtures/pdf.ts'
import { encodedVariants } from '#tests/fixtures/pdf-encoded-variants.ts'

const latin1 = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('latin1')

/** An object stream holding `objects` (numbered from 4), with the dictionary entries given. */
function objectStream(objects: readonly string[], entries = '/Filter /FlateDecode', pack = (content: string) => latin1(deflateSync(Buffer.from(content, 'latin1')))) {
	let header = ''
	let body = ''
	objects.forEach((object, index) => {
		header += `${4 + index} ${body.length} `
		body += `${object}\n`
	})
	return streamObject(`/Type /ObjStm /N ${objects.length} /First ${header.length} ${entries}`, pack(header + body))
}

describe('inspectPdf refuses a PDF that acts when opened', () => {
	test.each([
		['JavaScript run on opening', pdfWithJavaScript(), 'javascript'],
		['the same with #xx escapes in its names', pdfWithEscapedJavaScript(), 'javascript'],
		['the same packed into a compressed object stream', pdfWithJavaScriptInObjectStream(), 'javascript'],
		['a Launch action', pdfWithLaunch(), 'launch'],
		['an embedded executable', pdfWithEmbeddedExecutable(), 'embeddedfiles'],
		['an XFA form', pdfWith('/AcroForm << /Fields [] /XFA 4 0 R >>', [streamObject('', '<xdp:xdp><script>app.alert(1)</script></xdp:xdp>')]), 'xfa'],
		['a Rendition action (it may carry a /JS)', pdfWith('/OpenAction << /S /Rendition /OP 0 /JS (app.alert\\(1\\)) >>'), 'rendition'],
		['a form that submits itself elsewhere', pdfWith('/OpenAction << /S /SubmitForm /F << /FS /URL /F (https://evil.example/) >> >>'), 'submitform'],
		['lower-case names (no reader needs them, none is let through)', pdfWith('/OpenAction << /S /javascript /JS (1) >>'), 'javascript'],
	])('%s', (_, bytes, name) => {
		expect(inspectPdf(bytes)).toEqual({ ok: false, reason: 'active', name })
	})
})

describe('inspectPdf refuses object streams it cannot read', () => {
	const withStream = (stream: string, trailerEntries = '') => buildPdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] ${trailerEntries} >>`, 'null', stream], '1.5')

	test.each([
		['packed with LZW', withStream(objectStream(['<< /Type /Outlines >>'], '/Filter /LZWDecode', (content) => content))],
		['with a PNG predictor', withStream(objectStream(['<< /Type /Outlines >>'], '/Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 4 >>'))],
		['said to be Flate but not zlib at all', withStream(objectStream(['<< >>'], '/Filter /FlateDecode', (content) => content))],
		// 70 MB of spaces packed into some 70 KB: unpacked past the 64 MB budget.
		['that unpacks to more than 64 MB', withStream(objectStream(['<< >>'], '/Filter /FlateDecode', () => latin1(deflateSync(Buffer.alloc(70 * 1024 * 1024, 0x20)))))],
	])('%s', (_, bytes) => {
		expect(inspectPdf(bytes)).toEqual({ ok: false, reason: 'unreadable' })
	})

	test('an object stream named inside the bytes of another stream (so no stream follows it) is unreadable', () => {
		// A fake "(stream" in a string makes the scan take what follows for stream data up to the next endstream.
		const hidden = latin1(deflateSync(Buffer.from('4 0 << /S /JavaScript /JS (1) >>', 'latin1')))
		const bytes = buildPdf(['<< /Type /Catalog /Pages 2 0 R /Title (x\nstream\n) >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', `<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${hidden.length} >> stream\n${hidden}\nendstream`])
		expect(inspectPdf(bytes)).toEqual({ ok: false, reason: 'unreadable' })
	})
})

describe('inspectPdf keeps ordinary PDFs', () => {
	test('an encrypted one, as banks send statements, is judged on its readable names', () => {
		const encrypted = (extra: string) =>
			buildPdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Encrypt 9 0 R ${extra} >>`, 'null', objectStream(['<< >>'])], '1.5')
		expect(inspectPdf(encrypted(''))).toEqual({ ok: true })
		expect(inspectPdf(encrypted('/AA << /O << /S /Launch /F (cmd.exe) >> >>'))).toEqual({ ok: false, reason: 'active', name: 'launch' })
	})

	test('a one-page PDF, and one of 10 MB', () => {
		expect(inspectPdf(minimalPdf())).toEqual({ ok: true })
		expect(inspectPdf(pdfOfSize(10_000_000))).toEqual({ ok: true })
	})

	test('an opening view, links and outlines: actions that only move or open a web page', () => {
		expect(inspectPdf(pdfWith('/OpenAction [3 0 R /Fit] /PageMode /UseOutlines /Outlines << /Count 0 >>', ['<< /Type /Annot /Subtype /Link /Rect [0 0 10 10] /A << /S /URI /URI (https://ataa.example/) >> >>']))).toEqual({ ok: true })
	})

	test('object streams it can read, with nothing active in them', () => {
		const bytes = buildPdf(['<< /Type /Catalog /Pages 2 0 R /Outlines 4 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>', 'null', objectStream(['<< /Type /Outlines /Count 0 >>', '<< /Title (JavaScript) >>'])], '1.5')
		expect(inspectPdf(bytes)).toEqual({ ok: true })
	})

	test('a scanned page whose compressed image happens to hold "/JS": only names of actions count', async () => {
		const scan = latin1(await sharp({ create: { width: 300, height: 300, channels: 3, background: '#777' } }).jpeg().toBuffer())
		const bytes = pdfWith('', [streamObject('/Type /XObject /Subtype /Image /Width 300 /Height 300 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode', `${scan}/JS (x) /JS\n`)])
		expect(inspectPdf(bytes)).toEqual({ ok: true })
	})

	test('a PDF that is also an HTML page (a polyglot) is refused: made to be opened as the page', () => {
		expect(latin1(pdfHtmlPolyglot())).toContain('<script>')
		expect(inspectPdf(pdfHtmlPolyglot())).toEqual({ ok: false, reason: 'active', name: 'html' })
	})

	test('a word such as <html> deep inside a PDF, past where a browser sniffs, is page text: kept', () => {
		const bytes = pdfWith('', [streamObject('', `${'q Q\n'.repeat(400)}BT (<html> and <script> as words) Tj ET`)])
		expect(inspectPdf(bytes)).toEqual({ ok: true })
	})
})

describe('inspectPdf reads an object stream through every encoding a reader does', () => {
	test.each(encodedVariants().map((variant) => [variant.id, variant] as const))('%s', (_, variant) => {
		expect(inspectPdf(variant.bytes)).toEqual(variant.refused ? { ok: false, reason: 'active', name: 'javascript' } : { ok: true })
	})

	test('an object stream packed inside an object stream is unpacked too', () => {
		const inner = latin1(deflateSync(Buffer.from(`4 0 ${'<< /S /JavaScript /JS (1) >>'}`, 'latin1')))
		const nested = streamObject(`/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode`, inner)
		const bytes = buildPdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>', 'null', objectStream([`<< /Wrapped true >>\n5 0 obj\n${nested}`])], '1.5')
		expect(inspectPdf(bytes)).toEqual({ ok: false, reason: 'active', name: 'javascript' })
	})

	test('a stream naming two different chains is unreadable: no reader is sure which it takes', () => {
		const bytes = buildPdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>', 'null', objectStream(['<< >>'], '/Filter /FlateDecode /Filter [/FlateDecode /FlateDecode]')], '1.5')
		expect(inspectPdf(bytes)).toEqual({ ok: false, reason: 'unreadable' })
	})
})
