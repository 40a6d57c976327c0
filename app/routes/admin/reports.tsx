import { Form, Link } from 'react-router'
import type { Route } from './+types/reports'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { areaRoles, hasRole } from '#app/db/roles.ts'
import { yearPeriods } from '#app/aid/periods.server.ts'
import { aidReport, reportGroupings, zakatByHijriYear, type ReportRow } from '#app/aid/reports.server.ts'
import { reportColumns, reportQuery } from '#app/aid/report-query.ts'
import { formatDateTime, formatMoney, formatMonth, todayInRiyadh } from '#app/text/format.ts'
import { countOf } from '#app/text/arabic-count.ts'
import { PageTitle, SelectField } from '#app/components/forms.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import { audited } from '#app/audit/audit-trail.server.ts'
import type { AdminHandle } from './layout.tsx'

// The reports the foundation owes its board and the ministry (docs/product.md#reports): a year's
// cases and aid by programme, fund, month or city, on screen with a chart and as XLSX. Figures
// only, no one's name: nothing personal is read, so nothing is recorded but the download.

export const handle: AdminHandle = { breadcrumb: 'تقارير الدعم' }

export const middleware = [audited({ read: false, write: false })]

export async function loader({ request, context }: Route.LoaderArgs) {
	const user = requireRole(context, areaRoles.funds)
	const query = reportQuery(new URL(request.url))
	const db = await getDb()
	const [{ rows, total }, periods, zakatYears] = await Promise.all([aidReport(db, query.year, query.by), yearPeriods(db, query.year), zakatByHijriYear(db)])
	// A closed month's figures never change (docs/product.md#periods): the report says which are, and every reopening.
	const closed = periods.months.filter((month) => month.closed)
	const label = (row: ReportRow) => (query.by === 'month' && closed.some((month) => month.month === row.key) ? `${row.label} — مقفل` : row.label)
	const cell = (row: ReportRow, column: (typeof reportColumns)[number]) => {
		const value = row[column.name]
		if (value === null) return '—'
		return column.money ? formatMoney(Number(value)) : String(value)
	}
	const most = Math.max(1, ...rows.map((row) => row.givenRiyals))
	return {
		query,
		groupings: reportGroupings,
		groupLabel: reportGroupings.find((grouping) => grouping.value === query.by)!.label,
		headers: reportColumns.map((column) => column.header),
		rows: rows.map((row) => ({ key: row.key, label: label(row), cells: reportColumns.map((column) => cell(row, column)) })),
		total: reportColumns.map((column) => cell(total, column)),
		// The chart: riyals given per group, as a share of the largest.
		bars: rows.map((row) => ({ key: row.key, label: row.label, share: row.givenRiyals / most, amount: formatMoney(row.givenRiyals) })),
		periods: {
			state: periods.closed
				? 'السنة مقفلة: أشهرها الاثنا عشر مقفلة، فلا تتغير أرقامها.'
				: closed.length
					? `أُقفل من السنة ${countOf(closed.length, { one: 'شهر واحد', two: 'شهران', few: 'أشهر', many: 'شهراً', other: 'شهر' })}: ${closed.map((month) => formatMonth(month.month)).join('، ')}. لا تتغير أرقام الشهر المقفل.`
					: 'لم يُقفل من السنة شهر بعد: أرقامها قد تتغير بما يُسجَّل فيها.',
			reopenings: periods.reopenings.map((entry) => `أُعيد فتح ${formatMonth(entry.month)}: ${entry.actorName}، ${formatDateTime(entry.at)}. السبب: ${entry.reason}`),
			link: hasRole(user, ...areaRoles.payments) ? `/admin/periods?year=${query.year}` : null,
		},
		download: `/admin/reports/export?${new URLSearchParams({ year: String(query.year), by: query.by })}`,
		// Zakat per Hijri year; received and what is left once receipts are recorded (app/aid/reports.server.ts).
		zakat: {
			received: zakatYears.some((year) => year.received !== null),
			years: zakatYears.map((year) => ({
				year: `${year.year}هـ`,
				paid: formatMoney(year.paid),
				received: year.received === null ? '—' : formatMoney(year.received),
				left: year.left === null ? '—' : formatMoney(year.left),
				register: `/admin/zakat?period=hijri-${year.year}`,
			})),
		},
	}
}

export default function Reports({ loaderData: r }: Route.ComponentProps) {
	return (
		<>
			<PageTitle title="تقارير الدعم" />
			<h1 className="text-2xl font-bold text-brand-900">تقارير الدعم</h1>
			<p className="mt-1 text-stone-700">أرقام العام الميلادي من سجلات الطلبات والقرارات والصرف نفسها، بلا بيانات شخصية: لمجلس الإدارة والوزارة والداعمين.</p>
			<Form method="get" className="mt-4 flex flex-wrap items-end gap-3 rounded-xl border border-stone-200 bg-white p-4">
				<SelectField
					label="العام"
					options={Array.from({ length: 7 }, (_, index) => String(Number(todayInRiyadh().slice(0, 4)) - index)).map((year) => ({ value: year, label: year }))}
					selectProps={{ id: 'report-year', name: 'year', defaultValue: String(r.query.year) }}
				/>
				<SelectField label="التجميع حسب" options={r.groupings} selectProps={{ id: 'report-by', name: 'by', defaultValue: r.query.by }} />
				<button type="submit" className="btn-secondary">
					عرض التقرير
				</button>
				<Link to={r.download} reloadDocument className="link inline-flex min-h-11 items-center">
					تنزيل التقرير (XLSX)
				</Link>
			</Form>

			<section aria-labelledby="periods" className="mt-6 rounded-xl border border-stone-200 bg-white p-4">
				<h2 id="periods" className="text-lg font-bold text-brand-900">
					الفترات المالية في {r.query.year}
				</h2>
				<p className="mt-2">{r.periods.state}</p>
				{r.periods.reopenings.length ? (
					<>
						<h3 className="mt-3 font-bold">أشهر أُعيد فتحها بعد إقفالها</h3>
						<ul className="mt-1 list-disc space-y-1 ps-6">
							{r.periods.reopenings.map((line) => (
								<li key={line}>{line}</li>
							))}
						</ul>
					</>
				) : null}
				{r.periods.link ? (
					<Link to={r.periods.link} className="link mt-2 inline-flex min-h-11 items-center">
						إقفال الفترات وإعادة فتحها
					</Link>
				) : null}
			</section>

			<section aria-labelledby="chart" className="mt-6 rounded-xl border border-stone-200 bg-white p-4">
				<h2 id="chart" className="text-lg font-bold text-brand-900">
					المصروف في {r.query.year} حسب {r.groupLabel}
				</h2>
				{r.bars.length === 0 ? (
					<p className="mt-2">لا أرقام لهذا العام.</p>
				) : (
					<ul className="mt-3 space-y-2">
						{r.bars.map((bar) => (
							// On a phone the group's name takes its own line, whole, above its bar; from sm up, a column
							// of its own. The bar shrinks to the room left (an SVG is 300 px wide unless told).
							<li key={bar.key} className="grid gap-1 text-sm sm:grid-cols-[minmax(0,14rem)_minmax(0,1fr)] sm:items-center sm:gap-3">
								<span className="break-words">{bar.label}</span>
								<span className="flex min-w-0 items-center gap-2">
									{/* An SVG bar: attributes, not an inline style the page's CSP would refuse. */}
									<svg aria-hidden="true" viewBox="0 0 100 4" preserveAspectRatio="none" className="h-4 w-0 min-w-0 flex-1 -scale-x-100 rtl:scale-x-100">
										<rect x={0} y={0} width={Math.max(1, Math.round(bar.share * 100))} height={4} rx={0.5} className="fill-brand-700" />
									</svg>
									<span className="shrink-0 whitespace-nowrap">{bar.amount}</span>
								</span>
							</li>
						))}
					</ul>
				)}
			</section>

			<DataTable
				label="جدول التقرير"
				caption={`تقرير الدعم في ${r.query.year} حسب ${r.groupLabel}`}
				headings={[r.groupLabel, ...r.headers]}
				headCellClassName="p-2 text-start"
				className="mt-6"
				footer={
					<tr className="border-t-2 border-stone-300 font-bold">
						<th scope="row" className="p-2 text-start">
							المجموع
						</th>
						{r.total.map((cell, index) => (
							<td key={index} className="p-2">
								{cell}
							</td>
						))}
					</tr>
				}
			>
				{r.rows.map((row) => (
					<tr key={row.key} className="border-t border-stone-100">
						<th scope="row" className="p-2 text-start font-semibold">
							{row.label}
						</th>
						{row.cells.map((cell, index) => (
							<td key={index} className="p-2">
								{cell}
							</td>
						))}
					</tr>
				))}
			</DataTable>
			{/* Not a landmark of its own: the table below is one, by the same name. */}
			<section className="mt-6">
				<h2 id="zakat-years" className="text-lg font-bold text-brand-900">
					الزكاة حسب السنة الهجرية
				</h2>
				<p className="mt-1 text-stone-700">
					{r.zakat.received ? 'ما قبضته صناديق الزكاة وما صُرف منها أو سُلّم' : 'ما صُرف أو سُلّم من صناديق الزكاة'} في كل سنة هجرية (أم القرى)، بعد المسترد. تفاصيله باسم كل مستفيد في سجل الزكاة.
				</p>
				{r.zakat.years.length === 0 ? (
					<p className="mt-2">لم يُصرف من صناديق الزكاة شيء بعد.</p>
				) : (
					<DataTable
						label="الزكاة حسب السنة الهجرية"
						caption="الزكاة حسب السنة الهجرية"
						headings={['السنة الهجرية', ...(r.zakat.received ? ['المقبوض'] : []), 'المصروف', ...(r.zakat.received ? ['المتبقي'] : []), 'سجل الزكاة']}
						headCellClassName="p-2 text-start"
						className="mt-3"
					>
						{r.zakat.years.map((year) => (
							<tr key={year.year} className="border-t border-stone-100">
								<th scope="row" className="p-2 text-start font-semibold">
									{year.year}
								</th>
								{r.zakat.received ? <td className="p-2">{year.received}</td> : null}
								<td className="p-2">{year.paid}</td>
								{r.zakat.received ? <td className="p-2">{year.left}</td> : null}
								<td className="p-2">
									<Link to={year.register} className="link inline-flex min-h-11 items-center">
										سجل {year.year}
									</Link>
								</td>
							</tr>
						))}
					</DataTable>
				)}
			</section>
		</>
	)
}
