// The cluster's figures (docs/deployment.md#measured-limits): Ataa as instances behind nginx on one
// PostgreSQL database holding N generated cases (100,000 by default) and an S3-compatible bucket
// (scripts/lib/cluster.ts). Four instances start, two with the HTML page cache on and two with it off
// (HTML_CACHE=off), and nginx balances over one or two of each. Then:
//   - req/s of the home page through the balancer with one and two instances, cached and uncached,
//     against one instance served directly (the reference, measured in the same run);
//   - req/s of the staff case list (never cached) with one and two instances;
//   - the case list's typical searches (scripts/lib/case-list-searches.ts) one after another through
//     the balancer: p50/p95 of each, against the case-management target of 100 ms at p95.
//   npm run bench:cluster -- [--cases 100000] [--connections 20] [--duration 10] [--warmup 2] [--runs 20]
//     [--database postgres://postgres@127.0.0.1:5432/postgres] [--timeout 1800] [--no-doc]
// Writes its figures into docs/deployment.md (between its markers) unless --no-doc.
// Only ever talks to 127.0.0.1. Every process, the database and the files are removed at the end, also on failure or Ctrl-C.
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { sql } from 'drizzle-orm'
import { insertDemoCases } from '#app/cases/demo-cases.server.ts'
import { createSession, sessionCookieName } from '#app/auth/session.server.ts'
import { openDatabase } from '#app/db/client.server.ts'
import { createUser } from '#app/domain/staff-users.server.ts'
import { buildIfNeeded } from './build-if-needed.mjs'
import { adminDatabaseUrl, positiveInt } from './lib/bench-options.ts'
import { runBenchmark } from './lib/bench-run.ts'
import { sampleValues, shapes, timings, type Samples } from './lib/case-list-searches.ts'
import { loadGenerator } from './lib/load-generator.ts'
import { launchCluster, type Cluster, type ClusterLaunch } from './lib/cluster.ts'
import { commandLine, gitRevision, loadNow, machineFacts, markdownTable, textTable, writeDocSection } from './lib/perf-doc.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
/** The case list's target (the case-management issue; `npm run bench:cases` holds it in-process). */
const TARGET_P95_MS = 100
const SEED = 20_241_124

interface Options {
	cases: number
	connections: number
	duration: number
	warmup: number
	runs: number
	adminUrl: string
	timeoutSeconds: number
	/** Write the figures into docs/deployment.md (--no-doc: only print them). */
	doc: boolean
}

function readOptions(): Options {
	const { values } = parseArgs({
		args: process.argv.slice(2),
		options: { cases: { type: 'string' }, connections: { type: 'string' }, duration: { type: 'string' }, warmup: { type: 'string' }, runs: { type: 'string' }, database: { type: 'string' }, timeout: { type: 'string' }, 'no-doc': { type: 'boolean', default: false } },
	})
	return {
		cases: positiveInt('--cases', values.cases ?? process.env.BENCH_CASES, 100_000),
		connections: positiveInt('--connections', values.connections ?? process.env.BENCH_CONNECTIONS, 20),
		duration: positiveInt('--duration', values.duration ?? process.env.BENCH_DURATION, 10),
		warmup: positiveInt('--warmup', values.warmup, 2),
		runs: positiveInt('--runs', values.runs, 20),
		adminUrl: adminDatabaseUrl(values.database),
		timeoutSeconds: positiveInt('--timeout', values.timeout, 1800),
		doc: !values['no-doc'],
	}
}

const abort = new AbortController()
let launch: ClusterLaunch | undefined
const cannon = loadGenerator(abort.signal)

interface Row {
	what: string
	target: string
	reqPerSec: number
	p50: number
	p99: number
	failures: number
}

function fire(options: Options, url: string, headers: Record<string, string>, duration: number) {
	return cannon.fire({ url, connections: options.connections, duration, headers })
}

async function measure(options: Options, what: string, target: string, url: string, headers: Record<string, string>): Promise<Row> {
	const probe = await fetch(url, { headers, redirect: 'manual' })
	await probe.arrayBuffer()
	if (probe.status !== 200) throw new Error(`${target}: ${url} answered ${probe.status}`)
	await fire(options, url, headers, options.warmup)
	const result = await fire(options, url, headers, options.duration)
	abort.signal.throwIfAborted()
	const requests = result.requests.total
	const row = { what, target, reqPerSec: requests / result.duration, p50: result.latency.p50, p99: result.latency.p99, failures: result.non2xx + result.errors + result.timeouts + (requests ? 0 : 1) }
	console.log(`  ${what.padEnd(24)} ${target.padEnd(30)} ${row.reqPerSec.toFixed(0).padStart(6)} req/s  p50 ${row.p50} ms  p99 ${row.p99} ms${row.failures ? `  ✖ ${row.failures} failed` : ''}`)
	return row
}

/** Who shared the machine's cores while it was measured. */
function coresShared(): string {
	const cores = os.availableParallelism()
	return `${cores === 1 ? 'Its one core was' : `Its ${cores} cores were`} shared by nginx, the instances, PostgreSQL, s3rver and the load generator`
}

async function main(options: Options): Promise<boolean> {
	// As the instances run: the session cookie is named as a Secure one's (sessionCookieName).
	process.env.NODE_ENV = 'production'
	buildIfNeeded()
	const facts = machineFacts().line
	const revision = gitRevision(root)
	console.log(`Cluster benchmark at ${revision}: ${options.cases.toLocaleString('en')} cases, ${options.connections} connections, ${options.duration} s a run; ${facts}`)
	let session = ''
	let samples: Samples | undefined
	const production = { NODE_ENV: 'production', LOG_LEVEL: 'warn' }
	launch = launchCluster({
		root,
		adminUrl: options.adminUrl,
		host: '127.0.0.1',
		instances: [production, production, { ...production, HTML_CACHE: 'off' }, { ...production, HTML_CACHE: 'off' }],
		// Two instances with the cache, one; two without, one.
		balancers: [[0, 1], [0], [2, 3], [2]],
		log: (line) => console.log(line),
		signal: abort.signal,
		beforeOthers: async (databaseUrl) => {
			const handle = await openDatabase({ url: databaseUrl })
			try {
				console.log(`Adding a case officer and ${options.cases.toLocaleString('en')} generated cases…`)
				const officer = await createUser(handle.db, { name: 'باحث اجتماعي للقياس', email: 'officer@bench.local', mobile: '', roles: ['case_officer'], password: `Bench-${Date.now()}-officer` })
				const started = performance.now()
				await insertDemoCases(handle.db, options.cases, { seed: SEED, officerIds: [officer.id] })
				console.log(`  inserted in ${((performance.now() - started) / 1000).toFixed(0)} s; VACUUM (ANALYZE)…`)
				await handle.db.execute(sql`vacuum (analyze)`)
				// A signed-in officer, as the sign-in form would leave one (the form itself is measured by the browser tests).
				session = (await createSession(handle.db, officer.id)).token
				samples = await sampleValues(handle.db)
			} finally {
				await handle.close()
			}
		},
	})
	const cluster = await launch.started
	const [cached2, cached1, uncached2, uncached1] = cluster.balancers as [Cluster['balancers'][number], Cluster['balancers'][number], Cluster['balancers'][number], Cluster['balancers'][number]]
	const direct = (index: number) => cluster.instances[index]!.origin
	const cookie = { cookie: `${sessionCookieName()}=${session}` }
	const br = { 'accept-encoding': 'br' }

	console.log(`\nThroughput (load average ${loadNow()}):`)
	const rows: Row[] = []
	rows.push(await measure(options, 'home, cached', 'one instance, no balancer', `${direct(0)}/`, br))
	rows.push(await measure(options, 'home, cached', 'balancer, 1 instance', `${cached1.origin}/`, br))
	rows.push(await measure(options, 'home, cached', 'balancer, 2 instances', `${cached2.origin}/`, br))
	rows.push(await measure(options, 'home, uncached', 'one instance, no balancer', `${direct(2)}/`, br))
	rows.push(await measure(options, 'home, uncached', 'balancer, 1 instance', `${uncached1.origin}/`, br))
	rows.push(await measure(options, 'home, uncached', 'balancer, 2 instances', `${uncached2.origin}/`, br))
	rows.push(await measure(options, 'case list, page 1', 'one instance, no balancer', `${direct(0)}/admin/cases`, { ...br, ...cookie }))
	rows.push(await measure(options, 'case list, page 1', 'balancer, 1 instance', `${cached1.origin}/admin/cases`, { ...br, ...cookie }))
	rows.push(await measure(options, 'case list, page 1', 'balancer, 2 instances', `${cached2.origin}/admin/cases`, { ...br, ...cookie }))

	console.log(`\nThe case list's searches, one request at a time through the balancer (2 instances), ${options.runs} runs each:`)
	const searches = shapes(samples!, new Date())
	const all: number[] = []
	const searchRows: string[][] = []
	for (const shape of searches) {
		const samplesMs: number[] = []
		for (let run = 0; run < options.runs + 2; run++) {
			abort.signal.throwIfAborted()
			const started = performance.now()
			const response = await fetch(`${cached2.origin}/admin/cases?${shape.params(run)}`, { headers: { ...br, ...cookie }, redirect: 'manual' })
			await response.arrayBuffer()
			const elapsed = performance.now() - started
			if (response.status !== 200) throw new Error(`${shape.name}: /admin/cases answered ${response.status}`)
			// The first two warm both instances up.
			if (run >= 2) samplesMs.push(elapsed)
		}
		all.push(...samplesMs)
		const shown = timings(samplesMs)
		searchRows.push([shape.name, shown.p50.toFixed(1), shown.p95.toFixed(1), shown.max.toFixed(1)])
	}
	const overall = timings(all)
	searchRows.push(['all searches', overall.p50.toFixed(1), overall.p95.toFixed(1), overall.max.toFixed(1)])
	console.log(textTable(['search', 'p50 ms', 'p95 ms', 'max ms'], searchRows).join('\n'))

	const reference = (what: string) => rows.find((row) => row.what === what && row.target === 'one instance, no balancer')!
	console.log(`\nSummary (${facts}; ${os.cpus().length} cores shared by nginx, the instances, PostgreSQL, s3rver and the load generator):`)
	console.log(
		textTable(
			['page', 'served by', 'req/s', 'p50 ms', 'p99 ms', 'vs no balancer', 'failed'],
			rows.map((row) => [row.what, row.target, row.reqPerSec.toFixed(0), String(row.p50), String(row.p99), `${(row.reqPerSec / reference(row.what).reqPerSec).toFixed(2)}×`, String(row.failures)]),
			2,
		).join('\n'),
	)
	const ok = overall.p95 < TARGET_P95_MS
	const verdict = `Case list on ${options.cases.toLocaleString('en')} cases through the balancer: p95 ${overall.p95.toFixed(1)} ms, target < ${TARGET_P95_MS} ms ${ok ? '✔' : '✖'}`
	console.log(`\n${verdict}`)
	if (options.doc) {
		const markdown = [
			`Measured ${machineFacts().date} at ${revision} with \`${commandLine('bench:cluster')}\`, on ${facts}. ${coresShared()} (autocannon, ${options.connections} connections, ${options.duration} s a run after ${options.warmup} s of warm-up). On one machine a second instance adds no cores, so more instances help only where one instance waits (the database, uncached pages). With instances on machines of their own, throughput is expected to grow with them until the database is the limit; that was not measured here.`,
			'',
			markdownTable(
				['Page', 'Served by', 'req/s', 'p50 ms', 'p99 ms', 'vs one instance, no balancer', 'Failed'],
				rows.map((row) => [row.what, row.target, row.reqPerSec.toFixed(0), String(row.p50), String(row.p99), `${(row.reqPerSec / reference(row.what).reqPerSec).toFixed(2)}×`, String(row.failures)]),
				['l', 'l', 'r', 'r', 'r', 'r', 'r'],
			),
			'',
			`The staff case list's typical searches (\`scripts/lib/case-list-searches.ts\`), one request at a time through the balancer over two instances, ${options.runs} runs each after two to warm up; the whole request (session check, count, page of 50, HTML):`,
			'',
			markdownTable(['Search', 'p50 ms', 'p95 ms', 'max ms'], searchRows, ['l', 'r', 'r', 'r']),
			'',
			`**${verdict}.**`,
		].join('\n')
		console.log(`Written to ${path.relative(process.cwd(), writeDocSection(root, 'bench:cluster', markdown, 'docs/deployment.md'))}`)
	}
	return ok && rows.every((row) => row.failures === 0)
}

runBenchmark({
	readOptions,
	timeoutSeconds: (options) => options.timeoutSeconds,
	main,
	abort,
	onAbort: () => cannon.stop(),
	cleanUp: async () => {
		cannon.stop()
		await launch?.stop()
	},
})
