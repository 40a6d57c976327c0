import { Form, Link } from 'react-router'
import type { Route } from './+types/inquiries'
import { getDb } from '#app/db/database.server.ts'
import { requireRole } from '#app/auth/user-context.server.ts'
import { countInquiries, listInquiries } from '#app/domain/contact-messages.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { formatDateTime } from '#app/text/format.ts'
import { inquiryCounts } from '#app/domain/inquiry-summary.ts'
import { pageParam, paginate } from '#app/utils/pagination.ts'
import { PageTitle } from '#app/components/forms.tsx'
import { Paginator } from '#app/components/paginator.tsx'
import type { AdminHandle } from './layout.tsx'
import { audited } from '#app/audit/audit-trail.server.ts'

export const handle: AdminHandle = { breadcrumb: 'رسائل التواصل' }

export const middleware = [audited({ read: false, write: false })]

const PER_PAGE = 10

export async function loader({ request, context }: Route.LoaderArgs) {
	requireRole(context, areaRoles.content)
	const db = await getDb()
	const query = (new URL(request.url).searchParams.get('q') ?? '').slice(0, 100)
	const counts = await countInquiries(db, query)
	const pagination = paginate({ total: counts.total, perPage: PER_PAGE, page: pageParam(request) })
	const rows = await listInquiries(db, { query, offset: pagination.offset, limit: PER_PAGE })
	return {
		query,
		counts,
		pagination,
		inquiries: rows.map((row) => ({
			id: row.id,
			name: row.name,
			subject: row.subject,
			excerpt: row.message.length > 120 ? `${row.message.slice(0, 120)}…` : row.message,
			at: formatDateTime(row.createdAt),
			unread: row.readAt === null,
			handled: row.handledAt !== null,
		})),
	}
}

export default function Inquiries({ loaderData }: Route.ComponentProps) {
	const { inquiries, counts, query, pagination } = loaderData
	return (
		<>
			<PageTitle title="رسائل التواصل" />
			<h1 className="text-2xl font-bold text-brand-900">رسائل التواصل</h1>
			<p className="mt-1 text-stone-700">
				{inquiryCounts(counts.total, counts.unread, Boolean(query))}
			</p>
			<Form method="get" className="mt-4 flex max-w-xl flex-wrap items-end gap-3" role="search">
				<div className="min-w-0 flex-1">
					<label htmlFor="q" className="block font-semibold">
						بحث في الرسائل
					</label>
					<input id="q" name="q" type="search" defaultValue={query} className="field-input mt-1" />
				</div>
				<button type="submit" className="btn-secondary">
					بحث
				</button>
			</Form>
			{inquiries.length === 0 ? (
				<p className="mt-6 rounded-xl bg-white p-5">{query ? 'لا توجد رسائل مطابقة.' : 'لا توجد رسائل بعد.'}</p>
			) : (
				<ul className="mt-6 divide-y divide-stone-200 rounded-xl border border-stone-200 bg-white">
					{inquiries.map((item) => (
						<li key={item.id} className={item.unread ? 'bg-brand-50' : undefined}>
							<Link to={`/admin/inquiries/${item.id}`} className="block p-4 hover:bg-stone-50">
								<span className="flex flex-wrap items-center gap-2">
									{item.unread ? <span className="rounded-full bg-brand-700 px-2 py-0.5 text-xs font-bold text-white">جديدة</span> : null}
									{item.handled ? <span className="rounded-full bg-stone-200 px-2 py-0.5 text-xs font-bold text-stone-800">تمت المعالجة</span> : null}
									<span className={item.unread ? 'font-bold' : 'font-semibold'}>{item.subject}</span>
									<span className="text-sm text-stone-600">— {item.name}</span>
									<span className="ms-auto text-xs text-stone-600">{item.at}</span>
								</span>
								<span className="mt-1 block text-sm text-stone-700">{item.excerpt}</span>
							</Link>
						</li>
					))}
				</ul>
			)}
			<Paginator pagination={pagination} />
		</>
	)
}
