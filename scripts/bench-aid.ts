// Aid-cycle benchmark: the committee's queue, payment batches of 1,000 transfers and the year's
// reports over many demo cases, on PGlite and PostgreSQL (docs/performance.md, the aid cycle).
// For each database: migrate, add staff and N generated cases (app/cases/demo-cases.server.ts), give
// every studied case a decision as the committee would (paid ones for the cases already helped,
// approved and waiting for the rest of them, thousands of transfers due), VACUUM (ANALYZE), then time
// each screen's work as its route does it, beside the staff case list's own query in the same run
// (the reference: its ratio says how much heavier each is, whatever the machine's load).
//   npm run bench:aid -- [--cases 100000] [--runs 50] [--database postgres://postgres@127.0.0.1:5432/postgres] [--only pglite|postgres]
// Only ever talks to this machine; the PGlite directory and the PostgreSQL bench database are removed at the end.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { readCaseFilter, listCases, countCases } from '#app/cases/case-lists.server.ts'
import { insertDemoCases } from '#app/cases/demo-cases.server.ts'
import { openDatabase, type Database, type DatabaseHandle } from '#app/db/client.server.ts'
import { createUser } from '#app/domain/staff-users.server.ts'
import { decisionQueue } from '#app/aid/decisions.server.ts'
import { listFunds, setBudget } from '#app/aid/funds.server.ts'
import { batchOf, createBatch, dueInstalments } from '#app/aid/payments.server.ts'
import { aidReport } from '#app/aid/reports.server.ts'
import { makeBatchFile } from '#app/aid/batch-files.server.ts'
import { commonLayout } from '#app/aid/bank-layouts/common.ts'
import { todayInRiyadh } from '#app/text/format.ts'
import { readCaseBenchOptions, UsageError, type BenchDatabase, type CaseBenchOptions } from './lib/bench-options.ts'
import { createBenchDatabase, dropBenchDatabase } from './lib/bench-postgres.ts'
import { timings, type Timings } from './lib/case-list-searches.ts'

const TARGET_P95_MS = 200
const BATCH_SIZE = 1000
const SEED = 20_240_601

type Only = BenchDatabase
type Options = CaseBenchOptions

const readOptions = (): Options => readCaseBenchOptions({ runs: 50 })

const tempDirs: string[] = []
const benchDatabases: { adminUrl: string; name: string }[] = []
const openHandles = new Set<DatabaseHandle>()

async function cleanUp(): Promise<void> {
	for (const handle of openHandles) await handle.close().catch(() => {})
	openHandles.clear()
	for (const { adminUrl, name } of benchDatabases.splice(0)) await dropBenchDatabase(adminUrl, name).catch((error: unknown) => console.error(`Could not drop ${name}: ${String(error)}`))
	for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
}

async function open(target: Only, options: Options): Promise<{ handle: DatabaseHandle; label: string }> {
	if (target === 'pglite') {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-bench-aid-'))
		tempDirs.push(dir)
		const handle = await openDatabase({ dataDir: path.join(dir, 'pgdata') })
		openHandles.add(handle)
		return { handle, label: 'PGlite' }
	}
	const { name, url } = await createBenchDatabase(options.database)
	benchDatabases.push({ adminUrl: options.database, name })
	const handle = await openDatabase({ url })
	openHandles.add(handle)
	return { handle, label: `PostgreSQL (${name})` }
}

/** Times `work` `runs` times, one after another. */
async function time(runs: number, work: (run: number) => Promise<unknown>): Promise<Timings> {
	const samples: number[] = []
	for (let run = 0; run < runs; run++) {
		const started = performance.now()
		await work(run)
		samples.push(performance.now() - started)
	}
	return timings(samples)
}

/**
 * The committee's decisions at scale, as `decide` would write them, in a few statements: every case
 * already helped (3) gets an approval paid from the general fund; three in four cases waiting for a
 * decision (2) are approved now (7) with a transfer due this month; the rest stay in the queue.
 */
async function decideAtScale(db: Database, approverId: number, fundId: number, year: number) {
	const month = `${todayInRiyadh().slice(0, 7)}-01`
	await db.execute(sql`update cases set status = 7 where status = 2 and submitted_at is not null and deleted_at is null and (hashtext(id::text) % 4) <> 0`)
	await db.execute(sql`insert into case_decisions (case_id, outcome, aid_kind, amount, fund_id, budget_year, decider_id)
		select id, 'approve', 'cash', 1000, ${fundId}, ${year}, ${approverId} from cases where status in (3, 7) and submitted_at is not null`)
	await db.execute(sql`insert into aid_instalments (case_id, decision_id, fund_id, programme, budget_year, seq, due_on, amount, aid_kind, status, paid_on, bank_reference)
		select d.case_id, d.id, d.fund_id, c.type, d.budget_year, 1, ${month}::date, d.amount, d.aid_kind,
			(case when c.status = 3 then 'paid' else 'approved' end)::instalment_status,
			(case when c.status = 3 then ${todayInRiyadh()}::date end), (case when c.status = 3 then 'BENCH' || d.id end)
		from case_decisions d join cases c on c.id = d.case_id`)
	// Their money ledger's entries, as the migration wrote those of instalments before it (drizzle/0038_ledger_entries.sql).
	await db.execute(sql`select ataa_ledger_opening_entries()`)
	for (const table of ['cases', 'case_decisions', 'aid_instalments', 'case_aid', 'case_studies', 'ledger_entries']) await db.execute(sql.raw(`vacuum (analyze) ${table}`))
}

/** The rows of a raw query, as PGlite and node-postgres both answer it. */
const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[]

interface Row {
	name: string
	timings: Timings
}

async function benchDatabase(target: Only, options: Options): Promise<{ label: string; rows: Row[]; reference: Timings }> {
	const { handle, label } = await open(target, options)
	const { db } = handle
	console.log(`\n== ${label} ==`)
	await handle.migrate()
	const password = () => randomBytes(18).toString('base64url')
	const officer = await createUser(db, { name: 'باحثة القياس', email: 'officer@bench.local', mobile: '', roles: ['case_officer'], password: password() })
	const approver = await createUser(db, { name: 'عضو لجنة القياس', email: 'approver@bench.local', mobile: '', roles: ['approver'], password: password() })
	const finance = await createUser(db, { name: 'مالية القياس', email: 'finance@bench.local', mobile: '', roles: ['finance'], password: password() })
	const year = Number(todayInRiyadh().slice(0, 4))
	const started = performance.now()
	const inserted = await insertDemoCases(db, options.cases, { seed: SEED, officerIds: [officer.id], now: new Date() })
	const fundId = (await listFunds(db)).find((fund) => !fund.zakat)!.id
	for (const programme of ['needy-families', 'home-restoration', 'medical-case', 'association-support', 'health-association-support']) await setBudget(db, { programme, year, fundId: null, allocated: 999_999_999 }, approver)
	await decideAtScale(db, approver.id, fundId, year)
	const [figures] = rowsOf<{ waiting: number; due: number; instalments: number }>(
		await db.execute(sql`select (select count(*) from cases where status = 2)::int as waiting, (select count(*) from aid_instalments where status = 'approved')::int as due, (select count(*) from aid_instalments)::int as instalments`),
	)
	if (!figures) throw new Error('no counts')
	console.log(`${inserted.toLocaleString('en')} cases, ${figures.instalments.toLocaleString('en')} instalments (${figures.due.toLocaleString('en')} due), ${figures.waiting.toLocaleString('en')} waiting for the committee; set up in ${((performance.now() - started) / 1000).toFixed(0)} s`)

	const runs = options.runs
	// The reference: the staff case list's page as its route reads it (count + 50 rows).
	const listFilter = readCaseFilter(new URLSearchParams(), 'individual', officer.id)
	const reference = await time(runs, async () => {
		await countCases(db, listFilter)
		await listCases(db, listFilter, { offset: 0, limit: 50 })
	})
	const rows: Row[] = []
	const [city] = (await decisionQueue(db, { page: 1 })).rows.map((row) => row.city).filter(Boolean)
	rows.push({ name: 'committee queue, page 1', timings: await time(runs, () => decisionQueue(db, { page: 1 })) })
	rows.push({ name: 'committee queue, one programme and city', timings: await time(runs, () => decisionQueue(db, { page: 1, programme: 'needy-families', city })) })
	rows.push({ name: 'committee queue, page 20', timings: await time(runs, () => decisionQueue(db, { page: 20 })) })
	for (const by of ['programme', 'fund', 'month', 'city'] as const) rows.push({ name: `report of the year by ${by}`, timings: await time(Math.max(5, Math.round(runs / 5)), () => aidReport(db, year, by)) })
	rows.push({ name: 'transfers due (the payments screen)', timings: await time(runs, () => dueInstalments(db, 'transfer')) })
	// Batches of 1,000 transfers: made (each checked, locked, its IBAN read), read back, written as the bank's file.
	const ids = rowsOf<{ id: number }>(await db.execute(sql`select id from aid_instalments where status = 'approved' order by id limit ${BATCH_SIZE * 5}`)).map((row) => row.id)
	// A small run (--cases in the thousands) has fewer transfers due: its batches are as large as it can make.
	const size = Math.min(BATCH_SIZE, ids.length)
	if (!size) throw new Error('no transfer is due: too few cases for a batch')
	const made: number[] = []
	rows.push({
		name: `a batch of ${size.toLocaleString('en')} transfers made`,
		timings: await time(Math.max(1, Math.floor(ids.length / size)), async (run) => made.push((await createBatch(db, ids.slice(run * size, (run + 1) * size), '', finance)).batchId!)),
	})
	rows.push({ name: `a batch of ${size.toLocaleString('en')} read (its page)`, timings: await time(runs, (run) => batchOf(db, made[run % made.length]!)) })
	rows.push({
		name: `its bank file (CSV, ${size.toLocaleString('en')} lines)`,
		timings: await time(Math.max(5, Math.round(runs / 5)), async (run) => {
			const found = (await batchOf(db, made[run % made.length]!))!
			await makeBatchFile(db, found, commonLayout, 'csv', todayInRiyadh())
		}),
	})
	return { label, rows, reference }
}

const ms = (value: number) => value.toFixed(1)

async function main(options: Options): Promise<boolean> {
	const targets: Only[] = options.only ? [options.only] : ['pglite', 'postgres']
	console.log(`Ataa aid-cycle benchmark: ${options.cases.toLocaleString('en')} cases, ${options.runs} runs, on ${targets.join(' and ')} (${os.cpus().length} CPUs, load average ${os.loadavg().map((load) => load.toFixed(1)).join(' ')})`)
	let pass = true
	for (const target of targets) {
		let result
		try {
			result = await benchDatabase(target, options)
		} catch (error) {
			if (target === 'postgres' && !options.only && /ECONNREFUSED|connect/.test(String(error))) {
				console.log(`PostgreSQL is unreachable (${String(error)}); skipping it.`)
				continue
			}
			throw error
		}
		console.log(`\n${result.label}: p50 / p95 / max in ms; ratio = p95 / the case list's p95 in this run (${ms(result.reference.p95)} ms); target p95 ≤ ${TARGET_P95_MS} ms`)
		for (const row of result.rows) {
			const ok = row.timings.p95 <= TARGET_P95_MS
			pass &&= ok
			console.log(`  ${row.name.padEnd(46)} n ${String(row.timings.n).padStart(3)}  ${ms(row.timings.p50).padStart(7)}  ${ms(row.timings.p95).padStart(7)}  ${ms(row.timings.max).padStart(7)}  ×${(row.timings.p95 / result.reference.p95).toFixed(1).padStart(5)}  ${ok ? 'ok' : 'SLOW'}`)
		}
		await cleanUp()
	}
	console.log(pass ? '\nPASS: every p95 within the target' : '\nFAIL: a p95 over the target (SLOW above)')
	return pass
}

Promise.resolve()
	.then(() => main(readOptions()))
	.then(async (pass) => {
		await cleanUp()
		process.exit(pass ? 0 : 1)
	})
	.catch(async (error: unknown) => {
		await cleanUp()
		console.error(error instanceof UsageError ? error.message : error)
		process.exit(error instanceof UsageError ? 2 : 1)
	})
