import { and, desc, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm'
import { containsPattern } from '#app/utils/arabic-search.ts'
import type { Database } from '#app/db/client.server.ts'
import { contactInquiries } from '#app/db/schema.ts'
import { isUuid } from '#app/utils/uuid.ts'

export type Inquiry = typeof contactInquiries.$inferSelect

export interface NewInquiry {
	name: string
	email: string
	mobile: string
	subject: string
	message: string
}

/** Stored before anything is e-mailed: a message is never lost because mail is down. */
export async function storeInquiry(db: Database, input: NewInquiry): Promise<Inquiry> {
	const [row] = await db.insert(contactInquiries).values(input).returning()
	return row!
}

export async function markEmailed(db: Database, id: string): Promise<void> {
	await db.update(contactInquiries).set({ emailedAt: sql`now()` }).where(eq(contactInquiries.id, id))
}

function searchCondition(query: string): SQL | undefined {
	const q = query.trim()
	if (!q) return undefined
	const pattern = containsPattern(q)
	return or(
		ilike(contactInquiries.name, pattern),
		ilike(contactInquiries.email, pattern),
		ilike(contactInquiries.subject, pattern),
		ilike(contactInquiries.message, pattern),
		ilike(contactInquiries.mobile, pattern),
	)
}

export async function countInquiries(db: Database, query = ''): Promise<{ total: number; unread: number }> {
	const [row] = await db
		.select({ total: sql<number>`count(*)::int`, unread: sql<number>`count(*) filter (where ${contactInquiries.readAt} is null)::int` })
		.from(contactInquiries)
		.where(searchCondition(query))
	return { total: Number(row?.total ?? 0), unread: Number(row?.unread ?? 0) }
}

/** Newest first, optionally matching a search over name, e-mail, mobile, subject and text. */
export function listInquiries(db: Database, options: { query?: string; offset: number; limit: number }): Promise<Inquiry[]> {
	return db
		.select()
		.from(contactInquiries)
		.where(searchCondition(options.query ?? ''))
		.orderBy(desc(contactInquiries.createdAt))
		.offset(options.offset)
		.limit(options.limit)
}

/** Opens one message; the first opening marks it read. */
export async function readInquiry(db: Database, id: string): Promise<Inquiry | undefined> {
	if (!isUuid(id)) return undefined
	await db.update(contactInquiries).set({ readAt: sql`now()` }).where(and(eq(contactInquiries.id, id), isNull(contactInquiries.readAt)))
	const [row] = await db.select().from(contactInquiries).where(eq(contactInquiries.id, id))
	return row
}

export async function setHandled(db: Database, id: string, userId: number, handled: boolean): Promise<void> {
	await db
		.update(contactInquiries)
		.set(handled ? { handledAt: sql`now()`, handledBy: userId } : { handledAt: null, handledBy: null })
		.where(eq(contactInquiries.id, id))
}
