import type { Route } from './+types/cases'
import { getDb } from '#app/db/database.server.ts'
import { requireRole } from '#app/auth/user-context.server.ts'
import { countSubmittedCases, listSubmittedCases } from '#app/cases/case-store.server.ts'
import { statusInfo } from '#app/cases/status.ts'
import { areaRoles } from '#app/domain/roles.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { formatDateWithHijri, formatSaudiMobile } from '#app/utils/format.ts'
import { pageParam, paginate } from '#app/utils/pagination.ts'
import { PageTitle } from '#app/components/forms.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import { Paginator } from '#app/components/paginator.tsx'
import type { AdminHandle } from './layout.tsx'

export const handle: AdminHandle = { breadcrumb: 'الطلبات' }

const PER_PAGE = 10

export async function loader({ request, context }: Route.LoaderArgs) {
	requireRole(context, areaRoles.cases)
	const db = await getDb()
	const total = await countSubmittedCases(db)
	const pagination = paginate({ total, perPage: PER_PAGE, page: pageParam(request) })
	const rows = await listSubmittedCases(db, { offset: pagination.offset, limit: PER_PAGE })
	return {
		pagination,
		total,
		cases: rows.map((row) => ({
			reference: row.reference,
			name: row.applicantName,
			nationalId: row.nationalId,
			mobile: formatSaudiMobile(row.mobile),
			form: findDefinition(row.type)?.title ?? row.type,
			status: statusInfo(row.status),
			submitted: row.submittedAt ? formatDateWithHijri(row.submittedAt) : '',
		})),
	}
}

export default function Cases({ loaderData }: Route.ComponentProps) {
	const { cases, pagination, total } = loaderData
	return (
		<>
			<PageTitle title="الطلبات" />
			<h1 className="text-2xl font-bold text-brand-900">الطلبات المرسلة ({total})</h1>
			{cases.length === 0 ? (
				<p className="mt-4 rounded-xl bg-white p-5 text-stone-700">لا توجد طلبات مرسلة بعد.</p>
			) : (
				<DataTable className="mt-4" label="جدول الطلبات" caption="الطلبات المرسلة، الأحدث أولاً" headings={['رقم الطلب', 'الاسم', 'رقم الهوية', 'الجوال', 'نوع الطلب', 'الحالة', 'تاريخ الإرسال']}>
							{cases.map((item) => (
								<tr key={item.reference} className="border-t border-stone-200">
									<td className="p-3 font-semibold whitespace-nowrap" dir="ltr">
										{item.reference}
									</td>
									<td className="p-3">{item.name}</td>
									<td className="p-3" dir="ltr">
										{item.nationalId}
									</td>
									<td className="p-3" dir="ltr">
										{item.mobile}
									</td>
									<td className="p-3">{item.form}</td>
									<td className="p-3">
										<span className={`rounded-full px-3 py-1 text-xs font-bold whitespace-nowrap ${item.status.badge}`}>{item.status.name}</span>
									</td>
									<td className="p-3">{item.submitted}</td>
								</tr>
							))}
						</DataTable>
			)}
			<Paginator pagination={pagination} />
		</>
	)
}
