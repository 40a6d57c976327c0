import type { Database } from '#app/db/client.server.ts'
import type { EntryCard } from '#app/components/content-cards.tsx'
import type { ImageData } from '#app/images/responsive-image.tsx'
import { htmlToPlainText } from '#app/utils/sanitize-html.server.ts'
import { imageFields, type ContentField, type ContentType } from './definition.ts'
import { EXCERPT_LENGTH } from '#app/content/news-items.ts'
import { withMedia } from './public.server.ts'
import type { ContentEntry } from './store.server.ts'

// The admin list of a type whose `listStyle` is 'cards' (news, docs/product.md#news): each card's
// parts are found from the definition, so the list screen stays one screen for every type.

type AnyType = ContentType<readonly ContentField[]>

export async function entryCards(db: Database, type: AnyType, entries: readonly ContentEntry[]): Promise<EntryCard[]> {
	const shown = await withMedia(db, type, entries)
	const [titleField] = type.listColumns
	const textField = type.fields.find((field) => field.kind === 'richtext' || field.kind === 'textarea')
	const [imageField] = imageFields(type)
	return shown.map((entry) => {
		const data = entry.data as Record<string, unknown>
		const images = entry.images as Record<string, ImageData | null>
		return {
			id: entry.id,
			title: String(data[titleField ?? ''] ?? ''),
			date: type.dateField ? String(data[type.dateField] ?? '') : '',
			image: imageField ? (images[imageField.name] ?? null) : null,
			excerpt: textField ? htmlToPlainText(String(data[textField.name] ?? ''), EXCERPT_LENGTH) : '',
			published: type.publishedField ? data[type.publishedField] === true : true,
		}
	})
}
