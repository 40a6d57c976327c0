import fsp from 'node:fs/promises'
import sharp from 'sharp'
import type { Database } from '#app/db/client.server.ts'
import { images } from '#app/db/schema.ts'
import type { ImageVariant } from '#app/images/pipeline.server.ts'
import type { FileStorage } from '#app/storage/file-storage.server.ts'

/**
 * A demo page image of the basic regulation, stored with WebP variants only. AVIF encoding of twenty
 * page images (processImage) added about 20 s to the first start on a small server; every browser
 * takes WebP, and <ResponsiveImage> offers AVIF only when an image has it. A page staff upload in its
 * place goes through processImage like any other upload.
 */
export async function seedWebpPicture(db: Database, storage: FileStorage, svg: string, alt: string, widths: readonly number[]): Promise<string> {
	const rendered = sharp(Buffer.from(svg)).flatten({ background: '#ffffff' })
	const { width, height } = await rendered.metadata()
	const variants: ImageVariant[] = []
	for (const variantWidth of widths) {
		const data = await rendered.clone().resize({ width: variantWidth }).webp({ quality: 75 }).toBuffer()
		const tempPath = storage.tempPath()
		await fsp.writeFile(tempPath, data, { flag: 'wx' })
		variants.push({ format: 'webp', width: variantWidth, key: await storage.adopt(tempPath), size: data.length })
	}
	const [row] = await db.insert(images).values({ originalName: 'demo.webp', width: width!, height: height!, variants, alt, createdBy: null }).returning()
	return row!.id
}
