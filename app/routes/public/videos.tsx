import { Link } from 'react-router'
import type { Route } from './+types/videos'
import { getDb } from '#app/db/database.server.ts'
import { withMedia } from '#app/content/public.server.ts'
import { countEntries, listEntries } from '#app/content/store.server.ts'
import { videos } from '#app/content/types.ts'
import { noVideoSupport } from '#app/content/gallery/video-messages.ts'
import { imageUrl, type ImageData } from '#app/images/responsive-image.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { PageTitle } from '#app/components/forms.tsx'
import { Paginator } from '#app/components/paginator.tsx'
import { VideoEmbed } from '#app/components/video-embed.tsx'
import { formatDate, formatFileSize } from '#app/text/format.ts'
import { pageParam, paginate } from '#app/utils/pagination.ts'

// The video gallery, 6 a page (docs/product.md#business-constants). An uploaded video is a plain
// <video> that fetches only its metadata until played and seeks by Range requests (/documents/:id);
// a YouTube video loads nothing from YouTube until it is opened (VideoEmbed). No JavaScript.

const PER_PAGE = 6

export async function loader({ request }: Route.LoaderArgs) {
	const db = await getDb()
	const pagination = paginate({ total: await countEntries(db, videos), perPage: PER_PAGE, page: pageParam(request) })
	const entries = await withMedia(db, videos, await listEntries(db, videos, { offset: pagination.offset, limit: PER_PAGE }))
	return {
		pagination,
		videos: entries.map((entry) => ({
			id: entry.id,
			title: entry.data.title,
			date: entry.data.date,
			url: entry.data.url,
			file: entry.documents.file,
			poster: entry.images.poster,
		})),
	}
}

/** A poster at a width that suits a card, as WebP (what every browser that plays the video shows). */
function posterUrl(image: ImageData | null): string | undefined {
	const widths = image?.variants.filter((variant) => variant.format === 'webp').map((variant) => variant.width) ?? []
	if (!image || widths.length === 0) return undefined
	return imageUrl(image.id, 'webp', widths.find((width) => width >= 640) ?? Math.max(...widths))
}

export default function Videos({ loaderData }: Route.ComponentProps) {
	const { pagination } = loaderData
	return (
		<>
			<PageTitle title={pagination.page > 1 ? `معرض الفيديو، الصفحة ${pagination.page}` : 'معرض الفيديو'} />
			<PageHeader title="معرض الفيديو" lead="مقاطع مرئية عن برامج المؤسسة وفعالياتها." crumbs={[{ to: '/gallery', label: 'معرض الصور' }]} />
			<div className="mx-auto max-w-7xl px-4 py-8">
				{loaderData.videos.length === 0 ? (
					<p className="rounded-xl bg-white p-5">لا توجد مقاطع فيديو بعد.</p>
				) : (
					<ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
						{loaderData.videos.map((video) => (
							<li key={video.id} className="flex flex-col">
								{video.file ? (
									<figure className="overflow-hidden rounded-xl border border-stone-200 bg-white">
										<video controls preload="metadata" poster={posterUrl(video.poster)} className="aspect-video w-full bg-black" aria-label={video.title}>
											<source src={video.file.href} type={video.file.mediaType} />
											<p className="p-4 text-white">
												{noVideoSupport}{' '}
												<a href={video.file.href} className="underline">
													تنزيل الفيديو
												</a>
											</p>
										</video>
										<figcaption className="p-3">
											<span className="block font-bold text-brand-900">{video.title}</span>
											<span className="text-sm text-stone-700">
												<time dateTime={video.date}>{formatDate(video.date)}</time> ·{' '}
												<a href={video.file.href} download className="link">
													تنزيل ({formatFileSize(video.file.size)})
												</a>
											</span>
										</figcaption>
									</figure>
								) : video.url ? (
									<div>
										<VideoEmbed url={video.url} caption={video.title} />
										<p className="mt-2 font-bold text-brand-900">{video.title}</p>
										<p className="text-sm text-stone-700">
											<time dateTime={video.date}>{formatDate(video.date)}</time>
										</p>
									</div>
								) : null}
							</li>
						))}
					</ul>
				)}
				<Paginator pagination={pagination} />
				<p className="mt-8">
					<Link to="/gallery" className="link font-semibold">
						ألبومات الصور
					</Link>
				</p>
			</div>
		</>
	)
}
