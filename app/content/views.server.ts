// How often an entry (a news item) was read, as its page shows it (docs/product.md#news): a visit
// counts once per visitor in a window of hours, and not at all from a bot or for an entry that
// visitors cannot see. A visitor is a keyed hash of the address and the browser: no address is
// stored, and the key never leaves the database, so the hash cannot be reversed by guessing.
import { appSecret } from '#app/db/app-secrets.server.ts'
import { createHmac } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { isbot } from 'isbot'
import type { Database } from '#app/db/client.server.ts'
import { contentEntries, contentViews } from '#app/db/schema.ts'
import { clientIp } from '#app/utils/origin.server.ts'
import { isUuid } from '#app/utils/uuid.ts'
import type { ContentField, ContentType } from './definition.ts'

/** The same visitor reading the same entry again within this many hours is not a new view. */
export const VIEW_WINDOW_HOURS = 6

const SECRET_NAME = 'content-views-visitor'
const window = sql.raw(`interval '${VIEW_WINDOW_HOURS} hours'`)

const visitorSecret = (db: Database) => appSecret(db, SECRET_NAME)

/** Who is visiting, as a keyed hash of their address and browser; null for a bot, which is not counted. */
export async function visitorOf(db: Database, request: Request): Promise<string | null> {
	const userAgent = request.headers.get('user-agent') ?? ''
	if (!userAgent || isbot(userAgent)) return null
	return createHmac('sha256', await visitorSecret(db))
		.update(`${clientIp(request)}\n${userAgent}`)
		.digest('base64url')
}

/**
 * Counts this request as a view of the entry when it is the visitor's first within the window, and
 * gives the entry's new number of views; null when this visit does not count (a bot, a visitor
 * seen lately, an entry visitors cannot see). One statement: the visitor's row is inserted, or its time
 * moved on only when older than the window, and the counter goes up only when that happened — two
 * reloads at the same moment cannot both count. Every other row older than the window (of any
 * entry) is purged on the way, so the table holds no more than the last few hours' visitors.
 */
export async function countView(db: Database, type: ContentType<readonly ContentField[]>, entryId: string, request: Request): Promise<number | null> {
	if (!isUuid(entryId)) return null
	const visitor = await visitorOf(db, request)
	const published = type.publishedField ? sql`and (${contentEntries.data} -> ${type.publishedField})::boolean is true` : sql``
	if (!visitor) return null
	const result = await db.execute<{ views: number }>(sql`
			with visible as (
				select ${contentEntries.id} as id from ${contentEntries}
				where ${contentEntries.id} = ${entryId} and ${contentEntries.type} = ${type.type} and ${contentEntries.deletedAt} is null ${published}
			), seen as (
				insert into ${contentViews} (entry_id, visitor, seen_at)
				select id, ${visitor}, now() from visible
				on conflict (entry_id, visitor) do update set seen_at = excluded.seen_at
				where ${contentViews.seenAt} < now() - ${window}
				returning entry_id
			), purged as (
				delete from ${contentViews}
				where not (${contentViews.entryId} = ${entryId} and ${contentViews.visitor} = ${visitor}) and ${contentViews.seenAt} < now() - ${window}
			)
			update ${contentEntries} set views = ${contentEntries.views} + 1
			where ${contentEntries.id} in (select entry_id from seen)
			returning ${contentEntries.views} as views`)
	const counted = result.rows[0]
	return counted ? Number(counted.views) : null
}
