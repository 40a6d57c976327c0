import { fileTypeFromBuffer } from 'file-type'
import { degrees, PDFDocument, PDFStream } from 'pdf-lib'
import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { inspectPdf } from '#app/storage/pdf-active-content.server.ts'
import { encodedVariants } from '#tests/fixtures/pdf-encoded-variants.ts'
import { buildPdf, streamObject } from '#tests/fixtures/attack-files.ts'
import { makeDocument, remakePdf } from './page-pdf.server.ts'

const jpeg = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#0f6251' } }).jpeg().toBuffer()

test('pages become one PDF in their order: each photo on an A4 page turned its way, each page of a PDF on one of its own', async () => {
	const given = await PDFDocument.create()
	given.addPage([300, 400]).drawText('page')
	given.addPage([300, 400])
	const { pdf, pages } = await makeDocument('سجل الأسرة', [
		{ kind: 'photo', bytes: await jpeg(120, 80) },
		{ kind: 'pdf', bytes: await given.save() },
		{ kind: 'photo', bytes: await jpeg(80, 120) },
	])
	expect((await fileTypeFromBuffer(pdf))?.mime).toBe('application/pdf')
	expect(pages).toBe(4)
	const read = await PDFDocument.load(pdf, { updateMetadata: false })
	expect(read.getTitle()).toBe('سجل الأسرة')
	expect(read.getPages().map((page) => page.getSize()).map(({ width, height }) => [Math.round(width), Math.round(height)])).toEqual([
		[842, 595],
		[595, 842],
		[595, 842],
		[595, 842],
	])
})

test('a PDF given is made again: its pages of their own size and turn, refused when locked, unreadable or too long', async () => {
	const three = await PDFDocument.create()
	for (let page = 0; page < 3; page++) three.addPage([300, 400]).drawText(`page ${page}`)
	three.getPage(1).setRotation(degrees(90))
	three.getPage(2).setCropBox(10, 20, 200, 100)
	const remade = await remakePdf(await three.save(), 'ثلاث')
	if (typeof remade === 'string') throw new Error(remade)
	expect(remade.pages).toBe(3)
	const read = await PDFDocument.load(remade.pdf)
	expect(read.getPages().map((page) => [Math.round(page.getWidth()), Math.round(page.getHeight()), page.getRotation().angle])).toEqual([
		[300, 400, 0],
		[400, 300, 0],
		[200, 100, 0],
	])
	expect(await remakePdf(await three.save(), 'ثلاث', 2)).toBe('too-many-pages')
	expect(await remakePdf(Buffer.from('%PDF-1.7\nnot a pdf at all\n%%EOF'), 'x')).toBe('pdf-unreadable')
	// An encryption dictionary in the trailer: a PDF locked by a password.
	const locked = Buffer.from(Buffer.from(await three.save({ useObjectStreams: false })).toString('latin1').replace('trailer\n<<\n', 'trailer\n<<\n/Encrypt << /Filter /Standard /V 1 /R 2 /O (x) /U (x) /P -4 >>'), 'latin1')
	expect(await remakePdf(locked, 'x')).toBe('pdf-locked')
})

test('a script in what draws a page (a form in its resources) does not come along: the PDF is refused as unreadable', async () => {
	const drawing = 'q /X1 Do Q'
	const bytes = buildPdf([
		'<< /Type /Catalog /Pages 2 0 R >>',
		'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
		'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 400] /Resources << /XObject << /X1 4 0 R >> >> /Contents 5 0 R >>',
		streamObject('/Type /XObject /Subtype /Form /BBox [0 0 10 10] /Hidden << /S /JavaScript /JS (app.alert\\(1\\)) >>', '0 0 10 10 re f'),
		streamObject('', drawing),
	])
	expect(await remakePdf(bytes, 'x')).toBe('pdf-unreadable')
})

/** Every dictionary of `pdf`'s objects (a stream's too), as pdf-lib writes it out. */
async function everyDictionary(pdf: Uint8Array): Promise<string> {
	const read = await PDFDocument.load(pdf)
	return read.context
		.enumerateIndirectObjects()
		.map(([, object]) => (object instanceof PDFStream ? object.dict.toString() : object.toString()))
		.join('\n')
}

describe('nothing that acts survives being made again, however it was encoded', () => {
	test.each(encodedVariants().map((variant) => [variant.id, variant] as const))('%s', async (_, variant) => {
		for (const made of [await remakePdf(variant.bytes, 'x'), await makeDocument('x', [{ kind: 'pdf', bytes: variant.bytes }])]) {
			if (typeof made === 'string') throw new Error(made)
			expect(made.pages).toBe(1)
			expect(inspectPdf(made.pdf)).toEqual({ ok: true })
			const read = await PDFDocument.load(made.pdf)
			expect(read.catalog.keys().map((key) => key.decodeText()).sort()).toEqual(['Pages', 'Type'])
			const dictionaries = await everyDictionary(made.pdf)
			for (const name of ['/JavaScript', '/JS', '/OpenAction', '/AA', '/Annots', '/AcroForm', '/URI', '/GoToR', '/Launch', '/Outlines', '/Names']) expect(dictionaries).not.toContain(name)
			// The page's drawing came along: a form holding the blue rectangle.
			expect(dictionaries).toContain('/Subtype /Form')
		}
	})
})
