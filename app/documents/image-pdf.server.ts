/**
 * A one-page PDF showing one JPEG, scaled to fit an A4 page with a margin: how seed code makes the
 * demo certificates' PDFs. The JPEG goes in as is (PDF's DCTDecode filter reads JPEG bytes).
 */
export function jpegToPdf(jpeg: Uint8Array, size: { width: number; height: number }): Buffer {
	const page = { width: 595.28, height: 841.89 }
	const margin = 36
	const scale = Math.min((page.width - 2 * margin) / size.width, (page.height - 2 * margin) / size.height)
	const width = size.width * scale
	const height = size.height * scale
	const x = (page.width - width) / 2
	const y = (page.height - height) / 2
	const drawing = `q ${width.toFixed(2)} 0 0 ${height.toFixed(2)} ${x.toFixed(2)} ${y.toFixed(2)} cm /Im1 Do Q\n`
	const parts: Buffer[] = []
	const offsets: number[] = []
	let length = 0
	const push = (chunk: string | Uint8Array) => {
		const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : Buffer.from(chunk)
		parts.push(buffer)
		length += buffer.length
	}
	const object = (body: string | (string | Uint8Array)[]) => {
		offsets.push(length)
		push(`${offsets.length} 0 obj\n`)
		for (const chunk of typeof body === 'string' ? [body] : body) push(chunk)
		push('\nendobj\n')
	}
	// The binary comment tells readers the file holds 8-bit data.
	push('%PDF-1.4\n%\xE2\xE3\xCF\xD3\n')
	object('<< /Type /Catalog /Pages 2 0 R >>')
	object('<< /Type /Pages /Kids [3 0 R] /Count 1 >>')
	object(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${page.width} ${page.height}] /Resources << /XObject << /Im1 4 0 R >> >> /Contents 5 0 R >>`)
	object([`<< /Type /XObject /Subtype /Image /Width ${size.width} /Height ${size.height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length ${jpeg.length} >>\nstream\n`, jpeg, '\nendstream'])
	object(`<< /Length ${drawing.length} >>\nstream\n${drawing}endstream`)
	const xref = length
	push(`xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n`)
	push(offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join(''))
	push(`trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`)
	return Buffer.concat(parts)
}
