import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileTypeFromBuffer } from 'file-type'
import { PDFDocument } from 'pdf-lib'
import sharp from 'sharp'
import { expect, test } from 'vitest'
import { makeDocument, pdfPages } from './page-pdf.server.ts'

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

test('a PDF is counted, or refused when locked or unreadable', async () => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-page-pdf-'))
	try {
		const file = (name: string, bytes: Uint8Array) => {
			fs.writeFileSync(path.join(dir, name), bytes)
			return path.join(dir, name)
		}
		const three = await PDFDocument.create()
		for (let page = 0; page < 3; page++) three.addPage()
		expect(await pdfPages(file('three.pdf', await three.save()))).toBe(3)
		expect(await pdfPages(file('broken.pdf', Buffer.from('%PDF-1.7\nnot a pdf at all\n%%EOF')))).toBe('pdf-unreadable')
		// An encryption dictionary in the trailer: a PDF locked by a password.
		const locked = Buffer.from(Buffer.from(await three.save({ useObjectStreams: false })).toString('latin1').replace('trailer\n<<\n', 'trailer\n<<\n/Encrypt << /Filter /Standard /V 1 /R 2 /O (x) /U (x) /P -4 >>'), 'latin1')
		expect(await pdfPages(file('locked.pdf', locked))).toBe('pdf-locked')
	} finally {
		fs.rmSync(dir, { recursive: true, force: true })
	}
})
