import type { Route } from './+types/visual-identity'
import { getDb } from '#app/db/database.server.ts'
import { withMedia } from '#app/content/public.server.ts'
import { getSingleton } from '#app/content/store.server.ts'
import { visualIdentity } from '#app/content/types.ts'
import { textLines } from '#app/content/schema.ts'
import { ResponsiveImage, imageUrl } from '#app/images/responsive-image.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { PageTitle } from '#app/components/forms.tsx'

export async function loader() {
	const db = await getDb()
	const entry = await getSingleton(db, visualIdentity)
	const [shown] = entry ? await withMedia(db, visualIdentity, [entry]) : []
	const colours = textLines(shown?.data.colours)
		.map((line) => /^(.*?)\s*(#[0-9a-fA-F]{6})$/.exec(line))
		.filter((match): match is RegExpExecArray => match !== null)
		.map((match) => ({ name: match[1]!, hex: match[2]!.toLowerCase() }))
	return { text: shown?.data.text ?? '', colours, logo: shown?.images.logo ?? null }
}

export default function VisualIdentity({ loaderData }: Route.ComponentProps) {
	const { logo } = loaderData
	const largest = logo ? Math.max(...logo.variants.filter((v) => v.format === 'webp').map((v) => v.width)) : 0
	return (
		<>
			<PageTitle title="الهوية البصرية" />
			<PageHeader title="الهوية البصرية" description="دليل الهوية البصرية للمؤسسة: الشعار وألوانه والخط المعتمد، مع الشعار للتنزيل." crumbs={[{ to: '/about', label: 'عن المؤسسة' }]} />
			<div className="mx-auto max-w-4xl space-y-8 px-4 py-8">
				{/* Sanitised on save (app/utils/sanitize-html.server.ts). */}
				<div className="space-y-3 text-lg" dangerouslySetInnerHTML={{ __html: loaderData.text }} />
				<section aria-labelledby="colours-title">
					<h2 id="colours-title" className="text-xl font-bold text-brand-900">
						الألوان
					</h2>
					<ul className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4">
						{loaderData.colours.map((colour) => (
							<li key={colour.hex} className="overflow-hidden rounded-xl border border-stone-200 bg-white">
								<svg viewBox="0 0 4 2" className="block h-20 w-full" aria-hidden="true" preserveAspectRatio="none">
									<rect width="4" height="2" fill={colour.hex} />
								</svg>
								<p className="p-3 text-sm">
									<span className="block font-semibold">{colour.name}</span>
									<span dir="ltr" className="font-mono">
										{colour.hex}
									</span>
								</p>
							</li>
						))}
					</ul>
				</section>
				{logo ? (
					<section aria-labelledby="logo-title">
						<h2 id="logo-title" className="text-xl font-bold text-brand-900">
							الشعار
						</h2>
						<ResponsiveImage image={logo} alt="شعار مؤسسة عطاء الخيرية" sizes="240px" className="mt-3 h-40 w-auto rounded-xl border border-stone-200 bg-white p-4" />
						<a href={imageUrl(logo.id, 'webp', largest)} download="ataa-logo.webp" className="btn-secondary mt-3">
							تنزيل الشعار
						</a>
					</section>
				) : null}
			</div>
		</>
	)
}
