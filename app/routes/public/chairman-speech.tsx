import type { Route } from './+types/chairman-speech'
import { getDb } from '#app/db/database.server.ts'
import { withMedia } from '#app/content/public.server.ts'
import { getSingleton } from '#app/content/store.server.ts'
import { chairmanSpeech } from '#app/content/types.ts'
import { ResponsiveImage } from '#app/images/responsive-image.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { PageTitle } from '#app/components/forms.tsx'

export async function loader() {
	const db = await getDb()
	const entry = await getSingleton(db, chairmanSpeech)
	const [shown] = entry ? await withMedia(db, chairmanSpeech, [entry]) : []
	return { name: shown?.data.chairmanName ?? '', speech: shown?.data.CEOspeechDetails ?? '', portrait: shown?.images.portrait ?? null }
}

export default function ChairmanSpeech({ loaderData }: Route.ComponentProps) {
	return (
		<>
			<PageTitle title="كلمة رئيس مجلس الإدارة" />
			<PageHeader title="كلمة رئيس مجلس الإدارة" description={`كلمة ${loaderData.name || 'رئيس مجلس الإدارة'} إلى المستفيدين والشركاء والداعمين.`} />
			<div className="mx-auto grid max-w-5xl gap-8 px-4 py-8 md:grid-cols-[1fr_2fr]">
				{loaderData.portrait ? (
					<figure className="text-center">
						<ResponsiveImage image={loaderData.portrait} alt={loaderData.name} sizes="(min-width: 768px) 320px, 100vw" priority className="mx-auto w-full max-w-xs rounded-2xl object-cover" />
						<figcaption className="mt-3 font-bold text-brand-900">{loaderData.name}</figcaption>
					</figure>
				) : null}
				<blockquote className="space-y-4 border-s-4 border-gold-500 ps-6 text-lg leading-9">
					{/* Sanitised on save (app/utils/sanitize-html.server.ts). */}
					<div className="space-y-4" dangerouslySetInnerHTML={{ __html: loaderData.speech }} />
					{!loaderData.portrait && loaderData.name ? <footer className="font-bold text-brand-900">— {loaderData.name}</footer> : null}
				</blockquote>
			</div>
		</>
	)
}
