import { data } from 'react-router'
import type { Route } from './+types/case-file'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { findAttachment, findCaseByReference } from '#app/cases/case-store.server.ts'
import { normaliseReference } from '#app/cases/tokens.server.ts'
import { areaRoles, hasRole } from '#app/db/roles.ts'
import { fileResponse } from '#app/storage/download.server.ts'
import { getCaseFileStorage } from '#app/storage/file-storage.server.ts'
import { audited } from '#app/audit/audit-trail.server.ts'

export const middleware = [audited({ read: 'case.file', write: false })]

/**
 * A case's file for staff who handle cases (never a content editor): a download, or with
 * ?inline=1 the PDF itself for the case view's preview frame (our own pages may frame it).
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
	const user = requireRole(context, areaRoles.caseReading)
	const db = await getDb()
	const reference = normaliseReference(params.reference)
	const row = reference ? await findCaseByReference(db, reference) : undefined
	if (!row || (row.deletedAt && !hasRole(user, 'admin'))) throw data(null, { status: 404 })
	const file = await findAttachment(db, row.id, params.fileId, { staffFiles: true })
	if (!file) throw data(null, { status: 404 })
	const inline = new URL(request.url).searchParams.get('inline') === '1'
	return fileResponse(getCaseFileStorage(), file, 'private, no-store', inline ? 'inline' : 'attachment', request, inline ? 'self' : 'none')
}
