import { data, Link, redirect } from 'react-router'
import type { Route } from './+types/content-list'
import { getDb } from '#app/db/database.server.ts'
import { requireRole } from '#app/auth/user-context.server.ts'
import { countEntries, listEntries } from '#app/content/store.server.ts'
import { findContentType } from '#app/content/types.ts'
import { areaRoles } from '#app/db/roles.ts'
import { pageParam, paginate } from '#app/utils/pagination.ts'
import { flashContext } from '#app/http/flash.server.ts'
import { FlashNotice, PageTitle } from '#app/components/forms.tsx'
import { Paginator } from '#app/components/paginator.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import { entryCards } from '#app/content/admin-cards.server.ts'
import { ContentCards } from '#app/components/content-cards.tsx'
import { bulkFileField, receiveBulkUpload } from '#app/content/bulk-upload.server.ts'
import { BULK_INPUT, BULK_MAX_FILES, cellText, filterFieldOf, filteredListPath, filterValue } from '#app/content/list-filter.ts'
import { fieldMaxBytes } from '#app/content/upload-limits.server.ts'
import { getFileStorage } from '#app/storage/file-storage.server.ts'
import { redirectWithFlash } from '#app/http/flash.server.ts'
import { FilterTabs } from '#app/components/filter-tabs.tsx'
import { BulkUploadForm } from '#app/components/bulk-upload-form.tsx'
import type { AdminHandle } from './layout.tsx'
import { audited } from '#app/audit/audit-trail.server.ts'

export const handle: AdminHandle = { breadcrumb: (data) => [{ label: findContentType((data as { typeName: string }).typeName)?.plural ?? 'المحتوى' }] }

// The list's action is the documents library's bulk upload.
export const middleware = [audited({ read: false, write: 'content.upload' })]

export async function loader({ params, request, context }: Route.LoaderArgs) {
	// The role first: a user who may not edit content learns nothing, not even which types exist.
	requireRole(context, areaRoles.content)
	const type = findContentType(params.type)
	if (!type) throw data(null, { status: 404 })
	if (type.kind === 'singleton') throw redirect(`/admin/content/${type.type}/edit`)
	const db = await getDb()
	// A type with a filter field (documents by category) lists one option's entries, or all.
	const filter = filterValue(type, new URL(request.url))
	const query = filter ? { where: { [type.filterField!]: filter } } : undefined
	const pagination = paginate({ total: await countEntries(db, type, query), perPage: type.perPage, page: pageParam(request) })
	const rows = await listEntries(db, type, { offset: pagination.offset, limit: type.perPage }, query)
	const bulkField = bulkFileField(type)
	return {
		typeName: type.type,
		filter,
		bulkMaxBytes: bulkField ? fieldMaxBytes(bulkField) : 0,
		pagination,
		notice: context.get(flashContext),
		cards: type.listStyle === 'cards' ? await entryCards(db, type, rows) : [],
		rows: rows.map((row) => ({
			id: row.id,
			cells: type.listColumns.map((column) =>
				cellText(
					type.fields.find((field) => field.name === column),
					(row.data as Record<string, unknown>)[column],
				),
			),
		})),
	}
}

/** The bulk upload without JavaScript (with it, the form posts to content-upload.ts for its progress bar). */
export async function action({ params, request, context }: Route.ActionArgs) {
	const user = requireRole(context, areaRoles.content)
	const type = findContentType(params.type)
	const field = type && bulkFileField(type)
	if (!type || !field) throw data(null, { status: 405 })
	const outcome = await receiveBulkUpload(await getDb(), getFileStorage(), type, request, { maxFileBytes: fieldMaxBytes(field), userId: user.id })
	// A 413 may leave the body unread: the connection closes rather than read it to its end.
	if (!outcome.ok) return data({ bulkError: outcome.message }, { status: outcome.status, headers: outcome.unread ? { Connection: 'close' } : undefined })
	return redirectWithFlash(filteredListPath(type, outcome.filter), { tone: outcome.refused ? 'error' : 'success', message: outcome.message })
}

export default function ContentList({ loaderData, actionData }: Route.ComponentProps) {
	const type = findContentType(loaderData.typeName)!
	const filterField = filterFieldOf(type)
	const { rows, cards, pagination, notice } = loaderData
	const columns = type.listColumns.map((name) => type.fields.find((field) => field.name === name)!.label)
	// A filtered list (one section of the library) shows that section's own page when it has one.
	const chosen = filterField?.options.find((option) => option.value === loaderData.filter)
	const publicPath = (chosen && 'path' in chosen && typeof chosen.path === 'string' ? chosen.path : undefined) ?? type.publicPath
	return (
		<>
			<PageTitle title={type.plural} />
			<div className="flex flex-wrap items-center justify-between gap-3">
				<h1 className="text-2xl font-bold text-brand-900">{type.plural}</h1>
				<div className="flex gap-2">
					<Link to={publicPath} className="btn-secondary">
						عرض في الموقع
					</Link>
					<Link to={`/admin/content/${type.type}/new${loaderData.filter ? `?${new URLSearchParams({ [filterField!.name]: loaderData.filter })}` : ''}`} className="btn-primary">
						إضافة {type.singular}
					</Link>
				</div>
			</div>
			{filterField ? (
				<FilterTabs
					label={`أقسام ${type.plural}`}
					current={loaderData.filter}
					links={[{ value: '', label: 'الكل' }, ...filterField.options].map((option) => ({ ...option, to: filteredListPath(type, option.value) }))}
				/>
			) : null}
			{filterField && type.bulkUpload ? (
				<BulkUploadForm
					action={`${filteredListPath(type, loaderData.filter)}`}
					jsonAction={`/admin/content/${type.type}/upload`}
					inputName={BULK_INPUT}
					selectName={filterField.name}
					selectLabel={filterField.label}
					options={filterField.options}
					selected={loaderData.filter}
					maxBytes={loaderData.bulkMaxBytes}
					maxFiles={BULK_MAX_FILES}
					error={actionData?.bulkError}
				/>
			) : null}
			<div className="mt-4">
				<FlashNotice notice={notice} />
			</div>
			{rows.length === 0 ? (
				<p className="rounded-xl bg-white p-5">لا يوجد محتوى بعد.</p>
			) : type.listStyle === 'cards' ? (
				<ContentCards typeName={type.type} label={`${type.plural}، الصفحة ${pagination.page} من ${pagination.lastPage}`} cards={cards} />
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
									{type.rowLinks?.map((link) => (
										<Link key={link.label} to={link.path(row.id)} className="btn-primary min-h-9 px-3 py-1 text-sm">
											{link.label}
											<span className="sr-only"> {row.cells[0]}</span>
										</Link>
									))}
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
