// The PDF of a document made of pages (app/cases/document-pages.server.ts), with pdf-lib: no PDF
// syntax is written by hand.
import fsp from 'node:fs/promises'
import type { PDFEmbeddedPage, PDFImage } from 'pdf-lib'
import { loadPdfLib } from '#app/utils/lazy-modules.server.ts'

/** A PDF's number of pages; refused when it is locked by a password or cannot be read. */
export async function pdfPages(path: string): Promise<number | 'pdf-locked' | 'pdf-unreadable'> {
	const bytes = await fsp.readFile(path)
	const { PDFDocument } = await loadPdfLib()
	try {
		const pdf = await PDFDocument.load(bytes, { updateMetadata: false })
		return pdf.getPageCount()
	} catch (error) {
		// pdf-lib's EncryptedPDFError is a plain Error once compiled: its message says it.
		return error instanceof Error && /is encrypted/.test(error.message) ? 'pdf-locked' : 'pdf-unreadable'
	}
}

/** pdf-lib's PageSizes.A4, in points. */
const A4: [number, number] = [595.28, 841.89]
const MARGIN = 24

/**
 * One PDF of `pages`, in order: each photo on an A4 page turned the photo's way, fitted inside a
 * margin; each page of a PDF drawn on an A4 page (as a picture of the page: its links, forms and
 * scripts do not come along). Nothing in its metadata but a title.
 */
export async function makeDocument(title: string, pages: readonly { kind: 'photo' | 'pdf'; bytes: Uint8Array }[]): Promise<{ pdf: Buffer; pages: number }> {
	const { PDFDocument } = await loadPdfLib()
	const document = await PDFDocument.create({ updateMetadata: false })
	// Who made it, and nothing else: no author, no dates, nothing of the phone the photos came from.
	document.setTitle(title)
	document.setProducer('Ataa')
	document.setCreator('Ataa')
	// A new A4 page turned the item's way, and where the item goes on it, fitted inside `margin`.
	const place = (item: PDFImage | PDFEmbeddedPage, margin: number) => {
		const [width, height] = item.width > item.height ? [A4[1], A4[0]] : A4
		const page = document.addPage([width, height])
		const scale = Math.min((width - 2 * margin) / item.width, (height - 2 * margin) / item.height)
		return { page, drawn: { x: (width - item.width * scale) / 2, y: (height - item.height * scale) / 2, width: item.width * scale, height: item.height * scale } }
	}
	for (const item of pages) {
		if (item.kind === 'photo') {
			const image = await document.embedJpg(item.bytes)
			const { page, drawn } = place(image, MARGIN)
			page.drawImage(image, drawn)
		} else {
			const source = await PDFDocument.load(item.bytes, { updateMetadata: false })
			for (const sourcePage of source.getPages()) {
				// A page with nothing drawn on it (a scanner's blank page) stays a blank page.
				if (!sourcePage.node.Contents()) {
					document.addPage(A4)
					continue
				}
				const embedded = await document.embedPage(sourcePage)
				const { page, drawn } = place(embedded, 0)
				page.drawPage(embedded, drawn)
			}
		}
	}
	const bytes = await document.save({ updateFieldAppearances: false })
	return { pdf: Buffer.from(bytes), pages: document.getPageCount() }
}

