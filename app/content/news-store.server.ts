// What the news pages and the home page show of a news item (docs/product.md#news): the visitors'
// list, its search and month filter, a detail page's sidebar and archive, the home page's latest.
import type { Database } from '#app/db/client.server.ts'
import type { ImageData } from '#app/images/responsive-image.tsx'
import { htmlToPlainText } from '#app/utils/sanitize-html.server.ts'
import { withMedia } from '#app/content/public.server.ts'
import { countEntries, entryMonths, listEntries, type ContentEntry, type EntryQuery } from '#app/content/store.server.ts'
import { news } from '#app/content/types.ts'
import { EXCERPT_LENGTH, MAX_SEARCH_LENGTH } from '#app/content/news-items.ts'

/**
 * A card's excerpt: the details' plain text (tags dropped, entities decoded, so no markup is ever
 * cut in half), at most EXCERPT_LENGTH characters cut at a word, with «…» when it was cut.
 */
export function newsExcerpt(html: string): string {
	return htmlToPlainText(html, EXCERPT_LENGTH)
}

export interface NewsCard {
	id: string
	title: string
	/** yyyy-mm-dd, as stored. */
	date: string
	author: string
	views: number
	excerpt: string
	image: ImageData | null
	published: boolean
}

type NewsEntry = ContentEntry<typeof news>

/** Entries as cards, their images in one query. */
export async function newsCards(db: Database, entries: readonly NewsEntry[]): Promise<NewsCard[]> {
	const shown = await withMedia(db, news, entries)
	return shown.map((entry) => ({
		id: entry.id,
		title: entry.data.title,
		date: entry.data.NewsDate,
		author: entry.authorName,
		views: entry.views,
		excerpt: newsExcerpt(entry.data.details),
		image: entry.images.img,
		published: entry.data.IsPublish === true,
	}))
}

/** The newest published news, for the home page and a detail page's sidebar. */
export async function latestNews(db: Database, count: number): Promise<NewsCard[]> {
	return newsCards(db, await listEntries(db, news, { offset: 0, limit: count }, { publishedOnly: true }))
}

export type NewsArchive = { month: string; count: number }[]

/** The months that have published news, newest first, with how many each has (it reads every published item's date). */
export function newsArchive(db: Database): Promise<NewsArchive> {
	return entryMonths(db, news, { publishedOnly: true })
}

/**
 * How many published news a filter finds. Without a search, from the archive's counts (which the
 * route keeps until content changes), so that the list's page costs the same at 10,000 items as at
 * 12: its items are read a page at a time through drizzle/0033's index.
 */
export async function countNews(db: Database, filter: NewsFilter, archive: NewsArchive): Promise<number> {
	if (filter.q) return countEntries(db, news, newsQuery(filter))
	if (filter.month) return archive.find((entry) => entry.month === filter.month)?.count ?? 0
	return archive.reduce((sum, entry) => sum + entry.count, 0)
}

export interface NewsFilter {
	/** The words searched for, trimmed; '' for none. */
	q: string
	/** yyyy-mm, or '' for every month. */
	month: string
}

/** The list's search and month from the address: anything malformed is simply no filter. */
export function newsFilter(url: URL): NewsFilter {
	const q = (url.searchParams.get('q') ?? '').replace(/\s+/g, ' ').trim().slice(0, MAX_SEARCH_LENGTH)
	const month = url.searchParams.get('month') ?? ''
	return { q, month: /^\d{4}-(0[1-9]|1[0-2])$/.test(month) ? month : '' }
}

/** The visitors' query for a filter: published only, then the search and the month when given. */
export function newsQuery(filter: NewsFilter): EntryQuery<typeof news> {
	return { publishedOnly: true, search: filter.q || undefined, month: filter.month || undefined }
}
