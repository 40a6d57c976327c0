import { data } from 'react-router'
import type { Route } from './+types/content-upload'
import { requireRole } from '#app/auth/user-context.server.ts'
import { bulkFileField, receiveBulkUpload } from '#app/content/bulk-upload.server.ts'
import { filteredListPath } from '#app/content/list-filter.ts'
import { findContentType } from '#app/content/types.ts'
import { fieldMaxBytes } from '#app/content/upload-limits.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { getFileStorage } from '#app/storage/file-storage.server.ts'
import { flashCookie } from '#app/http/flash.server.ts'
import { audited } from '#app/audit/audit-trail.server.ts'

export const middleware = [audited({ read: false, write: 'content.upload' })]

/**
 * The bulk upload of a content list, answered in JSON for the form's XMLHttpRequest (its progress
 * bar). The list itself takes the same form without JavaScript (content-list.tsx).
 */
export async function action({ params, request, context }: Route.ActionArgs) {
	const user = requireRole(context, areaRoles.content)
	const type = findContentType(params.type)
	const field = type && bulkFileField(type)
	if (!type || !field) throw data(null, { status: 404 })
	const outcome = await receiveBulkUpload(await getDb(), getFileStorage(), type, request, { maxFileBytes: fieldMaxBytes(field), userId: user.id })
	if (!outcome.ok) return data({ ok: false, message: outcome.message }, { status: outcome.status, headers: outcome.unread ? { Connection: 'close' } : undefined })
	const notice = await flashCookie({ tone: outcome.refused ? 'error' : 'success', message: outcome.message })
	return data({ ok: true, to: filteredListPath(type, outcome.filter) }, { headers: { 'Set-Cookie': notice } })
}
