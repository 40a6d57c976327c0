import type { Route } from './+types/retention'
import { getDb } from '#app/db/database.server.ts'
import { requireRole } from '#app/auth/user-context.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { quotedStatus, staffStatusName, Status } from '#app/cases/case-statuses.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { monthsCount } from '#app/privacy/consent-rules.ts'
import { countDue, countRegister, lastPurgeAt, listRegister } from '#app/operations/retention-purge.server.ts'
import { retentionSchedule } from '#app/operations/retention-schedule.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { formatDate, formatDateTime, formatFileSize, formatNumber } from '#app/text/format.ts'
import { pageParam, paginate } from '#app/utils/pagination.ts'
import { PageTitle } from '#app/components/forms.tsx'
import { Paginator } from '#app/components/paginator.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import type { AdminHandle } from './layout.tsx'
import { audited } from '#app/audit/audit-trail.server.ts'

// The retention register, for admins (docs/operations.md#retention): what retention destroyed, when,
// and what is due. Read-only: its rows are never removed (drizzle/0014_operations_privacy.sql).

export const handle: AdminHandle = { breadcrumb: 'سجل الإتلاف' }

// The register names cases by reference only; each purge is recorded as it happens (retention.purge).
export const middleware = [audited({ read: false, write: false })]

const PER_PAGE = 50

const runByLabels: Record<string, string> = { timer: 'التشغيل اليومي', command: 'أمر المشغّل' }

export async function loader({ request, context }: Route.LoaderArgs) {
	requireRole(context, areaRoles.users)
	const db = await getDb()
	const months = getEnv().RETENTION_MONTHS
	const [total, due, lastPurge, schedule] = await Promise.all([countRegister(db), countDue(db, { months }), lastPurgeAt(db), retentionSchedule(db)])
	const pagination = paginate({ total, perPage: PER_PAGE, page: pageParam(request) })
	const rows = await listRegister(db, { offset: pagination.offset, limit: PER_PAGE })
	return {
		months,
		total,
		due,
		lastRun: schedule.lastRunAt ? formatDateTime(schedule.lastRunAt) : null,
		lastPurge: lastPurge ? formatDateTime(lastPurge) : null,
		nextRun: schedule.nextRunAt ? formatDateTime(schedule.nextRunAt) : null,
		pagination,
		rows: rows.map((row) => ({
			id: row.id,
			reference: row.caseReference,
			programme: findDefinition(row.caseType)?.title ?? row.caseType,
			outcome: staffStatusName(row.outcome),
			closed: formatDate(row.closedAt),
			purged: formatDateTime(row.purgedAt),
			sections: formatNumber(row.sections.length),
			files: formatNumber(row.files),
			size: formatFileSize(row.bytes),
			by: runByLabels[row.runBy] ?? row.runBy,
		})),
	}
}

export default function Retention({ loaderData }: Route.ComponentProps) {
	const { rows, pagination, months, due, lastRun, lastPurge, nextRun, total } = loaderData
	return (
		<>
			<PageTitle title="سجل الإتلاف" />
			<h1 className="text-2xl font-bold text-brand-900">سجل الإتلاف (مدة الاحتفاظ)</h1>
			<p className="mt-1 max-w-3xl text-stone-700">
				الطلب المغلق نهائياً ({quotedStatus(Status.SupportProvided)} أو {quotedStatus(Status.Closed)}) تُتلف مرفقاته وإجابات أقسامه وبيانات مقدمه الشخصية (الاسم، ورقم الهوية، والجوال، والبريد) بعد مرور مدة الاحتفاظ على آخر تغيير
				لحالته، ولا يبقى منه إلا سجل مختصر: رقمه، والبرنامج، والتواريخ، والحالة، والدعم المقدم. الطلب الذي أُوقف دعمه لا يُتلف لأنه قد يُستأنف. يجري الإتلاف مرة كل يوم، ويُسجَّل كل طلب
				أُتلف هنا وفي سجل التدقيق، ولا يمكن التراجع عنه.
			</p>
			<dl className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
				<div className="rounded-xl border border-stone-200 bg-white p-4">
					<dt className="text-sm text-stone-600">مدة الاحتفاظ</dt>
					<dd className="text-lg font-bold">{monthsCount(months)}</dd>
				</div>
				<div className="rounded-xl border border-stone-200 bg-white p-4">
					<dt className="text-sm text-stone-600">طلبات حان إتلافها الآن</dt>
					<dd className="text-lg font-bold">{formatNumber(due)}</dd>
				</div>
				<div className="rounded-xl border border-stone-200 bg-white p-4">
					<dt className="text-sm text-stone-600">آخر تشغيل</dt>
					<dd className="font-bold">{lastRun ?? 'لم يعمل بعد'}</dd>
					<dd className="text-sm text-stone-600">آخر إتلاف: {lastPurge ?? 'لم يُتلف شيء بعد'}</dd>
				</div>
				<div className="rounded-xl border border-stone-200 bg-white p-4">
					<dt className="text-sm text-stone-600">التشغيل القادم</dt>
					<dd className="font-bold">{nextRun ?? 'بعد دقائق من تشغيل الخادم'}</dd>
				</div>
			</dl>
			<h2 className="mt-6 text-lg font-bold text-brand-900">الطلبات المُتلفة ({formatNumber(total)})</h2>
			{rows.length === 0 ? (
				<p className="mt-2 rounded-xl border border-stone-200 bg-white p-6 text-center">لم يُتلف أي طلب بعد.</p>
			) : (
				<DataTable
					label="سجل الإتلاف"
					caption={`سجل الإتلاف، الصفحة ${pagination.page} من ${pagination.lastPage}`}
					headings={['رقم الطلب', 'البرنامج', 'الحالة عند الإغلاق', 'تاريخ الإغلاق', 'تاريخ الإتلاف', 'الأقسام', 'المرفقات', 'الحجم', 'بواسطة']}
				>
					{rows.map((row) => (
						<tr key={row.id} className="border-t border-stone-200 align-top">
							<td className="p-3 whitespace-nowrap" dir="ltr">
								{row.reference}
							</td>
							<td className="p-3">{row.programme}</td>
							<td className="p-3">{row.outcome}</td>
							<td className="p-3 whitespace-nowrap">{row.closed}</td>
							<td className="p-3 whitespace-nowrap">{row.purged}</td>
							<td className="p-3">{row.sections}</td>
							<td className="p-3">{row.files}</td>
							<td className="p-3 whitespace-nowrap">{row.size}</td>
							<td className="p-3">{row.by}</td>
						</tr>
					))}
				</DataTable>
			)}
			<Paginator pagination={pagination} />
		</>
	)
}
