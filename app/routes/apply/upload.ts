import fs from 'node:fs/promises'
import { data, redirect } from 'react-router'
import type { Route } from './+types/upload'
import { addAttachment, AttachmentLimitError, attachmentLimits, canEditSlot, CaseLockedError, isEditable } from '#app/cases/case-store.server.ts'
import { loadApplication, limitVisitor } from './+applicant.server.ts'
import { publicLimits } from '#app/http/ip-limit.server.ts'
import { getCaseFileStorage } from '#app/storage/file-storage.server.ts'
import { declaredTooLarge, receiveUpload, type ReceivedFile } from '#app/storage/upload-stream.server.ts'
import { attachmentUpload, kindOfMime, reencodePhoto, UnreadablePhotoError } from '#app/cases/attachment-upload.server.ts'
import { slotAccepts } from '#app/forms/definition.ts'
import { isOffered } from '#app/forms/conditions.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { flashCookie, redirectWithFlash } from '#app/http/flash.server.ts'
import { FILE_ADDED, uploadErrorMessage, type UploadError } from './+upload-form.tsx'

/**
 * Streams one file into the case (busboy, size-limited), judged by its bytes against what its slot
 * takes: a PDF as it is (when it carries no script or file of its own), a photo re-encoded
 * (app/cases/attachment-upload.server.ts). A slot may be in any section; the page to return to is
 * that section's. A file too large is refused (413) before the body is read when the request says
 * its size, else the moment the file passes the limit; nothing is kept, and the connection closes.
 */
export async function action({ params, request }: Route.ActionArgs) {
	const { db, row, definition, state } = await loadApplication(params.token)
	await limitVisitor(request, publicLimits.save)
	const base = `/apply/r/${params.token}`
	if (!isEditable(row) || !definition.sections.some((section) => section.files?.length)) throw redirect(base)
	const wantsJson = request.headers.get('Accept')?.includes('application/json')
	const maxFileBytes = getEnv().uploadMaxBytes
	const sectionOf = (slotName: string) => definition.sections.find((section) => section.files?.some((slot) => slot.slot === slotName))
	// The page says «تم إضافة الملف بنجاح» (or why not) once, beside the slot. With JavaScript the
	// form shows an error itself; the success notice rides on the revalidation that lists the file.
	const reply = async (error: UploadError | null, slot: string) => {
		const notice = error ? { tone: 'error' as const, message: uploadErrorMessage(error, maxFileBytes, attachmentLimits()), field: slot } : { tone: 'success' as const, message: FILE_ADDED, field: slot }
		const section = sectionOf(slot) ?? definition.sections.find((candidate) => candidate.files?.length)!
		// The body of a file too large may be left unread: the connection cannot serve another request.
		const close = error === 'too-large' ? { Connection: 'close' } : undefined
		if (!wantsJson) return redirectWithFlash(`${base}/${section.key}#files`, notice, close)
		if (error) return data({ ok: false, error, message: notice.message }, { status: error === 'too-large' ? 413 : 400, headers: close })
		return data({ ok: true, error: null }, { headers: { 'Set-Cookie': await flashCookie(notice) } })
	}

	// Said from the Content-Length, before a byte of the body is read: the slot is not known yet, so
	// a page without JavaScript says it at its top.
	if (declaredTooLarge(request, maxFileBytes)) return reply('too-large', '')
	const storage = getCaseFileStorage()
	// A request that does not say its size (chunked) is not read past a file too large. One that
	// does, and passed the check above, has at most the multipart overhead left to read: reading it
	// lets a browser show the answer rather than a reset connection.
	const result = await receiveUpload(request, storage, { maxFileBytes, stopWhenTooLarge: !request.headers.has('content-length') }, attachmentUpload)
	const slotName = result.fields.slot ?? ''
	const slot = sectionOf(slotName)?.files?.find((candidate) => candidate.slot === slotName)
	const refuse = async (error: UploadError) => {
		if (result.ok && result.file) await fs.rm(result.file.tempPath, { force: true })
		return reply(error, slotName)
	}
	// The honeypot was filled in: a bot, not a family. Keep nothing.
	if (result.ok && result.file && result.fields.website) return refuse('bad-request')
	if (!result.ok) return reply(result.error === 'not-accepted' ? (slot && slotAccepts(slot).includes('photo') ? 'not-accepted' : 'not-pdf') : result.error, slotName)
	if (!result.file) return reply('no-file', slotName)
	// A health or bank slot takes files only once the applicant consented (docs/product.md#privacy-and-consent).
	if (!slot || !isOffered(slot, state.consent)) return refuse('bad-slot')
	if (!canEditSlot(row, definition, slot.slot)) return refuse('locked-slot')
	const kind = kindOfMime(result.file.mime)
	if (!kind || !slotAccepts(slot).includes(kind)) return refuse(slotAccepts(slot).includes('photo') ? 'not-accepted' : 'not-pdf')
	let file: ReceivedFile = result.file
	if (kind === 'photo') {
		try {
			file = await reencodePhoto(storage, result.file)
		} catch (error) {
			if (error instanceof UnreadablePhotoError) return reply('unreadable-photo', slotName)
			throw error
		}
	}
	const key = await storage.adopt(file.tempPath)
	try {
		const added = await addAttachment(db, definition, row, {
			slot: slot.slot,
			originalName: file.originalName,
			contentType: file.mime,
			size: file.size,
			sha256: file.sha256,
			storageKey: key,
		})
		// A slot that takes one file: the file it replaced leaves storage too.
		await Promise.all(added.replaced.map((old) => storage.remove(old.storageKey)))
	} catch (error) {
		await storage.remove(key)
		if (error instanceof CaseLockedError) return reply('locked-slot', slot.slot)
		if (error instanceof AttachmentLimitError) return reply(error.limit, slot.slot)
		throw error
	}
	return reply(null, slot.slot)
}
