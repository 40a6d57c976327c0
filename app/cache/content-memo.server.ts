// Reads of public content kept in memory until the next content change: the layout's foundation
// info and links, the home page's blocks, are read once per change instead of on every request.
import { contentGeneration, isWatchingContent, onContentChange } from './content-version.server.ts'

const memo = new Map<string, { generation: number; value: Promise<unknown> }>()
onContentChange(() => memo.clear())

/**
 * `load()`'s result, shared by every request until content changes. Without a watch on changes
 * (tests with databases of their own, a start-up under way) it simply loads. A failed load is not
 * kept. The key must name everything the result depends on besides the content (a day, a page).
 */
export function memoContent<T>(key: string, load: () => Promise<T>): Promise<T> {
	if (!isWatchingContent()) return load()
	const generation = contentGeneration()
	const kept = memo.get(key)
	if (kept && kept.generation === generation) return kept.value as Promise<T>
	const value = load()
	memo.set(key, { generation, value })
	value.catch(() => {
		if (memo.get(key)?.value === value) memo.delete(key)
	})
	return value
}
