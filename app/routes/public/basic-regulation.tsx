import type { Route } from './+types/basic-regulation'
import { getDb } from '#app/db/database.server.ts'
import { withMedia } from '#app/content/public.server.ts'
import { countEntries, listEntries } from '#app/content/store.server.ts'
import { regulationPages } from '#app/content/types.ts'
import { imageUrl, ResponsiveImage } from '#app/images/responsive-image.tsx'
import { pageParam, paginate } from '#app/utils/pagination.ts'
import { PageHeader } from '#app/components/page-header.tsx'
import { PageTitle } from '#app/components/forms.tsx'
import { Paginator } from '#app/components/paginator.tsx'

// The basic regulation as page images, one per page with the shared paginator
// (docs/product.md#public-site: /basic-regulation?page=N, 20 pages).

const TITLE = 'اللائحة الأساسية'

export async function loader({ request }: Route.LoaderArgs) {
	const db = await getDb()
	const pagination = paginate({ total: await countEntries(db, regulationPages), perPage: 1, page: pageParam(request) })
	const [entry] = await withMedia(db, regulationPages, await listEntries(db, regulationPages, { offset: pagination.offset, limit: 1 }))
	// The page's own number when staff gave one; else its place in the order.
	const number = entry?.data.page || pagination.page
	return { pagination, number, image: entry?.images.image ?? null }
}

export default function BasicRegulation({ loaderData }: Route.ComponentProps) {
	const { pagination, number, image } = loaderData
	const alt = `صفحة ${number} من ${TITLE}`
	return (
		<>
			<PageTitle title={pagination.lastPage > 1 ? `${TITLE} — صفحة ${number}` : TITLE} />
			<PageHeader title={TITLE} lead="اللائحة الأساسية المعتمدة للمؤسسة، صفحة بصفحة." />
			<div className="mx-auto max-w-4xl px-4 py-8">
				{image ? (
					<figure>
						<ResponsiveImage image={image} alt={alt} sizes="(min-width: 896px) 864px, 100vw" priority className="mx-auto h-auto w-full rounded-xl border border-stone-200 bg-white shadow-sm" />
						<figcaption className="mt-3 flex flex-wrap items-center justify-center gap-3 text-sm text-stone-700">
							<span>
								الصفحة {pagination.page} من {pagination.lastPage}
							</span>
							<a href={imageUrl(image.id, 'webp', Math.max(...image.variants.filter((variant) => variant.format === 'webp').map((variant) => variant.width)))} className="link">
								عرض الصورة بحجمها الكامل<span className="sr-only"> ({alt})</span>
							</a>
						</figcaption>
					</figure>
				) : (
					<p className="rounded-xl bg-white p-5">لم تُرفع صفحات اللائحة بعد.</p>
				)}
				<Paginator pagination={pagination} />
			</div>
		</>
	)
}
