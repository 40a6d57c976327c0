import { Link } from 'react-router'
import type { Route } from './+types/visits'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { visitsOf } from '#app/cases/visits.server.ts'
import { formatClock, formatDate, formatSaudiMobile, formatWeekday, todayInRiyadh } from '#app/text/format.ts'
import { countOf } from '#app/text/arabic-count.ts'
import { PageTitle } from '#app/components/forms.tsx'
import { audited } from '#app/audit/audit-trail.server.ts'
import type { AdminHandle } from './layout.tsx'

// «زياراتي»: the researcher's planned home visits from today, made for a phone on the road: the
// family, where it lives, its mobile, and the study form to fill in on the spot
// (docs/product.md#the-social-study). A list, as the case lists: opening a case is what is recorded.

export const handle: AdminHandle = { breadcrumb: 'زياراتي' }

export const middleware = [audited({ read: false, write: false })]

const visitsNoun = { one: 'زيارة واحدة', two: 'زيارتان', few: 'زيارات', many: 'زيارةً', other: 'زيارة', none: 'لا زيارات' }

export async function loader({ request, context }: Route.LoaderArgs) {
	const user = requireRole(context, areaRoles.cases)
	const everyone = new URL(request.url).searchParams.get('all') === '1'
	const today = todayInRiyadh()
	const visits = await visitsOf(await getDb(), everyone ? null : user.id, today)
	const days = [...new Set(visits.map((visit) => visit.visitOn))].map((day) => ({
		day,
		label: `${day === today ? 'اليوم — ' : ''}${formatWeekday(day)} ${formatDate(day)}`,
		visits: visits
			.filter((visit) => visit.visitOn === day)
			.map((visit) => ({
				id: visit.id,
				at: formatClock(visit.visitAt),
				name: visit.applicantName,
				reference: visit.reference,
				programme: visit.programme,
				where: [visit.city, visit.neighborhood, visit.address].filter(Boolean).join('، '),
				mobile: formatSaudiMobile(visit.mobile),
				visitor: everyone ? (visit.visitorName ?? '') : null,
			})),
	}))
	return { everyone, count: countOf(visits.length, visitsNoun), days }
}

export default function Visits({ loaderData: { everyone, count, days } }: Route.ComponentProps) {
	return (
		<>
			<PageTitle title={everyone ? 'زيارات الباحثين' : 'زياراتي'} />
			<h1 className="text-2xl font-bold text-brand-900">{everyone ? 'زيارات الباحثين' : 'زياراتي'}</h1>
			<p className="mt-1 text-stone-700">
				الزيارات المحددة من اليوم فصاعداً: {count}.{' '}
				<Link to={everyone ? '/admin/visits' : '/admin/visits?all=1'} className="link">
					{everyone ? 'زياراتي فقط' : 'زيارات كل الباحثين'}
				</Link>
			</p>
			{days.length === 0 ? <p className="mt-6 rounded-xl border border-stone-200 bg-white p-4">لا زيارات محددة. تُحدَّد الزيارة من صفحة الطلب.</p> : null}
			{days.map((day) => (
				<section key={day.day} aria-labelledby={`day-${day.day}`} className="mt-6">
					<h2 id={`day-${day.day}`} className="text-lg font-bold">
						{day.label}
					</h2>
					<ul className="mt-2 space-y-3">
						{day.visits.map((visit) => (
							<li key={visit.id} className="rounded-xl border border-stone-200 bg-white p-4">
								<p className="font-bold">
									{visit.at} — {visit.name}
								</p>
								<p className="text-sm text-stone-700">
									{visit.programme} — <bdi dir="ltr">{visit.reference}</bdi>
									{visit.visitor ? ` — يزور: ${visit.visitor}` : ''}
								</p>
								{visit.where ? <p className="mt-1">{visit.where}</p> : null}
								<div className="mt-2 flex flex-wrap gap-x-4">
									{visit.mobile ? (
										<a href={`tel:${visit.mobile}`} className="link inline-flex min-h-11 items-center" dir="ltr">
											{visit.mobile}
										</a>
									) : null}
									<Link to={`/admin/cases/${visit.reference}`} className="link inline-flex min-h-11 items-center">
										الطلب<span className="sr-only"> {visit.name}</span>
									</Link>
									<Link to={`/admin/cases/${visit.reference}/study`} className="link inline-flex min-h-11 items-center">
										تسجيل الدراسة<span className="sr-only"> {visit.name}</span>
									</Link>
								</div>
							</li>
						))}
					</ul>
				</section>
			))}
		</>
	)
}
