import { countOf, photos } from '#app/text/arabic-count.ts'
import { fileTooLarge } from '#app/text/messages.ts'
import { contentRefusalMessages } from '#app/storage/upload-messages.ts'

// Files staff keep on a case and its applicant never sees (docs/product.md#the-social-study and
// #payment): the photos of a home visit, and the receipt of aid in kind handed over (a photo, or a
// PDF of the signed form). They are attachments like the applicant's, encrypted at rest the same way,
// in slots of their own that the applicant's pages, file limits and journey never count or show.

/** Every staff slot begins with this; no programme's slot does (app/forms/definitions.test.ts). */
export const STAFF_SLOT_PREFIX = 'staff:'

/** The photos of a home visit: the house as seen, for the committee. */
export const VISIT_PHOTO_SLOT = `${STAFF_SLOT_PREFIX}visit-photo`

/** Receipts are part of the financial record: retention keeps them with it (docs/decisions/014-decisions-funds-and-budgets.md). */
export const RECEIPT_SLOT_PREFIX = `${STAFF_SLOT_PREFIX}receipt:`

/** The receipt of one instalment of aid in kind. */
export const receiptSlot = (instalmentId: number) => `${RECEIPT_SLOT_PREFIX}${instalmentId}`

/** The instalment a receipt slot is for; null for any other slot. */
export function receiptInstalment(slot: string): number | null {
	const match = /^staff:receipt:(\d{1,9})$/.exec(slot)
	return match ? Number(match[1]) : null
}

export const isStaffSlot = (slot: string) => slot.startsWith(STAFF_SLOT_PREFIX)

/** A staff slot in words, for the case's history. */
export function staffSlotLabel(slot: string): string | undefined {
	if (slot === VISIT_PHOTO_SLOT) return 'صور الزيارة'
	const instalment = receiptInstalment(slot)
	return instalment === null ? undefined : 'إيصال تسليم المساعدة'
}

/** Photos a case's visits may keep, all visits together. */
export const MAX_VISIT_PHOTOS = 20

/** Why a staff file was refused, in words (the upload's own refusals, and the visit's photo limit). */
export const staffFileErrors = {
	'no-file': 'الرجاء اختيار ملف.',
	'not-photo': 'الملف ليس صورة. اختر صورة JPEG أو PNG أو WebP.',
	'not-accepted': 'الملف ليس صورة ولا PDF. اختر صورة أو ملف PDF للإيصال.',
	'unreadable-photo': 'تعذرت قراءة الصورة. التقطها من جديد أو اختر صورة بصيغة JPEG.',
	'bad-request': 'لم يكتمل رفع الملف. حاول مرة أخرى.',
	'too-many': `لا تتسع صور الزيارة لأكثر من ${countOf(MAX_VISIT_PHOTOS, photos)}. احذف صورة لم تعد لازمة ثم أضف الجديدة.`,
} as const

/** A refused staff file in words: too large (naming the limit), of the wrong kind, unreadable, unsafe. */
export function staffFileMessage(error: string, maxBytes: number): string {
	if (error === 'too-large') return fileTooLarge(maxBytes)
	if (Object.hasOwn(staffFileErrors, error)) return staffFileErrors[error as keyof typeof staffFileErrors]
	if (Object.hasOwn(contentRefusalMessages, error)) return contentRefusalMessages[error as keyof typeof contentRefusalMessages]
	return staffFileErrors['bad-request']
}
