import type { Route } from './+types/services'
import { getDb } from '#app/db/database.server.ts'
import { listProgrammes } from '#app/content/programmes.server.ts'
import { PageHeader } from '#app/components/page-header.tsx'
import { PageTitle } from '#app/components/forms.tsx'
import { ProgrammeCard } from '#app/components/programme-card.tsx'

export async function loader() {
	return { programmes: await listProgrammes(await getDb()) }
}

export default function Services({ loaderData }: Route.ComponentProps) {
	return (
		<>
			<PageTitle title="خدماتنا" />
			<PageHeader title="خدماتنا" lead="برامج المؤسسة لخدمة المستفيدين." />
			<ul className="mx-auto grid max-w-7xl gap-4 px-4 py-8 sm:grid-cols-2 lg:grid-cols-3">
				{loaderData.programmes.map((programme) => (
					<li key={programme.slug}>
						<ProgrammeCard programme={programme} />
					</li>
				))}
			</ul>
		</>
	)
}
