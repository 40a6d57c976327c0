import type { Route } from './+types/board-members'
import { getDb } from '#app/db/database.server.ts'
import { withMedia } from '#app/content/public.server.ts'
import { listEntries } from '#app/content/store.server.ts'
import { members } from '#app/content/types.ts'
import { ResponsiveImage } from '#app/images/responsive-image.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { PageTitle } from '#app/components/forms.tsx'

export async function loader() {
	const db = await getDb()
	const entries = await withMedia(db, members, await listEntries(db, members))
	return { members: entries.map((entry) => ({ id: entry.id, name: entry.data.memberName, position: entry.data.memberPosition, image: entry.images.memberImg ?? null })) }
}

export default function BoardMembers({ loaderData }: Route.ComponentProps) {
	return (
		<>
			<PageTitle title="أعضاء مجلس الإدارة" />
			<PageHeader title="أعضاء مجلس الإدارة" lead="أعضاء مجلس إدارة المؤسسة ومناصبهم." />
			<div className="mx-auto max-w-7xl px-4 py-8">
				{loaderData.members.length === 0 ? (
					<p className="rounded-xl bg-white p-5">لم يُضف أعضاء بعد.</p>
				) : (
					<ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
						{loaderData.members.map((member, index) => (
							<li key={member.id} className="overflow-hidden rounded-xl border border-stone-200 bg-white text-center shadow-sm">
								{member.image ? (
									<ResponsiveImage image={member.image} alt={member.name} sizes="(min-width: 1024px) 300px, (min-width: 640px) 33vw, 50vw" priority={index < 4} className="aspect-square w-full object-cover" />
								) : null}
								<div className="p-3">
									<p className="font-bold text-brand-900">{member.name}</p>
									<p className="text-sm text-stone-700">{member.position}</p>
								</div>
							</li>
						))}
					</ul>
				)}
			</div>
		</>
	)
}
