import { and, asc, desc, eq, getTableColumns, isNull, like, sql, type SQL } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { contentEntries } from '#app/db/schema.ts'
import { containsPattern, foldArabic } from '#app/utils/arabic-search.ts'
import { htmlToPlainText } from '#app/utils/sanitize-html.server.ts'
import type { ContentData, ContentField, ContentType } from './definition.ts'
import { contentSchema } from './schema.ts'
import { isUuid } from '#app/utils/uuid.ts'

type AnyType = ContentType<readonly ContentField[]>
type Row = typeof contentEntries.$inferSelect
/** What a list shows of an entry: all but the folded words of its search (as long as its text). */
const { search: _search, ...listColumns } = getTableColumns(contentEntries)

/** A stored entry whose data has its type's shape (it was validated by the type's schema on save). */
export type ContentEntry<T extends AnyType = AnyType> = Omit<Row, 'data' | 'search'> & { data: ContentData<T> }

export class InvalidContentError extends Error {
	constructor(readonly issues: readonly { path: PropertyKey[]; message: string }[]) {
		super('invalid content')
	}
}

/** Which entries a list or count covers, beyond «this type, not deleted». */
export interface EntryQuery<T extends AnyType = AnyType> {
	/** The visitors' view: entries whose `publishedField` is not ticked are left out. */
	publishedOnly?: boolean
	/** Words looked for in the type's `searchFields`, Arabic-folded: «اسره» finds «أسرة». */
	search?: string
	/** yyyy-mm: entries whose `dateField` falls in that month. */
	month?: string
	/** Entries whose field has exactly this value (a document's category). */
	where?: Partial<Record<T['fields'][number]['name'], string | number>>
}

/**
 * A name from a content type's definition (a type, a field), written into the statement as a literal
 * rather than a parameter: only then can the planner use the indexes made on it (drizzle/0033, a
 * dated list newest first) whatever plan it keeps for a prepared statement.
 */
function literal(name: string): SQL {
	if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(name)) throw new Error(`Not a content type's or field's name: ${name}`)
	return sql.raw(`'${name}'`)
}

const field = (name: string) => sql`${contentEntries.data} ->> ${literal(name)}`

function conditions<T extends AnyType>(type: T, query: EntryQuery<T> = {}): SQL | undefined {
	const parts: (SQL | undefined)[] = [sql`${contentEntries.type} = ${literal(type.type)}`, isNull(contentEntries.deletedAt)]
	if (query.publishedOnly && type.publishedField) parts.push(sql`(${contentEntries.data} -> ${literal(type.publishedField)})::boolean is true`)
	// Every word, anywhere and in any order: «حملة رمضان» finds «حملة سلال رمضان».
	const words = query.search ? foldArabic(query.search).split(/\s+/).filter(Boolean) : []
	for (const word of words) parts.push(like(contentEntries.search, containsPattern(word)))
	if (query.month && type.dateField && /^\d{4}-\d{2}$/.test(query.month)) parts.push(like(field(type.dateField), `${query.month}-%`))
	for (const [name, value] of Object.entries(query.where ?? {})) if (value !== undefined) parts.push(sql`${field(name)} = ${String(value)}`)
	return and(...parts)
}

/** Newest first by the type's date, else by the «order» field then oldest first. */
const ordering = (type: AnyType) =>
	type.dateField ? [desc(field(type.dateField)), desc(contentEntries.createdAt)] : [asc(contentEntries.position), asc(contentEntries.createdAt)]

const typed = <T extends AnyType>(row: Omit<Row, 'search'>) => row as ContentEntry<T>

function validate<T extends AnyType>(type: T, data: unknown): ContentData<T> {
	const result = contentSchema(type).safeParse(data)
	if (!result.success) throw new InvalidContentError(result.error.issues)
	return result.data as ContentData<T>
}

/** The words a search matches: the search fields' text, tags and entities gone, folded. */
function searchText(type: AnyType, values: Record<string, unknown>): string {
	const words = (type.searchFields ?? []).map((name) => htmlToPlainText(String(values[name] ?? ''))).join(' ')
	return foldArabic(words).replace(/\s+/g, ' ').trim()
}

export async function countEntries<T extends AnyType>(db: Database, type: T, query?: EntryQuery<T>): Promise<number> {
	const [row] = await db.select({ value: sql<number>`count(*)::int` }).from(contentEntries).where(conditions(type, query))
	return Number(row?.value ?? 0)
}

/** Entries in their display order, optionally one page of them. */
export async function listEntries<T extends AnyType>(db: Database, type: T, page?: { offset: number; limit: number }, query?: EntryQuery<T>): Promise<ContentEntry<T>[]> {
	const rows = await entriesQuery(db, type, page, query)
	return rows.map(typed<T>)
}

/** listEntries' statement (app/content/news-plan.db.test.ts reads its plan). */
export function entriesQuery<T extends AnyType>(db: Database, type: T, page?: { offset: number; limit: number }, query?: EntryQuery<T>) {
	const select = db.select(listColumns).from(contentEntries).where(conditions(type, query)).orderBy(...ordering(type))
	return page ? select.offset(page.offset).limit(page.limit) : select
}

export async function getEntry<T extends AnyType>(db: Database, type: T, id: string, query?: EntryQuery<T>): Promise<ContentEntry<T> | undefined> {
	if (!isUuid(id)) return undefined
	const [row] = await db.select().from(contentEntries).where(and(conditions(type, query), eq(contentEntries.id, id)))
	return row && typed<T>(row)
}

/** A singleton's one entry (the newest, should two ever exist). */
export async function getSingleton<T extends AnyType>(db: Database, type: T): Promise<ContentEntry<T> | undefined> {
	const [row] = await db.select().from(contentEntries).where(conditions(type)).orderBy(sql`${contentEntries.updatedAt} desc`).limit(1)
	return row && typed<T>(row)
}

/** The months (yyyy-mm) of the type's date field that have entries, newest first, with their counts. */
export async function entryMonths<T extends AnyType>(db: Database, type: T, query?: EntryQuery<T>): Promise<{ month: string; count: number }[]> {
	if (!type.dateField) return []
	const month = sql<string>`left(${field(type.dateField)}, 7)`
	const rows = await db
		.select({ month, count: sql<number>`count(*)::int` })
		.from(contentEntries)
		.where(conditions(type, query))
		// By position: the month expression's parameters would make a second copy of it a different expression.
		.groupBy(sql`1`)
		.orderBy(sql`1 desc`)
	return rows.map((row) => ({ month: row.month, count: Number(row.count) }))
}

/**
 * Creates (id null) or replaces an entry's data, validated by its content type. `authorName` is
 * recorded on creation only: the one who published it stays its author whoever edits it later.
 */
export async function saveEntry<T extends AnyType>(db: Database, type: T, id: string | null, data: unknown, userId: number | null, authorName?: string): Promise<ContentEntry<T>> {
	const values = validate(type, data) as Record<string, unknown>
	for (const slugField of type.fields) {
		if (slugField.kind !== 'text' || !slugField.slug) continue
		const [taken] = await db
			.select({ id: contentEntries.id })
			.from(contentEntries)
			.where(and(conditions(type), sql`${field(slugField.name)} = ${String(values[slugField.name])}`, id ? sql`${contentEntries.id} <> ${id}` : undefined))
			.limit(1)
		if (taken) throw new InvalidContentError([{ path: [slugField.name], message: `${slugField.label}: مستخدم في عنصر آخر` }])
	}
	const position = typeof values.order === 'number' ? values.order : 0
	const search = searchText(type, values)
	if (id) {
		const [row] = await db
			.update(contentEntries)
			.set({ data: values, position, search, updatedBy: userId, updatedAt: sql`now()` })
			.where(and(conditions(type), eq(contentEntries.id, id)))
			.returning()
		if (!row) throw new InvalidContentError([{ path: [], message: 'المحتوى غير موجود' }])
		return typed<T>(row)
	}
	const [row] = await db.insert(contentEntries).values({ type: type.type, data: values, position, search, updatedBy: userId, authorName: authorName ?? null }).returning()
	return typed<T>(row!)
}

/** Soft delete: gone from the site and the lists, kept in the table. */
export async function deleteEntry(db: Database, type: AnyType, id: string, userId: number): Promise<boolean> {
	if (!isUuid(id)) return false
	const rows = await db
		.update(contentEntries)
		.set({ deletedAt: sql`now()`, updatedBy: userId })
		.where(and(conditions(type), eq(contentEntries.id, id)))
		.returning({ id: contentEntries.id })
	return rows.length > 0
}
