import { data } from 'react-router'
import type { Route } from './+types/file'
import { findAttachment } from '#app/cases/case-store.server.ts'
import { loadApplication } from './+applicant.server.ts'
import { fileResponse } from '#app/storage/download.server.ts'
import { getCaseFileStorage } from '#app/storage/file-storage.server.ts'

/**
 * A case's file, for the holder of the private link only: a download, or with ?inline=1 (the
 * «عرض» link) shown in the browser. storedFileHeaders keeps `inline` only for a PDF or a picture,
 * under the sandbox policy; no page may frame it.
 */
export async function loader({ params, request }: Route.LoaderArgs) {
	const { db, row } = await loadApplication(request, params.token)
	const file = await findAttachment(db, row.id, params.fileId)
	if (!file) throw data(null, { status: 404 })
	const inline = new URL(request.url).searchParams.get('inline') === '1'
	return fileResponse(getCaseFileStorage(), file, 'private, no-store', inline ? 'inline' : 'attachment', request)
}
