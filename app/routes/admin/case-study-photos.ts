import { data } from 'react-router'
import type { Route } from './+types/case-study-photos'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { photoUpload } from '#app/cases/attachment-upload.server.ts'
import { CaseChangeError } from '#app/cases/status-changes.server.ts'
import { findCaseByReference } from '#app/cases/case-store.server.ts'
import { staffFileMessage, type staffFileErrors } from '#app/cases/staff-files.ts'
import type { contentRefusalMessages } from '#app/storage/upload-messages.ts'
import { addVisitPhotos, removeVisitPhoto } from '#app/cases/staff-files.server.ts'
import { studyKindOf } from '#app/cases/studies.server.ts'
import { normaliseReference } from '#app/cases/tokens.server.ts'
import { redirectWithFlash } from '#app/http/flash.server.ts'
import { audited, noteAudit } from '#app/audit/audit-trail.server.ts'
import { getCaseFileStorage } from '#app/storage/file-storage.server.ts'
import { declaredTooLarge, receiveMultipleUploads } from '#app/storage/upload-stream.server.ts'
import { countOf, photos } from '#app/text/arabic-count.ts'
import { fileTooLarge } from '#app/text/messages.ts'
import { getEnv } from '#app/utils/env.server.ts'

// A home visit's photos (docs/product.md#the-social-study): added from the study page, a few at a
// time from the phone's camera or library, or one removed. Staff only; never shown to the applicant.

export const middleware = [audited({ read: false, write: { byIntent: { remove: 'case.visit-photo-remove' }, otherwise: 'case.visit-photo' } })]

/** Photos one request may carry: a few taken in a row, not a phone's whole library. */
const PHOTOS_PER_REQUEST = 10

export async function action({ params, request, context }: Route.ActionArgs) {
	const user = requireRole(context, areaRoles.cases)
	const db = await getDb()
	const reference = normaliseReference(params.reference)
	const row = reference ? await findCaseByReference(db, reference) : undefined
	if (!row || row.deletedAt || !row.submittedAt || studyKindOf(row.type) !== 'visit') throw data('الطلب غير موجود', { status: 404 })
	const back = `/admin/cases/${row.reference}/study#photos`
	const maxFileBytes = getEnv().uploadMaxBytes
	const refusal = (error: string) => staffFileMessage(error, maxFileBytes)
	// A page (with or without JavaScript) goes back to the study page with a notice; a caller asking
	// for JSON (as the applicant's upload answers its script) gets the notice and the status itself.
	const wantsJson = request.headers.get('Accept')?.includes('application/json')
	const answer = async (notice: { tone: 'success' | 'error'; message: string }, status = 200, headers?: HeadersInit) =>
		wantsJson ? data({ ok: notice.tone === 'success', message: notice.message }, { status, headers }) : redirectWithFlash(back, notice, headers)
	const refuse = (why: 'case' | 'gone' | 'no-file' | 'too-large' | keyof typeof staffFileErrors | keyof typeof contentRefusalMessages, message: string, status: number, headers?: HeadersInit) => {
		noteAudit(context, { data: { refused: why } })
		return answer({ tone: 'error', message }, status, headers)
	}
	try {
		if (!request.headers.get('Content-Type')?.startsWith('multipart/form-data')) {
			const form = await request.formData()
			if (form.get('intent') !== 'remove') return data('الطلب غير صالح', { status: 400 })
			const removed = await removeVisitPhoto(db, row.id, String(form.get('file') ?? ''), user)
			if (!removed) return refuse('gone', 'لم تعد هذه الصورة في الطلب', 404)
			noteAudit(context, { data: { file: String(form.get('file')) } })
			return answer({ tone: 'success', message: 'حُذفت الصورة' })
		}
		// Refused from the Content-Length before a byte is read, and while streaming when it says none.
		if (declaredTooLarge(request, maxFileBytes, PHOTOS_PER_REQUEST)) return refuse('too-large', fileTooLarge(maxFileBytes), 413, { Connection: 'close' })
		const received = await receiveMultipleUploads(request, getCaseFileStorage(), { maxFileBytes, stopWhenTooLarge: !request.headers.has('content-length') }, 'photos', photoUpload, PHOTOS_PER_REQUEST)
		if (!received.ok) return received.error === 'too-large' ? refuse('too-large', refusal('too-large'), 413, { Connection: 'close' }) : refuse(received.error, refusal(received.error), 400)
		if (!received.files.length) return refuse('no-file', 'الرجاء اختيار صورة واحدة على الأقل', 400)
		const outcome = await addVisitPhotos(db, row.id, received.files, user)
		noteAudit(context, { data: { added: outcome.added, refused: outcome.refused.length } })
		const refused = outcome.refused.map((item) => `${item.name ? `«${item.name}»: ` : ''}${refusal(item.error)}`).join(' ')
		if (!outcome.added) return answer({ tone: 'error', message: refused }, outcome.refused.some((item) => item.error === 'too-many') ? 409 : 400)
		return answer({ tone: refused ? 'error' : 'success', message: `أُضيفت ${countOf(outcome.added, photos)}.${refused ? ` ${refused}` : ''}` })
	} catch (error) {
		if (!(error instanceof CaseChangeError)) throw error
		return refuse('case', error.message, 409)
	}
}
