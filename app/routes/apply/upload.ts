import { data, redirect } from 'react-router'
import type { Route } from './+types/upload'
import { attachmentLimits } from '#app/cases/case-store.server.ts'
import { isEditable } from '#app/cases/journey.ts'
import { addFile, findSlot } from '#app/runner/files.server.ts'
import { loadApplication, limitVisitor } from './+applicant.server.ts'
import { publicLimits } from '#app/http/ip-limit.server.ts'
import { getCaseFileStorage } from '#app/storage/file-storage.server.ts'
import { declaredTooLarge, receiveUpload } from '#app/storage/upload-stream.server.ts'
import { attachmentUpload } from '#app/cases/attachment-upload.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { flashCookie, redirectWithFlash } from '#app/http/flash.server.ts'
import { FILE_ADDED, uploadErrorMessage, type UploadError } from '#app/forms/upload-form.tsx'

/**
 * Streams one file into the case (busboy, size-limited); the runner judges it by its bytes against
 * what its slot takes and keeps it (app/runner/files.server.ts). A slot may be in any section; the page to return to is
 * that section's. A file too large is refused (413) before the body is read when the request says
 * its size, else the moment the file passes the limit; nothing is kept, and the connection closes.
 */
export async function action({ params, request }: Route.ActionArgs) {
	const { db, row, definition, state } = await loadApplication(request, params.token)
	await limitVisitor(request, publicLimits.save)
	const base = `/apply/r/${params.token}`
	if (!isEditable(row) || !definition.sections.some((section) => section.files?.length)) throw redirect(base)
	const wantsJson = request.headers.get('Accept')?.includes('application/json')
	const maxFileBytes = getEnv().uploadMaxBytes
	// The page says «تمت إضافة الملف بنجاح» (or why not) once, beside the slot. With JavaScript the
	// form shows an error itself; the success notice rides on the revalidation that lists the file.
	const reply = async (error: UploadError | null, slot: string) => {
		const notice = error ? { tone: 'error' as const, message: uploadErrorMessage(error, maxFileBytes, attachmentLimits()), field: slot } : { tone: 'success' as const, message: FILE_ADDED, field: slot }
		const section = findSlot(definition, slot)?.section ?? definition.sections.find((candidate) => candidate.files?.length)!
		// The body of a file too large may be left unread: the connection cannot serve another request.
		const close = error === 'too-large' ? { Connection: 'close' } : undefined
		if (!wantsJson) return redirectWithFlash(`${base}/${section.key}#files`, notice, close)
		if (error) return data({ ok: false, error, message: notice.message }, { status: error === 'too-large' ? 413 : 400, headers: close })
		return data({ ok: true, error: null }, { headers: { 'Set-Cookie': await flashCookie(notice) } })
	}

	// Said from the Content-Length, before a byte of the body is read: the slot is not known yet, so
	// a page without JavaScript says it at its top.
	if (declaredTooLarge(request, maxFileBytes)) return reply('too-large', '')
	// A request that does not say its size (chunked) is not read past a file too large. One that
	// does, and passed the check above, has at most the multipart overhead left to read: reading it
	// lets a browser show the answer rather than a reset connection.
	const outcome = await addFile({ db, row, definition, state }, await receiveUpload(request, getCaseFileStorage(), { maxFileBytes, stopWhenTooLarge: !request.headers.has('content-length') }, attachmentUpload))
	return reply(outcome.kind === 'file-refused' ? outcome.error : null, outcome.slot)
}
