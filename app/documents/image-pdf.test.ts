import { fileTypeFromBuffer } from 'file-type'
import sharp from 'sharp'
import { expect, test } from 'vitest'
import { jpegToPdf } from './image-pdf.server.ts'

test('makes a well-formed one-page PDF around a JPEG: every xref offset points at its object', async () => {
	const jpeg = await sharp({ create: { width: 120, height: 80, channels: 3, background: '#0f6251' } }).jpeg().toBuffer()
	const pdf = jpegToPdf(jpeg, { width: 120, height: 80 })
	expect((await fileTypeFromBuffer(pdf))?.mime).toBe('application/pdf')

	const text = pdf.toString('latin1')
	const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)?.[1])
	expect(text.slice(startxref, startxref + 4)).toBe('xref')
	const offsets = [...text.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((match) => Number(match[1]))
	expect(offsets).toHaveLength(5)
	offsets.forEach((offset, index) => expect(text.slice(offset, offset + 8)).toBe(`${index + 1} 0 obj\n`))
	// The JPEG is inside, byte for byte, with its exact length declared.
	expect(pdf.includes(jpeg)).toBe(true)
	expect(text).toContain(`/Width 120 /Height 80`)
	expect(text).toContain(`/Length ${jpeg.length} >>`)
})
