import { Form, Link } from 'react-router'
import type { Route } from './+types/audit'
import { getDb } from '#app/db/database.server.ts'
import { requireRole } from '#app/auth/user-context.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { auditActions } from '#app/audit/actions.ts'
import { actionLabel, auditActors, auditFilterParams, countAudit, describeDetails, listAudit, readAuditFilter } from '#app/audit/audit-log.server.ts'
import { formatDateTime } from '#app/text/format.ts'
import { countOf, records } from '#app/text/arabic-count.ts'
import { pageParam, paginate } from '#app/utils/pagination.ts'
import { PageTitle } from '#app/components/forms.tsx'
import { Paginator } from '#app/components/paginator.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import type { AdminHandle } from './layout.tsx'
import { audited } from '#app/audit/audit-trail.server.ts'

// The audit trail, for admins only (docs/security.md#audit-trail): read-only, filtered, exported as CSV.

export const handle: AdminHandle = { breadcrumb: 'سجل التدقيق' }

export const middleware = [audited({ read: false, write: false })]

const PER_PAGE = 50

export async function loader({ request, context }: Route.LoaderArgs) {
	requireRole(context, areaRoles.users)
	const db = await getDb()
	const filter = readAuditFilter(new URL(request.url).searchParams)
	const [total, actors] = await Promise.all([countAudit(db, filter), auditActors(db)])
	const pagination = paginate({ total, perPage: PER_PAGE, page: pageParam(request) })
	const rows = await listAudit(db, filter, { offset: pagination.offset, limit: PER_PAGE })
	return {
		total,
		pagination,
		filter: { user: filter.actorId ? String(filter.actorId) : '', action: filter.action ?? '', case: filter.caseReference ?? '', from: filter.from ?? '', to: filter.to ?? '' },
		exportQuery: auditFilterParams(filter).toString(),
		actors: actors.map((actor) => ({ value: String(actor.id), label: actor.deleted ? `${actor.name} (محذوف)` : actor.name })),
		entries: rows.map((row) => ({
			id: row.id,
			at: formatDateTime(row.at),
			actor: row.actorName || '—',
			action: actionLabel(row.action),
			denied: row.action === 'access.denied' || row.action.endsWith('-failed'),
			caseReference: row.caseReference,
			path: row.path,
			ip: row.ip,
			details: describeDetails(row.data),
		})),
	}
}

export default function Audit({ loaderData }: Route.ComponentProps) {
	const { entries, filter, actors, pagination, total, exportQuery } = loaderData
	return (
		<>
			<PageTitle title="سجل التدقيق" />
			<div className="flex flex-wrap items-center justify-between gap-3">
				<h1 className="text-2xl font-bold text-brand-900">سجل التدقيق</h1>
				<a href={`/admin/audit/export${exportQuery ? `?${exportQuery}` : ''}`} className="btn-secondary" download>
					تصدير CSV
				</a>
			</div>
			<p className="mt-1 text-stone-700">كل دخول، وكل تغيير، وكل اطلاع على بيانات مقدمي الطلبات. لا يمكن تعديل السجل أو حذف شيء منه.</p>
			<Form method="get" className="mt-4 grid gap-3 rounded-xl border border-stone-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-6 lg:items-end" role="search" aria-label="تصفية السجل">
				<div className="lg:col-span-1">
					<label htmlFor="audit-user" className="block font-semibold">
						المستخدم
					</label>
					<select id="audit-user" name="user" defaultValue={filter.user} className="field-input mt-1">
						<option value="">الكل</option>
						{actors.map((actor) => (
							<option key={actor.value} value={actor.value}>
								{actor.label}
							</option>
						))}
					</select>
				</div>
				<div className="lg:col-span-1">
					<label htmlFor="audit-action" className="block font-semibold">
						الإجراء
					</label>
					<select id="audit-action" name="action" defaultValue={filter.action} className="field-input mt-1">
						<option value="">الكل</option>
						{Object.entries(auditActions).map(([value, label]) => (
							<option key={value} value={value}>
								{label}
							</option>
						))}
					</select>
				</div>
				<div>
					<label htmlFor="audit-case" className="block font-semibold">
						رقم الطلب
					</label>
					<input id="audit-case" name="case" type="search" defaultValue={filter.case} dir="ltr" placeholder="ABCD-2345" className="field-input mt-1" />
				</div>
				<div>
					<label htmlFor="audit-from" className="block font-semibold">
						من تاريخ
					</label>
					<input id="audit-from" name="from" type="date" defaultValue={filter.from} className="field-input mt-1" />
				</div>
				<div>
					<label htmlFor="audit-to" className="block font-semibold">
						إلى تاريخ
					</label>
					<input id="audit-to" name="to" type="date" defaultValue={filter.to} className="field-input mt-1" />
				</div>
				<div className="flex gap-2">
					<button type="submit" className="btn-primary">
						تصفية
					</button>
					<Link to="/admin/audit" className="btn-secondary">
						الكل
					</Link>
				</div>
			</Form>
			<p className="mt-4 text-stone-700" role="status">
				{countOf(total, records)}
			</p>
			{entries.length === 0 ? (
				<p className="mt-4 rounded-xl border border-stone-200 bg-white p-6 text-center">لا توجد سجلات مطابقة.</p>
			) : (
				<DataTable
					label="سجل التدقيق"
					caption={`سجل التدقيق، الصفحة ${pagination.page} من ${pagination.lastPage}`}
					headings={['الوقت (الرياض)', 'المستخدم', 'الإجراء', 'رقم الطلب', 'الصفحة', 'عنوان IP', 'التفاصيل']}
				>
					{entries.map((entry) => (
						<tr key={entry.id} className="border-t border-stone-200 align-top">
							<td className="p-3">{entry.at}</td>
							<td className="p-3">{entry.actor}</td>
							<td className={`p-3 ${entry.denied ? 'font-semibold text-red-800' : ''}`}>{entry.action}</td>
							<td className="p-3 whitespace-nowrap" dir="ltr">
								{entry.caseReference ? (
									<Link to={`/admin/audit?${new URLSearchParams({ case: entry.caseReference })}`} className="link">
										{entry.caseReference}
									</Link>
								) : null}
							</td>
							<td className="p-3 break-all" dir="ltr">
								{entry.path}
							</td>
							<td className="p-3" dir="ltr">
								{entry.ip}
							</td>
							<td className="p-3 text-sm break-words text-stone-700">{entry.details}</td>
						</tr>
					))}
				</DataTable>
			)}
			<Paginator pagination={pagination} />
		</>
	)
}
