// Reads of public content kept in memory until the next content change: the layout's foundation
// info and links, the home page's blocks, are read once per change instead of on every request.
import { contentGeneration, isWatchingContent, onContentChange } from './content-version.server.ts'

/** As long as the page cache keeps a page: what is read here may also change with time (a news item's views). */
const MAX_AGE_MS = 10 * 60 * 1000

const memo = new Map<string, { generation: number; expiresAt: number; value: Promise<unknown> }>()
onContentChange('content-memo', () => memo.clear())

/**
 * `load()`'s result, shared by every request until content changes. Without a watch on changes
 * (tests with databases of their own, a start-up under way) it simply loads. A failed load is not
 * kept. The key must name everything the result depends on besides the content (a day, a page).
 */
export function memoContent<T>(key: string, load: () => Promise<T>): Promise<T> {
	if (!isWatchingContent()) return load()
	const generation = contentGeneration()
	const now = Date.now()
	const kept = memo.get(key)
	if (kept && kept.generation === generation && kept.expiresAt > now) return kept.value as Promise<T>
	// Keys naming a day pile up otherwise: drop what has expired.
	for (const [oldKey, old] of memo) if (old.expiresAt <= now) memo.delete(oldKey)
	const value = load()
	memo.set(key, { generation, expiresAt: now + MAX_AGE_MS, value })
	value.catch(() => {
		if (memo.get(key)?.value === value) memo.delete(key)
	})
	return value
}
