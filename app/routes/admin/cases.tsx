import { Form, Link, useLocation } from 'react-router'
import { parseWithZod } from '@conform-to/zod/v4'
import type { Route } from './+types/cases'
import { getDb } from '#app/db/database.server.ts'
import { requireRole } from '#app/auth/user-context.server.ts'
import { BULK_STATUSES, caseOfficers } from '#app/cases/status-changes.server.ts'
import { CASE_LIST_PAGE_SIZE, countCases, filterParams, listCases, readCaseFilter, typesOfKind } from '#app/cases/case-lists.server.ts'
import { bulkSchema, runBulkAction } from '#app/casework/bulk.server.ts'
import { respond } from '#app/casework/respond.server.ts'
import { quotedStatus, staffStatusName, Status, statusFilterOptions, statusInfo } from '#app/cases/case-statuses.ts'
import { allowedTargets, type CaseKind } from '#app/cases/workflow.ts'
import { waitedFor } from '#app/cases/waited.ts'
import { areaRoles, hasRole } from '#app/db/roles.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { describeValue } from '#app/forms/describe.ts'
import { formatGregorian, formatHijri, formatNumber, formatSaudiMobile } from '#app/text/format.ts'
import { paginate, pageParam } from '#app/utils/pagination.ts'
import { flashContext, redirectWithFlash } from '#app/http/flash.server.ts'
import { FlashNotice, PageTitle } from '#app/components/forms.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import { Paginator } from '#app/components/paginator.tsx'
import type { AdminHandle } from './layout.tsx'
import { PURGED_ID_PREFIX } from '#app/operations/retention-purge.server.ts'
import { audited } from '#app/audit/audit-trail.server.ts'

// The staff's case lists: individuals at /admin/cases, associations at /admin/associations, both
// from the definitions' kind (docs/product.md#the-case-lists).

export const handle: AdminHandle = {
	breadcrumb: (data) => [{ label: (data as { heading: string }).heading }],
}

export const middleware = [audited({ read: false, write: { byIntent: { 'bulk-status': 'cases.bulk-status', 'bulk-assign': 'cases.bulk-assign' } } })]

const headings: Record<CaseKind, string> = { individual: 'طلبات الأفراد', association: 'طلبات الجمعيات والمؤسسات' }

function kindOf(request: Request): CaseKind {
	return new URL(request.url).pathname.startsWith('/admin/associations') ? 'association' : 'individual'
}

function firstAnswer(type: string, first: Record<string, unknown>, field: 'nationality' | 'specialty'): string {
	const definition = findDefinition(type)
	const name = definition?.applicant[field]
	const def = name ? definition.sections[0]?.fields.find((candidate) => candidate.name === name) : undefined
	return def && def.kind !== 'group' ? describeValue(def, first) : ''
}

export async function loader({ request, context }: Route.LoaderArgs) {
	const user = requireRole(context, areaRoles.cases)
	const kind = kindOf(request)
	const url = new URL(request.url)
	const filter = readCaseFilter(url.searchParams, kind, user.id)
	// Deleted cases are for an admin to restore.
	if (filter.deleted && !hasRole(user, 'admin')) filter.deleted = false
	const db = await getDb()
	const [total, officers] = await Promise.all([countCases(db, filter), caseOfficers(db)])
	const pagination = paginate({ total, perPage: CASE_LIST_PAGE_SIZE, page: pageParam(request) })
	const rows = await listCases(db, filter, { offset: pagination.offset, limit: CASE_LIST_PAGE_SIZE })
	const now = new Date()
	const query = filterParams(filter, user.id).toString()
	return {
		kind,
		heading: headings[kind],
		base: kind === 'association' ? '/admin/associations' : '/admin/cases',
		isAdmin: hasRole(user, 'admin'),
		notice: context.get(flashContext),
		filter: { ...filter, assigned: url.searchParams.get('assigned') ?? '' },
		query,
		total,
		pagination,
		officers,
		types: typesOfKind(kind).map((type) => ({ value: type, label: findDefinition(type)!.title })),
		bulkStatuses: BULK_STATUSES.map((status) => ({ value: status, label: statusInfo(status).name })),
		cases: rows.map((row) => ({
			reference: row.reference,
			name: row.applicantName,
			// A purged case keeps a fingerprint of the ID, not the ID (app/operations/retention-purge.server.ts).
			nationalId: row.nationalId.startsWith(PURGED_ID_PREFIX) ? '' : row.nationalId,
			mobile: formatSaudiMobile(row.mobile),
			nationality: firstAnswer(row.type, row.first, 'nationality'),
			specialty: firstAnswer(row.type, row.first, 'specialty'),
			form: findDefinition(row.type)?.title ?? row.type,
			status: { name: staffStatusName(row.status), badge: statusInfo(row.status).badge },
			submitted: formatGregorian(row.submittedAt),
			submittedHijri: formatHijri(row.submittedAt),
			// A case nobody can move on (support provided, archived) is not waiting.
			waited: allowedTargets(kind, row.status, 'case_officer').length ? waitedFor(row.statusChangedAt, now) : '—',
			officer: row.assignedName ?? '',
		})),
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	const user = requireRole(context, areaRoles.cases)
	const url = new URL(request.url)
	const back = `${url.pathname}${url.search}`
	const formData = await request.formData()
	// One ticked box arrives as a string; the schema wants a list either way.
	const refs = formData.getAll('ref').map(String)
	formData.delete('ref')
	for (const ref of refs) formData.append('ref', ref)
	const submission = parseWithZod(formData, { schema: bulkSchema })
	if (submission.status !== 'success') {
		const first = Object.values(submission.error ?? {}).flat()[0] ?? 'الطلب غير صالح'
		return redirectWithFlash(back, { tone: 'error', message: first })
	}
	return respond(await runBulkAction(await getDb(), submission.value, user, back))
}

export default function Cases({ loaderData }: Route.ComponentProps) {
	const { cases, pagination, total, filter, kind, base } = loaderData
	const location = useLocation()
	const selectClass = 'field-input mt-1'
	return (
		<>
			<PageTitle title={loaderData.heading} />
			<div className="flex flex-wrap items-center justify-between gap-3">
				<h1 className="text-2xl font-bold text-brand-900">
					{loaderData.heading} ({formatNumber(total)})
				</h1>
				<div className="flex flex-wrap gap-2">
					{kind === 'individual' ? (
						<Link to="/admin/cases/new" className="btn-secondary">
							طلب ورقي جديد
						</Link>
					) : null}
					<a href={`${base}/export/csv${loaderData.query ? `?${loaderData.query}` : ''}`} className="btn-secondary" download>
						تصدير CSV
					</a>
					<a href={`${base}/export/xlsx${loaderData.query ? `?${loaderData.query}` : ''}`} className="btn-secondary" download>
						تصدير Excel
					</a>
				</div>
			</div>
			<FlashNotice notice={loaderData.notice} live className="mt-4" />

			<Form method="get" className="mt-4 grid gap-3 rounded-xl border border-stone-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-4" role="search" aria-label="تصفية الطلبات">
				<div className="sm:col-span-2">
					<label htmlFor="q" className="block font-semibold">
						بحث
					</label>
					<p id="q-hint" className="text-sm text-stone-600">
						{kind === 'individual' ? 'الاسم أو جزء منه، أو رقم الهوية، أو الجوال، أو رقم الطلب' : 'اسم الجمعية أو المؤسسة أو جزء منه، أو رقم الترخيص أو التصريح، أو الجوال، أو رقم الطلب'}
					</p>
					<input id="q" name="q" type="search" defaultValue={filter.q} className={selectClass} aria-describedby="q-hint" />
				</div>
				<div>
					<label htmlFor="status" className="block font-semibold">
						الحالة
					</label>
					<select id="status" name="status" defaultValue={filter.status ?? ''} className={selectClass}>
						<option value="">كل الحالات عدا المغلقة</option>
						{statusFilterOptions
							// «Support stopped» is a filter of the individuals' list only, as in the old system.
							.filter((option) => kind === 'individual' || option.value !== 5)
							.map((option) => (
								<option key={option.value} value={option.value}>
									{option.label}
								</option>
							))}
					</select>
				</div>
				<div>
					<label htmlFor="type" className="block font-semibold">
						نوع الطلب
					</label>
					<select id="type" name="type" defaultValue={filter.type ?? ''} className={selectClass}>
						<option value="">كل الأنواع</option>
						{loaderData.types.map((type) => (
							<option key={type.value} value={type.value}>
								{type.label}
							</option>
						))}
					</select>
				</div>
				<div>
					<label htmlFor="assigned" className="block font-semibold">
						الموظف المسؤول
					</label>
					<select id="assigned" name="assigned" defaultValue={filter.assigned} className={selectClass}>
						<option value="">الجميع</option>
						<option value="me">طلباتي</option>
						{loaderData.officers.map((officer) => (
							<option key={officer.id} value={officer.id}>
								{officer.name}
							</option>
						))}
					</select>
				</div>
				<div>
					<label htmlFor="from" className="block font-semibold">
						أُرسل من تاريخ
					</label>
					<input id="from" name="from" type="date" defaultValue={filter.from ?? ''} className={selectClass} />
				</div>
				<div>
					<label htmlFor="to" className="block font-semibold">
						إلى تاريخ
					</label>
					<input id="to" name="to" type="date" defaultValue={filter.to ?? ''} className={selectClass} />
				</div>
				<div>
					<label htmlFor="sort" className="block font-semibold">
						الترتيب
					</label>
					<select id="sort" name="sort" defaultValue={filter.sort} className={selectClass}>
						<option value="submitted">الأحدث إرسالاً أولاً</option>
						<option value="waiting">الأطول انتظاراً أولاً</option>
					</select>
				</div>
				{loaderData.isAdmin ? (
					<div className="flex items-center gap-3 self-end sm:col-span-2 lg:col-span-1">
						<input id="deleted" name="deleted" type="checkbox" value="1" defaultChecked={filter.deleted} className="size-5 accent-brand-700" />
						<label htmlFor="deleted">الطلبات المحذوفة فقط</label>
					</div>
				) : null}
				<div className="flex flex-wrap items-end gap-2 sm:col-span-2 lg:col-span-4">
					<button type="submit" className="btn-primary">
						عرض النتائج
					</button>
					<Link to={base} className="btn-secondary">
						مسح التصفية
					</Link>
				</div>
			</Form>

			{cases.length === 0 ? (
				<p className="mt-4 rounded-xl bg-white p-5 text-stone-700">{location.search ? 'لا توجد طلبات تطابق التصفية.' : 'لا توجد طلبات مرسلة بعد.'}</p>
			) : (
				<Form method="post" action={`${location.pathname}${location.search}`} className="mt-4 space-y-4">
					<DataTable
						label="جدول الطلبات"
						caption={`${loaderData.heading}، الصفحة ${pagination.page} من ${pagination.lastPage}`}
						headings={
							kind === 'individual'
								? ['تحديد', 'رقم الطلب', 'الاسم', 'رقم الهوية', 'الجوال', 'الجنسية', 'نوع الطلب', 'الحالة', 'تاريخ الإرسال', 'الانتظار', 'المسؤول']
								: ['تحديد', 'رقم الطلب', 'اسم الجمعية', 'رقم الترخيص', 'التخصص', 'نوع الطلب', 'تاريخ التقديم', 'الحالة', 'الانتظار', 'المسؤول']
						}
					>
						{cases.map((item) => (
							<tr key={item.reference} className="border-t border-stone-200 align-top">
								<td className="p-3">
									<input type="checkbox" name="ref" value={item.reference} className="size-5 accent-brand-700" aria-label={`تحديد طلب ${item.name}`} />
								</td>
								<td className="p-3 whitespace-nowrap">
									<Link to={`/admin/cases/${item.reference}`} className="link font-semibold" dir="ltr">
										{item.reference}
									</Link>
									{/* The old lists' print action; deleting stays on the case view, behind its confirmation. */}
									<a href={`/admin/cases/${item.reference}/print`} className="link mt-1 flex min-h-6 items-center text-sm">
										طباعة<span className="sr-only"> الطلب {item.reference}</span>
									</a>
								</td>
								<td className="min-w-36 p-3">
									<Link to={`/admin/cases/${item.reference}`} className="link">
										{item.name}
									</Link>
								</td>
								<td className="p-3" dir="ltr">
									{item.nationalId}
								</td>
								{kind === 'individual' ? (
									<>
										<td className="p-3 whitespace-nowrap" dir="ltr">
											{item.mobile}
										</td>
										<td className="p-3">{item.nationality}</td>
										<td className="p-3">{item.form}</td>
									</>
								) : (
									<>
										<td className="p-3">{item.specialty}</td>
										<td className="p-3">{item.form}</td>
									</>
								)}
								{kind === 'individual' ? (
									<>
										<td className="p-3">
											<span className={`rounded-full px-3 py-1 text-xs font-bold whitespace-nowrap ${item.status.badge}`}>{item.status.name}</span>
										</td>
										<td className="p-3 whitespace-nowrap">
											{item.submitted}
											<span className="block text-xs text-stone-600">{item.submittedHijri}</span>
										</td>
									</>
								) : (
									<>
										<td className="p-3 whitespace-nowrap">
											{item.submitted}
											<span className="block text-xs text-stone-600">{item.submittedHijri}</span>
										</td>
										<td className="p-3">
											<span className={`rounded-full px-3 py-1 text-xs font-bold whitespace-nowrap ${item.status.badge}`}>{item.status.name}</span>
										</td>
									</>
								)}
								<td className="p-3 whitespace-nowrap">{item.waited}</td>
								<td className="p-3">{item.officer || '—'}</td>
							</tr>
						))}
					</DataTable>
					<fieldset className="grid gap-4 rounded-xl border border-stone-200 bg-white p-4 lg:grid-cols-2">
						<legend className="px-2 font-bold">إجراء على الطلبات المحددة</legend>
						<div className="space-y-2">
							<label htmlFor="bulk-status" className="block font-semibold">
								تغيير الحالة إلى
							</label>
							<select id="bulk-status" name="status" className={selectClass} defaultValue="">
								<option value="" disabled>
									اختر الحالة
								</option>
								{loaderData.bulkStatuses.map((status) => (
									<option key={status.value} value={status.value}>
										{status.label}
									</option>
								))}
							</select>
							<label htmlFor="bulk-note" className="block font-semibold">
								ملاحظة تغيير الحالة (داخلية)
							</label>
							<textarea id="bulk-note" name="note" rows={2} maxLength={2000} className={selectClass} />
							<p className="text-sm text-stone-600">{quotedStatus(Status.Incomplete)} و{quotedStatus(Status.SupportProvided)} تُضبطان من صفحة كل طلب، لأنهما تحتاجان تفاصيل خاصة به.</p>
							<button type="submit" name="intent" value="bulk-status" className="btn-primary">
								تغيير حالة المحدد
							</button>
						</div>
						<div className="space-y-2">
							<label htmlFor="bulk-officer" className="block font-semibold">
								إسناد إلى
							</label>
							<select id="bulk-officer" name="officer" className={selectClass} defaultValue="">
								<option value="" disabled>
									اختر الموظف
								</option>
								<option value="none">بلا إسناد</option>
								{loaderData.officers.map((officer) => (
									<option key={officer.id} value={officer.id}>
										{officer.name}
									</option>
								))}
							</select>
							<button type="submit" name="intent" value="bulk-assign" className="btn-secondary">
								إسناد المحدد
							</button>
						</div>
					</fieldset>
				</Form>
			)}
			<Paginator pagination={pagination} />
		</>
	)
}
