import fsp from 'node:fs/promises'
import type { Database } from '#app/db/client.server.ts'
import { deleteDocument, storeDocument } from '#app/documents/documents-library.server.ts'
import type { FileStorage } from '#app/storage/file-storage.server.ts'
import { declaredTooLarge, pdfUpload, receiveMultipleUploads, type PartResult } from '#app/storage/upload-stream.server.ts'
import { fileTooLarge } from '#app/text/messages.ts'
import { contentRefusalMessages } from '#app/storage/upload-messages.ts'
import { countOf, files } from '#app/text/arabic-count.ts'
import { fileFields, type ContentField, type ContentType } from './definition.ts'
import { listEntries, saveEntry, type EntryQuery } from './store.server.ts'
import { BULK_INPUT, BULK_MAX_FILES } from './list-filter.ts'

// «Upload several files at once» on a content list (docs/product.md#documents-library): one entry
// per PDF, in the list's category, titled by the file's name. Every file is judged by its bytes;
// a refused file leaves nothing behind (no entry, no document row, no file in storage).

type AnyType = ContentType<readonly ContentField[]>
type Refused = Extract<PartResult<'application/pdf', 'not-pdf'>, { ok: false }>


export const bulkMessages = {
	'bad-request': 'لم يكتمل رفع الملفات. حاول مرة أخرى.',
	'no-files': 'الرجاء اختيار ملف PDF واحد على الأقل.',
	'too-many': `يمكن رفع ${countOf(BULK_MAX_FILES, files)} على الأكثر في المرة الواحدة.`,
	'bad-category': 'الرجاء اختيار القسم.',
	'too-much': 'مجموع الملفات أكبر من المسموح في المرة الواحدة. ارفعها على أكثر من مرة.',
	'not-pdf': 'الملف ليس PDF. اختر ملفاً بصيغة PDF.',
	...contentRefusalMessages,
} as const

export type BulkFailure = { error: 'too-large' | keyof typeof bulkMessages; status: number; message: string; /** Answered before the body was read: the connection should close. */ unread?: boolean }
export type BulkOutcome = { ok: true; filter: string; created: number; message: string; refused: boolean } | ({ ok: false } & BulkFailure)

/** The file field a type's bulk upload fills, when it takes one. */
export const bulkFileField = (type: AnyType) => (type.bulkUpload ? fileFields(type).find((field) => field.name === type.bulkUpload?.file) : undefined)

/** A title from a file's name: «تقرير الربع الأول 2024.pdf» → «تقرير الربع الأول 2024». */
export function titleFromFileName(name: string, maxLength = 200): string {
	const title = name
		.replace(/\.pdf$/i, '')
		.replace(/[_]+/g, ' ')
		.replace(/\s+/g, ' ')
		.trim()
	return Array.from(title).slice(0, maxLength).join('') || 'مستند'
}

/** A year the name mentions (2019–2099), so a report lands with its year filled in. */
const yearIn = (name: string) => Number(/(?:^|\D)(20\d{2})(?:\D|$)/.exec(name)?.[1] ?? 0)

function failure(error: BulkFailure['error'], maxBytes: number): { ok: false } & BulkFailure {
	const status = error === 'too-large' ? 413 : 400
	return { ok: false, error, status, message: error === 'too-large' ? fileTooLarge(maxBytes) : bulkMessages[error] }
}

const refusal = (part: Refused, maxBytes: number) => `«${part.originalName ?? 'ملف'}»: ${part.error === 'too-large' ? fileTooLarge(maxBytes) : bulkMessages[part.error]}`

/**
 * Receives the bulk form of `type` (its `bulkUpload` and `filterField`) and creates one entry per
 * accepted PDF. A request that declares more bytes than the files allowed could hold is answered
 * 413 before its body is read (docs/product.md#documents-library).
 */
export async function receiveBulkUpload(db: Database, storage: FileStorage, type: AnyType, request: Request, options: { maxFileBytes: number; userId: number | null }): Promise<BulkOutcome> {
	const { maxFileBytes, userId } = options
	const bulk = type.bulkUpload
	const filter = type.fields.find((field) => field.name === type.filterField)
	if (!bulk || filter?.kind !== 'select') throw new Error(`${type.type} takes no bulk upload`)
	if (declaredTooLarge(request, maxFileBytes, BULK_MAX_FILES)) return { ...failure('too-much', maxFileBytes), status: 413, unread: true }
	// A file past the limit is refused on its own as it streams (no more of it is written), the others judged as usual.
	// Not `stopWhenTooLarge`: a browser whose upload is cut off mid-body shows a reset connection, not our answer.
	// A request that does not say its size (chunked: no browser's form) is stopped, though, not read to its end.
	const stopWhenTooLarge = !request.headers.has('content-length')
	const received = await receiveMultipleUploads(request, storage, { maxFileBytes, maxFields: 10, stopWhenTooLarge }, BULK_INPUT, pdfUpload, BULK_MAX_FILES + 1)
	if (!received.ok && received.error === 'too-large') return { ...failure('too-large', maxFileBytes), message: summary([refusal({ ok: false, error: 'too-large', originalName: received.originalName }, maxFileBytes)]), unread: true }
	if (!received.ok) return failure(received.error, maxFileBytes)
	const kept = received.files.flatMap((part) => (part.ok ? [part.file] : []))
	const value = received.fields[filter.name] ?? ''
	const error = !filter.options.some((option) => option.value === value) ? 'bad-category' : received.files.length === 0 ? 'no-files' : received.files.length > BULK_MAX_FILES ? 'too-many' : null
	if (error) {
		await Promise.all(kept.map((file) => fsp.rm(file.tempPath, { force: true })))
		return failure(error, maxFileBytes)
	}
	// New files go after those already in the section, in the order they were chosen.
	const where = { [filter.name]: value } as EntryQuery['where']
	const section = await listEntries(db, type, undefined, { where })
	const before = section.length
	// Numbered sections (governance) go on from their highest number; staff may change it after.
	const lastNumber = Math.max(0, ...section.map((entry) => Number((entry.data as Record<string, unknown>).number) || 0))
	let created = 0
	try {
		for (const file of kept) {
			const document = await storeDocument(db, storage, file, userId)
			try {
				const data = { [filter.name]: value, [bulk.title]: titleFromFileName(file.originalName), [bulk.file]: document.id, year: yearIn(file.originalName), number: Math.min(999, lastNumber + created + 1), order: Math.min(999, before + created + 1) }
				await saveEntry(db, type, null, data, userId)
				created++
			} catch (error) {
				await deleteDocument(db, storage, document.id)
				throw error
			}
		}
	} finally {
		// After a failure on our side, the files not reached yet are still temp files; adopted ones are gone already.
		await Promise.all(kept.map((file) => fsp.rm(file.tempPath, { force: true })))
	}
	const refusals = received.files.filter((part): part is Refused => !part.ok)
	const refused = refusals.map((part) => refusal(part, maxFileBytes))
	// Nothing kept: the page says why, beside the form, as for any refused form.
	if (created === 0) {
		const error = refusals.every((part) => part.error === 'too-large') ? 'too-large' : 'not-pdf'
		return { ...failure(error, maxFileBytes), message: summary(refused) }
	}
	const label = filter.options.find((option) => option.value === value)!.label
	return { ok: true, filter: value, created, refused: refused.length > 0, message: summary([`تم رفع ${countOf(created, files)} إلى «${label}».`, ...refused]) }
}

/** Lines joined for one notice; it travels in a cookie, so a few refusals are named and the rest counted. */
function summary(lines: string[]): string {
	const [first, ...rest] = lines
	const named = rest.slice(0, 3)
	const more = rest.length > 3 ? [`و${countOf(rest.length - 3, files)} أخرى لم تُقبل.`] : []
	return [first, ...named, ...more].join(' ').slice(0, 480)
}
