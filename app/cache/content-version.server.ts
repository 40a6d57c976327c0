// When what public pages show has changed. Triggers in the database (drizzle/0011_content_version.sql)
// raise `content_version` in the same transaction as any such edit and NOTIFY `ataa_content`; every
// instance listens and empties its caches (docs/decisions/008-public-page-cache.md). The
// generation below counts those changes in this process: a cache keeps what it made under one
// generation and drops it when the generation moves on.
import type { DatabaseHandle } from '#app/db/client.server.ts'

export const CONTENT_CHANNEL = 'ataa_content'

interface Watch {
	generation: number
	watching: boolean
	stop?: () => Promise<void>
	listeners: Set<() => void>
}

// On globalThis, as the database handle, so the dev server's module reloads share one.
const slot = globalThis as typeof globalThis & { __ataaContentWatch?: Watch }
const watch: Watch = (slot.__ataaContentWatch ??= { generation: 0, watching: false, listeners: new Set() })

/** The number of content changes this process has heard of; caches compare it before keeping anything. */
export function contentGeneration(): number {
	return watch.generation
}

/**
 * True once this process hears every change. Until then (tests opening databases of their own,
 * a start-up still under way) nothing may be cached, as a change would go unnoticed.
 */
export function isWatchingContent(): boolean {
	return watch.watching
}

/** Subscribes to changes; the caches call this once, at load. */
export function onContentChange(listener: () => void): void {
	watch.listeners.add(listener)
}

/** Something changed (or may have): every cache of this process forgets what it holds. */
export function contentChanged(): void {
	watch.generation++
	for (const listener of watch.listeners) listener()
}

/** Listens for the database's change notices until stopped; start-up calls this once it has migrated. */
export async function watchContent(handle: DatabaseHandle): Promise<void> {
	await stopWatchingContent()
	watch.stop = await handle.listen(CONTENT_CHANNEL, () => contentChanged())
	contentChanged()
	watch.watching = true
}

export async function stopWatchingContent(): Promise<void> {
	const stop = watch.stop
	watch.watching = false
	watch.stop = undefined
	contentChanged()
	await stop?.()
}
