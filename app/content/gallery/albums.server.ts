import { and, eq, isNull, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { contentEntries } from '#app/db/schema.ts'
import { withMedia, type PublicEntry } from '#app/content/public.server.ts'
import { countEntries, getEntry, listEntries, saveEntry, type ContentEntry } from '#app/content/store.server.ts'
import { albums, photos } from '#app/content/types.ts'
import fsp from 'node:fs/promises'
import { InvalidImageError, MAX_PIXELS, MIN_SIDE, processImage } from '#app/images/pipeline.server.ts'
import type { ImageData } from '#app/images/responsive-image.tsx'
import type { FileStorage } from '#app/storage/file-storage.server.ts'
import type { PartResult, UploadKind } from '#app/storage/upload-stream.server.ts'
import { EMPTY_FILE } from '#app/storage/upload-messages.ts'
import { countOf, photos as photoNoun } from '#app/text/arabic-count.ts'

// The photo gallery's queries: albums are one content type, their photos another whose `album`
// field holds the album's entry id (docs/product.md#photo-and-video-galleries).

export type Album = ContentEntry<typeof albums>
export type Photo = PublicEntry<typeof photos>

export interface AlbumCard {
	id: string
	title: string
	slug: string
	date: string
	description: string
	count: number
	cover: ImageData | null
}

const photoCounts = sql<number>`count(*)::int`

/** How many photos each of these albums has, in one query. */
async function countPhotos(db: Database, albumIds: readonly string[]): Promise<Map<string, number>> {
	if (albumIds.length === 0) return new Map()
	const album = sql<string>`${contentEntries.data} ->> 'album'`
	const rows = await db
		.select({ album, count: photoCounts })
		.from(contentEntries)
		.where(
			and(
				eq(contentEntries.type, photos.type),
				isNull(contentEntries.deletedAt),
				sql`${album} in (${sql.join(
					albumIds.map((id) => sql`${id}`),
					sql`, `,
				)})`,
			),
		)
		.groupBy(sql`1`)
	return new Map(rows.map((row) => [row.album, Number(row.count)]))
}

/** An album's cover: the photo staff chose, else its first photo; null when it has none. */
async function coverOf(db: Database, album: Album): Promise<ImageData | null> {
	const chosen = album.data.cover ? await getEntry(db, photos, album.data.cover, { where: { album: album.id } }) : undefined
	const entry = chosen ?? (await listEntries(db, photos, { offset: 0, limit: 1 }, { where: { album: album.id } }))[0]
	if (!entry) return null
	const [shown] = await withMedia(db, photos, [entry])
	return shown?.images.image ?? null
}

/** Albums as cards, newest first: cover, title, how many photos. */
export async function albumCards(db: Database, page?: { offset: number; limit: number }): Promise<AlbumCard[]> {
	const entries = await listEntries(db, albums, page)
	const counts = await countPhotos(
		db,
		entries.map((entry) => entry.id),
	)
	return Promise.all(
		entries.map(async (entry) => ({
			id: entry.id,
			title: entry.data.title,
			slug: entry.data.slug,
			date: entry.data.date,
			description: entry.data.description,
			count: counts.get(entry.id) ?? 0,
			cover: await coverOf(db, entry),
		})),
	)
}

export const countAlbums = (db: Database) => countEntries(db, albums)

export async function albumBySlug(db: Database, slug: string): Promise<Album | undefined> {
	const [entry] = await listEntries(db, albums, { offset: 0, limit: 1 }, { where: { slug } })
	return entry
}

export const findAlbum = (db: Database, id: string) => getEntry(db, albums, id)

export const countAlbumPhotos = (db: Database, albumId: string) => countEntries(db, photos, { where: { album: albumId } })

/** An album's photos in their order (the «order» field, then oldest first), with their images. */
export async function albumPhotos(db: Database, albumId: string, page?: { offset: number; limit: number }): Promise<Photo[]> {
	return withMedia(db, photos, await listEntries(db, photos, page, { where: { album: albumId } }))
}

/** The next «order» for a photo added to the album: after every photo it has. */
export async function nextPhotoOrder(db: Database, albumId: string): Promise<number> {
	const order = sql<number>`coalesce(max((${contentEntries.data} ->> 'order')::int), 0)::int`
	const [row] = await db
		.select({ order })
		.from(contentEntries)
		.where(and(eq(contentEntries.type, photos.type), isNull(contentEntries.deletedAt), sql`${contentEntries.data} ->> 'album' = ${albumId}`))
	return Number(row?.order ?? 0) + 1
}

const photoMimes = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif', 'image/avif', 'image/gif', 'image/apng'] as const

/**
 * What an album takes: the pipeline's images and the HEIC photos iPhones take, judged by their
 * bytes. A HEIC the image library cannot decode is refused as unreadable, with advice.
 */
export const photoUpload: UploadKind<(typeof photoMimes)[number], 'not-image'> = {
	accept: (mime): mime is (typeof photoMimes)[number] => (photoMimes as readonly string[]).includes(mime),
	refusal: 'not-image',
	fallbackName: 'photo',
}

export interface AddedPhotos {
	added: number
	/** One line per file refused: its name and why. */
	refused: string[]
}

const photoRefusals = {
	'not-image': 'الملف ليس صورة. اختر صوراً بصيغة JPEG أو PNG أو WebP أو HEIC.',
	unreadable: 'تعذرت قراءة الصورة. إن كانت بصيغة HEIC من الجوال فحوّلها إلى JPEG ثم أعد رفعها.',
	'too-small': `الصورة صغيرة جداً: أقل ضلع فيها ${MIN_SIDE} نقطة على الأقل. اختر صورة أكبر.`,
	'too-large': `حجم الصورة أو أبعادها أكبر من المسموح (حتى ${MAX_PIXELS / 1_000_000} مليون نقطة). صغّرها ثم أعد رفعها.`,
	empty: EMPTY_FILE,
} as const

/**
 * Each received file through the image pipeline, then a photo entry at the end of the album; a
 * refused file is told by name and the others are kept. Temp files are all gone when it returns.
 */
export async function addPhotos(db: Database, storage: FileStorage, albumId: string, files: readonly PartResult[], userId: number): Promise<AddedPhotos> {
	const outcome: AddedPhotos = { added: 0, refused: [] }
	try {
		await addEach(db, storage, albumId, files, userId, outcome)
	} finally {
		// An unexpected failure midway leaves the files not yet processed: theirs too are removed.
		await Promise.all(files.map((file) => (file.ok ? fsp.rm(file.file.tempPath, { force: true }) : undefined)))
	}
	return outcome
}

async function addEach(db: Database, storage: FileStorage, albumId: string, files: readonly PartResult[], userId: number, outcome: AddedPhotos): Promise<void> {
	let order = await nextPhotoOrder(db, albumId)
	for (const file of files) {
		if (!file.ok) {
			outcome.refused.push(`«${file.originalName ?? 'ملف'}»: ${photoRefusals[file.error as keyof typeof photoRefusals] ?? photoRefusals['not-image']}`)
			continue
		}
		try {
			const image = await processImage(db, storage, { tempPath: file.file.tempPath, originalName: file.file.originalName, alt: '', createdBy: userId })
			await saveEntry(db, photos, null, { album: albumId, image: image.id, caption: '', order: order++ }, userId)
			outcome.added++
		} catch (error) {
			if (!(error instanceof InvalidImageError)) throw error
			outcome.refused.push(`«${file.file.originalName}»: ${photoRefusals[error.reason]}`)
		}
	}
}

/** «تمت إضافة 3 صور»; refusals after it, within a notice's 500 characters. */
export function addedMessage({ added, refused }: AddedPhotos): string {
	// After «إضافة» the dual is genitive: «صورتين».
	const done = added === 0 ? 'لم تُضف أي صورة.' : `تمت إضافة ${countOf(added, { ...photoNoun, two: 'صورتين' })} بنجاح.`
	const message = [done, ...refused].join(' ')
	return message.length > 480 ? `${message.slice(0, 478)}…` : message
}
