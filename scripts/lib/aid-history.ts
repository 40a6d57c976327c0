// The aid cycle at scale for scripts/bench-aid.ts (docs/performance.md, the aid cycle): the
// committee's decisions of today and months of monthly aid before them, with their instalments,
// payment batches, pinned batch lines, aid ledger rows and money ledger entries written in bulk
// (INSERT … SELECT over a plan table) in the shapes the app's own code writes them:
// - an approval (app/aid/decisions.server.ts, `ledger.approve`): one transaction per decision, a
//   pending entry from its fund to the family for each instalment, on the decision's day;
// - a payment (app/aid/payments.server.ts `recordGiven`, `ledger.pay`): the instalment paid in a
//   batch of at most 1,000 lines (one per month and fund, zakat apart), its line paid, a row of
//   `case_aid`, and a posting naming its pending entry, dated the day paid;
// - a bounce (`reopenPayment`, `ledger.bounce`): its line bounced, a negative `case_aid` row naming
//   the payment, and in one transaction a reversing entry naming the posting (accounts swapped,
//   dated when the bank returned it, often in a later month: an adjusting entry) and a new pending
//   entry; it is paid again in a batch of the following month;
// - a monthly aid stopped (app/aid/monthly-aid.server.ts, `ledger.cancel`): its remaining
//   instalments cancelled, each pending entry voided, in one transaction.
// The months before last are then closed (app/aid/periods.server.ts), as finance would have.
// Every case helped or approved now was helped monthly over the months before: a family
// re-studied each year, its earlier decisions dated before its current application.
import { sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { todayInRiyadh } from '#app/text/format.ts'

/** The rows of a raw query, as PGlite and node-postgres both answer it. */
const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[]

/** A valid Saudi IBAN (mod 97) of bank code 80, pinned on every generated batch line. */
const BENCH_IBAN = 'SA0380000000608010167519'
const BATCH_LINES = 1000

export interface AidHistory {
	/** Months of monthly aid before this one. */
	months: number
	decisions: number
	instalments: number
	batches: number
	bounced: number
	stopped: number
	entries: number
	/** The months closed (YYYY-MM-01), oldest first. */
	closedMonths: string[]
	/** The batch with the most bounced lines (the batch page's heaviest statement). */
	bouncedBatchId: number | null
}

const monthsBefore = (month: string, count: number) => {
	const [year, index] = month.split('-').map(Number) as [number, number]
	return new Date(Date.UTC(year, index - 1 - count, 1)).toISOString().slice(0, 10)
}

/**
 * Decides every studied case and writes its history: about `entries` rows of `ledger_entries` in all.
 * `approverId` approved, `financeId` batched, paid, stopped and closed (four eyes).
 */
export async function aidHistoryAtScale(db: Database, options: { approverId: number; financeId: number; generalFundId: number; zakatFundId: number; year: number; entries: number }): Promise<AidHistory> {
	const { approverId, financeId, generalFundId, zakatFundId, year } = options
	const today = todayInRiyadh()
	const thisMonth = `${today.slice(0, 7)}-01`
	// Today's decisions: three in four cases waiting for a decision (2) are approved now (7) with a
	// transfer due this month; every case already helped (3) was paid this month; the rest stay in the queue.
	await db.execute(sql`update cases set status = 7 where status = 2 and submitted_at is not null and deleted_at is null and (hashtext(id::text) % 4) <> 0`)
	await db.execute(sql`insert into case_decisions (case_id, outcome, aid_kind, amount, fund_id, budget_year, decider_id)
		select id, 'approve', 'cash', 1000, ${generalFundId}::int, ${year}::int, ${approverId}::int from cases where status in (3, 7) and submitted_at is not null and deleted_at is null`)
	const [{ helped } = { helped: 0 }] = rowsOf<{ helped: number }>(await db.execute(sql`select count(*)::int as helped from case_decisions`))
	// About 2.1 entries an instalment (pending and posted; a bounce adds three, a stop one): the months of history that reach `entries`.
	const months = Math.min(60, Math.max(1, Math.ceil((options.entries - 1.5 * helped) / (2.0 * Math.max(1, helped)))))
	const first = monthsBefore(thisMonth, months)
	// The earlier decisions: a monthly aid of up to 12 months each, from the zakat fund or the general one in turn.
	await db.execute(sql`insert into case_decisions (case_id, outcome, aid_kind, amount, months, fund_id, budget_year, decider_id, note, created_at)
		select d.case_id, 'approve', 'cash', 500 + (abs(hashtext(d.case_id::text)) % 4) * 250, case when b.length > 1 then b.length end,
			case when (abs(hashtext(d.case_id::text)) + b.n) % 2 = 0 then ${zakatFundId}::int else ${generalFundId}::int end, extract(year from b.start)::int, ${approverId}::int, '',
			((b.start + 2) + time '10:30') at time zone 'Asia/Riyadh'
		from case_decisions d
		cross join lateral (select n, least(12, ${months}::int - 12 * n) as length, (${first}::date + make_interval(months => 12 * n))::date as start from generate_series(0, ${Math.ceil(months / 12) - 1}::int) n) b
		order by d.case_id, b.n`)
	// The plan: one row per instalment, and what happens to it.
	await db.execute(sql`drop table if exists bench_plan`)
	await db.execute(sql`create table bench_plan as
		select d.id as decision_id, s.seq::smallint as seq, d.case_id, d.fund_id, c.type as programme, d.budget_year, d.amount, d.created_at as approved_at,
			(date_trunc('month', d.created_at at time zone 'Asia/Riyadh') + make_interval(months => s.seq - 1))::date as due_on,
			d.created_at >= (${thisMonth}::date + time '00:00') at time zone 'Asia/Riyadh' as today,
			(abs(hashtext(d.id::text)) % 20 = 0 and s.seq > 6) as stopped, c.status as case_status
		from case_decisions d join cases c on c.id = d.case_id cross join lateral generate_series(1, coalesce(d.months, 1)) s(seq)`)
	await db.execute(sql`alter table bench_plan add column status instalment_status, add column paid_on date, add column bounce_on date, add column repaid_on date, add column stop_on date,
		add column batch1 integer, add column batch2 integer, add column instalment_id integer`)
	await db.execute(sql`update bench_plan set
		status = (case when today then (case when case_status = 3 then 'paid' else 'approved' end) when stopped then 'cancelled' else 'paid' end)::instalment_status,
		paid_on = case when today then (case when case_status = 3 then ${today}::date end) when not stopped then due_on + 2 + abs(hashtext(decision_id || '-' || seq)) % 8 end,
		stop_on = case when stopped then (date_trunc('month', approved_at at time zone 'Asia/Riyadh') + interval '6 months')::date - 5 end`)
	// One payment in 25 of those paid three months ago or earlier comes back twelve days later; it is paid again the month after.
	await db.execute(sql`update bench_plan set bounce_on = paid_on + 12, repaid_on = (date_trunc('month', paid_on + 12) + interval '1 month')::date + 3
		where not today and not stopped and (decision_id * 7 + seq) % 25 = 0 and due_on <= ${monthsBefore(thisMonth, 3)}::date`)
	// The payments, in batches of at most 1,000 lines by month and fund (one debit account a batch, zakat apart).
	await db.execute(sql`drop table if exists bench_pay`)
	await db.execute(sql`create table bench_pay as
		select x.*, 'صرف شهر ' || to_char(x.on_day, 'YYYY-MM') || '، ' || f.name || '، الدفعة ' || ((row_number() over (partition by date_trunc('month', x.on_day), x.fund_id order by x.decision_id, x.seq, x.attempt) - 1) / ${BATCH_LINES} + 1) as note
		from (select decision_id, seq, 1 as attempt, paid_on as on_day, fund_id from bench_plan where paid_on is not null
			union all select decision_id, seq, 2, repaid_on, fund_id from bench_plan where repaid_on is not null) x
		join funds f on f.id = x.fund_id`)
	await db.execute(sql`insert into payment_batches (status, note, created_by, created_at, sent_on, sent_by, closed_at, debit_account, zakat)
		select 'closed', y.note, ${financeId}::int, ((min(y.on_day) - 2) + time '09:00') at time zone 'Asia/Riyadh', min(y.on_day) - 1, ${financeId}::int,
			least(now(), ((max(y.on_day)) + time '14:00') at time zone 'Asia/Riyadh'), f.debit_account, f.zakat
		from bench_pay y join funds f on f.id = y.fund_id group by y.note, f.debit_account, f.zakat order by min(y.on_day), y.note`)
	await db.execute(sql`update bench_plan p set batch1 = b.id from bench_pay y join payment_batches b on b.note = y.note where y.attempt = 1 and y.decision_id = p.decision_id and y.seq = p.seq`)
	await db.execute(sql`update bench_plan p set batch2 = b.id from bench_pay y join payment_batches b on b.note = y.note where y.attempt = 2 and y.decision_id = p.decision_id and y.seq = p.seq`)
	await db.execute(sql`insert into aid_instalments (case_id, decision_id, fund_id, programme, budget_year, seq, due_on, amount, aid_kind, status, batch_id, bank_reference, paid_on, recorded_by, created_at, updated_at)
		select case_id, decision_id, fund_id, programme, budget_year, seq, due_on, amount, 'cash', status, coalesce(batch2, batch1),
			case when paid_on is not null then 'BNK' || decision_id || 'S' || seq || (case when repaid_on is not null then 'R' else '' end) end,
			coalesce(repaid_on, paid_on), case when paid_on is not null then ${financeId}::int end, approved_at,
			coalesce((coalesce(repaid_on, paid_on, stop_on) + time '12:00') at time zone 'Asia/Riyadh', approved_at)
		from bench_plan order by decision_id, seq`)
	await db.execute(sql`create index bench_plan_key on bench_plan (decision_id, seq)`)
	await db.execute(sql`update bench_plan p set instalment_id = i.id from aid_instalments i where i.decision_id = p.decision_id and i.seq = p.seq`)
	await db.execute(sql`create index bench_plan_instalment on bench_plan (instalment_id)`)
	// Each batch's lines as the bank was told them: a bounced one stays in its batch, bounced.
	await db.execute(sql`insert into payment_batch_lines (batch_id, instalment_id, case_id, case_reference, reference, payee_name, iban, bank_code, amount, fund_id, aid_kind, state, bank_reference, paid_on, state_note, created_at)
		select b.id, p.instalment_id, p.case_id, c.reference, 'ATAA-' || p.instalment_id, c.applicant_name, ${BENCH_IBAN}, '80', p.amount, p.fund_id, 'cash',
			(case when y.attempt = 1 and p.bounce_on is not null then 'bounced' else 'paid' end)::batch_line_state,
			'BNK' || p.decision_id || 'S' || p.seq || (case when y.attempt = 2 then 'R' else '' end), y.on_day,
			case when y.attempt = 1 and p.bounce_on is not null then 'الحساب مغلق' end, b.created_at
		from bench_pay y join bench_plan p on p.decision_id = y.decision_id and p.seq = y.seq join payment_batches b on b.note = y.note join cases c on c.id = p.case_id
		order by b.id, p.instalment_id`)
	// The aid ledger (case_aid): each payment a row, each bounce a negative row naming it.
	await db.execute(sql`insert into case_aid (case_id, amount, kind, given_on, note, created_by, created_at, instalment_id)
		select case_id, amount, 'cash', paid_on, 'تحويل بنكي، مرجع البنك BNK' || decision_id || 'S' || seq, ${financeId}::int, (paid_on + time '12:00') at time zone 'Asia/Riyadh', instalment_id
		from bench_plan where paid_on is not null order by instalment_id`)
	await db.execute(sql`insert into case_aid (case_id, amount, kind, given_on, note, created_by, created_at, instalment_id, corrects_id)
		select a.case_id, -a.amount, a.kind, p.bounce_on, 'أعاد البنك التحويل (مرجع البنك BNK' || p.decision_id || 'S' || p.seq || '): الحساب مغلق', ${financeId}::int,
			(p.bounce_on + time '12:00') at time zone 'Asia/Riyadh', p.instalment_id, a.id
		from bench_plan p join case_aid a on a.instalment_id = p.instalment_id where p.bounce_on is not null order by p.instalment_id`)
	await db.execute(sql`insert into case_aid (case_id, amount, kind, given_on, note, created_by, created_at, instalment_id)
		select case_id, amount, 'cash', repaid_on, 'تحويل بنكي، مرجع البنك BNK' || decision_id || 'S' || seq || 'R', ${financeId}::int, (repaid_on + time '12:00') at time zone 'Asia/Riyadh', instalment_id
		from bench_plan where repaid_on is not null order by instalment_id`)
	// The money ledger (app/aid/ledger.server.ts). Approvals: one transaction per decision.
	await db.execute(sql`insert into ledger_entries (transaction_id, debit_account, credit_account, amount, phase, value_date, case_id, instalment_id, decision_id, fund_id, actor_id, reason, screen, created_at)
		select md5('approve-' || decision_id)::uuid, 'fund:' || fund_id, 'family:' || case_id, amount, 'pending', (approved_at at time zone 'Asia/Riyadh')::date,
			case_id, instalment_id, decision_id, fund_id, ${approverId}::int, '', '/admin/cases/' || case_id || '#decide', approved_at
		from bench_plan order by decision_id, seq`)
	// Stops: the remaining instalments' pending entries voided, one transaction per aid.
	await db.execute(sql`insert into ledger_entries (transaction_id, debit_account, credit_account, amount, phase, pending_id, value_date, case_id, instalment_id, decision_id, fund_id, actor_id, reason, screen, created_at)
		select md5('stop-' || p.decision_id)::uuid, e.debit_account, e.credit_account, e.amount, 'voided', e.id, p.stop_on, p.case_id, p.instalment_id, p.decision_id, p.fund_id, ${financeId}::int,
			'إيقاف الدعم الشهري: تحسّن دخل الأسرة', '/admin/cases/' || p.case_id || '#aid-stop', (p.stop_on + time '11:00') at time zone 'Asia/Riyadh'
		from bench_plan p join ledger_entries e on e.instalment_id = p.instalment_id and e.phase = 'pending' where p.status = 'cancelled' order by p.instalment_id`)
	// Payments: each its own transaction, posting its pending entry, in its batch.
	await db.execute(sql`insert into ledger_entries (transaction_id, debit_account, credit_account, amount, phase, pending_id, value_date, case_id, instalment_id, decision_id, batch_id, fund_id, actor_id, reason, screen, created_at)
		select gen_random_uuid(), e.debit_account, e.credit_account, e.amount, 'posted', e.id, p.paid_on, p.case_id, p.instalment_id, p.decision_id, p.batch1, p.fund_id, ${financeId}::int,
			'تحويل بنكي، مرجع البنك BNK' || p.decision_id || 'S' || p.seq, '/admin/payments/' || p.batch1 || '#reconcile', (p.paid_on + time '12:00') at time zone 'Asia/Riyadh'
		from bench_plan p join ledger_entries e on e.instalment_id = p.instalment_id and e.phase = 'pending' where p.paid_on is not null order by p.instalment_id`)
	// Bounces: the posting reversed (accounts swapped, naming it) and the amount committed again, one transaction each.
	await db.execute(sql`insert into ledger_entries (transaction_id, debit_account, credit_account, amount, phase, corrects_id, value_date, case_id, instalment_id, decision_id, batch_id, fund_id, actor_id, reason, screen, created_at)
		select md5('bounce-' || p.instalment_id)::uuid, e.credit_account, e.debit_account, e.amount, 'posted', e.id, p.bounce_on, p.case_id, p.instalment_id, p.decision_id, p.batch1, p.fund_id, ${financeId}::int,
			'الحساب مغلق', '/admin/payments/' || p.batch1 || '#reopen', (p.bounce_on + time '12:00') at time zone 'Asia/Riyadh'
		from bench_plan p join ledger_entries e on e.instalment_id = p.instalment_id and e.phase = 'posted' where p.bounce_on is not null order by p.instalment_id`)
	await db.execute(sql`insert into ledger_entries (transaction_id, debit_account, credit_account, amount, phase, value_date, case_id, instalment_id, decision_id, fund_id, actor_id, reason, screen, created_at)
		select md5('bounce-' || p.instalment_id)::uuid, 'fund:' || p.fund_id, 'family:' || p.case_id, p.amount, 'pending', p.bounce_on, p.case_id, p.instalment_id, p.decision_id, p.fund_id, ${financeId}::int,
			'الحساب مغلق', '/admin/payments/' || p.batch1 || '#reopen', (p.bounce_on + time '12:00') at time zone 'Asia/Riyadh'
		from bench_plan p where p.bounce_on is not null order by p.instalment_id`)
	// Paid again, in a batch of the month after.
	await db.execute(sql`insert into ledger_entries (transaction_id, debit_account, credit_account, amount, phase, pending_id, value_date, case_id, instalment_id, decision_id, batch_id, fund_id, actor_id, reason, screen, created_at)
		select gen_random_uuid(), e.debit_account, e.credit_account, e.amount, 'posted', e.id, p.repaid_on, p.case_id, p.instalment_id, p.decision_id, p.batch2, p.fund_id, ${financeId}::int,
			'تحويل بنكي، مرجع البنك BNK' || p.decision_id || 'S' || p.seq || 'R', '/admin/payments/' || p.batch2 || '#reconcile', (p.repaid_on + time '12:00') at time zone 'Asia/Riyadh'
		from bench_plan p join ledger_entries e on e.instalment_id = p.instalment_id and e.phase = 'pending' and e.transaction_id = md5('bounce-' || p.instalment_id)::uuid
		where p.repaid_on is not null order by p.instalment_id`)
	// Finance closed every month of the history but the last, once reconciled.
	const lastClosed = monthsBefore(thisMonth, 2)
	const closedMonths = first <= lastClosed ? rowsOf<{ month: string }>(await db.execute(sql`select to_char(m, 'YYYY-MM-DD') as month from generate_series(${first}::date, ${lastClosed}::date, interval '1 month') m`)).map((row) => row.month) : []
	if (closedMonths.length)
		await db.execute(sql`insert into closed_periods (month, action, actor_id, at)
			select m::date, 'close', ${financeId}::int, ((m + interval '1 month')::date + 9 + time '10:00') at time zone 'Asia/Riyadh' from generate_series(${first}::date, ${lastClosed}::date, interval '1 month') m`)
	const [counts] = rowsOf<{ decisions: number; instalments: number; batches: number; bounced: number; stopped: number; entries: number }>(
		await db.execute(sql`select (select count(distinct decision_id) from bench_plan)::int as decisions, (select count(*) from bench_plan)::int as instalments,
			(select count(*) from payment_batches)::int as batches, (select count(*) from bench_plan where bounce_on is not null)::int as bounced,
			(select count(*) from bench_plan where status = 'cancelled')::int as stopped, (select count(*) from ledger_entries)::int as entries`),
	)
	const [bounced] = rowsOf<{ id: number }>(await db.execute(sql`select batch_id as id from payment_batch_lines where state = 'bounced' group by batch_id order by count(*) desc, batch_id limit 1`))
	await db.execute(sql`drop table bench_pay`)
	await db.execute(sql`drop table bench_plan`)
	for (const table of ['cases', 'case_decisions', 'aid_instalments', 'case_aid', 'case_studies', 'payment_batches', 'payment_batch_lines', 'ledger_entries', 'closed_periods', 'report_figures', 'report_case_figures'])
		await db.execute(sql.raw(`vacuum (analyze) ${table}`))
	return { months, ...counts!, closedMonths, bouncedBatchId: bounced?.id ?? null }
}
