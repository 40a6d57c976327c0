import { buffer } from 'node:stream/consumers'
import { data } from 'react-router'
import sharp from 'sharp'
import type { Route } from './+types/page-thumbnail'
import { findPage } from '#app/cases/document-pages.server.ts'
import { loadApplication } from './+applicant.server.ts'
import { storedFileHeaders } from '#app/storage/download.server.ts'
import { getCaseFileStorage } from '#app/storage/file-storage.server.ts'
import { isUuid } from '#app/utils/uuid.ts'

/** The thumbnail's long side: two columns of them fit a 375 px phone. */
const THUMBNAIL_SIDE = 320

/**
 * A small picture of a document's page, for the holder of the private link only: drawn from the
 * cleaned page (never from the photo as sent) each time it is asked for, and kept by no cache. A
 * page still being cleaned, a PDF, or another case's page is a 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
	const { db, row } = await loadApplication(request, params.token)
	const page = isUuid(params.pageId) ? await findPage(db, row.id, params.pageId) : undefined
	if (!page || page.status !== 'ready' || page.contentType !== 'image/jpeg') throw data(null, { status: 404 })
	const cleaned = await buffer(await getCaseFileStorage().read(page.storageKey))
	const thumbnail = await sharp(cleaned).resize({ width: THUMBNAIL_SIDE, height: THUMBNAIL_SIDE, fit: 'inside' }).jpeg({ quality: 70 }).toBuffer()
	return new Response(new Uint8Array(thumbnail), {
		headers: { ...storedFileHeaders({ originalName: 'page.jpg', contentType: 'image/jpeg' }, 'inline'), 'Cache-Control': 'private, no-store', 'Content-Length': String(thumbnail.length) },
	})
}
