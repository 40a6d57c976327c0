// «أثرنا» (docs/product.md#our-impact): what the public page shows is a snapshot of the aid ledger
// taken once a month by the elected scheduler (app/operations/scheduler.server.ts), never the ledger
// as it is: a page that changed with each payment would tell whoever watched it what each family got.
// A snapshot holds the money ledger (`ledger_entries`, ./ledger.server.ts) through the last day of the
// month before it was taken; the page applies the suppression rules (./impact-disclosure.ts) as it
// shows it. A reversal (a bounced transfer, an adjusting entry: docs/decisions/018-append-only-ledger.md)
// counts on its own day: riyals net, and a family is helped in a year when what it was given in it is
// more than zero.
import { desc, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { impactSnapshots } from '#app/db/schema.ts'
import { todayInRiyadh } from '#app/text/format.ts'
import type { ImpactCell } from './impact-disclosure.ts'

export type ImpactFigure = ImpactCell & { year: number }

/** The rows of a raw query, as PGlite and node-postgres both answer it. */
const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[]

/**
 * Families helped and riyals given per Gregorian year and programme, from the money ledger's
 * postings to and from families' accounts valued through `through` (yyyy-mm-dd): the reports' own
 * rules (drizzle/0042_reports_from_ledger.sql: a family once per year and programme, its case, when
 * what it was given is more than zero; riyals the postings to it less the reversals from it; the
 * year of the value date), so a year's figures are the reports'.
 */
export async function impactFigures(db: Database, through: string = todayInRiyadh()): Promise<ImpactFigure[]> {
	const result = await db.execute(sql`
		select year, programme, count(*) filter (where riyals > 0)::int as families, sum(riyals) as riyals
		from (
			select extract(year from e.value_date)::int as year, c.type as programme, e.case_id,
				sum(case when e.credit_account = 'family:' || e.case_id then e.amount else -e.amount end) as riyals
			from ledger_entries e join cases c on c.id = e.case_id
			where e.phase = 'posted' and e.value_date <= ${through}::date and 'family:' || e.case_id in (e.credit_account, e.debit_account)
			group by 1, 2, 3
		) given
		group by 1, 2 having count(*) filter (where riyals > 0) > 0 or sum(riyals) <> 0 order by 1 desc, 2`)
	return rowsOf<{ year: number; programme: string; families: number; riyals: string | number }>(result).map((row) => ({
		year: Number(row.year),
		programme: row.programme,
		families: Number(row.families),
		riyals: Number(row.riyals),
	}))
}

/** The last day of the month before `now`'s, Riyadh time (yyyy-mm-dd): what a snapshot taken then holds. */
export function snapshotThrough(now: Date): string {
	const [year, month] = todayInRiyadh(now).split('-').map(Number) as [number, number]
	return new Date(Date.UTC(year, month - 1, 0)).toISOString().slice(0, 10)
}

/**
 * The scheduler's task: the month's snapshot, once. Each tick of the instance holding the lease asks;
 * only the first of a month writes (a second instance's write is the same row, and changes nothing).
 * True when it took one.
 */
export async function takeImpactSnapshot(db: Database, now: Date): Promise<boolean> {
	const through = snapshotThrough(now)
	const [found] = await db.select({ through: impactSnapshots.through }).from(impactSnapshots).where(sql`${impactSnapshots.through} = ${through}`)
	if (found) return false
	const written = await db
		.insert(impactSnapshots)
		.values({ through, takenAt: now, figures: await impactFigures(db, through) })
		.onConflictDoNothing()
		.returning({ through: impactSnapshots.through })
	return written.length > 0
}

/**
 * The demo's snapshot (app/seed.server.ts): its payments are dated this month, which the first
 * monthly snapshot would leave out, so a first start shows «أثرنا» with them, through today.
 */
export async function takeDemoImpactSnapshot(db: Database, now: Date = new Date()): Promise<void> {
	const through = todayInRiyadh(now)
	await db.insert(impactSnapshots).values({ through, takenAt: now, figures: await impactFigures(db, through) }).onConflictDoNothing()
}

/** The newest snapshot, or undefined before the first. */
export async function latestImpact(db: Database): Promise<{ through: string; figures: ImpactFigure[] } | undefined> {
	const [row] = await db.select({ through: impactSnapshots.through, figures: impactSnapshots.figures }).from(impactSnapshots).orderBy(desc(impactSnapshots.through)).limit(1)
	return row
}
