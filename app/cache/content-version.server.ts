// When what public pages show has changed. Triggers in the database (drizzle/0011_content_version.sql)
// raise `content_version` in the same transaction as any such edit and NOTIFY `ataa_content`; every
// instance listens and empties its caches (docs/decisions/008-public-page-cache.md). The
// generation below counts those changes in this process: a cache keeps what it made under one
// generation and drops it when the generation moves on.
import { contentVersion } from '#app/db/schema.ts'
import type { DatabaseHandle } from '#app/db/client.server.ts'

export const CONTENT_CHANNEL = 'ataa_content'
/**
 * Notices can be lost without an error (a connection a firewall dropped silently, a pooler that
 * does not pass LISTEN on): the version is also read this often, and a change found empties the caches.
 */
const POLL_MS = 30_000

interface Watch {
	generation: number
	watching: boolean
	/** The last version heard or read; null until the first reading. */
	version: number | null
	stop?: () => Promise<void>
	listeners: Map<string, () => void>
}

// On globalThis, as the database handle, so the dev server's module reloads share one.
const slot = globalThis as typeof globalThis & { __ataaContentWatch?: Watch }
const watch: Watch = (slot.__ataaContentWatch ??= { generation: 0, watching: false, version: null, listeners: new Map() })

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

/** Subscribes to changes under a name (a module reloaded by the dev server replaces its own). */
export function onContentChange(name: string, listener: () => void): void {
	watch.listeners.set(name, listener)
}

/** Something changed (or may have): every cache of this process forgets what it holds. */
export function contentChanged(): void {
	watch.generation++
	for (const listener of watch.listeners.values()) listener()
}

/** Listens for the database's change notices until stopped; start-up calls this once it has migrated. */
export async function watchContent(handle: DatabaseHandle): Promise<void> {
	await stopWatchingContent()
	const unlisten = await handle.listen(CONTENT_CHANNEL, (payload) => {
		watch.version = payload === null ? null : Number(payload)
		contentChanged()
	})
	const read = async () => {
		const [row] = await handle.db.select({ version: contentVersion.version }).from(contentVersion)
		return row?.version ?? 0
	}
	watch.version = await read()
	const poll = setInterval(() => {
		read().then(
			(version) => {
				if (version === watch.version) return
				watch.version = version
				contentChanged()
			},
			() => {},
		)
	}, POLL_MS)
	poll.unref()
	watch.stop = async () => {
		clearInterval(poll)
		await unlisten()
	}
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
