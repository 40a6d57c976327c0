// A printed document in Arabic as a PDF (docs/decisions/020-arabic-pdf.md): blocks (a title,
// label and value rows, a table, paragraphs, signature lines) laid out right to left on A4 pages,
// each page headed by the foundation's name and numbered at its foot.
//
// What it writes is only text and lines: no script, action, form, link or attached file, and the
// file is saved without object streams so that every dictionary is in plain sight
// (arabic-pdf.test.ts reads the bytes for the names of active content).
import type { PDFDocument, PDFPage } from 'pdf-lib'
import { loadPdfLib } from '#app/utils/lazy-modules.server.ts'
import { drawLine, embedFonts, measureText, wrapText, type Align, type EmbeddedFonts, type TextStyle } from './arabic-text.server.ts'

export type PdfBlock =
	| { kind: 'title'; text: string }
	| { kind: 'heading'; text: string }
	| { kind: 'paragraph'; text: string }
	/** Label and value rows: the label at the right, the value beside it. */
	| { kind: 'fields'; rows: readonly { label: string; value: string }[] }
	/** Columns right to left; widths are shares of the line; a row that does not fit goes to the next page with the header again. */
	| { kind: 'table'; columns: readonly { header: string; width: number; align?: 'start' | 'end' | 'center' }[]; rows: readonly (readonly string[])[] }
	/** Boxes side by side (three to a row) for each who signs: their role, their name if known, a line to sign on and the date. */
	| { kind: 'signatures'; signers: readonly { role: string; name?: string }[] }
	| { kind: 'space'; height: number }
	/** The next block starts on a new page (a batch's vouchers, one per page). */
	| { kind: 'page-break' }

export interface PdfDocumentSpec {
	/** The document's title (its metadata; a `title` block prints it). */
	title: string
	/** The foundation's name, at the head of every page. */
	header: string
	blocks: readonly PdfBlock[]
}

/** pdf-lib's PageSizes.A4, in points. */
export const A4 = { width: 595.28, height: 841.89 } as const
const MARGIN = 48
const LEFT = MARGIN
const RIGHT = A4.width - MARGIN
const TOP = A4.height - MARGIN
const CONTENT_TOP = TOP - 34
const CONTENT_BOTTOM = MARGIN + 30

const body: TextStyle = { size: 10.5, weight: 'regular' }
const bodyBold: TextStyle = { size: 10.5, weight: 'bold' }
const LINE = 19
const GREY: [number, number, number] = [0.4, 0.4, 0.4]
const RULE = 0.75

/** The page numbers' words: «صفحة 1 من 3». */
export const pageLabel = (page: number, of: number) => `صفحة ${page} من ${of}`

class Writer {
	page!: PDFPage
	y = 0
	pages: PDFPage[] = []

	constructor(
		private readonly doc: PDFDocument,
		private readonly fonts: EmbeddedFonts,
		private readonly lib: Awaited<ReturnType<typeof loadPdfLib>>,
	) {
		this.newPage()
	}

	newPage() {
		this.page = this.doc.addPage([A4.width, A4.height])
		this.pages.push(this.page)
		this.y = CONTENT_TOP
	}

	/** Room for `height` points, or a new page. */
	need(height: number) {
		if (this.y - height < CONTENT_BOTTOM) this.newPage()
	}

	text(text: string, style: TextStyle, left: number, right: number, y: number, align: Align = 'right', color?: [number, number, number]) {
		return drawLine(this.page, this.fonts, text, { ...style, left, right, y, align, color })
	}

	rule(x1: number, y1: number, x2: number, y2: number, color: [number, number, number] = GREY, thickness = RULE) {
		this.page.drawLine({ start: { x: x1, y: y1 }, end: { x: x2, y: y2 }, thickness, color: this.lib.rgb(...color) })
	}

	async lines(text: string, style: TextStyle, left: number, right: number, align: Align = 'right', lineHeight = LINE) {
		for (const line of wrapText(text, right - left, style)) {
			this.need(lineHeight)
			this.y -= lineHeight
			await this.text(line, style, left, right, this.y + 5, align)
		}
	}

	async block(block: PdfBlock) {
		switch (block.kind) {
			case 'title': {
				const style: TextStyle = { size: 16, weight: 'bold' }
				this.need(40)
				this.y -= 30
				await this.text(block.text, style, LEFT, RIGHT, this.y + 6, 'center')
				this.y -= 8
				return
			}
			case 'heading': {
				this.need(LINE * 3)
				this.y -= 8
				await this.lines(block.text, { size: 12, weight: 'bold' }, LEFT, RIGHT)
				this.rule(LEFT, this.y, RIGHT, this.y)
				this.y -= 4
				return
			}
			case 'paragraph':
				await this.lines(block.text, body, LEFT, RIGHT)
				this.y -= 4
				return
			case 'fields': {
				const labelWidth = Math.min(170, Math.max(...block.rows.map((row) => measureText(row.label, bodyBold))) + 16)
				const valueRight = RIGHT - labelWidth
				for (const row of block.rows) {
					const values = wrapText(row.value || '-', valueRight - LEFT - 6, body)
					const height = values.length * LINE + 6
					this.need(height)
					const top = this.y
					await this.text(row.label, bodyBold, valueRight, RIGHT - 4, top - LINE + 5)
					for (const [index, line] of values.entries()) await this.text(line, body, LEFT, valueRight - 6, top - (index + 1) * LINE + 5)
					this.y = top - height
					this.rule(LEFT, this.y + 2, RIGHT, this.y + 2, [0.8, 0.8, 0.8], 0.5)
				}
				this.y -= 6
				return
			}
			case 'table':
				return this.table(block)
			case 'signatures': {
				const perRow = 3
				const gap = 16
				for (let start = 0; start < block.signers.length; start += perRow) {
					const row = block.signers.slice(start, start + perRow)
					const width = (RIGHT - LEFT - gap * (perRow - 1)) / perRow
					const height = LINE * 4 + 24
					this.need(height + 12)
					this.y -= 12
					const top = this.y
					for (const [index, signer] of row.entries()) {
						const right = RIGHT - index * (width + gap)
						const left = right - width
						this.page.drawRectangle({ x: left, y: top - height, width, height, borderColor: this.lib.rgb(...GREY), borderWidth: RULE })
						await this.text(signer.role, bodyBold, left + 8, right - 8, top - LINE + 4)
						await this.text(signer.name ? `الاسم: ${signer.name}` : 'الاسم:', body, left + 8, right - 8, top - 2 * LINE + 4)
						await this.text('التوقيع:', body, left + 8, right - 8, top - 3 * LINE - 4)
						this.rule(left + 8, top - 3 * LINE - 6, right - 8 - measureText('التوقيع:', body) - 4, top - 3 * LINE - 6)
						await this.text('التاريخ:', body, left + 8, right - 8, top - 4 * LINE - 6)
						this.rule(left + 8, top - 4 * LINE - 8, right - 8 - measureText('التاريخ:', body) - 4, top - 4 * LINE - 8)
					}
					this.y = top - height
				}
				this.y -= 6
				return
			}
			case 'space':
				this.y -= block.height
				return
			case 'page-break':
				this.newPage()
				return
		}
	}

	async table(block: Extract<PdfBlock, { kind: 'table' }>) {
		const total = block.columns.reduce((sum, column) => sum + column.width, 0)
		const edges: { left: number; right: number }[] = []
		let right = RIGHT
		for (const column of block.columns) {
			const width = ((RIGHT - LEFT) * column.width) / total
			edges.push({ left: right - width, right })
			right -= width
		}
		const align = (index: number): Align => {
			const wanted = block.columns[index]!.align ?? 'start'
			return wanted === 'center' ? 'center' : wanted === 'end' ? 'left' : 'right'
		}
		const measureRow = (cells: readonly string[], style: TextStyle, shade: boolean) => {
			const wrapped = cells.map((cell, index) => wrapText(cell || '-', edges[index]!.right - edges[index]!.left - 8, style))
			const height = Math.max(1, ...wrapped.map((lines) => lines.length)) * LINE + 6
			return { wrapped, height, shade, style }
		}
		const paint = async (row: ReturnType<typeof measureRow>) => {
			const top = this.y
			if (row.shade) this.page.drawRectangle({ x: LEFT, y: top - row.height, width: RIGHT - LEFT, height: row.height, color: this.lib.rgb(0.92, 0.92, 0.92) })
			for (const [index, lines] of row.wrapped.entries()) {
				const edge = edges[index]!
				for (const [line, text] of lines.entries()) await this.text(text, row.style, edge.left + 4, edge.right - 4, top - (line + 1) * LINE + 6, align(index))
			}
			this.y = top - row.height
			this.rule(LEFT, this.y, RIGHT, this.y)
			for (const edge of [...edges.map((e) => e.right), LEFT]) this.rule(edge, top, edge, this.y)
			if (row.shade) this.rule(LEFT, top, RIGHT, top)
		}
		const header = measureRow(
			block.columns.map((column) => column.header),
			bodyBold,
			true,
		)
		this.need(header.height + LINE * 2)
		await paint(header)
		for (const cells of block.rows) {
			const row = measureRow(cells, body, false)
			if (this.y - row.height < CONTENT_BOTTOM) {
				this.newPage()
				await paint(header)
			}
			await paint(row)
		}
		this.y -= 10
	}
}

/** The document as PDF bytes. */
export async function renderArabicPdf(spec: PdfDocumentSpec): Promise<Uint8Array> {
	const lib = await loadPdfLib()
	const doc = await lib.PDFDocument.create()
	const fonts = await embedFonts(doc)
	doc.setTitle(spec.title)
	doc.setAuthor(spec.header)
	doc.setCreator('Ataa')
	doc.setProducer('Ataa')
	doc.setLanguage('ar')
	const writer = new Writer(doc, fonts, lib)
	for (const block of spec.blocks) await writer.block(block)
	const pages = writer.pages
	for (const [index, page] of pages.entries()) {
		writer.page = page
		await writer.text(spec.header, { size: 12, weight: 'bold' }, LEFT, RIGHT, TOP - 14)
		writer.rule(LEFT, TOP - 24, RIGHT, TOP - 24)
		await writer.text(pageLabel(index + 1, pages.length), { size: 9, weight: 'regular' }, LEFT, RIGHT, MARGIN, 'center', GREY)
	}
	return doc.save({ useObjectStreams: false })
}
