// The accounts the foundation owes its board and the ministry (docs/product.md#reports): every
// figure summed from the records themselves (the public «أثرنا» page, by the same rules: ./impact.server.ts).
// - received: cases sent in the period; studied: cases with a study recorded in it;
// - approved, rejected, riyals approved (every month of a monthly aid): the committee's decisions;
// - families helped, individuals in them, riyals given, aid in kind delivered: the money ledger
//   (`ledger_entries`, ./ledger.server.ts): postings to families less reversals from them (bounces,
//   adjusting entries), on their value dates, in their funds; aid recorded by hand before the cycle
//   is posted from no fund (drizzle/0042_reports_from_ledger.sql);
// - days from sending to decision, and to the first aid given.
// A period is a Gregorian year, Riyadh time.
// The sums are kept by the database as the records change (`report_figures`, its triggers in
// drizzle/0029_report_summary.sql, reading the entries since drizzle/0042_reports_from_ledger.sql:
// what each case adds to each year, recomputed from its records whenever one of them changes), so a
// report reads a few hundred rows rather than the whole ledger (docs/performance.md, the aid cycle
// at 100,000 cases).
import { sql, type SQL } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { findDefinition, applicationDefinitions } from '#app/forms/registry.ts'
import { formatMonth } from '#app/text/format.ts'
import { hijriOfIsoDay } from '#app/text/hijri.ts'
import type { ReportGrouping, ReportRow } from './report-query.ts'

export { reportGroupings, type ReportGrouping, type ReportRow } from './report-query.ts'

type Metric = Exclude<keyof ReportRow, 'key' | 'label'>
type Figures = Partial<Record<Metric, number | null>>

/** The rows of a raw query, as PGlite and node-postgres both answer it. */
const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[]

/**
 * The figures of a group, summed over its rows of `report_figures`: counts and riyals are sums; an
 * average is the sum of its days over the count of them, as avg() divides (the same per-row values,
 * exactly summed), rounded to one decimal.
 */
const figures = sql`sum(received) as received, sum(studied) as studied, sum(approved) as approved, sum(rejected) as rejected,
	sum(approved_riyals) as "approvedRiyals", round(sum(decision_days) / nullif(sum(decisions_timed), 0), 1) as "daysToDecision",
	sum(families) as families, sum(individuals) as individuals, sum(given_riyals) as "givenRiyals", sum(in_kind) as "inKind",
	round(sum(aid_days) / nullif(sum(aid_timed), 0), 1) as "daysToAid"`

/** A year's figures, grouped; with the year's totals (the same sums over every group, not the sum of the rows' averages). */
export async function aidReport(db: Database, year: number, by: ReportGrouping): Promise<{ rows: ReportRow[]; total: ReportRow }> {
	// A case is in one programme and one city: by either, its figures of the whole year are grouped
	// (a family helped, or a case studied, twice in the year is one). By month or by fund each group
	// counts its families and cases studied once; the year's totals count them once over the year.
	const grain = by === 'month' || by === 'fund' ? by : 'year'
	const key: SQL = by === 'programme' ? sql`type` : by === 'city' ? sql`city` : sql`key`
	// A group is in the report when something happened in it: a case sent or studied, a decision, aid given.
	const found = rowsOf<Record<string, unknown>>(
		await db.execute(sql`select 'row' as part, ${key} as key, ${figures} from report_figures where year = ${year} and grain = ${grain}
			group by ${key} having sum(received) + sum(studied) + sum(decisions) + sum(families) > 0
			${grain === 'year' ? sql`` : sql`union all select 'year', '', ${figures} from report_figures where year = ${year} and grain = 'year' group by grain`}`),
	)
	const numbers = (row: Record<string, unknown>): Figures =>
		Object.fromEntries(Object.entries(row).filter(([name]) => name !== 'key' && name !== 'part').map(([name, value]) => [name, value === null ? null : Number(value)]))
	const grouped = new Map(found.filter((row) => row.part === 'row').map((row) => [String(row.key ?? ''), numbers(row)]))
	const label = await labeller(db, by)
	const merge = (key: string, found: Figures | undefined): ReportRow => {
		const value = (metric: Metric) => found?.[metric] ?? null
		const number = (metric: Metric) => Number(value(metric) ?? 0)
		return {
			key,
			label: label(key),
			received: number('received'),
			studied: number('studied'),
			approved: number('approved'),
			rejected: number('rejected'),
			families: number('families'),
			individuals: number('individuals'),
			approvedRiyals: number('approvedRiyals'),
			givenRiyals: number('givenRiyals'),
			inKind: number('inKind'),
			daysToDecision: value('daysToDecision'),
			daysToAid: value('daysToAid'),
		}
	}
	const keys = [...grouped.keys()].sort((a, b) => (by === 'programme' ? programmeOrder(a) - programmeOrder(b) : a.localeCompare(b, 'ar')))
	const rows = keys.map((key) => merge(key, grouped.get(key)))
	// A case is in one programme and one city, a decision in one month and one fund: the year's totals
	// are the rows' sums (averages weighted). By month or fund a family may have been helped in two
	// groups: its figures are counted again over the year.
	const total = sumRows(rows)
	if (grain !== 'year') {
		const whole = found.find((row) => row.part === 'year')
		const year = merge('', whole && numbers(whole))
		Object.assign(total, { studied: year.studied, families: year.families, individuals: year.individuals, givenRiyals: year.givenRiyals, inKind: year.inKind, daysToAid: year.daysToAid })
	}
	return { rows, total }
}

function sumRows(rows: readonly ReportRow[]): ReportRow {
	const sum = (metric: Exclude<Metric, 'daysToDecision' | 'daysToAid'>) => rows.reduce((total, row) => total + row[metric], 0)
	const weighted = (metric: 'daysToDecision' | 'daysToAid', weight: (row: ReportRow) => number) => {
		const counted = rows.filter((row) => row[metric] !== null && weight(row) > 0)
		const weights = counted.reduce((total, row) => total + weight(row), 0)
		return weights ? Math.round((counted.reduce((total, row) => total + row[metric]! * weight(row), 0) / weights) * 10) / 10 : null
	}
	return {
		key: 'total',
		label: 'المجموع',
		received: sum('received'),
		studied: sum('studied'),
		approved: sum('approved'),
		rejected: sum('rejected'),
		families: sum('families'),
		individuals: sum('individuals'),
		approvedRiyals: Math.round(sum('approvedRiyals') * 100) / 100,
		givenRiyals: Math.round(sum('givenRiyals') * 100) / 100,
		inKind: sum('inKind'),
		daysToDecision: weighted('daysToDecision', (row) => row.approved + row.rejected),
		daysToAid: weighted('daysToAid', (row) => row.families),
	}
}

const programmeOrder = (type: string) => {
	const index = applicationDefinitions.findIndex((definition) => definition.type === type)
	return index < 0 ? applicationDefinitions.length : index
}

async function labeller(db: Database, by: ReportGrouping): Promise<(key: string) => string> {
	if (by === 'programme') return (key) => findDefinition(key)?.title ?? key
	if (by === 'month') return (key) => formatMonth(key)
	if (by === 'city') return (key) => key || 'غير مذكورة'
	const funds = rowsOf<{ id: number; name: string }>(await db.execute(sql`select id, name from funds`)).map((row) => [String(row.id), row.name] as const)
	const names = new Map(funds)
	return (key) => names.get(key) ?? 'بلا صندوق (قبل القرار أو مسجل يدوياً)'
}

/** Zakat of a Hijri year: paid to families (net of reversals) and, once receipts are recorded, received and what is left. */
export interface ZakatYear {
	/** Umm al-Qura. */
	year: number
	paid: number
	/** null until money received is recorded in the ledger. */
	received: number | null
	left: number | null
}

/**
 * Zakat per Hijri year (docs/product.md#zakat), newest first: each day's zakat flows from the ledger,
 * folded into Umm al-Qura years here (the database knows no Hijri calendar). Paid: postings from a
 * zakat fund to a family less their reversals. Received: confirmed receipts into zakat funds less
 * their cancellations (docs/product.md#money-in); a year with none shows no received or left.
 */
export async function zakatByHijriYear(db: Database): Promise<ZakatYear[]> {
	const flows = rowsOf<{ day: string; paid: string; received: string | null }>(
		await db.execute(sql`select day, sum(paid) as paid, sum(received) as received from (
			select to_char(e.value_date, 'YYYY-MM-DD') as day, case when e.corrects_id is null then e.amount else -e.amount end as paid, null::numeric as received
			from ledger_entries e join funds f on f.id = e.fund_id and f.zakat
			where e.phase = 'posted' and e.case_id is not null
			union all
			-- Received: confirmed receipts into a zakat fund (and money moved into one), less their cancellations (./receipts.server.ts).
			select to_char(e.value_date, 'YYYY-MM-DD'), 0, case when e.credit_account = 'fund:' || f.id then e.amount else -e.amount end
			from ledger_entries e join funds f on f.zakat and ('fund:' || f.id) in (e.debit_account, e.credit_account)
			where e.phase = 'posted' and e.receipt_id is not null
		) flows group by day`),
	)
	const years = new Map<number, { paid: number; received: number | null }>()
	for (const flow of flows) {
		const year = hijriOfIsoDay(flow.day).year
		const sums = years.get(year) ?? { paid: 0, received: null }
		sums.paid += Number(flow.paid)
		if (flow.received !== null) sums.received = (sums.received ?? 0) + Number(flow.received)
		years.set(year, sums)
	}
	const round = (value: number) => Math.round(value * 100) / 100 + 0
	return [...years.entries()]
		.sort(([a], [b]) => b - a)
		.map(([year, sums]) => ({ year, paid: round(sums.paid), received: sums.received === null ? null : round(sums.received), left: sums.received === null ? null : round(sums.received - sums.paid) }))
}
