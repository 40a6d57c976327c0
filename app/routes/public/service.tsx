import { data, Link } from 'react-router'
import type { Route } from './+types/service'
import { getDb } from '#app/db/database.server.ts'
import { findProgrammeBySlug } from '#app/content/programmes.server.ts'
import { PageHeader } from '#app/components/page-header.tsx'
import { PageTitle } from '#app/components/forms.tsx'

export async function loader({ params }: Route.LoaderArgs) {
	const programme = await findProgrammeBySlug(await getDb(), params.slug)
	if (!programme) throw data(null, { status: 404 })
	return { programme }
}

export default function ServicePage({ loaderData: { programme } }: Route.ComponentProps) {
	return (
		<>
			<PageTitle title={programme.name} />
			<PageHeader title={programme.name} lead={programme.summary} crumbs={[{ to: '/services', label: 'خدماتنا' }]} />
			<div className="mx-auto max-w-3xl space-y-6 px-4 py-8">
				{/* Sanitised on save (app/utils/sanitize-html.server.ts). */}
				<div className="space-y-3 text-lg [&_li]:ms-6 [&_ol]:list-decimal [&_ul]:list-disc" dangerouslySetInnerHTML={{ __html: programme.details }} />
				<div className="flex flex-wrap gap-3">
					<Link to={programme.link} className="btn-primary">
						تقديم طلب
					</Link>
					<Link to="/apply/status" className="btn-secondary">
						الاستعلام عن طلب
					</Link>
				</div>
			</div>
		</>
	)
}
