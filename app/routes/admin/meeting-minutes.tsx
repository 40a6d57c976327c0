import { data, Link, useRouteError } from 'react-router'
import type { Route } from './+types/meeting-minutes'
import { requireUser } from '#app/auth/session.server.ts'
import { requireRole, staffContext } from '#app/auth/user-context.server.ts'
import { audited, noteAudit } from '#app/audit/audit-trail.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { findMeeting } from '#app/aid/meetings.server.ts'
import { describeMinutes, type Minutes } from '#app/aid/minutes.ts'
import { getFoundationInfo } from '#app/domain/foundation-details.server.ts'
import { formatDateTime } from '#app/text/format.ts'
import { LogoMark } from '#app/components/logo.tsx'
import { ErrorMessage } from '#app/components/error-message.tsx'
import { PrintButton } from '#app/components/print-button.tsx'
import { DataTable, printCell as cell, printHeadCell as headCell } from '#app/components/data-table.tsx'

// The minutes of a closed committee meeting (docs/product.md#committee-meetings), to print on A4 and
// sign: each decision with its case, family or association, programme, amount and fund, the members
// present, and a signature line for each. Read from what closing the meeting wrote, so it prints
// the same every time. Outside the back-office frame, like the printed case file.

export function headers() {
	return { 'Cache-Control': 'private, no-store' }
}

/** Outside the back-office frame, so its own: the staff member first, then the audit trail. */
export const middleware: Route.MiddlewareFunction[] = [
	async ({ request, context }) => {
		context.set(staffContext, await requireUser(request))
	},
	audited({ read: 'meetings.minutes', write: false }),
]

export async function loader({ params, context }: Route.LoaderArgs) {
	const user = requireRole(context, areaRoles.decisions)
	const id = params.id && /^\d{1,9}$/.test(params.id) ? Number(params.id) : null
	const db = await getDb()
	const meeting = id === null ? undefined : await findMeeting(db, id)
	// An open meeting has no minutes yet: they are written when it closes.
	if (!meeting || !meeting.minutes) throw data('لا محضر لهذا الاجتماع: يُكتب المحضر عند إغلاق الاجتماع', { status: 404 })
	noteAudit(context, { data: { meeting: meeting.id } })
	const foundation = await getFoundationInfo(db)
	return { id: meeting.id, foundation: { name: foundation.name, location: foundation.location }, minutes: describeMinutes(meeting.minutes as Minutes), printed: { by: user.name, at: formatDateTime(new Date()) } }
}

export default function MeetingMinutes({ loaderData: { id, foundation, minutes, printed } }: Route.ComponentProps) {
	return (
		<div className="min-h-dvh bg-stone-100 py-6 print:min-h-0 print:bg-white print:py-0">
			<title>{minutes.title}</title>
			<nav aria-label="أدوات المحضر" className="mx-auto mb-4 flex max-w-[210mm] flex-wrap items-center gap-3 px-4 print:hidden">
				<Link to={`/admin/meetings/${id}`} className="link">
					العودة إلى الاجتماع
				</Link>
				<PrintButton />
			</nav>
			<main className="mx-auto max-w-[210mm] bg-white p-4 text-stone-900 shadow-sm sm:p-[14mm] print:max-w-none print:p-0 print:text-black print:shadow-none">
				<header className="flex items-center gap-4 border-b-2 border-brand-700 pb-4 print:border-black">
					<LogoMark className="size-16 shrink-0" />
					<div className="min-w-0">
						<p className="text-lg font-bold text-brand-900 print:text-black">{foundation.name}</p>
						<p className="text-xs text-stone-600 print:text-black">{foundation.location}</p>
					</div>
					<h1 className="ms-auto text-2xl font-bold text-brand-900 print:text-black">{minutes.title}</h1>
				</header>
				<dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
					{minutes.lines.map((line) => (
						<div key={line.label} className="contents">
							<dt className="text-stone-700 print:text-black">{line.label}</dt>
							<dd className="font-semibold">{line.value}</dd>
						</div>
					))}
					<dt className="text-stone-700 print:text-black">الأعضاء الحاضرون</dt>
					<dd className="font-semibold">{minutes.members.join('، ') || 'لم يُسجَّل حاضر'}</dd>
				</dl>

				<section aria-labelledby="minutes-decisions" className="mt-6">
					<h2 id="minutes-decisions" className="mb-2 border-b border-stone-300 pb-1 text-lg font-bold text-brand-900 print:border-black print:text-black">
						القرارات
					</h2>
					{minutes.rows.length === 0 ? (
						<p>لم يُتخذ في الاجتماع قرار.</p>
					) : (
						<DataTable variant="print" caption="قرارات الاجتماع" headings={minutes.headings} tableClassName="text-sm break-words">
							{minutes.rows.map((row) => (
								<tr key={row.id} className="break-inside-avoid">
									<th scope="row" className={`${headCell} font-normal`}>
										<bdi dir="ltr">{row.reference}</bdi>
									</th>
									<td className={cell}>{row.name}</td>
									<td className={cell}>{row.programme}</td>
									<td className={cell}>{row.decision}</td>
									<td className={cell}>{row.amount}</td>
									<td className={cell}>{row.fund}</td>
									<td className={cell}>{row.decider}</td>
								</tr>
							))}
						</DataTable>
					)}
				</section>

				<section aria-labelledby="minutes-signatures" className="mt-8 break-inside-avoid">
					<h2 id="minutes-signatures" className="mb-2 border-b border-stone-300 pb-1 text-lg font-bold text-brand-900 print:border-black print:text-black">
						توقيع الأعضاء الحاضرين
					</h2>
					<ul className="grid gap-x-8 gap-y-6 sm:grid-cols-2 print:grid-cols-2">
						{minutes.members.map((name) => (
							<li key={name} className="break-inside-avoid">
								<p className="font-semibold">{name}</p>
								<p className="mt-8 border-b border-stone-500 print:border-black" aria-hidden="true" />
								<p className="text-xs text-stone-700 print:text-black">التوقيع</p>
							</li>
						))}
					</ul>
				</section>

				<footer className="mt-8 border-t border-stone-300 pt-3 text-sm text-stone-700 print:border-black print:text-black">
					طُبع بواسطة {printed.by} في {printed.at}
				</footer>
			</main>
		</div>
	)
}

export function ErrorBoundary() {
	const error = useRouteError()
	return (
		<main className="mx-auto max-w-2xl p-8 text-center">
			<ErrorMessage error={error} />
			<Link to="/admin/meetings" className="btn-primary mt-6">
				العودة إلى الاجتماعات
			</Link>
		</main>
	)
}
