import { data, Form, Link, useNavigation } from 'react-router'
import type { Route } from './+types/periods'
import { requireRole } from '#app/auth/user-context.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { areaRoles, hasRole } from '#app/db/roles.ts'
import { closeMonth, closeYear, MONTH, reopenMonth, yearPeriods, type PeriodEntry } from '#app/aid/periods.server.ts'
import { CaseChangeError } from '#app/cases/refusals.ts'
import { flashContext, redirectWithFlash } from '#app/http/flash.server.ts'
import { countOf } from '#app/text/arabic-count.ts'
import { formatDateTime, formatMonth, formatYear, todayInRiyadh } from '#app/text/format.ts'
import { ErrorList, FlashNotice, PageTitle, SelectField, TextareaField } from '#app/components/forms.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import { audited, noteAudit } from '#app/audit/audit-trail.server.ts'
import type { AdminHandle } from './layout.tsx'

// The financial periods (docs/product.md#periods), finance's screen: a year's months, each open or
// closed (by whom, when) and its reopenings (by whom, why); «إقفال الشهر» and «إقفال السنة», each
// confirmed on a page of its own (no script needed); «إعادة فتح» for an admin, with a reason.

export const handle: AdminHandle = { breadcrumb: 'الفترات المالية' }

export const middleware = [audited({ read: false, write: { byIntent: { close: 'periods.close', 'close-year': 'periods.close', reopen: 'periods.reopen' } } })]

const monthsNoun = { one: 'شهر واحد', two: 'شهران', few: 'أشهر', many: 'شهراً', other: 'شهر' }

/** The year asked for, or this year. */
function yearOf(url: URL): number {
	const year = Number(url.searchParams.get('year'))
	return Number.isInteger(year) && year >= 2020 && year <= 2100 ? year : Number(todayInRiyadh().slice(0, 4))
}

const entryText = (entry: PeriodEntry) =>
	entry.action === 'close' ? `الإقفال: ${entry.actorName}، ${formatDateTime(entry.at)}` : `إعادة الفتح: ${entry.actorName}، ${formatDateTime(entry.at)}. السبب: ${entry.reason}`

export async function loader({ request, context }: Route.LoaderArgs) {
	const user = requireRole(context, areaRoles.payments)
	const url = new URL(request.url)
	const year = yearOf(url)
	const periods = await yearPeriods(await getDb(), year)
	const admin = hasRole(user, 'admin')
	const asked = (name: string) => url.searchParams.get(name) ?? ''
	const closing = asked('close')
	const reopening = asked('reopen')
	const thisYear = Number(todayInRiyadh().slice(0, 4))
	const yearOver = year < thisYear
	return {
		notice: context.get(flashContext),
		year,
		yearLabel: formatYear(year),
		years: Array.from({ length: 7 }, (_, index) => String(thisYear - index)).map((value) => ({ value, label: value })),
		closedCount: periods.months.filter((month) => month.closed).length,
		yearClosed: periods.closed,
		yearClosable: yearOver && !periods.closed,
		admin,
		months: periods.months.map((month) => ({
			month: month.month,
			label: formatMonth(month.month),
			state: month.closed ? 'مقفل' : month.ended ? 'مفتوح' : 'لم ينقضِ بعد',
			closed: month.closed,
			history: month.history.map(entryText),
			closable: month.ended && !month.closed,
			reopenable: admin && month.closed,
		})),
		// A close or a reopening asked for, to confirm: the month's own words.
		confirm:
			closing === 'year' && yearOver && !periods.closed
				? { intent: 'close-year' as const, month: '', label: formatYear(year) }
				: MONTH.test(closing) && periods.months.some((month) => month.month === closing && month.ended && !month.closed)
					? { intent: 'close' as const, month: closing, label: formatMonth(closing) }
					: admin && MONTH.test(reopening) && periods.months.some((month) => month.month === reopening && month.closed)
						? { intent: 'reopen' as const, month: reopening, label: formatMonth(reopening) }
						: null,
	}
}

export async function action({ request, context }: Route.ActionArgs) {
	const user = requireRole(context, areaRoles.payments)
	const db = await getDb()
	const year = yearOf(new URL(request.url))
	const form = await request.formData()
	const intent = String(form.get('intent') ?? '')
	const month = String(form.get('month') ?? '')
	const reason = String(form.get('reason') ?? '')
	const back = `/admin/periods?year=${year}`
	try {
		switch (intent) {
			case 'close':
				await closeMonth(db, month, user)
				noteAudit(context, { data: { month } })
				return redirectWithFlash(back, { tone: 'success', message: `أُقفل شهر ${formatMonth(month)}` })
			case 'close-year': {
				const closed = await closeYear(db, year, user)
				noteAudit(context, { data: { year, months: closed } })
				return redirectWithFlash(back, { tone: 'success', message: `أُقفلت سنة ${formatYear(year)} (أُقفل الآن منها ${countOf(closed.length, monthsNoun)})` })
			}
			case 'reopen':
				requireRole(context, ['admin'])
				await reopenMonth(db, month, reason, user)
				noteAudit(context, { data: { month, reason: reason.trim() } })
				return redirectWithFlash(back, { tone: 'success', message: `أُعيد فتح شهر ${formatMonth(month)}، وسببه في سجله` })
		}
		return data({ errors: ['الطلب غير صالح'], reason }, { status: 400 })
	} catch (error) {
		if (!(error instanceof CaseChangeError)) throw error
		return data({ errors: [error.message], reason }, { status: 409 })
	}
}

export default function Periods({ loaderData: p, actionData }: Route.ComponentProps) {
	const busy = useNavigation().state !== 'idle'
	const here = (query: Record<string, string>) => `/admin/periods?${new URLSearchParams({ year: String(p.year), ...query })}`
	return (
		<>
			<PageTitle title="الفترات المالية" error={Boolean(actionData?.errors.length)} />
			<h1 className="text-2xl font-bold text-brand-900">الفترات المالية</h1>
			<p className="mt-1 max-w-3xl text-stone-700">
				يُقفل المسؤول المالي الشهر بعد انقضائه ومطابقة دفعات الصرف المرسلة فيه مع كشف البنك، فلا يُسجَّل فيه بعدها صرف ولا تسليم ولا دعم ولا إرسال دفعة صرف، ولا تتغير أرقامه في{' '}
				<Link to={`/admin/reports?year=${p.year}&by=month`} className="link">
					تقارير الدعم
				</Link>{' '}
				ولا في «أثرنا». ما يُكتشف بعد الإقفال يُصحَّح بقيد تسوية في شهر مفتوح. يعيد فتح الشهر المقفل مدير النظام وحده، بسبب يبقى في سجله.
			</p>
			<FlashNotice notice={p.notice} live className="mt-4" />

			<Form method="get" className="mt-4 flex flex-wrap items-end gap-3 rounded-xl border border-stone-200 bg-white p-4">
				<SelectField label="السنة" options={p.years} selectProps={{ id: 'periods-year', name: 'year', defaultValue: String(p.year) }} />
				<button type="submit" className="btn-secondary">
					عرض
				</button>
			</Form>

			{p.confirm ? (
				<section id="confirm" aria-labelledby="confirm-title" className="mt-6 rounded-xl border-2 border-brand-700 bg-white p-4">
					<h2 id="confirm-title" className="text-lg font-bold text-brand-900">
						{p.confirm.intent === 'reopen' ? `إعادة فتح شهر ${p.confirm.label}` : p.confirm.intent === 'close' ? `إقفال شهر ${p.confirm.label}` : `إقفال سنة ${p.confirm.label}`}
					</h2>
					<p className="mt-2 max-w-3xl">
						{p.confirm.intent === 'reopen'
							? 'إذا أُعيد فتح الشهر قُبلت فيه الحركات المالية من جديد، وقد تتغير أرقامه في التقارير. يبقى إقفاله وإعادة فتحه وسببها في سجله وفي تقريره.'
							: p.confirm.intent === 'close'
								? 'بعد الإقفال لا يُسجَّل في هذا الشهر صرف ولا تسليم ولا دعم ولا إرسال دفعة صرف، ولا تتغير أرقامه في التقارير. تأكد من مطابقة دفعات الصرف المرسلة فيه مع كشف البنك قبل الإقفال.'
								: 'تُقفل أشهر السنة التي لم تُقفل بعد، كلها معاً، فلا يُسجَّل فيها بعدها صرف ولا تسليم ولا دعم ولا إرسال دفعة صرف، ولا تتغير أرقام السنة في التقارير.'}
					</p>
					<Form method="post" action={here(p.confirm.intent === 'reopen' ? { reopen: p.confirm.month } : { close: p.confirm.month || 'year' })} className="mt-3 space-y-3">
						<input type="hidden" name="intent" value={p.confirm.intent} />
						<input type="hidden" name="month" value={p.confirm.month} />
						{p.confirm.intent === 'reopen' ? (
							<TextareaField
								label="سبب إعادة الفتح"
								errors={actionData?.errors}
								textareaProps={{ id: 'reopen-reason', name: 'reason', required: true, maxLength: 500, rows: 3, defaultValue: actionData?.reason }}
							/>
						) : (
							<ErrorList errors={actionData?.errors} />
						)}
						<div className="flex flex-wrap items-center gap-3">
							<button type="submit" className="btn-primary" disabled={busy}>
								{p.confirm.intent === 'reopen' ? 'إعادة فتح الشهر' : p.confirm.intent === 'close' ? 'تأكيد إقفال الشهر' : 'تأكيد إقفال السنة'}
							</button>
							<Link to={here({})} className="link inline-flex min-h-11 items-center">
								إلغاء
							</Link>
						</div>
					</Form>
				</section>
			) : actionData?.errors.length ? (
				<ErrorList errors={actionData.errors} />
			) : null}

			<section aria-labelledby="year-state" className="mt-6">
				<h2 id="year-state" className="text-lg font-bold text-brand-900">
					سنة {p.yearLabel}: {p.yearClosed ? 'مقفلة' : p.closedCount ? `أُقفل منها ${countOf(p.closedCount, monthsNoun)}` : 'لم يُقفل منها شهر بعد'}
				</h2>
				{p.yearClosable ? (
					<Link to={`${here({ close: 'year' })}#confirm`} className="btn-secondary mt-2 inline-flex">
						إقفال السنة
					</Link>
				) : null}
			</section>

			<DataTable label="أشهر السنة" caption={`أشهر سنة ${p.yearLabel} وحالتها`} headings={['الشهر', 'الحالة', 'الإجراء', 'السجل']} className="mt-4">
				{p.months.map((month) => (
					<tr key={month.month} id={`month-${month.month}`} className="border-t border-stone-100 align-top">
						<th scope="row" className="p-3 text-start font-semibold">
							{month.label}
						</th>
						<td className={`p-3 whitespace-nowrap ${month.closed ? 'font-bold text-brand-900' : ''}`}>{month.state}</td>
						<td className="p-3 whitespace-nowrap">
							{month.closable ? (
								<Link to={`${here({ close: month.month })}#confirm`} className="link">
									إقفال الشهر
								</Link>
							) : month.reopenable ? (
								<Link to={`${here({ reopen: month.month })}#confirm`} className="link">
									إعادة فتح
								</Link>
							) : (
								'—'
							)}
						</td>
						<td className="p-3">
							{month.history.length ? (
								<ul className="space-y-1">
									{month.history.map((line) => (
										<li key={line}>{line}</li>
									))}
								</ul>
							) : (
								'—'
							)}
						</td>
					</tr>
				))}
			</DataTable>
		</>
	)
}
