import { data } from 'react-router'
import type { Route } from './+types/image-page'
import { getDb } from '#app/db/database.server.ts'
import { withMedia } from '#app/content/public.server.ts'
import { getSingleton } from '#app/content/store.server.ts'
import { jobAds, organizationChart, qualityCertificate, registrationCertificate } from '#app/content/types.ts'
import { ResponsiveImage } from '#app/images/responsive-image.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { PageTitle } from '#app/components/forms.tsx'
import { formatFileSize } from '#app/text/format.ts'

/** Pages that are one editable image (docs/product.md#public-site: organisation chart, certificates, job ads). */
const pages = { '/organization-chart': organizationChart, '/certificates/registration': registrationCertificate, '/certificates/quality': qualityCertificate, '/jobs': jobAds }

export async function loader({ request }: Route.LoaderArgs) {
	const path = new URL(request.url).pathname.replace(/\/+$/, '').toLowerCase() as keyof typeof pages
	const type = pages[path]
	if (!type) throw data(null, { status: 404 })
	const db = await getDb()
	const entry = await getSingleton(db, type)
	const [shown] = entry ? await withMedia(db, type, [entry]) : []
	// The job ads are reached from the footer, not from the about section.
	const crumbs = path === '/jobs' ? [] : [{ to: '/about', label: 'عن المؤسسة' }]
	return { crumbs, title: type.singular, caption: shown?.data.caption ?? '', image: shown?.images.image ?? null, pdf: shown && 'pdf' in shown.documents ? shown.documents.pdf : null }
}

export default function ImagePage({ loaderData }: Route.ComponentProps) {
	return (
		<>
			<PageTitle title={loaderData.title} />
			<PageHeader title={loaderData.title} lead={loaderData.caption || undefined} description={loaderData.caption || `${loaderData.title} — مؤسسة عطاء الخيرية.`} crumbs={loaderData.crumbs} />
			<div className="mx-auto max-w-5xl px-4 py-8">
				{loaderData.image ? (
					<a href={`/images/${loaderData.image.id}/${Math.max(...loaderData.image.variants.map((v) => v.width))}.webp`} className="block">
						<ResponsiveImage image={loaderData.image} alt={loaderData.title} sizes="(min-width: 1024px) 1024px, 100vw" priority className="mx-auto h-auto w-full rounded-xl border border-stone-200 bg-white" />
						<span className="mt-2 block text-center text-sm text-brand-700 underline">عرض الصورة بحجمها الكامل</span>
					</a>
				) : (
					<p className="rounded-xl bg-white p-5">لم تُرفع الصورة بعد.</p>
				)}
				{loaderData.pdf ? (
					<p className="mt-6 text-center">
						<a href={loaderData.pdf.href} download className="btn-secondary flex-col">
							<span>تنزيل {loaderData.title}</span>
							<span className="text-sm font-normal">ملف PDF · {formatFileSize(loaderData.pdf.size)}</span>
						</a>
					</p>
				) : null}
			</div>
		</>
	)
}
