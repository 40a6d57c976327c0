import type { Database } from '#app/db/client.server.ts'
import { generateImage, processImage } from '#app/images/pipeline.server.ts'
import type { FileStorage } from '#app/storage/file-storage.server.ts'

/**
 * A demo page image of the basic regulation, in WebP only: AVIF encoding of twenty page images
 * added about 20 s to the first start on a small server, and every browser takes WebP. A page staff
 * upload in its place gets both formats, like any other upload.
 */
export async function seedWebpPicture(db: Database, storage: FileStorage, svg: string, alt: string): Promise<string> {
	const tempPath = await generateImage(svg)
	return (await processImage(db, storage, { tempPath, originalName: 'demo.png', alt, createdBy: null, formats: ['webp'] })).id
}
