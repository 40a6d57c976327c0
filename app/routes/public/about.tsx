import type { Route } from './+types/about'
import { getDb } from '#app/db/database.server.ts'
import { loadHomeBlocks } from '#app/content/home-page.server.ts'
import { getFoundationInfo } from '#app/domain/foundation-details.server.ts'
import { PageHeader } from '#app/components/page-header.tsx'
import { PageTitle } from '#app/components/forms.tsx'

export async function loader() {
	const db = await getDb()
	const [info, blocks] = await Promise.all([getFoundationInfo(db), loadHomeBlocks(db)])
	return { about: info.about, vision: blocks.vision, mission: blocks.mission, values: blocks.values, goals: blocks.goals }
}

export default function About({ loaderData }: Route.ComponentProps) {
	return (
		<>
			<PageTitle title="نبذة عن المؤسسة" />
			<PageHeader title="نبذة عن المؤسسة" description="نبذة عن المؤسسة: رؤيتها ورسالتها وقيمها وأهدافها." />
			<div className="mx-auto max-w-3xl space-y-8 px-4 py-8">
				{/* Stored HTML is sanitised on the server when staff save it (foundation info editor). */}
				<div className="space-y-4 text-lg" dangerouslySetInnerHTML={{ __html: loaderData.about }} />
				<section>
					<h2 className="text-xl font-bold text-brand-900">الرؤية</h2>
					<p className="mt-2">{loaderData.vision}</p>
				</section>
				<section>
					<h2 className="text-xl font-bold text-brand-900">الرسالة</h2>
					<p className="mt-2">{loaderData.mission}</p>
				</section>
				<section>
					<h2 className="text-xl font-bold text-brand-900">القيم</h2>
					<ul className="mt-2 list-disc space-y-1 ps-6">
						{loaderData.values.map((value) => (
							<li key={value}>{value}</li>
						))}
					</ul>
				</section>
				<section>
					<h2 className="text-xl font-bold text-brand-900">الأهداف</h2>
					<ol className="mt-2 list-decimal space-y-1 ps-6">
						{loaderData.goals.map((goal) => (
							<li key={goal}>{goal}</li>
						))}
					</ol>
				</section>
			</div>
		</>
	)
}
