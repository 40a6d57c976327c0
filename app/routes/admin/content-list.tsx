import { data, Link, redirect } from 'react-router'
import type { Route } from './+types/content-list'
import { getDb } from '#app/db/database.server.ts'
import { requireRole } from '#app/auth/user-context.server.ts'
import { countEntries, listEntries } from '#app/content/store.server.ts'
import { findContentType } from '#app/content/types.ts'
import { areaRoles } from '#app/domain/roles.ts'
import { pageParam, paginate } from '#app/utils/pagination.ts'
import { flashContext } from '#app/utils/flash.server.ts'
import { FlashNotice, PageTitle } from '#app/components/forms.tsx'
import { Paginator } from '#app/components/paginator.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import type { AdminHandle } from './layout.tsx'

export const handle: AdminHandle = { breadcrumb: (data) => [{ label: findContentType((data as { typeName: string }).typeName)?.plural ?? 'المحتوى' }] }

export async function loader({ params, request, context }: Route.LoaderArgs) {
	const type = findContentType(params.type)
	if (!type) throw data(null, { status: 404 })
	requireRole(context, areaRoles.content)
	if (type.kind === 'singleton') throw redirect(`/admin/content/${type.type}/edit`)
	const db = await getDb()
	const pagination = paginate({ total: await countEntries(db, type), perPage: type.perPage, page: pageParam(request) })
	const rows = await listEntries(db, type, { offset: pagination.offset, limit: type.perPage })
	return {
		typeName: type.type,
		pagination,
		notice: context.get(flashContext),
		rows: rows.map((row) => ({ id: row.id, cells: type.listColumns.map((column) => String((row.data as Record<string, unknown>)[column] ?? '')) })),
	}
}

export default function ContentList({ loaderData }: Route.ComponentProps) {
	const type = findContentType(loaderData.typeName)!
	const { rows, pagination, notice } = loaderData
	const columns = type.listColumns.map((name) => type.fields.find((field) => field.name === name)!.label)
	return (
		<>
			<PageTitle title={type.plural} />
			<div className="flex flex-wrap items-center justify-between gap-3">
				<h1 className="text-2xl font-bold text-brand-900">{type.plural}</h1>
				<div className="flex gap-2">
					<Link to={type.publicPath} className="btn-secondary">
						عرض في الموقع
					</Link>
					<Link to={`/admin/content/${type.type}/new`} className="btn-primary">
						إضافة {type.singular}
					</Link>
				</div>
			</div>
			<div className="mt-4">
				<FlashNotice notice={notice} />
			</div>
			{rows.length === 0 ? (
				<p className="rounded-xl bg-white p-5">لا يوجد محتوى بعد.</p>
			) : (
				<DataTable label={`جدول ${type.plural}`} caption={`${type.plural}، الصفحة ${pagination.page} من ${pagination.lastPage}`} headings={['#', ...columns, 'الإجراءات']}>
							{rows.map((row, index) => (
								<tr key={row.id} className="border-t border-stone-200">
									<td className="p-3">{pagination.offset + index + 1}</td>
									{row.cells.map((cell, i) => (
										<td key={i} className={i === 0 ? 'p-3 font-semibold' : 'p-3'}>
											{cell}
										</td>
									))}
									<td className="p-3">
										<div className="flex flex-wrap gap-2">
											<Link to={`/admin/content/${type.type}/${row.id}/edit`} className="btn-secondary min-h-9 px-3 py-1 text-sm">
												تعديل<span className="sr-only"> {row.cells[0]}</span>
											</Link>
											<Link to={`/admin/content/${type.type}/${row.id}/delete`} className="btn min-h-9 border border-red-800 px-3 py-1 text-sm text-red-800 hover:bg-red-50">
												حذف<span className="sr-only"> {row.cells[0]}</span>
											</Link>
										</div>
									</td>
								</tr>
							))}
						</DataTable>
			)}
			<Paginator pagination={pagination} />
		</>
	)
}
