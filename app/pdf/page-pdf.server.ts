// The PDF of a document made of pages (app/cases/document-pages.server.ts), and an applicant's PDF
// made again before it is kept, with pdf-lib: no PDF syntax is written by hand.
//
// No PDF an applicant sent is kept as sent (docs/security.md#uploads): a reader may run what a
// file carries however it is encoded, and the check of its names (app/storage/pdf-active-content.server.ts)
// is only a first refusal. Each page is drawn again, as a picture of the page (a form XObject of its
// content stream and resources), on a page of a new PDF whose catalog holds nothing but its pages:
// no /OpenAction, /AA, /Names, /AcroForm, outline or annotation (link, form field) comes along,
// and nothing the new file does not reach from its catalog is written.
import type { PDFDocument, PDFEmbeddedPage, PDFImage, PDFPage } from 'pdf-lib'
import { isActiveName } from '#app/storage/pdf-active-content.server.ts'
import { loadPdfLib } from '#app/utils/lazy-modules.server.ts'

/** pdf-lib's PageSizes.A4, in points. */
const A4: [number, number] = [595.28, 841.89]
const MARGIN = 24


/** What a page keeps of its dictionary: what draws it. Its annotations, its actions (/AA) and anything else go. */
const drawingEntries = new Set(['Type', 'Parent', 'Contents', 'Resources', 'MediaBox', 'CropBox', 'Rotate'])
/** What a page's resources keep: what its content stream can name. */
const resourceEntries = ['ExtGState', 'ColorSpace', 'Pattern', 'Shading', 'XObject', 'Font', 'ProcSet', 'Properties']

/** Why an applicant's PDF cannot be made again: each has its message (app/forms/upload-form.tsx). */
export type PdfRefusal = 'pdf-locked' | 'pdf-unreadable' | 'too-many-pages'

/** Something to draw on a page (none: a blank page), its size, and the turn clockwise it is shown with (a PDF page's /Rotate). */
interface Drawable {
	item: PDFImage | PDFEmbeddedPage | null
	width: number
	height: number
	turn: 0 | 90 | 180 | 270
}

/** An applicant's PDF read, or why not: locked by a password (pdf-lib reads no encrypted file) or unreadable. */
async function readPdf(bytes: Uint8Array): Promise<PDFDocument | 'pdf-locked' | 'pdf-unreadable'> {
	const { PDFDocument } = await loadPdfLib()
	try {
		return await PDFDocument.load(bytes, { updateMetadata: false })
	} catch (error) {
		// pdf-lib's EncryptedPDFError is a plain Error once compiled: its message says it.
		return error instanceof Error && /is encrypted/.test(error.message) ? 'pdf-locked' : 'pdf-unreadable'
	}
}

/**
 * Every page of `source` made ready to draw in `target` as it is shown: its crop box, its turn.
 * Each page's dictionary and resources are cut down first to what draws it, so that the copy into
 * `target` takes nothing else; one copy for all the pages, so resources they share come once.
 */
async function pagesToDraw(target: PDFDocument, source: PDFDocument): Promise<Drawable[]> {
	const { PDFName } = await loadPdfLib()
	const withContent: { page: PDFPage; box: { left: number; bottom: number; right: number; top: number } }[] = []
	const shown = source.getPages().map((page): Omit<Drawable, 'item'> & { drawn: boolean } => {
		const node = page.node
		const media = page.getMediaBox()
		const crop = page.getCropBox()
		// The crop box within the media box, as readers show the page.
		const left = Math.max(media.x, crop.x)
		const bottom = Math.max(media.y, crop.y)
		const right = Math.min(media.x + media.width, crop.x + crop.width)
		const top = Math.min(media.y + media.height, crop.y + crop.height)
		const box = right > left && top > bottom ? { left, bottom, right, top } : { left: media.x, bottom: media.y, right: media.x + media.width, top: media.y + media.height }
		const angle = ((page.getRotation().angle % 360) + 360) % 360
		const turn = ([0, 90, 180, 270] as const).find((quarter) => quarter === angle) ?? 0
		const resources = source.context.obj({})
		const given = node.Resources()
		for (const key of resourceEntries) {
			const value = given?.get(PDFName.of(key))
			if (value) resources.set(PDFName.of(key), value)
		}
		for (const [key] of node.entries()) if (!drawingEntries.has(key.decodeText())) node.delete(key)
		node.set(PDFName.of('Resources'), resources)
		const width = box.right - box.left
		const height = box.top - box.bottom
		// A page with nothing drawn on it (a scanner's blank page) stays a blank page.
		if (!node.Contents() || !(width > 0 && height > 0)) return { drawn: false, width: width > 0 ? width : A4[0], height: height > 0 ? height : A4[1], turn }
		withContent.push({ page, box })
		return { drawn: true, width, height, turn }
	})
	const embedded = await target.embedPages(
		withContent.map(({ page }) => page),
		withContent.map(({ box }) => box),
	)
	let next = 0
	return shown.map(({ drawn, ...page }) => ({ ...page, item: drawn ? embedded[next++]! : null }))
}

/**
 * Draws `drawable` on a new page of `document`: of its own size (`fit` 'own'), or on an A4 page
 * turned its way, fitted inside `margin`.
 */
async function drawOnNewPage(document: PDFDocument, drawable: Drawable, fit: 'own' | 'a4', margin = 0): Promise<void> {
	const { degrees, PDFImage } = await loadPdfLib()
	const { item, turn } = drawable
	// The size it is shown at: a quarter turn swaps its sides.
	const [shownWidth, shownHeight] = turn % 180 ? [drawable.height, drawable.width] : [drawable.width, drawable.height]
	const [width, height] = fit === 'own' ? [shownWidth, shownHeight] : shownWidth > shownHeight ? [A4[1], A4[0]] : A4
	const page = document.addPage([width, height])
	if (!item) return
	const scale = fit === 'own' ? 1 : Math.min((width - 2 * margin) / shownWidth, (height - 2 * margin) / shownHeight)
	const x = (width - shownWidth * scale) / 2
	const y = (height - shownHeight * scale) / 2
	// pdf-lib turns a drawing about its lower left corner: where that corner goes for each turn.
	const corner = { 0: [x, y], 90: [x, y + drawable.width * scale], 180: [x + drawable.width * scale, y + drawable.height * scale], 270: [x + drawable.height * scale, y] }[turn]
	const options = { x: corner[0]!, y: corner[1]!, width: drawable.width * scale, height: drawable.height * scale, rotate: degrees(-turn) }
	if (item instanceof PDFImage) page.drawImage(item, options)
	else page.drawPage(item, options)
}

/**
 * Leaves in `document` only the objects its trailer reaches (its catalog, and through it its pages;
 * its information dictionary): a copy may have brought more along, such as a page's content
 * streams once drawn again as a form, and nothing unreachable is written.
 */
async function dropUnreachable(document: PDFDocument): Promise<void> {
	const { PDFArray, PDFDict, PDFRef, PDFStream } = await loadPdfLib()
	const context = document.context
	const reached = new Set<string>()
	const pending: unknown[] = [context.trailerInfo.Root, context.trailerInfo.Info]
	while (pending.length) {
		const value = pending.pop()
		if (value instanceof PDFRef) {
			if (reached.has(value.tag)) continue
			reached.add(value.tag)
			pending.push(context.lookup(value))
		} else if (value instanceof PDFDict) pending.push(...value.values())
		else if (value instanceof PDFArray) pending.push(...value.asArray())
		else if (value instanceof PDFStream) pending.push(value.dict)
	}
	for (const [ref] of context.enumerateIndirectObjects()) if (!reached.has(ref.tag)) context.delete(ref)
}

/** A new PDF, its metadata a title and «Ataa» as its maker: no author, no dates, nothing of the phone or program the pages came from. */
async function newPdf(title: string): Promise<PDFDocument> {
	const { PDFDocument } = await loadPdfLib()
	const document = await PDFDocument.create({ updateMetadata: false })
	document.setTitle(title)
	document.setProducer('Ataa')
	document.setCreator('Ataa')
	return document
}

/**
 * `document`'s bytes, with only what it reaches. Every name in its objects is looked at first, as
 * the first refusal would (app/storage/pdf-active-content.server.ts), the pictures' and drawings'
 * bytes aside: nothing that acts may have come along with a page's resources.
 */
async function finish(document: PDFDocument): Promise<{ pdf: Buffer; pages: number }> {
	const { PDFArray, PDFDict, PDFName, PDFStream } = await loadPdfLib()
	await document.flush()
	// pdf-lib gives each page it draws on an empty annotation array: none is needed.
	for (const page of document.getPages()) page.node.delete(PDFName.of('Annots'))
	await dropUnreachable(document)
	const pending: unknown[] = document.context.enumerateIndirectObjects().map(([, object]) => object)
	while (pending.length) {
		const value = pending.pop()
		if (value instanceof PDFName && isActiveName(value.decodeText())) throw new Error('A PDF made again still carries an active part')
		if (value instanceof PDFDict) for (const [key, inner] of value.entries()) pending.push(key, inner)
		else if (value instanceof PDFArray) pending.push(...value.asArray())
		else if (value instanceof PDFStream) pending.push(value.dict)
	}
	const pdf = Buffer.from(await document.save({ updateFieldAppearances: false }))
	return { pdf, pages: document.getPageCount() }
}

/**
 * An applicant's PDF made again (see the top of this file): each page of its own size and turn,
 * as it is shown, and nothing else. Refused when locked by a password, unreadable, or of more than
 * `maxPages` pages (counted before any page is drawn).
 */
export async function remakePdf(bytes: Uint8Array, title: string, maxPages = Infinity): Promise<{ pdf: Buffer; pages: number } | PdfRefusal> {
	const source = await readPdf(bytes)
	if (typeof source === 'string') return source
	try {
		if (source.getPageCount() > maxPages) return 'too-many-pages'
		const document = await newPdf(title)
		for (const page of await pagesToDraw(document, source)) await drawOnNewPage(document, page, 'own')
		return await finish(document)
	} catch {
		// No page tree, or a page pdf-lib cannot draw (a content stream it cannot decode, a broken reference).
		return 'pdf-unreadable'
	}
}

/**
 * One PDF of `pages`, in order: each photo on an A4 page turned the photo's way, fitted inside a
 * margin; each page of a PDF drawn again (see the top of this file) on an A4 page turned its way.
 * Throws if a PDF cannot be read or drawn (its pages were made again when they were given: they can).
 */
export async function makeDocument(title: string, pages: readonly { kind: 'photo' | 'pdf'; bytes: Uint8Array }[]): Promise<{ pdf: Buffer; pages: number }> {
	const document = await newPdf(title)
	for (const item of pages) {
		if (item.kind === 'photo') {
			const image = await document.embedJpg(item.bytes)
			await drawOnNewPage(document, { item: image, width: image.width, height: image.height, turn: 0 }, 'a4', MARGIN)
		} else {
			const source = await readPdf(item.bytes)
			if (typeof source === 'string') throw new Error(`A page of the document could not be read: ${source}`)
			for (const page of await pagesToDraw(document, source)) await drawOnNewPage(document, page, 'a4')
		}
	}
	return finish(document)
}
