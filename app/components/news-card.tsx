import type { ImageData } from '#app/images/responsive-image.tsx'
import { ResponsiveImage } from '#app/images/responsive-image.tsx'
import { countOf, type CountedNoun } from '#app/text/arabic-count.ts'
import { formatDate } from '#app/text/format.ts'

/** «مشاهدة واحدة», «مشاهدتان», «5 مشاهدات», «11 مشاهدةً», «0 مشاهدة». */
const viewsNoun: CountedNoun = { one: 'مشاهدة واحدة', two: 'مشاهدتان', few: 'مشاهدات', many: 'مشاهدةً', other: 'مشاهدة' }

export const formatViews = (views: number) => countOf(views, viewsNoun)

/** The card of a news item as the list and the home page show it (the fields of app/content/news-store.server.ts NewsCard). */
export interface NewsCardProps {
	id: string
	title: string
	date: string
	author: string
	views: number
	excerpt?: string
	image: ImageData | null
}

function Icon({ path }: { path: string }) {
	return (
		<svg viewBox="0 0 20 20" className="size-4 shrink-0 text-brand-700" aria-hidden="true">
			<path d={path} fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
		</svg>
	)
}

const icons = {
	date: 'M4 5h12v11H4zM4 8.5h12M7.5 3v3.5M12.5 3v3.5',
	author: 'M10 10a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM4.5 16.5c.6-3 2.8-4.5 5.5-4.5s4.9 1.5 5.5 4.5',
	views: 'M2.5 10s2.8-5 7.5-5 7.5 5 7.5 5-2.8 5-7.5 5-7.5-5-7.5-5zM10 12a2 2 0 1 0 0-4 2 2 0 0 0 0 4z',
}

/** Date, author and views, each with its icon and, for a screen reader, its name. */
export function NewsMeta({ date, author, views, className = '' }: { date: string; author: string; views: number; className?: string }) {
	const item = 'flex items-center gap-1.5'
	return (
		<ul className={`flex flex-wrap gap-x-4 gap-y-1 text-sm text-stone-700 ${className}`}>
			<li className={item}>
				<Icon path={icons.date} />
				<span className="sr-only">التاريخ: </span>
				<time dateTime={date}>{formatDate(date)}</time>
			</li>
			{author ? (
				<li className={item}>
					<Icon path={icons.author} />
					<span className="sr-only">الناشر: </span>
					{author}
				</li>
			) : null}
			<li className={item}>
				<Icon path={icons.views} />
				<span className="sr-only">عدد المشاهدات: </span>
				{formatViews(views)}
			</li>
		</ul>
	)
}

/**
 * One news card: the whole card opens the item (its title link stretches over it), so there is one
 * link per card for a screen reader's list of links, not three.
 */
export function NewsCard({ news, headingLevel = 2, priority = false }: { news: NewsCardProps; headingLevel?: 2 | 3; priority?: boolean }) {
	const Heading = headingLevel === 2 ? 'h2' : 'h3'
	return (
		<article className="relative flex h-full flex-col overflow-hidden rounded-xl border border-stone-200 bg-white shadow-sm transition-shadow focus-within:ring-2 focus-within:ring-brand-600 hover:shadow-md">
			{news.image ? (
				<ResponsiveImage image={news.image} alt="" sizes="(min-width: 1024px) 400px, (min-width: 640px) 50vw, 100vw" priority={priority} className="aspect-[16/10] w-full object-cover" />
			) : (
				<div className="aspect-[16/10] w-full bg-brand-50" />
			)}
			<div className="flex flex-1 flex-col gap-2 p-4">
				<NewsMeta date={news.date} author={news.author} views={news.views} />
				<Heading className="text-lg leading-8 font-bold text-brand-900">
					<a href={`/news/${news.id}`} className="after:absolute after:inset-0 hover:underline focus:outline-none">
						{news.title}
					</a>
				</Heading>
				{news.excerpt ? <p className="leading-7 text-stone-700">{news.excerpt}</p> : null}
			</div>
		</article>
	)
}
