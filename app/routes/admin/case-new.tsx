import { Link } from 'react-router'
import type { Route } from './+types/case-new'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { getIntake } from '#app/cases/intake-state.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { applicationDefinitions } from '#app/forms/registry.ts'
import { PageTitle } from '#app/components/forms.tsx'
import type { AdminHandle } from './layout.tsx'
import { audited } from '#app/audit/audit-trail.server.ts'

export const handle: AdminHandle = {
	breadcrumb: () => [{ to: '/admin/cases', label: 'طلبات الأفراد' }, { label: 'طلب ورقي جديد' }],
}

// Paper intake posts to the public form's own route (/apply/:type/new), which records the case's creation.
export const middleware = [audited({ read: false, write: false })]

/** Paper intake: staff start an application for a walk-in or phone applicant, on the public form. */
export async function loader({ context }: Route.LoaderArgs) {
	requireRole(context, areaRoles.cases)
	const db = await getDb()
	return {
		programmes: await Promise.all(
			applicationDefinitions.map(async (definition) => ({ type: definition.type, title: definition.title, closed: (await getIntake(db, definition.type)).state === 'closed' })),
		),
	}
}

export default function CaseNew({ loaderData }: Route.ComponentProps) {
	return (
		<>
			<PageTitle title="طلب ورقي جديد" />
			<h1 className="text-2xl font-bold text-brand-900">طلب ورقي جديد</h1>
			<p className="mt-2 max-w-2xl text-stone-700">
				لمتقدم حضر إلى المؤسسة أو اتصل بها: تعبّئ النموذج نفسه الذي يراه المتقدمون، ويُعلَّم الطلب بأنه ورقي. يمكنك قبول رقم هوية لا يجتاز التحقق بعد مطابقته بالبطاقة الأصلية، مع كتابة السبب.
			</p>
			<ul className="mt-6 grid gap-4 sm:grid-cols-2">
				{loaderData.programmes.map((programme) => (
					<li key={programme.type} className="rounded-xl border border-stone-200 bg-white p-5">
						<p className="text-lg font-bold">{programme.title}</p>
						{programme.closed ? (
							<p className="mt-2 text-stone-700">التقديم على هذا البرنامج مغلق حالياً.</p>
						) : (
							<Link to={`/apply/${programme.type}/new?paper=1`} className="btn-primary mt-3">
								بدء الطلب<span className="sr-only"> {programme.title}</span>
							</Link>
						)}
					</li>
				))}
			</ul>
		</>
	)
}
