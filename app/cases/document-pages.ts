// A document made of pages (docs/decisions/015-documents-from-photos.md): the applicant gives a
// slot its pages one by one — photos from the phone's camera, or a PDF whose pages join — and the
// server makes them one PDF. Each page is a row of `attachments` with the slot `page:<slot>` until
// the application is sent; the slot's document is the row named for the slot itself.
import type { FileSlot } from '#app/forms/definition.ts'

export const PAGE_SLOT_PREFIX = 'page:'

/** The slot a page of `slot`'s document is kept under. */
export function pageSlot(slot: string): string {
	return `${PAGE_SLOT_PREFIX}${slot}`
}

/** The document slot a page belongs to, or undefined for a row that is not a page. */
export function slotOfPage(slot: string): string | undefined {
	return slot.startsWith(PAGE_SLOT_PREFIX) ? slot.slice(PAGE_SLOT_PREFIX.length) : undefined
}

/** Whether the slot's files are made into one document (every slot but a house's photos, which stay pictures). */
export function isDocumentSlot(slot: FileSlot): boolean {
	return !slot.pictures
}

/** How to photograph a paper, beside every document slot: a line, not a manual. */
export const PHOTO_TIP = 'صوّر الورقة على سطح مستوٍ في مكان مضاء، وأظهر زواياها الأربع في الصورة.'

export type PageStatus = 'ready' | 'processing' | 'failed'

/**
 * What a case will hold once its documents are made (`rows`: its applicant's files now, pages and
 * documents): every page, one document for each slot that has pages, sized as its pages together
 * (a document is its pages drawn again: a photo's JPEG as it is, a PDF's pages with the resources
 * they share copied once), and every other file. The caps count this (docs/security.md#uploads),
 * not only the pages: a document made of pages is stored beside them until the application is sent.
 */
export function caseHoldings(rows: readonly { slot: string; size: number }[]): { files: number; bytes: number } {
	const pages = rows.filter((row) => slotOfPage(row.slot))
	const documents = new Map<string, number>()
	for (const page of pages) documents.set(slotOfPage(page.slot)!, (documents.get(slotOfPage(page.slot)!) ?? 0) + page.size)
	const others = rows.filter((row) => !slotOfPage(row.slot) && !documents.has(row.slot))
	const files = pages.length + documents.size + others.length
	const bytes = [...pages, ...others].reduce((sum, row) => sum + row.size, 0) + [...documents.values()].reduce((sum, size) => sum + size, 0)
	return { files, bytes }
}
