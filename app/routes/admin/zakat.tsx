import { Form, Link } from 'react-router'
import type { Route } from './+types/zakat'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { periodDays, periodLabel, periodParam, zakatColumns, zakatQuery, zakatRegister } from '#app/aid/zakat-register.server.ts'
import { hijriOfIsoDay } from '#app/text/hijri.ts'
import { formatDate, formatGregorian, formatHijri, formatMoney, todayInRiyadh } from '#app/text/format.ts'
import { countOf } from '#app/text/arabic-count.ts'
import { PageTitle } from '#app/components/forms.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import { audited, noteAudit } from '#app/audit/audit-trail.server.ts'
import type { AdminHandle } from './layout.tsx'

// The zakat register (docs/product.md#zakat): every zakat disbursement of a Hijri or Gregorian year,
// with its beneficiary's name and national ID, the zakat category, the amount, the day, the fund and
// the payment's reference; as XLSX from ./zakat-export.ts. It names people: each reading is audited.

export const handle: AdminHandle = { breadcrumb: 'سجل الزكاة' }

export const middleware = [audited({ read: 'zakat.view', write: false })]

const disbursementsNoun = { one: 'عملية صرف واحدة', two: 'عمليتا صرف', few: 'عمليات صرف', many: 'عملية صرف', other: 'عملية صرف' }

export async function loader({ request, context }: Route.LoaderArgs) {
	requireRole(context, areaRoles.funds)
	const period = zakatQuery(new URL(request.url))
	const { rows, total } = await zakatRegister(await getDb(), period)
	noteAudit(context, { data: { calendar: period.calendar === 'hijri' ? 'هجري' : 'ميلادي', year: period.year, rows: rows.length } })
	const { from, to } = periodDays(period)
	const today = todayInRiyadh()
	const [thisHijri, thisGregorian] = [hijriOfIsoDay(today).year, Number(today.slice(0, 4))]
	// The last 11 years of each calendar (the 10 the financial record is kept, and this one).
	const years = (calendar: 'hijri' | 'gregorian', latest: number) =>
		Array.from({ length: 11 }, (_, index) => {
			const year = { calendar, year: latest - index }
			return { value: periodParam(year), label: periodLabel(year) }
		})
	return {
		period,
		label: periodLabel(period),
		selected: periodParam(period),
		span: `من ${formatDate(from)} إلى ${formatDate(to)}`,
		periods: [
			{ label: 'السنوات الهجرية (أم القرى)', options: years('hijri', thisHijri) },
			{ label: 'السنوات الميلادية', options: years('gregorian', thisGregorian) },
		],
		headings: [...zakatColumns],
		count: countOf(rows.length, disbursementsNoun),
		total: formatMoney(total),
		rows: rows.map((row) => ({
			key: row.entryId,
			cells: [formatGregorian(row.day), formatHijri(row.day), row.name, row.nationalId || '—', row.reference, row.category || '—', formatMoney(row.amount), row.fund, row.paymentReference || '—'],
		})),
		download: `/admin/zakat/export?${new URLSearchParams({ period: periodParam(period) })}`,
	}
}

export default function ZakatRegister({ loaderData: z }: Route.ComponentProps) {
	return (
		<>
			<PageTitle title={`سجل الزكاة ${z.label}`} />
			<h1 className="text-2xl font-bold text-brand-900">سجل الزكاة</h1>
			<p className="mt-1 text-stone-700">كل ما صُرف أو سُلّم من صناديق الزكاة، باسم المستفيد ورقم هويته ومصرف الزكاة، لسنة هجرية (أم القرى) أو ميلادية. يُحفظ عشر سنوات مع السجل المالي.</p>
			<Form method="get" className="mt-4 flex flex-wrap items-end gap-3 rounded-xl border border-stone-200 bg-white p-4">
				<div>
					<label htmlFor="zakat-period" className="block font-semibold">
						السنة
					</label>
					<select id="zakat-period" name="period" defaultValue={z.selected} className="field-input mt-1">
						{z.periods.map((group) => (
							<optgroup key={group.label} label={group.label}>
								{group.options.map((option) => (
									<option key={option.value} value={option.value}>
										{option.label}
									</option>
								))}
							</optgroup>
						))}
					</select>
				</div>
				<button type="submit" className="btn-secondary">
					عرض السجل
				</button>
				<Link to={z.download} reloadDocument className="link inline-flex min-h-11 items-center">
					تنزيل سجل {z.label} (XLSX)
				</Link>
			</Form>
			{z.rows.length === 0 ? (
				<p className="mt-4 rounded-xl border border-stone-200 bg-white p-4">
					{z.span}: لم يُصرف من صناديق الزكاة شيء في {z.label}.
				</p>
			) : (
				<>
					<p className="mt-4">
						{z.span}: {z.count}، مجموعها {z.total}
					</p>
					<DataTable label="سجل الزكاة" caption={`سجل الزكاة ${z.label}`} headings={z.headings} headCellClassName="p-2 text-start whitespace-nowrap" className="mt-4">
						{z.rows.map((row) => (
							<tr key={row.key} className="border-t border-stone-100">
								{row.cells.map((cell, index) => (
									<td key={index} className={`p-2 ${index === 2 ? 'font-semibold' : ''} ${index === 3 || index === 4 ? 'whitespace-nowrap' : ''}`}>
										{index === 3 || index === 4 ? <bdi dir="ltr">{cell}</bdi> : cell}
									</td>
								))}
							</tr>
						))}
					</DataTable>
				</>
			)}
		</>
	)
}
