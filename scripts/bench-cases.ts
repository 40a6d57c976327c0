// Case-list benchmark: the staff list and the exports on many demo cases, on PGlite and PostgreSQL.
// For each database: migrate, add two case officers and N generated cases (app/cases/demo-cases.server.ts),
// VACUUM (ANALYZE), then time the list as the route runs it (count + one page of 50) for typical searches and
// stream the CSV and XLSX exports of ≥ 10,000 cases while sampling memory. Then the production server is
// started on the same database and the list page staff wait for is timed over HTTP, signed in as an officer.
//   npm run bench:cases -- [--cases 100000] [--database postgres://postgres@127.0.0.1:5432/postgres] [--runs 200] [--only pglite|postgres]
// Env fallbacks: BENCH_CASES, BENCH_DATABASE_URL, BENCH_RUNS, BENCH_ONLY.
// Only ever talks to this machine; the PGlite directory and the PostgreSQL bench database are removed at the end.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import v8 from 'node:v8'
import vm from 'node:vm'
import { desc, eq, sql, type SQL } from 'drizzle-orm'
import { CASE_LIST_PAGE_SIZE, caseListWhere, countCases, listCases, readCaseFilter, typesOfKind, type CaseFilter } from '#app/cases/case-lists.server.ts'
import { generateDemoCase, insertDemoCases, mulberry32 } from '#app/cases/demo-cases.server.ts'
import { csvExport, xlsxExport } from '#app/cases/export.server.ts'
import { openDatabase, type Database, type DatabaseHandle } from '#app/db/client.server.ts'
import { cases, users } from '#app/db/schema.ts'
import { createUser } from '#app/domain/staff-users.server.ts'
import { createSession } from '#app/auth/session.server.ts'
import { buildIfNeeded } from './build-if-needed.mjs'
import { startAppServer } from './lib/bench-app.ts'
import { readCaseBenchOptions, type BenchDatabase, type CaseBenchOptions } from './lib/bench-options.ts'
import { stopAll, stopService, treeRssMb } from './lib/bench-processes.ts'
import { KIND, sampleValues, shapes, timings, type Shape, type Timings } from './lib/case-list-searches.ts'
import { createBenchDatabase, dropBenchDatabase, withAdminClient } from './lib/bench-postgres.ts'

const TARGET_P95_MS = 100
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const EXPORT_ROWS = 10_000
const SEED = 20_240_601


type Only = BenchDatabase
type Options = CaseBenchOptions


const readOptions = (): Options => readCaseBenchOptions({ runs: 200 })

// ——— Run-wide state, so that cleanup can reach it from any exit path ———

const tempDirs: string[] = []
const benchDatabases: { adminUrl: string; name: string }[] = []
const openHandles = new Set<DatabaseHandle>()


async function cleanUp(): Promise<void> {
	await stopAll()
	for (const handle of openHandles) await handle.close().catch(() => {})
	openHandles.clear()
	for (const { adminUrl, name } of benchDatabases.splice(0)) {
		try {
			await dropBenchDatabase(adminUrl, name)
		} catch (error) {
			console.error(`Could not drop the bench database ${name}: ${error instanceof Error ? error.message : error}`)
		}
	}
	for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
}

// ——— Measuring ———

// A real garbage collection before each memory baseline (tsx gives no --expose-gc).
v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc') as () => void

const ms = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(1))
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1)

interface ShapeResult {
	name: string
	total: number
	page1: Timings
	page5: Timings
	/** The count alone (part of every request). */
	count: Timings
	all: Timings
	samples: number[]
}

/** One list request as the route makes it: the count, then the page of 50. */
async function listRequest(db: Database, filter: CaseFilter, page: number): Promise<{ ms: number; countMs: number; total: number; rows: number }> {
	const started = performance.now()
	const total = await countCases(db, filter)
	const counted = performance.now()
	const rows = await listCases(db, filter, { offset: (page - 1) * CASE_LIST_PAGE_SIZE, limit: CASE_LIST_PAGE_SIZE })
	return { ms: performance.now() - started, countMs: counted - started, total, rows: rows.length }
}

async function measureList(db: Database, list: Shape[], runs: number, officerId: number): Promise<ShapeResult[]> {
	// Warm up: each shape once, so the first run of the bench does not pay for cold caches alone.
	for (const shape of list) await listRequest(db, readCaseFilter(shape.params(0), KIND, officerId), 1)
	const samples = list.map(() => ({ page1: [] as number[], page5: [] as number[], count: [] as number[], total: 0 }))
	// Round robin over shapes and pages 1 and 5, so that no shape runs only on a warm cache.
	for (let run = 0; run < runs; run++) {
		const index = run % list.length
		const round = Math.floor(run / list.length)
		const page = round % 2 === 0 ? 1 : 5
		const result = await listRequest(db, readCaseFilter(list[index]!.params(round), KIND, officerId), page)
		samples[index]![page === 1 ? 'page1' : 'page5'].push(result.ms)
		samples[index]!.count.push(result.countMs)
		samples[index]!.total = result.total
	}
	return list.map((shape, index) => {
		const sample = samples[index]!
		const all = [...sample.page1, ...sample.page5]
		return { name: shape.name, total: sample.total, page1: timings(sample.page1), page5: timings(sample.page5), count: timings(sample.count), all: timings(all), samples: all }
	})
}

interface HttpResult {
	/** The server's own time to its answer's headers (Server-Timing), and the client's to the whole page. */
	server: Timings
	client: Timings
	bytes: number
	rssMb: number
}

const serverTime = (response: Response) => Number(response.headers.get('server-timing')?.match(/(?:^|,)\s*app;dur=([\d.]+)/)?.[1] ?? NaN)

/**
 * The list page as staff wait for it: the production server on the same database, the officer's
 * session, GET /admin/cases with each search, pages 1 and 5 in turn, one request at a time.
 */
async function measureListOverHttp(where: { dataDir: string; url?: string }, session: string, list: Shape[], runs: number): Promise<HttpResult> {
	console.log('Starting the production server on the same database, to time the list page over HTTP…')
	const server = await startAppServer({ root, dataDir: where.dataDir, databaseUrl: where.url })
	try {
		const get = async (params: URLSearchParams, page: number) => {
			const query = new URLSearchParams(params)
			if (page > 1) query.set('page', String(page))
			const started = performance.now()
			// The session under both names the server may read it by (Secure or not).
			const response = await fetch(`${server.origin}/admin/cases?${query}`, { headers: { Cookie: `ataa_session=${session}; __Host-ataa_session=${session}`, 'Accept-Encoding': 'br' }, redirect: 'manual' })
			const body = await response.text()
			if (response.status !== 200 || !body.includes('<table')) throw new Error(`/admin/cases?${query} answered ${response.status}: ${body.slice(0, 200)}`)
			return { server: serverTime(response), client: performance.now() - started, bytes: Number(response.headers.get('content-length') ?? body.length) }
		}
		for (const shape of list) await get(shape.params(0), 1)
		const serverMs: number[] = []
		const clientMs: number[] = []
		let bytes = 0
		for (let run = 0; run < runs; run++) {
			const round = Math.floor(run / list.length)
			const result = await get(list[run % list.length]!.params(round), round % 2 === 0 ? 1 : 5)
			serverMs.push(result.server)
			clientMs.push(result.client)
			bytes = Math.max(bytes, result.bytes)
		}
		return { server: timings(serverMs), client: timings(clientMs), bytes, rssMb: treeRssMb(server.service.pid) }
	} finally {
		await stopService(server.service)
	}
}

/** Rows of a plain SQL statement (both drivers answer with `rows`). */
async function rowsOf<Row>(db: Database, statement: SQL): Promise<Row[]> {
	return (await db.execute(statement)).rows as Row[]
}

/** EXPLAIN (ANALYZE, BUFFERS) of the list's page and count queries, for one filter. */
async function explain(db: Database, filter: CaseFilter): Promise<string[]> {
	const page = db
		.select({ id: cases.id, reference: cases.reference, applicantName: cases.applicantName, assignedName: users.name })
		.from(cases)
		.leftJoin(users, eq(users.id, cases.assignedTo))
		.where(caseListWhere(filter))
		.orderBy(desc(cases.submittedAt), desc(cases.id))
		.limit(CASE_LIST_PAGE_SIZE)
	const count = db.select({ value: sql<number>`count(*)::int` }).from(cases).where(caseListWhere(filter))
	const lines: string[] = []
	for (const [title, query] of [
		['page of 50', page],
		['count', count],
	] as const) {
		const { sql: text, params } = query.toSQL()
		lines.push(`  -- ${title}: ${text.replace(/\s+/g, ' ').replace(/^select .*? from/, 'select … from')}`)
		lines.push(`  -- params: ${JSON.stringify(params)}`)
		for (const row of await rowsOf<Record<string, unknown>>(db, sql`explain (analyze, buffers) ${query.getSQL()}`)) lines.push(`    ${String(Object.values(row)[0])}`)
	}
	return lines
}

interface ExportResult {
	format: 'csv' | 'xlsx'
	rows: number
	bytes: number
	seconds: number
	/** Peak heapUsed over the baseline, garbage included (as the process would see it). */
	heapGrowth: number
	/** Peak heap still reachable (a full GC before each sample, in a second run): what the export holds. */
	liveGrowth: number
	rssGrowth: number
}

/** Counts CSV records (a newline inside a quoted cell is not a record's end). */
function csvRecordCounter() {
	let quoted = false
	let records = 0
	return {
		feed(text: string) {
			for (let i = 0; i < text.length; i++) {
				const char = text.charCodeAt(i)
				if (char === 34) quoted = !quoted
				else if (char === 10 && !quoted) records++
			}
		},
		get records() {
			return records
		},
	}
}

/**
 * Reads an export to its end, sampling memory every 50 ms; with `live`, a full GC before each
 * sample (slower: only for the memory held, not for the speed). Samples are also taken between
 * chunks: on PGlite an export read this fast settles only promises, so timers never fire.
 */
async function readExport(format: 'csv' | 'xlsx', stream: () => ReadableStream, expectedRows: number, live: boolean) {
	gc()
	const baseline = process.memoryUsage()
	let peakHeap = baseline.heapUsed
	let peakRss = baseline.rss
	let lastSample = performance.now()
	const sample = () => {
		if (live) gc()
		const now = process.memoryUsage()
		peakHeap = Math.max(peakHeap, now.heapUsed)
		peakRss = Math.max(peakRss, now.rss)
		lastSample = performance.now()
	}
	const sampler = setInterval(sample, 50)
	const started = performance.now()
	const counter = csvRecordCounter()
	const decoder = new TextDecoder()
	let bytes = 0
	try {
		const reader = stream().getReader()
		for (;;) {
			const { done, value } = await reader.read()
			if (done) break
			const chunk = value as Uint8Array
			bytes += chunk.byteLength
			if (format === 'csv') counter.feed(decoder.decode(chunk, { stream: true }))
			if (performance.now() - lastSample >= 50) sample()
		}
	} finally {
		clearInterval(sampler)
	}
	const seconds = (performance.now() - started) / 1000
	sample()
	// CSV: every record but the header. XLSX is zipped: the rows are the filter's count.
	const rows = format === 'csv' ? counter.records - 1 : expectedRows
	if (format === 'csv' && rows !== expectedRows) throw new Error(`the CSV export had ${rows} rows, the filter counts ${expectedRows}`)
	return { rows, bytes, seconds, heapGrowth: peakHeap - baseline.heapUsed, rssGrowth: peakRss - baseline.rss }
}

async function measureExport(format: 'csv' | 'xlsx', stream: () => ReadableStream, expectedRows: number): Promise<ExportResult> {
	const timed = await readExport(format, stream, expectedRows, false)
	const held = await readExport(format, stream, expectedRows, true)
	return { format, ...timed, liveGrowth: held.heapGrowth }
}

/** The newest ≥ 10,000 cases of the list, by whole days: the first day that brings the count past it. */
async function exportFilter(db: Database): Promise<{ filter: CaseFilter; params: URLSearchParams }> {
	const all = readCaseFilter(new URLSearchParams(), KIND, 0)
	const [row] = await db
		.select({ day: sql<string>`to_char((${cases.submittedAt} at time zone 'Asia/Riyadh')::date, 'YYYY-MM-DD')` })
		.from(cases)
		.where(caseListWhere(all))
		.orderBy(desc(cases.submittedAt))
		.offset(EXPORT_ROWS - 1)
		.limit(1)
	const params = new URLSearchParams(row ? { from: row.day } : {})
	return { filter: readCaseFilter(params, KIND, 0), params }
}

/** What holding 10,000 generated cases (row, sections, history) in an array costs the heap. */
function referenceHeap(): number {
	const rng = mulberry32(SEED)
	const now = new Date()
	gc()
	const before = process.memoryUsage().heapUsed
	const held = Array.from({ length: EXPORT_ROWS }, (_, index) => generateDemoCase(rng, index, { now, seed: SEED }))
	gc()
	const growth = process.memoryUsage().heapUsed - before
	if (held.length !== EXPORT_ROWS) throw new Error('unreachable')
	return growth
}

// ——— One database ———

interface DatabaseResult {
	label: string
	insertSeconds: number
	casesInserted: number
	shapes: ShapeResult[]
	overall: Timings
	exports: ExportResult[]
	exportFilter: string
	indexes: { indexname: string; indexdef: string }[]
	explain: string[]
	http: HttpResult
}

async function openBenchDatabase(target: Only, options: Options): Promise<{ handle: DatabaseHandle; label: string; where: { dataDir: string; url?: string } }> {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-bench-cases-'))
	tempDirs.push(dir)
	if (target === 'pglite') {
		// Where the server looks for it: DATA_DIR/pgdata.
		const handle = await openDatabase({ dataDir: path.join(dir, 'pgdata') })
		openHandles.add(handle)
		return { handle, label: 'PGlite', where: { dataDir: dir } }
	}
	const { name, url } = await createBenchDatabase(options.database)
	benchDatabases.push({ adminUrl: options.database, name })
	const handle = await openDatabase({ url })
	openHandles.add(handle)
	return { handle, label: `PostgreSQL (${name})`, where: { dataDir: dir, url } }
}

async function benchDatabase(target: Only, options: Options): Promise<DatabaseResult> {
	const { handle, label, where } = await openBenchDatabase(target, options)
	const { db } = handle
	console.log(`\n== ${label} ==`)
	await handle.migrate()
	const officers = []
	for (const [index, name] of ['منيرة القحطاني', 'خالد العتيبي'].entries()) {
		officers.push(await createUser(db, { name, email: `officer${index + 1}@bench.local`, mobile: '', roles: ['case_officer'], password: randomBytes(18).toString('base64url') }))
	}
	const officerIds = officers.map((officer) => officer.id)
	const now = new Date()

	console.log(`Inserting ${options.cases.toLocaleString('en')} demo cases…`)
	const started = performance.now()
	let lastReport = started
	const inserted = await insertDemoCases(db, options.cases, {
		seed: SEED,
		officerIds,
		now,
		onProgress: (count) => {
			if (performance.now() - lastReport > 15_000 || count === options.cases) {
				lastReport = performance.now()
				const seconds = (lastReport - started) / 1000
				console.log(`  ${count.toLocaleString('en')} cases in ${seconds.toFixed(0)} s (${(count / seconds).toFixed(0)}/s)`)
			}
		},
	})
	// As the app does at start on PGlite (app/bootstrap.server.ts); autovacuum does it on a PostgreSQL server in time.
	await db.execute(sql`vacuum (analyze) cases`)
	const insertSeconds = (performance.now() - started) / 1000
	console.log(`Inserted ${inserted.toLocaleString('en')} cases and analyzed in ${insertSeconds.toFixed(1)} s`)

	const list = shapes(await sampleValues(db), now)
	console.log(`Timing the list: ${options.runs} requests over ${list.length} searches, pages 1 and 5…`)
	const results = await measureList(db, list, options.runs, officerIds[0]!)
	const textStatus = readCaseFilter(new URLSearchParams({ q: 'محمد', status: '1' }), KIND, officerIds[0]!)
	const plan = await explain(db, textStatus)

	const { filter, params } = await exportFilter(db)
	const expected = await countCases(db, filter)
	const types = filter.type ? [filter.type] : typesOfKind(KIND)
	console.log(`Exporting ${expected.toLocaleString('en')} cases (${params.toString() || 'no filter'}) as CSV and XLSX…`)
	const exports = [await measureExport('csv', () => csvExport(db, filter, types), expected), await measureExport('xlsx', () => xlsxExport(db, filter, types), expected)]

	const indexes = await rowsOf<{ indexname: string; indexdef: string }>(db, sql`select indexname, indexdef from pg_indexes where tablename = 'cases' order by indexname`)
	// A session of the first officer, as after signing in with both steps.
	const session = await createSession(db, officerIds[0]!, { verified: true })
	await handle.close()
	openHandles.delete(handle)
	const http = await measureListOverHttp(where, session.token, list, Math.min(options.runs, 110))
	return {
		label,
		insertSeconds,
		casesInserted: inserted,
		shapes: results,
		overall: timings(results.flatMap((shape) => shape.samples)),
		exports,
		exportFilter: params.toString() || 'none',
		indexes,
		explain: plan,
		http,
	}
}

// ——— Report ———

function table(header: string[], rows: string[][]): string[] {
	const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)))
	const line = (cells: string[]) => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ')
	return [line(header), ...rows.map(line)]
}

const percentOf = (part: number, whole: number) => `${((part / whole) * 100).toFixed(0)}%`

function report(result: DatabaseResult, referenceGrowth: number): boolean {
	const { overall } = result
	// The target is the list's p95; a search's own p95 (of ~n/11 requests) is nearly its max, so it is flagged, not failed.
	const pass = overall.p95 <= TARGET_P95_MS && result.http.server.p95 <= TARGET_P95_MS
	const slow = result.shapes.filter((shape) => shape.all.p95 > TARGET_P95_MS)
	const lines = [
		'',
		`Ataa case list on ${result.label}: ${result.casesInserted.toLocaleString('en')} cases, inserted and analyzed in ${result.insertSeconds.toFixed(1)} s (${(result.casesInserted / result.insertSeconds).toFixed(0)} cases/s)`,
		'',
		...table(
			['search (count + page of 50), ms', 'matches', 'n', 'p50 pg1', 'p95 pg1', 'p50 pg5', 'p95 pg5', 'count p50', 'p95', 'max', ''],
			result.shapes.map((shape) => [
				shape.name,
				shape.total.toLocaleString('en'),
				String(shape.all.n),
				ms(shape.page1.p50),
				ms(shape.page1.p95),
				ms(shape.page5.p50),
				ms(shape.page5.p95),
				ms(shape.count.p50),
				ms(shape.all.p95),
				ms(shape.all.max),
				shape.all.p95 <= TARGET_P95_MS ? 'ok' : 'SLOW',
			]),
		).map((line) => `  ${line}`),
		`  overall: n ${overall.n}  p50 ${ms(overall.p50)} ms  p95 ${ms(overall.p95)} ms  max ${ms(overall.max)} ms`,
		`  The list page over HTTP (GET /admin/cases, the same searches, signed in, n ${result.http.server.n}): server p50 ${ms(result.http.server.p50)} ms, p95 ${ms(result.http.server.p95)} ms, max ${ms(result.http.server.max)} ms; client p95 ${ms(result.http.client.p95)} ms; ${(result.http.bytes / 1024).toFixed(1)} KiB at most (brotli); server RSS ${result.http.rssMb.toFixed(0)} MB after`,
		`  ${pass ? 'PASS' : 'FAIL'}: list p95 ${ms(overall.p95)} ms (query) and ${ms(result.http.server.p95)} ms (page) against the ${TARGET_P95_MS} ms target${slow.length ? `; over it for one search: ${slow.map((shape) => shape.name).join(', ')}` : '; every search within it'}`,
		'',
		`  Exports of ${result.exports[0]?.rows.toLocaleString('en') ?? 0} cases (filter: ${result.exportFilter}); reference: 10,000 generated cases held in an array = ${mib(referenceGrowth)} MiB of heap`,
		...table(
			['format', 'rows', 'MiB out', 'seconds', 'rows/s', 'peak heap +MiB', 'live heap +MiB', 'live vs reference', 'peak rss +MiB'],
			result.exports.map((item) => [
				item.format,
				item.rows.toLocaleString('en'),
				mib(item.bytes),
				item.seconds.toFixed(1),
				(item.rows / item.seconds).toFixed(0),
				mib(item.heapGrowth),
				mib(item.liveGrowth),
				percentOf(item.liveGrowth, referenceGrowth),
				mib(item.rssGrowth),
			]),
		).map((line) => `  ${line}`),
		'  (peak heap: garbage included, as sampled every 50 ms; live heap: a second run with a full GC before each sample)',
		'',
		'  EXPLAIN (ANALYZE, BUFFERS) of the list for q=محمد&status=1:',
		...result.explain,
		'',
		'  Indexes on cases:',
		...result.indexes.map((index) => `    ${index.indexname}: ${index.indexdef.replace(/^CREATE (UNIQUE )?INDEX \S+ ON \S+ /, '$1')}`),
	]
	console.log(lines.join('\n'))
	return pass
}

// ——— Main ———

async function main(options: Options): Promise<boolean> {
	buildIfNeeded()
	const targets: Only[] = options.only ? [options.only] : ['pglite', 'postgres']
	console.log(`Ataa case benchmark: ${options.cases.toLocaleString('en')} cases, ${options.runs} list requests per database, on ${targets.join(' and ')} (${os.cpus().length} CPUs, load average ${os.loadavg().map((load) => load.toFixed(1)).join(' ')})`)
	const referenceGrowth = referenceHeap()
	let ok = true
	const summary: string[][] = []
	for (const target of targets) {
		if (target === 'postgres') {
			try {
				await withAdminClient(options.database, (client) => client.query('select 1'))
			} catch (error) {
				console.log(`\nPostgreSQL at ${new URL(options.database).host} is unreachable (${error instanceof Error ? error.message : error}); skipping it.`)
				ok = false
				continue
			}
		}
		const result = await benchDatabase(target, options)
		const pass = report(result, referenceGrowth)
		ok &&= pass
		const { overall } = result
		const [csv, xlsx] = result.exports
		const slowest = result.shapes.reduce((worst, shape) => (shape.all.p95 > worst.all.p95 ? shape : worst))
		const exported = (item: ExportResult | undefined) => (item ? [(item.rows / item.seconds).toFixed(0), `${mib(item.liveGrowth)} (${percentOf(item.liveGrowth, referenceGrowth)})`] : ['-', '-'])
		summary.push([
			target,
			result.casesInserted.toLocaleString('en'),
			result.insertSeconds.toFixed(0),
			ms(overall.p50),
			ms(overall.p95),
			ms(overall.max),
			ms(result.http.server.p50),
			ms(result.http.server.p95),
			`${slowest.name} (${ms(slowest.all.p95)})`,
			pass ? 'PASS' : 'FAIL',
			...exported(csv),
			...exported(xlsx),
		])
	}
	if (summary.length) {
		console.log(`\nSummary (list: count + page of 50, ms; exports: rows/s and live heap growth in MiB, % of holding 10,000 cases); load average ${os.loadavg().map((load) => load.toFixed(1)).join(' ')}`)
		console.log(
			table(['database', 'cases', 'insert s', 'list p50', 'list p95', 'list max', 'page p50 (HTTP)', 'page p95 (HTTP)', 'slowest search (its p95)', 'target', 'csv rows/s', 'csv live heap+', 'xlsx rows/s', 'xlsx live heap+'], summary)
				.map((line) => `  ${line}`)
				.join('\n'),
		)
	}
	return ok
}

let options: Options
try {
	options = readOptions()
} catch (error) {
	console.error(error instanceof Error ? error.message : error)
	process.exit(1)
}
let stopping = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.on(signal, () => {
		if (stopping) return
		stopping = true
		console.error(`Stopped by ${signal}; cleaning up…`)
		void cleanUp().finally(() => process.exit(1))
	})
}

main(options).then(
	async (ok) => {
		await cleanUp()
		process.exit(ok ? 0 : 1)
	},
	async (error: unknown) => {
		console.error(`The benchmark did not complete: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
		await cleanUp()
		process.exit(1)
	},
)
