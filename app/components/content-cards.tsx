import { Link } from 'react-router'
import { ResponsiveImage, type ImageData } from '#app/images/responsive-image.tsx'
import { formatDate } from '#app/text/format.ts'

/** One card of a content type's admin list, as app/content/admin-cards.server.ts finds it from the definition. */
export interface EntryCard {
	id: string
	/** The first list column's value. */
	title: string
	/** The date field's yyyy-mm-dd, '' when the type has none. */
	date: string
	image: ImageData | null
	/** The first rich text or long text, as plain text cut on a word. */
	excerpt: string
	/** False when the type has a publish flag and it is not ticked. */
	published: boolean
}

/** The admin list as cards (a type with `listStyle: 'cards'`): date, image, title, excerpt, edit and delete. */
export function ContentCards({ typeName, label, cards }: { typeName: string; label: string; cards: readonly EntryCard[] }) {
	return (
		<ul aria-label={label} className="grid gap-5 sm:grid-cols-2 xl:grid-cols-3">
			{cards.map((card) => (
				<li key={card.id} className="flex flex-col overflow-hidden rounded-xl border border-stone-200 bg-white shadow-sm">
					{card.image ? (
						<ResponsiveImage image={card.image} alt="" sizes="(min-width: 1280px) 360px, (min-width: 640px) 45vw, 100vw" className="aspect-[16/10] w-full object-cover" />
					) : (
						<div className="aspect-[16/10] w-full bg-stone-100" />
					)}
					<div className="flex flex-1 flex-col gap-2 p-4">
						<div className="flex flex-wrap items-center gap-2 text-sm text-stone-700">
							{card.date ? <time dateTime={card.date}>{formatDate(card.date)}</time> : null}
							{card.published ? null : <span className="rounded-full bg-gold-100 px-2.5 py-0.5 font-semibold text-gold-700 ring-1 ring-gold-500/50">غير منشور</span>}
						</div>
						<h2 className="text-lg leading-8 font-bold text-brand-900">{card.title}</h2>
						{card.excerpt ? <p className="leading-7 text-stone-700">{card.excerpt}</p> : null}
						<div className="mt-auto flex flex-wrap gap-2 pt-2">
							<Link to={`/admin/content/${typeName}/${card.id}/edit`} className="btn-secondary min-h-9 px-3 py-1 text-sm">
								تعديل<span className="sr-only"> {card.title}</span>
							</Link>
							<Link to={`/admin/content/${typeName}/${card.id}/delete`} className="btn min-h-9 border border-red-800 px-3 py-1 text-sm text-red-800 hover:bg-red-50">
								حذف<span className="sr-only"> {card.title}</span>
							</Link>
						</div>
					</div>
				</li>
			))}
		</ul>
	)
}
