import { Readable } from 'node:stream'
import { data } from 'react-router'
import type { Route } from './+types/serve'
import { getDb } from '#app/db/database.server.ts'
import { deferredVariant, isDeferred } from '#app/images/deferred.server.ts'
import { findImage } from '#app/images/pipeline.server.ts'
import { storedFileHeaders } from '#app/storage/download.server.ts'
import { FileNotFoundError, getFileStorage } from '#app/storage/file-storage.server.ts'

// The canonical spelling only ("0640.webp" is not "640.webp"): each URL is cached for a year.
const filePattern = /^([1-9]\d{1,3})\.(avif|webp)$/

/** One variant of an image, for anyone: public pictures, cached for good since a variant never changes (a new upload is a new id). */
export async function loader({ params }: Route.LoaderArgs) {
	const match = filePattern.exec(params.file)
	if (!match) throw data(null, { status: 404 })
	const width = Number(match[1])
	const format = match[2] === 'avif' ? 'avif' : 'webp'
	// findImage checks the id is a uuid before it reaches the database.
	const image = await findImage(await getDb(), params.id)
	const variant = image?.variants.find((item) => item.format === format && item.width === width)
	if (!image || !variant) throw data(null, { status: 404 })
	// Shown in place by <img>, downloaded under the uploaded picture's name and this variant's size.
	const name = `${image.originalName.replace(/\.[^.]{1,5}$/, '')}-${width}.${format}`
	const headers = (size: number) => ({
		...storedFileHeaders({ originalName: name, contentType: `image/${format}` }, 'inline'),
		'Content-Length': String(size),
		'Cache-Control': 'public, max-age=31536000, immutable',
	})
	try {
		if (isDeferred(variant)) {
			// A demo picture's variant, made now by the first request for it if the background pass has not yet.
			const bytes = await deferredVariant(getFileStorage(), image.id, variant)
			return new Response(new Uint8Array(bytes), { headers: headers(bytes.length) })
		}
		const stream = await getFileStorage().read(variant.key)
		return new Response(Readable.toWeb(stream) as ReadableStream, { headers: headers(variant.size) })
	} catch (error) {
		if (error instanceof FileNotFoundError) throw data(null, { status: 404 })
		throw error
	}
}
