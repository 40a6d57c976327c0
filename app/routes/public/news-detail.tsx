import { data, Link } from 'react-router'
import type { Route } from './+types/news-detail'
import { memoContent } from '#app/cache/content-memo.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { getUser } from '#app/auth/session.server.ts'
import { areaRoles, hasRole } from '#app/db/roles.ts'
import { withMedia } from '#app/content/public.server.ts'
import { getEntry } from '#app/content/store.server.ts'
import { latestNews, newsArchive, newsExcerpt } from '#app/content/news-store.server.ts'
import { news } from '#app/content/types.ts'
import { MAX_SEARCH_LENGTH } from '#app/content/news-items.ts'
import { viewTag } from '#app/content/views.server.ts'
import { VIEW_HEADER } from '#app/cache/page-cache.server.ts'
import { ResponsiveImage } from '#app/images/responsive-image.tsx'
import { countOf, newsItems } from '#app/text/arabic-count.ts'
import { formatDate, formatMonth } from '#app/text/format.ts'
import { formatViews } from '#app/components/news-card.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { PageTitle } from '#app/components/forms.tsx'

// docs/product.md#news: a news item with its sidebar (the latest news, a keyword search that leads
// to the list, the archive by month). Visitors see published news only; content staff signed in
// also see an unpublished one, marked, to check it before publishing.

const SIDEBAR_COUNT = 3

export async function loader({ params, request }: Route.LoaderArgs) {
	const db = await getDb()
	const user = await getUser(request)
	const staff = user !== null && hasRole(user, ...areaRoles.content)
	const entry = await getEntry(db, news, params.id, { publishedOnly: !staff })
	if (!entry) throw data(null, { status: 404 })
	const published = entry.data.IsPublish === true
	// The sidebar is the same on every item: read once per content change.
	const [[shown], { latest, archive }] = await Promise.all([
		withMedia(db, news, [entry]),
		memoContent('news-sidebar', async () => {
			const [latest, archive] = await Promise.all([latestNews(db, SIDEBAR_COUNT + 1), newsArchive(db)])
			return { latest, archive }
		}),
	])
	const item = {
		id: entry.id,
		title: entry.data.title,
		date: entry.data.NewsDate,
		details: entry.data.details,
		image: shown!.images.img,
		author: entry.authorName ?? '',
		views: entry.views,
		published,
	}
	const sidebar = latest.filter((other) => other.id !== entry.id).slice(0, SIDEBAR_COUNT)
	// A visit to a published item is counted, a cache hit included, and the count shown is the one
	// stored when the page was drawn (app/content/views.server.ts). A draft shown to staff must never
	// be kept by a shared cache.
	const headers: HeadersInit = published ? { [VIEW_HEADER]: viewTag(news, entry.id) } : { 'Cache-Control': 'private, no-store' }
	return data({ item, description: newsExcerpt(entry.data.details), sidebar, archive }, { headers })
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
	return loaderHeaders
}


export default function NewsDetail({ loaderData }: Route.ComponentProps) {
	const { item, description, sidebar, archive } = loaderData
	return (
		<>
			<PageTitle title={item.title} />
			<PageHeader title={item.title} description={description} crumbs={[{ to: '/news', label: 'الأخبار' }]} />
			<div className="mx-auto grid max-w-7xl gap-8 px-4 py-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
				<article className="min-w-0">
					{item.published ? null : (
						<p className="mb-4 rounded-lg border-s-4 border-gold-500 bg-gold-100 p-3 font-semibold text-gold-700">
							<span className="me-2 rounded-full bg-gold-700 px-2.5 py-0.5 text-sm text-white">غير منشور</span>
							هذا الخبر غير منشور: لا يراه الزوار، ويظهر لك لأنك من فريق المحتوى.
						</p>
					)}
					<dl className="grid gap-x-6 gap-y-1 grid-cols-[auto_1fr] rounded-xl border border-stone-200 bg-white p-4 text-stone-800">
						<dt className="font-semibold">التاريخ</dt>
						<dd>
							<time dateTime={item.date}>{formatDate(item.date)}</time>
						</dd>
						{item.author ? (
							<>
								<dt className="font-semibold">الناشر</dt>
								<dd>{item.author}</dd>
							</>
						) : null}
						<dt className="font-semibold">المشاهدات</dt>
						<dd>{formatViews(item.views)}</dd>
					</dl>
					{item.image ? (
						<ResponsiveImage image={item.image} alt="" sizes="(min-width: 1280px) 880px, (min-width: 1024px) 65vw, 100vw" priority className="mt-6 aspect-[16/10] w-full rounded-xl object-cover" />
					) : null}
					{/* Sanitised on save (app/utils/sanitize-html.server.ts). */}
					<div
						className="mt-6 space-y-4 text-lg leading-9 [&_a]:link [&_h2]:text-xl [&_h2]:font-bold [&_h3]:font-bold [&_li]:ms-6 [&_ol]:list-decimal [&_ul]:list-disc"
						dangerouslySetInnerHTML={{ __html: item.details }}
					/>
					<p className="mt-8">
						<Link to="/news" className="btn-secondary">
							العودة إلى الأخبار
						</Link>
					</p>
				</article>
				{/* Not an <aside>: a complementary landmark belongs outside <main>; these are regions of the page.
				    min-w-0: the search box's own width must not widen the one column of a phone's screen. */}
				<div className="min-w-0 space-y-6">
					<section aria-labelledby="latest-title" className="rounded-xl border border-stone-200 bg-white p-4">
						<h2 id="latest-title" className="text-lg font-bold text-brand-900">
							آخر الأخبار
						</h2>
						<form method="get" action="/news" role="search" aria-label="البحث في الأخبار" className="mt-3 flex gap-2">
							<label htmlFor="sidebar-search" className="sr-only">
								ابحث في الأخبار بكلمة
							</label>
							<input id="sidebar-search" name="q" type="search" maxLength={MAX_SEARCH_LENGTH} placeholder="ابحث بكلمة" className="min-h-11 min-w-0 flex-1 rounded-lg border border-stone-400 px-3" />
							<button type="submit" className="btn-primary px-4">
								بحث
							</button>
						</form>
						{sidebar.length ? (
							<ul className="mt-4 divide-y divide-stone-200">
								{sidebar.map((other) => (
									<li key={other.id} className="flex gap-3 py-3">
										{other.image ? <ResponsiveImage image={other.image} alt="" sizes="80px" className="size-20 shrink-0 rounded-lg object-cover" /> : null}
										<div className="min-w-0">
											<Link to={`/news/${other.id}`} className="link block leading-7">
												{other.title}
											</Link>
											<time dateTime={other.date} className="text-sm text-stone-600">
												{formatDate(other.date)}
											</time>
										</div>
									</li>
								))}
							</ul>
						) : (
							<p className="mt-4 text-stone-700">لا توجد أخبار أخرى بعد.</p>
						)}
					</section>
					{archive.length ? (
						<nav aria-labelledby="archive-title" className="rounded-xl border border-stone-200 bg-white p-4">
							<h2 id="archive-title" className="text-lg font-bold text-brand-900">
								أرشيف الأخبار
							</h2>
							<ul className="mt-3 space-y-1">
								{archive.map(({ month, count }) => (
									<li key={month}>
										<Link to={`/news?month=${month}`} className="flex min-h-11 items-center justify-between gap-3 rounded-lg px-2 hover:bg-brand-50">
											<span className="link">{formatMonth(month)}</span>
											<span className="text-sm text-stone-700">{countOf(count, newsItems)}</span>
										</Link>
									</li>
								))}
							</ul>
						</nav>
					) : null}
				</div>
			</div>
		</>
	)
}
