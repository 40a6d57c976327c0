import { and, asc, eq, isNull, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { contentEntries } from '#app/db/schema.ts'
import type { ContentType } from './definition.ts'
import { contentSchema, type ContentData } from './schema.ts'
import { isUuid } from '#app/utils/uuid.ts'

export type ContentEntry = typeof contentEntries.$inferSelect

export class InvalidContentError extends Error {
	constructor(readonly issues: readonly { path: PropertyKey[]; message: string }[]) {
		super('invalid content')
	}
}

const live = (type: ContentType) => and(eq(contentEntries.type, type.type), isNull(contentEntries.deletedAt))

function validate(type: ContentType, data: unknown): ContentData {
	const result = contentSchema(type).safeParse(data)
	if (!result.success) throw new InvalidContentError(result.error.issues)
	return result.data as ContentData
}

export async function countEntries(db: Database, type: ContentType): Promise<number> {
	const [row] = await db.select({ value: sql<number>`count(*)::int` }).from(contentEntries).where(live(type))
	return Number(row?.value ?? 0)
}

/** Entries in their display order (the «order» field, then oldest first). */
export function listEntries(db: Database, type: ContentType, page?: { offset: number; limit: number }): Promise<ContentEntry[]> {
	const query = db.select().from(contentEntries).where(live(type)).orderBy(asc(contentEntries.position), asc(contentEntries.createdAt))
	return page ? query.offset(page.offset).limit(page.limit) : query
}

export async function getEntry(db: Database, type: ContentType, id: string): Promise<ContentEntry | undefined> {
	if (!isUuid(id)) return undefined
	const [row] = await db.select().from(contentEntries).where(and(live(type), eq(contentEntries.id, id)))
	return row
}

/** A singleton's one entry (the newest, should two ever exist). */
export async function getSingleton(db: Database, type: ContentType): Promise<ContentEntry | undefined> {
	const [row] = await db.select().from(contentEntries).where(live(type)).orderBy(sql`${contentEntries.updatedAt} desc`).limit(1)
	return row
}

/** Creates (id null) or replaces an entry's data, validated by its content type. */
export async function saveEntry(db: Database, type: ContentType, id: string | null, data: unknown, userId: number | null): Promise<ContentEntry> {
	const values = validate(type, data)
	for (const field of type.fields) {
		if (field.kind !== 'text' || !field.slug) continue
		const [taken] = await db
			.select({ id: contentEntries.id })
			.from(contentEntries)
			.where(and(live(type), sql`${contentEntries.data} ->> ${field.name} = ${String(values[field.name])}`, id ? sql`${contentEntries.id} <> ${id}` : undefined))
			.limit(1)
		if (taken) throw new InvalidContentError([{ path: [field.name], message: `${field.label}: مستخدم في عنصر آخر` }])
	}
	const position = typeof values.order === 'number' ? values.order : 0
	if (id) {
		const [row] = await db
			.update(contentEntries)
			.set({ data: values, position, updatedBy: userId, updatedAt: sql`now()` })
			.where(and(live(type), eq(contentEntries.id, id)))
			.returning()
		if (!row) throw new InvalidContentError([{ path: [], message: 'المحتوى غير موجود' }])
		return row
	}
	const [row] = await db.insert(contentEntries).values({ type: type.type, data: values, position, updatedBy: userId }).returning()
	return row!
}

/** Soft delete: gone from the site and the lists, kept in the table. */
export async function deleteEntry(db: Database, type: ContentType, id: string, userId: number): Promise<boolean> {
	const rows = await db
		.update(contentEntries)
		.set({ deletedAt: sql`now()`, updatedBy: userId })
		.where(and(live(type), eq(contentEntries.id, id)))
		.returning({ id: contentEntries.id })
	return rows.length > 0
}
