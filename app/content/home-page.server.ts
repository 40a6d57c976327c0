import type { Database } from '#app/db/client.server.ts'
import { withMedia } from '#app/content/public.server.ts'
import type { ContentData } from '#app/content/definition.ts'
import { textLines } from '#app/content/schema.ts'
import { todayInRiyadh } from '#app/text/format.ts'
import { getSingleton } from '#app/content/store.server.ts'
import { announcement, homePage, slides } from '#app/content/types.ts'
import { listEntries } from '#app/content/store.server.ts'

/** The home page's editable blocks, as the home and about pages show them. */
export async function loadHomeBlocks(db: Database) {
	// Before staff or the seed have saved it, every block is empty.
	const data: Partial<ContentData<typeof homePage>> = (await getSingleton(db, homePage))?.data ?? {}
	const videoSlots = [1, 2, 3, 4] as const
	return {
		heroTitle: data.heroTitle ?? '',
		heroText: data.heroText ?? '',
		introVideo: data.introVideo ?? '',
		vision: data.vision ?? '',
		mission: data.mission ?? '',
		values: textLines(data.values),
		goals: textLines(data.goals),
		videos: videoSlots.map((n) => ({ url: data[`video${n}Url`] ?? '', caption: data[`video${n}Caption`] ?? '' })).filter((video) => video.url),
		socialTimeline: data.socialTimeline ?? '',
		director: { name: data.directorName ?? '', phone: data.directorPhone ?? '', email: data.directorEmail ?? '' },
	}
}

/** The slider's slides that have their image. */
export async function loadSlides(db: Database) {
	const entries = await withMedia(db, slides, await listEntries(db, slides))
	return entries.flatMap((entry) => {
		const image = entry.images.image
		return image ? [{ id: entry.id, title: entry.data.title, text: entry.data.text, link: entry.data.link, image }] : []
	})
}


/** The announcement, when it is active and today falls inside its window (both ends included). */
export async function currentAnnouncement(db: Database, now = new Date()) {
	const entry = await getSingleton(db, announcement)
	if (!entry) return null
	const { data } = entry
	// The announcement's window is written in Riyadh's days.
	const today = todayInRiyadh(now)
	if (!data.active || data.startDate > today || data.endDate < today) return null
	const [shown] = await withMedia(db, announcement, [entry])
	const image = shown?.images.image
	if (!image) return null
	// The key changes whenever the announcement is edited, so a dismissed old one does not hide a new one.
	return { key: `${entry.id}-${entry.updatedAt.getTime()}`, title: data.title, link: data.link, image }
}
