// How often an entry (a news item) was read, as its page shows it (docs/product.md#news): a visit
// counts once per visitor in a window of hours, and not at all from a bot or for an entry that
// visitors cannot see. A visitor is a keyed hash of the address and the browser: no address is
// stored, and the key never leaves the database, so the hash cannot be reversed by guessing.
//
// The page is kept by the page cache like any other public page (app/cache/page-cache.server.ts):
// a visit, a cache hit included, is noted here in memory and written every few seconds, in one
// statement for all the visits noted, so that counting costs no page drawn. The count a page shows
// is the one stored when the page was drawn: up to the cache's lifetime old.
import { appSecret } from '#app/db/app-secrets.server.ts'
import { createHmac } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { isbot } from 'isbot'
import type { Database } from '#app/db/client.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { contentEntries, contentViews } from '#app/db/schema.ts'
import { logger } from '#app/utils/log.server.ts'
import { isUuid } from '#app/utils/uuid.ts'
import type { ContentField, ContentType } from './definition.ts'
import { news } from './types.ts'

/** The same visitor reading the same entry again within this many hours is not a new view. */
export const VIEW_WINDOW_HOURS = 6
/** Visits noted are written this long after the first of them, or at once when this many are waiting. */
export const VIEW_FLUSH_MS = 2_000
const FLUSH_AT = 1_000
/** Beyond this many waiting (a flood the database cannot keep up with), further visits are not counted. */
const MAX_WAITING = 20_000

const SECRET_NAME = 'content-views-visitor'
const window = sql.raw(`interval '${VIEW_WINDOW_HOURS} hours'`)

/** The types whose pages count their visits, by the name a page's view tag gives (`<type> <id>`). */
const countedTypes = new Map<string, ContentType<readonly ContentField[]>>([[news.type, news]])

/** The tag a page carries (app/cache/page-cache.server.ts, VIEW_HEADER) to have its visits counted. */
export function viewTag(type: ContentType<readonly ContentField[]>, entryId: string): string {
	return `${type.type} ${entryId}`
}

export interface Visit {
	entryId: string
	/** The keyed hash of the visitor's address and browser (visitorOf). */
	visitor: string
}

/** Who is visiting, as a keyed hash of their address and browser; null for a bot, which is not counted. */
export function visitorOf(secret: string, address: string, userAgent: string): string | null {
	if (!userAgent || isbot(userAgent)) return null
	return createHmac('sha256', secret).update(`${address}\n${userAgent}`).digest('base64url')
}

/**
 * Counts each visit that is its visitor's first to the entry within the window, and gives the
 * entries' new numbers of views (the entries no visit counted for are absent). One statement: each
 * visitor's row is inserted, or its time moved on only when older than the window, and the counter
 * goes up by the rows that changed — a visit noted twice cannot count twice. Every other row older
 * than the window (of any entry) is purged on the way, so the table holds no more than the last few
 * hours' visitors. An entry visitors cannot see (unpublished, deleted, unknown) counts nothing.
 */
export async function countViews(db: Database, type: ContentType<readonly ContentField[]>, visits: readonly Visit[]): Promise<Map<string, number>> {
	const unique = new Map<string, Visit>()
	for (const visit of visits) if (isUuid(visit.entryId)) unique.set(`${visit.entryId} ${visit.visitor}`, visit)
	const counted = new Map<string, number>()
	if (unique.size === 0) return counted
	const published = type.publishedField ? sql`and (${contentEntries.data} -> ${type.publishedField})::boolean is true` : sql``
	const rows = sql.join(
		[...unique.values()].map((visit) => sql`(${visit.entryId}::uuid, ${visit.visitor}::text)`),
		sql`, `,
	)
	const result = await db.execute<{ id: string; views: number }>(sql`
			with visits (entry_id, visitor) as (values ${rows}),
			visible as (
				select visits.entry_id, visits.visitor from visits
				join ${contentEntries} on ${contentEntries.id} = visits.entry_id
				where ${contentEntries.type} = ${type.type} and ${contentEntries.deletedAt} is null ${published}
			), seen as (
				insert into ${contentViews} (entry_id, visitor, seen_at)
				select entry_id, visitor, now() from visible
				on conflict (entry_id, visitor) do update set seen_at = excluded.seen_at
				where ${contentViews.seenAt} < now() - ${window}
				returning entry_id
			), purged as (
				delete from ${contentViews}
				where ${contentViews.seenAt} < now() - ${window}
				and (${contentViews.entryId}, ${contentViews.visitor}) not in (select entry_id, visitor from visits)
			), added as (
				select entry_id, count(*)::int as n from seen group by entry_id
			)
			update ${contentEntries} set views = ${contentEntries.views} + added.n
			from added where ${contentEntries.id} = added.entry_id
			returning ${contentEntries.id} as id, ${contentEntries.views} as views`)
	for (const row of result.rows) counted.set(row.id, Number(row.views))
	return counted
}

interface Waiting {
	type: string
	entryId: string
	address: string
	userAgent: string
}

const waiting = new Map<string, Waiting>()
let timer: NodeJS.Timeout | undefined
let flushing: Promise<void> = Promise.resolve()

/**
 * Notes a visit to a page tagged `<type> <id>` (viewTag) from an address and a browser: a bot, a
 * tag of no counted type and a visit already waiting are left out here, cheaply, as this runs on
 * every cache hit. Written within VIEW_FLUSH_MS.
 */
export function noteView(tag: string, address: string, userAgent: string): void {
	if (waiting.size >= MAX_WAITING) return
	const [type = '', entryId = ''] = tag.split(' ')
	if (!countedTypes.has(type) || !isUuid(entryId) || !userAgent || isbot(userAgent)) return
	waiting.set(`${tag}\n${address}\n${userAgent}`, { type, entryId, address, userAgent })
	if (waiting.size >= FLUSH_AT) void flushViews()
	else timer ??= setTimeout(() => void flushViews(), VIEW_FLUSH_MS).unref()
}

/** Writes the visits noted so far (also at shutdown); resolves once they and any write under way are in. */
export function flushViews(): Promise<void> {
	clearTimeout(timer)
	timer = undefined
	const batch = [...waiting.values()]
	waiting.clear()
	flushing = flushing.then(async () => {
		if (batch.length === 0) return
		try {
			const db = await getDb()
			const secret = await appSecret(db, SECRET_NAME)
			for (const [name, type] of countedTypes) {
				const visits: Visit[] = []
				for (const visit of batch) {
					if (visit.type !== name) continue
					const visitor = visitorOf(secret, visit.address, visit.userAgent)
					if (visitor) visits.push({ entryId: visit.entryId, visitor })
				}
				for (let start = 0; start < visits.length; start += FLUSH_AT) await countViews(db, type, visits.slice(start, start + FLUSH_AT))
			}
		} catch (error) {
			// A count is not worth a failed page or a retry loop: these visits are not counted.
			logger.warn({ err: error, visits: batch.length }, 'News views not counted')
		}
	})
	return flushing
}
