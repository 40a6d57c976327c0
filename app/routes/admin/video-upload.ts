import { data } from 'react-router'
import type { Route } from './+types/video-upload'
import { requireRole } from '#app/auth/user-context.server.ts'
import { fileFields } from '#app/content/definition.ts'
import { findContentType } from '#app/content/types.ts'
import { getDb } from '#app/db/database.server.ts'
import { storeDocument } from '#app/documents/documents-library.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { posterImage, videoUpload, videoUploadLimits } from '#app/content/gallery/video.server.ts'
import { getFileStorage } from '#app/storage/file-storage.server.ts'
import { declaredTooLarge, receiveUpload } from '#app/storage/upload-stream.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { notVideo, videoTooLarge, videoUploadFailed } from '#app/content/gallery/video-messages.ts'
import { contentRefusalMessages } from '#app/storage/upload-messages.ts'
import { audited } from '#app/audit/audit-trail.server.ts'

export const middleware = [audited({ read: false, write: 'content.upload' })]

/**
 * A content form's video, sent ahead of the form so that a progress bar can show
 * (app/content/gallery/video-input.tsx): streamed to disk, judged by its bytes, stored as a published
 * file; its id (and a poster frame's, when ffmpeg is installed) goes back as JSON for the form to
 * carry. Unused, both are swept later like any upload of a form never saved.
 */
export async function action({ params, request, context }: Route.ActionArgs) {
	const user = requireRole(context, areaRoles.content)
	const type = findContentType(params.type)
	const field = type && fileFields(type).find((candidate) => candidate.kind === 'video')
	if (!type || !field) throw data(null, { status: 404 })
	// Each refusal in words too, for a client other than the form (which has its own, video-input.tsx).
	const messages: Record<string, string> = { 'too-large': videoTooLarge(getEnv().videoMaxBytes), 'not-video': notVideo, 'no-file': 'الرجاء اختيار ملف الفيديو.', ...contentRefusalMessages }
	const refuse = (error: string, status = 400) => data({ error, message: messages[error] ?? videoUploadFailed }, status === 413 ? { status, headers: { Connection: 'close' } } : { status })
	// Said from the Content-Length, before a byte of the body is read; the connection then closes.
	if (declaredTooLarge(request, getEnv().videoMaxBytes)) return refuse('too-large', 413)
	const storage = getFileStorage()
	const upload = await receiveUpload(request, storage, videoUploadLimits(), videoUpload)
	if (!upload.ok) return refuse(upload.error, upload.error === 'too-large' ? 413 : 400)
	if (!upload.file) return refuse('no-file')
	const db = await getDb()
	const poster = field.kind === 'video' && field.poster ? await posterImage(db, storage, upload.file.tempPath, user.id) : null
	const stored = await storeDocument(db, storage, upload.file, user.id)
	return { id: stored.id, name: stored.originalName, size: stored.size, poster }
}
