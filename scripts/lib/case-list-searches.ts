// The staff case list's typical searches, shared by the case-list benchmarks: `npm run bench:cases`
// times them in-process on each database, `npm run bench:cluster` through the load balancer.
import { sql } from 'drizzle-orm'
import { caseListWhere, readCaseFilter } from '#app/cases/case-lists.server.ts'
import type { Database } from '#app/db/client.server.ts'
import { cases } from '#app/db/schema.ts'
import { formatSaudiMobile } from '#app/text/format.ts'

/** The list the benchmarks search: individuals' cases (/admin/cases). */
export const KIND = 'individual' as const

export function percentile(sorted: readonly number[], p: number): number {
	if (!sorted.length) return NaN
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

export interface Timings {
	p50: number
	p95: number
	max: number
	n: number
}

export function timings(samples: readonly number[]): Timings {
	const sorted = [...samples].sort((a, b) => a - b)
	return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) ?? NaN, n: sorted.length }
}

export interface Shape {
	name: string
	/** The list's query string; a function for searches that take a different case each run. */
	params: (run: number) => URLSearchParams
}

export interface Samples {
	reference: string[]
	nationalId: string[]
	mobile: string[]
}

/** Real values to search for: cases the list shows (submitted, not deleted, not archived). */
export async function sampleValues(db: Database): Promise<Samples> {
	const rows = await db
		.select({ reference: cases.reference, nationalId: cases.nationalId, mobile: cases.mobile })
		.from(cases)
		.where(caseListWhere(readCaseFilter(new URLSearchParams(), KIND, 0)))
		.orderBy(sql`md5(${cases.id}::text)`)
		.limit(50)
	return { reference: rows.map((row) => row.reference), nationalId: rows.map((row) => row.nationalId), mobile: rows.map((row) => formatSaudiMobile(row.mobile)) }
}

export function shapes(samples: Samples, now: Date): Shape[] {
	const day = (daysAgo: number) => new Date(now.getTime() - daysAgo * 86_400_000).toISOString().slice(0, 10)
	const fixed = (query: Record<string, string>) => () => new URLSearchParams(query)
	const cycling = (values: readonly string[]) => (run: number) => new URLSearchParams({ q: values[run % values.length] ?? '' })
	return [
		{ name: 'name محمد + status 1', params: fixed({ q: 'محمد', status: '1' }) },
		{ name: 'family القحطاني + status 1', params: fixed({ q: 'القحطاني', status: '1' }) },
		{ name: 'hamza احمد (folded)', params: fixed({ q: 'احمد' }) },
		{ name: 'two words فهد العتيبي', params: fixed({ q: 'فهد العتيبي' }) },
		{ name: 'national ID (full)', params: cycling(samples.nationalId) },
		{ name: 'mobile 05…', params: cycling(samples.mobile) },
		{ name: 'reference', params: cycling(samples.reference) },
		{ name: 'status 1 only', params: fixed({ status: '1' }) },
		{ name: 'type + date range', params: fixed({ type: 'needy-families', from: day(60), to: day(30) }) },
		{ name: 'sort=waiting', params: fixed({ sort: 'waiting' }) },
		// «me» is the first officer, who runs the list.
		{ name: 'assigned=me + status 2', params: fixed({ assigned: 'me', status: '2' }) },
	]
}
