import { data } from 'react-router'
import type { Route } from './+types/file'
import { findAttachment } from '#app/cases/case-store.server.ts'
import { loadApplication } from './+applicant.server.ts'
import { fileResponse } from '#app/storage/download.server.ts'
import { getCaseFileStorage } from '#app/storage/file-storage.server.ts'

/** A case's file, for the holder of the private link only. */
export async function loader({ params }: Route.LoaderArgs) {
	const { db, row } = await loadApplication(params.token)
	const file = await findAttachment(db, row.id, params.fileId)
	if (!file) throw data(null, { status: 404 })
	return fileResponse(getCaseFileStorage(), file, 'private, no-store')
}
