import { data } from 'react-router'
import type { Route } from './+types/case-file'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { findAttachment, findCaseByReference } from '#app/cases/case-store.server.ts'
import { normaliseReference } from '#app/cases/tokens.server.ts'
import { areaRoles, hasRole } from '#app/db/roles.ts'
import { fileResponse, storedFileHeaders } from '#app/storage/download.server.ts'
import { FileNotFoundError, getCaseFileStorage } from '#app/storage/file-storage.server.ts'
import { photoThumbnail } from '#app/cases/photo-thumbnails.server.ts'
import { audited } from '#app/audit/audit-trail.server.ts'

export const middleware = [audited({ read: 'case.file', write: false })]

/**
 * A case's file for staff who handle cases (never a content editor): a download, or with
 * ?inline=1 the PDF itself for the case view's preview frame (our own pages may frame it), or with
 * ?size=thumbnail a photo's thumbnail.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
	const user = requireRole(context, areaRoles.caseReading)
	const db = await getDb()
	const reference = normaliseReference(params.reference)
	const row = reference ? await findCaseByReference(db, reference) : undefined
	if (!row || (row.deletedAt && !hasRole(user, 'admin'))) throw data(null, { status: 404 })
	const file = await findAttachment(db, row.id, params.fileId, { staffFiles: true })
	if (!file) throw data(null, { status: 404 })
	const query = new URL(request.url).searchParams
	// A photo's thumbnail for the case view's grid; the photo itself is its link (issue 37, part 2.10).
	if (query.get('size') === 'thumbnail' && file.contentType.startsWith('image/')) {
		let thumbnail: Buffer
		try {
			thumbnail = await photoThumbnail(getCaseFileStorage(), file)
		} catch (error) {
			if (error instanceof FileNotFoundError) throw data(null, { status: 404 })
			throw error
		}
		return new Response(new Uint8Array(thumbnail), {
			headers: {
				...storedFileHeaders({ originalName: file.originalName, contentType: 'image/webp' }, 'inline', 'self'),
				'Cache-Control': 'private, no-store',
				'Content-Length': String(thumbnail.length),
			},
		})
	}
	const inline = query.get('inline') === '1'
	return fileResponse(getCaseFileStorage(), file, 'private, no-store', inline ? 'inline' : 'attachment', request, inline ? 'self' : 'none')
}
