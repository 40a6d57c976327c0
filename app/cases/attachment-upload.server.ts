import { createHash } from 'node:crypto'
import fsp from 'node:fs/promises'
import sharp from 'sharp'
import type { FileKind } from '#app/forms/definition.ts'
import { MAX_PIXELS } from '#app/images/pipeline.server.ts'
import type { FileStorage } from '#app/storage/file-storage.server.ts'
import type { ReceivedFile, UploadKind } from '#app/storage/upload-stream.server.ts'

// An applicant's file: a PDF, or a photo (of a house) where the slot takes photos. Judged by its
// bytes; a photo is re-encoded to WebP (oriented, at most 2000px, no metadata: no GPS position of
// the family's home), so what is kept is never the file that was sent.

const photoMimes = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif', 'image/avif'] as const
export type AttachmentMime = 'application/pdf' | (typeof photoMimes)[number]

/** What the upload route receives before it knows the slot: a PDF or a photo, nothing else. */
export const attachmentUpload: UploadKind<AttachmentMime, 'not-accepted'> = {
	accept: (mime): mime is AttachmentMime => mime === 'application/pdf' || (photoMimes as readonly string[]).includes(mime),
	refusal: 'not-accepted',
	fallbackName: 'file',
}

/** What a photos-only input accepts (a home visit's photos): any picture (a GIF too, kept as its first frame), never a PDF. */
const staffPhotoMimes = [...photoMimes, 'image/gif'] as const
export const photoUpload: UploadKind<(typeof staffPhotoMimes)[number], 'not-photo'> = {
	accept: (mime): mime is (typeof staffPhotoMimes)[number] => (staffPhotoMimes as readonly string[]).includes(mime),
	refusal: 'not-photo',
	fallbackName: 'photo',
}

export function kindOfMime(mime: string): FileKind | null {
	if (mime === 'application/pdf') return 'pdf'
	return (photoMimes as readonly string[]).includes(mime) ? 'photo' : null
}

export class UnreadablePhotoError extends Error {}

const PHOTO_SIDE = 2000

/**
 * Re-encodes a received photo to WebP in a new temp file and removes the original; throws
 * UnreadablePhotoError for an image sharp cannot read (corrupt, or HEIC from a camera whose codec
 * this build does not carry: phones send JPEG to a file input that asks for JPEG).
 */
export async function reencodePhoto(storage: FileStorage, file: ReceivedFile): Promise<ReceivedFile<'image/webp'>> {
	try {
		let data: Buffer
		try {
			data = await sharp(file.tempPath, { limitInputPixels: MAX_PIXELS, pages: 1 })
				.autoOrient()
				.resize({ width: PHOTO_SIDE, height: PHOTO_SIDE, fit: 'inside', withoutEnlargement: true })
				.webp({ quality: 80 })
				.toBuffer()
		} catch (error) {
			throw new UnreadablePhotoError('unreadable photo', { cause: error })
		}
		const tempPath = storage.tempPath()
		await fsp.writeFile(tempPath, data, { flag: 'wx' })
		const originalName = `${file.originalName.replace(/\.[^.]{1,5}$/, '')}.webp`
		return { tempPath, originalName, size: data.length, sha256: createHash('sha256').update(data).digest('hex'), mime: 'image/webp' }
	} finally {
		await fsp.rm(file.tempPath, { force: true })
	}
}
