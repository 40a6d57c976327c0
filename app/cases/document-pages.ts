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
