import type { Route } from './+types/committees'
import { getDb } from '#app/db/database.server.ts'
import { listEntries } from '#app/content/store.server.ts'
import { committees } from '#app/content/types.ts'
import { textLines } from '#app/content/schema.ts'
import { PageHeader } from '#app/components/page-header.tsx'
import { PageTitle } from '#app/components/forms.tsx'

export async function loader() {
	const rows = await listEntries(await getDb(), committees)
	return {
		committees: rows.map((row) => {
			const { data } = row
			return { id: row.id, name: data.name, members: textLines(data.members), duties: data.duties }
		}),
	}
}

/** docs/product.md#public-site: an accordion, one committee open at a time — native <details> sharing a name does that without JavaScript. */
export default function Committees({ loaderData }: Route.ComponentProps) {
	return (
		<>
			<PageTitle title="اللجان" />
			<PageHeader title="اللجان" lead="لجان المؤسسة: أعضاؤها ومهامها." />
			<div className="mx-auto max-w-4xl space-y-3 px-4 py-8">
				{loaderData.committees.map((committee) => (
					<details key={committee.id} name="committees" className="group rounded-xl border border-stone-200 bg-white open:border-brand-600">
						<summary className="flex min-h-14 items-center justify-between gap-3 px-5 py-3 text-lg font-bold text-brand-900">
							{committee.name}
							<svg viewBox="0 0 20 20" className="size-5 shrink-0 transition-transform group-open:rotate-180" aria-hidden="true">
								<path d="m5 7.5 5 5 5-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
							</svg>
						</summary>
						<div className="grid gap-6 border-t border-stone-200 px-5 py-4 md:grid-cols-2">
							<section>
								<h2 className="font-bold">الأعضاء</h2>
								<ul className="mt-2 list-disc space-y-1 ps-6">
									{committee.members.map((member) => (
										<li key={member}>{member}</li>
									))}
								</ul>
							</section>
							<section>
								<h2 className="font-bold">المهام</h2>
								{/* Sanitised on save (app/utils/sanitize-html.server.ts). */}
								<div className="prose-content mt-2 space-y-2 [&_li]:ms-6 [&_ol]:list-decimal [&_ul]:list-disc" dangerouslySetInnerHTML={{ __html: committee.duties }} />
							</section>
						</div>
					</details>
				))}
			</div>
		</>
	)
}
