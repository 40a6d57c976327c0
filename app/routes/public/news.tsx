import { Link } from 'react-router'
import type { Route } from './+types/news'
import { getDb } from '#app/db/database.server.ts'
import { listEntries } from '#app/content/store.server.ts'
import { countNews, newsArchive, newsCards, newsFilter, newsQuery } from '#app/content/news-store.server.ts'
import { memoContent } from '#app/cache/content-memo.server.ts'
import { news } from '#app/content/types.ts'
import { MAX_SEARCH_LENGTH } from '#app/content/news-items.ts'
import { countOf, newsItems } from '#app/text/arabic-count.ts'
import { formatMonth } from '#app/text/format.ts'
import { pageParam, paginate } from '#app/utils/pagination.ts'
import { NewsCard } from '#app/components/news-card.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { PageTitle } from '#app/components/forms.tsx'
import { Paginator } from '#app/components/paginator.tsx'

// docs/product.md#news: 6 cards a page, a server-side search (GET, so it works without JavaScript
// and a search can be shared), and the month the archive links to.


export async function loader({ request }: Route.LoaderArgs) {
	const db = await getDb()
	const filter = newsFilter(new URL(request.url))
	const query = newsQuery(filter)
	// The archive's counts, read once per content change (app/cache/content-memo.server.ts).
	const total = await countNews(db, filter, await memoContent('news-archive', () => newsArchive(db)))
	const pagination = paginate({ total, perPage: news.perPage, page: pageParam(request) })
	const entries = await listEntries(db, news, { offset: pagination.offset, limit: news.perPage }, query)
	return { filter, total, pagination, cards: await newsCards(db, entries) }
}

function emptyMessage({ q, month }: { q: string; month: string }): string {
	if (q) return `لا توجد أخبار تطابق «${q}»${month ? ` في ${formatMonth(month)}` : ''}. جرّب كلمة أخرى أو ابحث في جميع الأخبار.`
	if (month) return `لا توجد أخبار منشورة في ${formatMonth(month)}.`
	return 'لا توجد أخبار منشورة بعد.'
}

export default function News({ loaderData }: Route.ComponentProps) {
	const { filter, total, pagination, cards } = loaderData
	const filtered = Boolean(filter.q || filter.month)
	const title = filter.month ? `أخبار شهر ${formatMonth(filter.month)}` : 'الأخبار'
	return (
		<>
			<PageTitle title={filter.q ? `بحث: ${filter.q} | ${title}` : pagination.page > 1 ? `${title}، الصفحة ${pagination.page}` : title} />
			<PageHeader title={title} lead="أخبار المؤسسة وفعالياتها." crumbs={filter.month ? [{ to: '/news', label: 'الأخبار' }] : []} />
			<div className="mx-auto max-w-7xl px-4 py-8">
				<form method="get" action="/news" role="search" aria-label="البحث في الأخبار" className="flex flex-wrap items-end gap-3 rounded-xl border border-stone-200 bg-white p-4">
					<div className="min-w-0 flex-1 basis-60">
						<label htmlFor="news-search" className="block font-semibold">
							ابحث في الأخبار
						</label>
						<input
							id="news-search"
							name="q"
							type="search"
							defaultValue={filter.q}
							maxLength={MAX_SEARCH_LENGTH}
							placeholder="كلمة من العنوان أو التفاصيل"
							className="mt-1 block min-h-11 w-full rounded-lg border border-stone-400 px-3"
						/>
					</div>
					{filter.month ? <input type="hidden" name="month" value={filter.month} /> : null}
					<button type="submit" className="btn-primary">
						بحث
					</button>
				</form>
				{filtered ? (
					<div className="mt-4 flex flex-wrap items-center justify-between gap-3">
						<p role="status" className="font-semibold text-brand-900">
							{filter.q ? `نتائج البحث عن «${filter.q}»${filter.month ? ` في ${formatMonth(filter.month)}` : ''}: ` : ''}
							{countOf(total, newsItems)}
						</p>
						<Link to="/news" className="link">
							{filter.month ? 'إلغاء التصفية وعرض جميع الأخبار' : 'مسح البحث وعرض جميع الأخبار'}
						</Link>
					</div>
				) : null}
				{cards.length === 0 ? (
					<p className="mt-6 rounded-xl bg-white p-5 text-stone-800">{emptyMessage(filter)}</p>
				) : (
					<ul className="mt-6 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
						{cards.map((card, index) => (
							<li key={card.id}>
								<NewsCard news={card} priority={index === 0} />
							</li>
						))}
					</ul>
				)}
				<Paginator pagination={pagination} />
			</div>
		</>
	)
}
