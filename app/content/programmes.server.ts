import type { Database } from '#app/db/client.server.ts'
import { listEntries } from './store.server.ts'
import { programmesType } from './types.ts'

export interface Programme {
	slug: string
	name: string
	summary: string
	/** Sanitised HTML. */
	details: string
	icon: string
	colour: string
	link: string
}

export async function listProgrammes(db: Database): Promise<Programme[]> {
	return (await listEntries(db, programmesType)).map(({ data }) => ({
		slug: data.slug,
		name: data.Name,
		summary: data.summary,
		details: data.Deatils,
		icon: data.Icon,
		colour: data.ColorIcon,
		link: data.Link || '/apply',
	}))
}

export async function findProgrammeBySlug(db: Database, slug: string): Promise<Programme | undefined> {
	return (await listProgrammes(db)).find((programme) => programme.slug === slug.toLowerCase())
}
