import { inArray } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { documents, images } from '#app/db/schema.ts'
import { toDocumentData, type DocumentData } from '#app/documents/documents-library.server.ts'
import { toImageData, type ImageData } from '#app/images/responsive-image.tsx'
import { documentFields, imageFields, type ContentData, type ContentField, type ContentType } from './definition.ts'
import { getSingleton, type ContentEntry } from './store.server.ts'
import { associationGuide } from './types.ts'

type AnyType = ContentType<readonly ContentField[]>
type FieldNamed<T extends AnyType, Kind extends ContentField['kind']> = Extract<T['fields'][number], { kind: Kind }>['name']

export interface PublicEntry<T extends AnyType = AnyType> {
	id: string
	data: ContentData<T>
	/** Each image field's image, ready for <ResponsiveImage>. */
	images: Record<FieldNamed<T, 'image'>, ImageData | null>
	/** Each document or video field's file, ready to offer for download or play. */
	documents: Record<FieldNamed<T, 'document' | 'video'>, DocumentData | null>
	/** Who published it and how often it was read (news). */
	authorName: string
	views: number
}

const idsOf = (entries: readonly ContentEntry[], fields: readonly ContentField[]) =>
	entries.flatMap((entry) => fields.map((field) => (entry.data as Record<string, unknown>)[field.name]).filter((id): id is string => typeof id === 'string'))

function pick<T>(data: Record<string, unknown>, fields: readonly ContentField[], byId: Map<string, T>): Record<string, T | null> {
	return Object.fromEntries(fields.map((field) => [field.name, typeof data[field.name] === 'string' ? (byId.get(data[field.name] as string) ?? null) : null]))
}

/** Entries as pages show them: their data and, in one query each, the images and files they point to. */
export async function withMedia<T extends AnyType>(db: Database, type: T, entries: readonly ContentEntry<T>[]): Promise<PublicEntry<T>[]> {
	const [pictures, files] = [imageFields(type), documentFields(type)]
	const imageIds = idsOf(entries, pictures)
	const documentIds = idsOf(entries, files)
	const [imageRows, documentRows] = await Promise.all([
		imageIds.length ? db.select().from(images).where(inArray(images.id, imageIds)) : [],
		documentIds.length ? db.select().from(documents).where(inArray(documents.id, documentIds)) : [],
	])
	const imagesById = new Map(imageRows.map((row) => [row.id, toImageData(row)]))
	const documentsById = new Map(documentRows.map((row) => [row.id, toDocumentData(row)]))
	return entries.map((entry) => {
		const data = entry.data as Record<string, unknown>
		return {
			id: entry.id,
			data: entry.data,
			images: pick(data, pictures, imagesById) as PublicEntry<T>['images'],
			documents: pick(data, files, documentsById) as PublicEntry<T>['documents'],
			authorName: entry.authorName ?? '',
			views: entry.views,
		}
	})
}

/** The guidance manual for associations' requests staff uploaded (/admin/content/association-guide/edit), or null. */
export async function associationGuidePdf(db: Database) {
	const entry = await getSingleton(db, associationGuide)
	const [shown] = entry ? await withMedia(db, associationGuide, [entry]) : []
	return shown?.documents.pdf ?? null
}
