import type { Database } from '#app/db/client.server.ts'
import { seedPicture } from '#app/images/deferred.server.ts'
import type { FileStorage } from '#app/storage/file-storage.server.ts'

/**
 * A demo page image of the basic regulation, in WebP only: AVIF encoding of twenty page images
 * is the slow part of making them, and every browser takes WebP. A page staff upload in its place
 * gets both formats, like any other upload. Deferred like every demo picture (seedPicture).
 */
export async function seedWebpPicture(db: Database, storage: FileStorage, svg: string, alt: string): Promise<string> {
	return seedPicture(db, storage, svg, alt, { formats: ['webp'] })
}
