// HTTP throughput of the public pages: autocannon against the production server for the home page,
// a content page, the news list and a news item, with the HTML page cache off (HTML_CACHE=off) and
// on, on PGlite and on PostgreSQL; next to nginx serving the very same bytes with the same
// compression (the limit) and a stock Debian WordPress with 12 Arabic posts (the peer). Every target
// runs at once and is measured in turn, page by page, in paired rounds: a ratio is taken within a
// round, under the same load, and the median of the rounds is reported. Prints CPU ms per request,
// req/s, p50/p99 and the ratios, each server's memory (V8's heap and PGlite's apart), and writes
// them to docs/performance.md.
//   npm run bench:http -- [--quick] [--rounds 3] [--connections 20] [--duration 5] [--warmup 1] [--only pglite|postgres]
//     [--database postgres://postgres@127.0.0.1:5432/postgres] [--peers all|nginx|none] [--encoding br|gzip|br,gzip]
//     [--nginx-workers 1] [--workers N] [--timeout 1800] [--no-doc]
// Env fallbacks: BENCH_CONNECTIONS, BENCH_DURATION, BENCH_ONLY, BENCH_DATABASE_URL, BENCH_PEERS.
// Only ever talks to 127.0.0.1. Installs Debian's nginx (and php-fpm and wordpress for the peer) when
// missing; every process it starts, the temporary data, the bench databases and WordPress's config
// are removed at the end, also on failure or Ctrl-C.
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { buildIfNeeded } from './build-if-needed.mjs'
import { buildKnowsHtmlCache, firstLink, startAppServer, type AppServer } from './lib/bench-app.ts'
import { adminDatabaseUrl, DATABASE_LABEL, databasesToRun, positiveInt, UsageError, type BenchDatabase } from './lib/bench-options.ts'
import {
	brotliModules,
	ensureDebianPackages,
	MARIADB_NAMES,
	NGINX_PACKAGES,
	nginxBinary,
	nginxQuote,
	PeerUnavailable,
	setUpWordPress,
	startNginx,
	startPhpFpm,
	versionOf,
	WORDPRESS_PACKAGES,
	WORDPRESS_PACKAGES_FIRST,
	wordpressServerBlock,
	type WordPressSite,
} from './lib/bench-peers.ts'
import { createBenchDatabase, dropBenchDatabase, withAdminClient } from './lib/bench-postgres.ts'
import { pidsNamed, processCpuMs, stopAll, stopService, treeCpuMs, treeRssMb, type Service } from './lib/bench-processes.ts'
import { runBenchmark } from './lib/bench-run.ts'
import { freePort } from './lib/free-port.ts'
import { loadGenerator } from './lib/load-generator.ts'
import { commandLine, gitRevision, loadNow, machineFacts, markdownTable, textTable, writeDocSection } from './lib/perf-doc.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
/** What the app's compression middleware does by default (server.mjs): brotli at quality 3, gzip at zlib's level 3. */
const APP_COMPRESSION = { brotliQuality: 3, gzipLevel: 3 }
const GOALS = { homeVsWordPress: 10, homeCpuMs: 3, cachedVsNginx: 0.5, rssMb: { pglite: 300, postgres: 250 } }

type Encoding = 'br' | 'gzip'
type Peers = 'all' | 'nginx' | 'none'

interface Options {
	rounds: number
	connections: number
	duration: number
	warmup: number
	quick: boolean
	databases: BenchDatabase[]
	adminUrl: string
	peers: Peers
	encodings: Encoding[]
	nginxWorkers: number
	/** autocannon's worker threads; undefined runs it in this process's main thread. */
	workers: number | undefined
	timeoutSeconds: number
	doc: boolean
}

function readOptions(): Options {
	const { values } = parseArgs({
		args: process.argv.slice(2),
		options: {
			quick: { type: 'boolean', default: false },
			rounds: { type: 'string' },
			connections: { type: 'string' },
			duration: { type: 'string' },
			warmup: { type: 'string' },
			only: { type: 'string' },
			database: { type: 'string' },
			peers: { type: 'string' },
			encoding: { type: 'string' },
			'nginx-workers': { type: 'string' },
			workers: { type: 'string' },
			timeout: { type: 'string' },
			'no-doc': { type: 'boolean', default: false },
		},
	})
	const quick = values.quick
	const peers = values.peers ?? process.env.BENCH_PEERS ?? 'all'
	if (peers !== 'all' && peers !== 'nginx' && peers !== 'none') throw new UsageError(`--peers must be all, nginx or none (got "${peers}")`)
	const encodings = (values.encoding ?? 'br').split(',').map((value) => value.trim())
	for (const encoding of encodings) if (encoding !== 'br' && encoding !== 'gzip') throw new UsageError(`--encoding must be br, gzip or br,gzip (got "${values.encoding}")`)
	return {
		quick,
		rounds: positiveInt('--rounds', values.rounds, quick ? 1 : 3),
		connections: positiveInt('--connections', values.connections ?? process.env.BENCH_CONNECTIONS, 20),
		duration: positiveInt('--duration', values.duration ?? process.env.BENCH_DURATION, quick ? 3 : 5),
		warmup: positiveInt('--warmup', values.warmup, 1),
		databases: databasesToRun(values.only ?? process.env.BENCH_ONLY),
		adminUrl: adminDatabaseUrl(values.database),
		peers,
		encodings: [...new Set(encodings)] as Encoding[],
		nginxWorkers: positiveInt('--nginx-workers', values['nginx-workers'], 1),
		workers: values.workers === undefined ? undefined : positiveInt('--workers', values.workers, 1),
		timeoutSeconds: positiveInt('--timeout', values.timeout, 1800),
		doc: !values['no-doc'],
	}
}

// ——— Run-wide state, kept here so that cleanup can reach it from any exit path ———

const abort = new AbortController()
let tempDir: string | undefined
const cannon = loadGenerator(abort.signal)
const benchDatabases: { adminUrl: string; name: string }[] = []
let wordpress: WordPressSite | undefined

async function cleanUp(): Promise<void> {
	cannon.stop()
	const site = wordpress
	wordpress = undefined
	const steps: [string, () => void | Promise<void>][] = [
		['stop the servers', stopAll],
		['remove the WordPress database and config', () => site?.tearDown()],
		[
			'drop the bench databases',
			async () => {
				for (const database of benchDatabases.splice(0)) await dropBenchDatabase(database.adminUrl, database.name)
			},
		],
		['remove the temp dir', () => void (tempDir && fs.rmSync(tempDir, { recursive: true, force: true }))],
	]
	for (const [what, step] of steps) {
		try {
			await step()
		} catch (error) {
			console.error(`Cleanup: could not ${what}:`, error instanceof Error ? error.message : error)
		}
	}
}

// ——— Measuring ———

interface Page {
	label: string
	path: string
	/** The WordPress page it is compared with. */
	peer: 'home' | 'page' | 'post'
}

interface Row {
	/** The paired round it was measured in (1, 2, …): every target's page in turn. */
	round: number
	group: 'ataa' | 'nginx' | 'wordpress'
	target: string
	page: Page
	encoding: Encoding
	reqPerSec: number
	p50: number
	p99: number
	cpuMsPerRequest: number
	requests: number
	/** Non-2xx answers, errors and timeouts: the figures of a row with any are not comparable. */
	failures: number
	/** The load generator's CPU (this process) during the run, in cores: near 1 with one worker, it was the bottleneck. */
	clientCores: number
}

/** A GET as autocannon sends it, without decompressing: status, headers and the bytes on the wire. */
function getRaw(url: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
	return new Promise((resolve, reject) => {
		const request = http.get(url, { headers, signal: abort.signal }, (response) => {
			const chunks: Buffer[] = []
			response.on('data', (chunk: Buffer) => chunks.push(chunk))
			response.once('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }))
			response.once('error', reject)
		})
		request.once('error', reject)
	})
}

const acceptEncoding = (encoding: Encoding) => ({ 'accept-encoding': encoding })
const failureText = (row: Row) => (row.requests === 0 ? '  ✖ no answer within the run' : row.failures ? `  ✖ ${row.failures} failed` : '')
/** The load generator used this much of a core or more: its req/s is a floor of what the server can do. */
const CLIENT_BOUND = 0.8

function fire(options: Options, url: string, encoding: Encoding, duration: number) {
	return cannon.fire({ url, connections: options.connections, duration, headers: acceptEncoding(encoding), ...(options.workers ? { workers: options.workers } : {}) })
}

/** Warms the page up, then measures it: req/s, latency, and CPU ms per request from `cpuMs` before and after. */
async function measure(options: Options, round: number, group: Row['group'], target: string, origin: string, page: Page, encoding: Encoding, cpuMs: () => Promise<number>): Promise<Row> {
	const url = origin + page.path
	const probe = await getRaw(url, acceptEncoding(encoding))
	if (probe.status !== 200) throw new Error(`${target}: ${page.path} answered ${probe.status}`)
	if (probe.headers['content-encoding'] !== encoding)
		console.log(`  note: ${target} ${page.path} answered Content-Encoding ${probe.headers['content-encoding'] ?? 'none'} to Accept-Encoding ${encoding}`)
	await fire(options, url, encoding, options.warmup)
	const before = await cpuMs()
	const client = process.cpuUsage()
	const result = await fire(options, url, encoding, options.duration)
	const clientUsage = process.cpuUsage(client)
	const after = await cpuMs()
	abort.signal.throwIfAborted()
	const requests = result.requests.total
	const row: Row = {
		round,
		group,
		target,
		page,
		encoding,
		reqPerSec: requests / result.duration,
		p50: result.latency.p50,
		p99: result.latency.p99,
		cpuMsPerRequest: requests ? (after - before) / requests : NaN,
		requests,
		// No answer at all within the run counts as a failure too: the page is slower than the run is long.
		failures: result.non2xx + result.errors + result.timeouts + (requests === 0 ? 1 : 0),
		clientCores: (clientUsage.user + clientUsage.system) / 1e6 / result.duration,
	}
	console.log(
		`  ${target.padEnd(34)} ${`${page.label} (${encoding})`.padEnd(18)} ${row.reqPerSec.toFixed(0).padStart(7)} req/s  p50 ${row.p50} ms  p99 ${row.p99} ms  CPU ${row.cpuMsPerRequest.toFixed(2)} ms/req  (client ${(row.clientCores * 100).toFixed(0)}% of a core)${failureText(row)}`,
	)
	return row
}

// ——— The app ———

interface ServerRun {
	database: BenchDatabase
	cache: 'uncached' | 'cached'
	service: Service
	startSeconds: number
	idleRssMb: number
	/** Set after the rounds: resident memory, and the server's own figures (kill -USR2: V8's heap, PGlite's WebAssembly memory). */
	rssMb?: number
	memory?: Record<string, number>
}

/** One server measured in every round: its pages, and how to read its CPU time. */
interface Target {
	group: Row['group']
	label: string
	origin: string
	pages: Page[]
	cpu: () => Promise<number>
}

/** CPU of the app: its process tree, and on PostgreSQL the backends serving the bench database. */
function appCpu(server: AppServer, database: { adminUrl: string; name: string } | undefined): () => Promise<number> {
	let backends = new Map<number, number>()
	let backendMs = 0
	return async () => {
		if (database) {
			const pids = await withAdminClient(database.adminUrl, async (client) =>
				(await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [database.name])).rows.map((row) => row.pid),
			)
			const now = processCpuMs(pids)
			// What each backend used since the last sample; one that exits in between takes its last share with it (rare: the pool keeps them).
			for (const [pid, ms] of now) backendMs += ms - (backends.get(pid) ?? 0)
			backends = now
		}
		return treeCpuMs([server.service.pid]) + backendMs
	}
}

interface PageBytes {
	page: Page
	encoding: Encoding
	body: Buffer
	headers: http.IncomingHttpHeaders
}

/**
 * Starts every app server the run measures (each database, the cache off and on), each on a data
 * directory or a PostgreSQL database of its own, all running at once; the cached one gives nginx its bytes.
 */
async function startApps(options: Options, basePages: Page[], runs: ServerRun[], bytes: PageBytes[], notes: string[]): Promise<Target[]> {
	const targets: Target[] = []
	for (const database of options.databases) {
		if (database === 'postgres') {
			try {
				await withAdminClient(options.adminUrl, (client) => client.query('select 1'))
			} catch (error) {
				const message = `PostgreSQL at ${new URL(options.adminUrl).host} is unreachable (${error instanceof Error ? error.message : error}); its rows are missing.`
				console.log(`\n${message}`)
				notes.push(message)
				continue
			}
		}
		for (const cache of ['uncached', 'cached'] as const) {
			abort.signal.throwIfAborted()
			let url: string | undefined
			let dbForCpu: { adminUrl: string; name: string } | undefined
			if (database === 'postgres') {
				const created = await createBenchDatabase(options.adminUrl)
				dbForCpu = { adminUrl: options.adminUrl, name: created.name }
				benchDatabases.push(dbForCpu)
				url = created.url
			}
			const label = `Ataa · ${DATABASE_LABEL[database]} · ${cache}`
			console.log(`\nStarting the production server (${DATABASE_LABEL[database]}, ${cache === 'uncached' ? 'HTML_CACHE=off' : 'HTML cache as configured by default'})…`)
			const dataDir = path.join(tempDir!, `${database}-${cache}-data`)
			const server = await startAppServer({ root, dataDir, databaseUrl: url, env: cache === 'uncached' ? { HTML_CACHE: 'off' } : {}, signal: abort.signal })
			console.log(`  answering after ${server.startSeconds.toFixed(1)} s, quiet ${server.settleSeconds.toFixed(1)} s later, ${server.idleRssMb.toFixed(0)} MB RSS idle`)
			// Each database has its own demo news, with ids of its own.
			const item = await firstLink(server.origin, '/news', /^\/news\/[^/]+$/)
			if (!item) throw new Error('/news links to no news item: is the demo content there?')
			const pages = [...basePages, { label: 'news item', path: item, peer: 'post' } satisfies Page]
			targets.push({ group: 'ataa', label, origin: server.origin, pages, cpu: appCpu(server, dbForCpu) })
			runs.push({ database, cache, service: server.service, startSeconds: server.startSeconds, idleRssMb: server.idleRssMb })
			if (cache === 'cached' && !bytes.length) {
				for (const encoding of options.encodings) {
					for (const page of pages) {
						const answer = await getRaw(server.origin + page.path, acceptEncoding(encoding))
						bytes.push({ page, encoding, body: answer.body, headers: answer.headers })
					}
				}
			}
		}
	}
	return targets
}

/** Asks each server for its memory figures (kill -USR2 logs them: app/bootstrap.server.ts), with its RSS. */
async function readMemory(runs: ServerRun[]): Promise<void> {
	for (const run of runs) {
		run.rssMb = treeRssMb(run.service.pid)
		run.service.child.kill('SIGUSR2')
		for (let waited = 0; waited < 3000 && !run.memory; waited += 100) {
			await new Promise((resolve) => setTimeout(resolve, 100))
			for (const line of run.service.log.slice(-50)) {
				const match = /"memory":(\{[^}]*\})/.exec(line)
				if (match) run.memory = JSON.parse(match[1]!) as Record<string, number>
			}
		}
	}
}

// ——— nginx and WordPress ———

/** Response headers the app sets on a page that nginx repeats (not those about the transfer itself). */
const TRANSFER_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'content-type', 'vary', 'set-cookie', 'etag', 'last-modified'])

/**
 * nginx's server block for the app's bytes: each page a file, its compressed forms next to it
 * (.br, .gz) served as they are with the same Content-Encoding, and the app's own headers.
 */
function staticSite(dir: string, bytes: PageBytes[], pages: Page[]): { block: string; http: string[]; notes: string[] } {
	const www = path.join(dir, 'www')
	fs.mkdirSync(www, { recursive: true, mode: 0o755 })
	const notes: string[] = []
	const fileOf = (page: Page) => `page-${pages.indexOf(page)}.html`
	for (const { page, encoding, body } of bytes) {
		fs.writeFileSync(path.join(www, `${fileOf(page)}${encoding === 'br' ? '.br' : '.gz'}`), body, { mode: 0o644 })
	}
	const headerSource = bytes[0]?.headers ?? {}
	const headers: string[] = []
	for (const [name, value] of Object.entries(headerSource)) {
		if (TRANSFER_HEADERS.has(name) || value === undefined) continue
		const quoted = nginxQuote(Array.isArray(value) ? value.join(', ') : value)
		if (quoted) headers.push(`add_header ${name} ${quoted};`)
		else notes.push(`nginx does not repeat the app's ${name} header (its value holds characters nginx would interpret)`)
	}
	const hasBrotliStatic = brotliModules().static !== undefined
	// Without nginx's brotli_static module, the .br files are chosen by the request's Accept-Encoding.
	const http = hasBrotliStatic
		? []
		: ['map $http_accept_encoding $ataa_suffix { default ""; "~*\\bbr\\b" ".br"; "~*\\bgzip\\b" ".gz"; }', 'map $ataa_suffix $ataa_encoding { default ""; ".br" br; ".gz" gzip; }']
	const block = [
		`root ${www};`,
		'charset utf-8;',
		'etag off;',
		...(hasBrotliStatic
			? ['brotli_static on;', 'gzip_static on;', 'add_header Vary Accept-Encoding;']
			: ['types { }', 'default_type text/html;', 'add_header Content-Encoding $ataa_encoding;', 'add_header Vary Accept-Encoding;']),
		...headers,
		...pages.map((page) => (hasBrotliStatic ? `location = ${page.path} { rewrite ^ /${fileOf(page)} break; }` : `location = ${page.path} { rewrite ^ /${fileOf(page)}$ataa_suffix break; }`)),
	].join('\n')
	if (!hasBrotliStatic) notes.push("nginx's brotli_static module is missing: the .br files are served by a map on Accept-Encoding, with the same bytes and headers")
	return { block, http, notes }
}

interface PeerFacts {
	nginx?: string
	wordpress?: string
	notes: string[]
}

/** Starts nginx with the app's bytes and, with `--peers all`, WordPress behind it: targets measured in the same rounds. */
async function startPeers(options: Options, bytes: PageBytes[]): Promise<{ facts: PeerFacts; targets: Target[] }> {
	const facts: PeerFacts = { notes: [] }
	const targets: Target[] = []
	if (options.peers === 'none') return { facts, targets }
	if (!bytes.length) {
		facts.notes.push('nginx and WordPress were not measured: no app server ran to give nginx its bytes.')
		return { facts, targets }
	}
	try {
		ensureDebianPackages(NGINX_PACKAGES, 'The nginx reference')
	} catch (error) {
		if (!(error instanceof PeerUnavailable)) throw error
		console.log(`\n${error.message}`)
		facts.notes.push(`nginx and WordPress were not measured: ${error.message}`)
		return { facts, targets }
	}
	const nginxVersion = versionOf(nginxBinary(), ['-v'], /nginx\/(\S+)/)
	const pages = [...new Set(bytes.map((item) => item.page))]
	const staticPort = await freePort()
	const site = staticSite(tempDir!, bytes, pages)
	facts.notes.push(...site.notes)
	const servers = [{ port: staticPort, block: site.block }]

	let fpm: { service: Service; version: string } | undefined
	let wordpressPort: number | undefined
	if (options.peers === 'all') {
		try {
			console.log('\nSetting up the WordPress peer (Debian packages, php-fpm, MariaDB)…')
			ensureDebianPackages(WORDPRESS_PACKAGES_FIRST, 'The WordPress peer')
			ensureDebianPackages(WORDPRESS_PACKAGES, 'The WordPress peer')
			abort.signal.throwIfAborted()
			const started = await startPhpFpm(tempDir!)
			fpm = started
			wordpressPort = await freePort()
			wordpress = setUpWordPress(tempDir!, `127.0.0.1:${wordpressPort}`)
			// The app's compression, done by nginx on WordPress's answers (Debian's stock nginx has gzip on).
			const compression = [...(brotliModules().filter ? ['brotli on;', `brotli_comp_level ${APP_COMPRESSION.brotliQuality};`] : []), 'gzip on;', `gzip_comp_level ${APP_COMPRESSION.gzipLevel};`].join(
				'\n',
			)
			servers.push({ port: wordpressPort, block: wordpressServerBlock(wordpress, started.socket, compression) })
			if (options.encodings.includes('br') && !brotliModules().filter) facts.notes.push("WordPress's pages are not brotli-compressed: nginx's brotli filter module is missing")
		} catch (error) {
			if (abort.signal.aborted) throw error
			const why = error instanceof Error ? error.message : String(error)
			console.log(`WordPress could not be set up here, so it is left out: ${why}`)
			facts.notes.push(`WordPress was not measured: ${why}`)
			if (fpm) await stopService(fpm.service)
			fpm = undefined
			wordpressPort = undefined
		}
	}

	abort.signal.throwIfAborted()
	const nginx = await startNginx(tempDir!, { workers: options.nginxWorkers, servers, brotliFilter: wordpressPort !== undefined, http: site.http })
	facts.nginx = `nginx ${nginxVersion} (${options.nginxWorkers} worker${options.nginxWorkers > 1 ? 's' : ''})`
	const staticOrigin = `http://127.0.0.1:${staticPort}`
	// Same bytes: what nginx sends must be byte for byte what the app sent.
	for (const { page, encoding, body } of bytes) {
		const answer = await getRaw(staticOrigin + page.path, acceptEncoding(encoding))
		if (answer.status !== 200 || !answer.body.equals(body) || answer.headers['content-encoding'] !== encoding)
			throw new Error(`nginx does not serve the app's bytes for ${page.path} (${encoding}): status ${answer.status}, ${answer.body.length} bytes`)
	}
	console.log(`\nnginx serving the app's bytes (${facts.nginx})`)
	targets.push({ group: 'nginx', label: 'nginx · same bytes', origin: staticOrigin, pages, cpu: async () => treeCpuMs([nginx.pid]) })

	if (wordpress && wordpressPort && fpm) {
		const origin = `http://127.0.0.1:${wordpressPort}`
		const home = await fetch(origin + '/', { signal: abort.signal, redirect: 'manual' })
		const html = await home.text()
		if (home.status !== 200 || !html.includes('صدور التقرير السنوي')) {
			throw new Error(`WordPress's home page answered ${home.status}${home.headers.get('location') ? ` → ${home.headers.get('location')}` : ''} without the bench's latest post: ${html.slice(0, 200)}`)
		}
		// Steady state, as a site that has been up a while: WordPress's first visits run its cron jobs
		// (spawned through wp-cron.php) and fill PHP's opcache; let that happen before measuring.
		await (await fetch(`${origin}/wp-cron.php`, { signal: abort.signal })).arrayBuffer()
		for (const pagePath of Object.values(wordpress.paths)) for (let visit = 0; visit < 5; visit++) await (await fetch(origin + pagePath, { signal: abort.signal })).arrayBuffer()
		const mariadb = pidsNamed(MARIADB_NAMES)
		facts.wordpress = `WordPress ${wordpress.version} (Debian's package, locale ${wordpress.locale}, theme ${wordpress.theme}, 12 posts), PHP ${fpm.version} php-fpm (Debian's stock pool: pm dynamic, 5 children at most), MariaDB ${wordpress.mariadbVersion}, behind the same nginx with brotli ${APP_COMPRESSION.brotliQuality} / gzip ${APP_COMPRESSION.gzipLevel}`
		console.log(`\n${facts.wordpress}`)
		const cpu = async () => treeCpuMs([nginx.pid, fpm.service.pid]) + [...processCpuMs(mariadb).values()].reduce((sum, ms) => sum + ms, 0)
		const peerPages: Page[] = [
			{ label: 'home', path: wordpress.paths.home, peer: 'home' },
			{ label: 'page', path: wordpress.paths.page, peer: 'page' },
			{ label: 'post', path: wordpress.paths.post, peer: 'post' },
		]
		targets.push({ group: 'wordpress', label: 'WordPress · stock', origin, pages: peerPages, cpu })
	}
	return { facts, targets }
}

/**
 * The paired rounds: in each, every page of every target in turn (Ataa's servers, nginx, WordPress),
 * so that a ratio compares figures taken minutes apart at most, under the same load.
 */
async function runRounds(options: Options, targets: Target[], rows: Row[], loads: string[]): Promise<void> {
	const kinds: { label: string; peer: Page['peer'] }[] = [
		{ label: 'home', peer: 'home' },
		{ label: 'about', peer: 'page' },
		{ label: 'news', peer: 'home' },
		{ label: 'news item', peer: 'post' },
	]
	for (let round = 1; round <= options.rounds; round++) {
		loads.push(loadNow())
		console.log(`\nRound ${round} of ${options.rounds} (load average ${loads.at(-1)})`)
		const wordpressDone = new Set<string>()
		for (const kind of kinds) {
			for (const target of targets) {
				// WordPress's home stands for both the home page and the news list: measured once a round.
				const page = target.group === 'wordpress' ? target.pages.find((candidate) => candidate.peer === kind.peer) : target.pages.find((candidate) => candidate.label === kind.label)
				if (!page || (target.group === 'wordpress' && wordpressDone.has(page.peer))) continue
				if (target.group === 'wordpress') wordpressDone.add(page.peer)
				for (const encoding of options.encodings) rows.push(await measure(options, round, target.group, target.label, target.origin, page, encoding, target.cpu))
			}
		}
	}
}

// ——— Report ———

const fixed = (value: number | undefined, digits: number) => (value === undefined || Number.isNaN(value) ? '—' : value.toFixed(digits))
const times = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? '—' : `${value >= 10 ? value.toFixed(0) : value.toFixed(2)}×`)

const median = (values: number[]) => {
	const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b)
	if (!sorted.length) return NaN
	const middle = Math.floor(sorted.length / 2)
	return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

interface Summary {
	/** The medians of the rounds (req/s, latency, CPU, client CPU); requests and failures summed. */
	row: Row
	rounds: number
	/** Ratios taken within each round, then their median: req/s against WordPress and nginx, and WordPress's CPU a request over ours. */
	vsWordPress?: number
	cpuVsWordPress?: number
	vsNginx?: number
}

/** One line per target and page: the medians of its rounds, each ratio taken within a round. */
function summarize(rows: Row[]): Summary[] {
	// A reference that answered nothing within the run has no req/s to compare with.
	const answered = (other: Row) => other.requests > 0
	const wordpressFor = (row: Row) =>
		rows.find((other) => other.round === row.round && other.group === 'wordpress' && other.page.peer === row.page.peer && other.encoding === row.encoding && answered(other))
	const nginxFor = (row: Row) => rows.find((other) => other.round === row.round && other.group === 'nginx' && other.page.label === row.page.label && other.encoding === row.encoding && answered(other))
	const groups = new Map<string, Row[]>()
	for (const row of rows) {
		const key = `${row.target}\n${row.page.label}\n${row.encoding}`
		groups.set(key, [...(groups.get(key) ?? []), row])
	}
	return [...groups.values()].map((group) => {
		const first = group[0]!
		const ratio = (of: (row: Row) => number | undefined) => {
			const values = group.map(of).filter((value): value is number => value !== undefined)
			return values.length ? median(values) : undefined
		}
		return {
			rounds: group.length,
			row: {
				...first,
				reqPerSec: median(group.map((row) => row.reqPerSec)),
				p50: median(group.map((row) => row.p50)),
				p99: median(group.map((row) => row.p99)),
				cpuMsPerRequest: median(group.map((row) => row.cpuMsPerRequest)),
				clientCores: median(group.map((row) => row.clientCores)),
				requests: group.reduce((sum, row) => sum + row.requests, 0),
				failures: group.reduce((sum, row) => sum + row.failures, 0),
			},
			vsWordPress: ratio((row) => {
				const peer = wordpressFor(row)
				return peer ? row.reqPerSec / peer.reqPerSec : undefined
			}),
			cpuVsWordPress: ratio((row) => {
				const peer = wordpressFor(row)
				return peer && row.cpuMsPerRequest > 0 ? peer.cpuMsPerRequest / row.cpuMsPerRequest : undefined
			}),
			vsNginx:
				first.group === 'wordpress'
					? undefined
					: ratio((row) => {
							const limit = nginxFor(row)
							return limit ? row.reqPerSec / limit.reqPerSec : undefined
						}),
		}
	})
}

function goalLines(all: Summary[], runs: ServerRun[], options: Options): string[][] {
	const encoding = options.encodings[0]!
	const mark = (ok: boolean | undefined) => (ok === undefined ? 'not measured' : ok ? '✓ met' : '✗ not met')
	const lines: string[][] = []
	// CPU per request moves less than req/s on a busy machine: the same comparison in CPU, as a cross-check.
	const wordpressCpu = (summary: Summary) => (summary.cpuVsWordPress === undefined ? '' : ` (CPU a request: ${times(summary.cpuVsWordPress)} less)`)
	for (const database of options.databases) {
		const label = DATABASE_LABEL[database]
		const home = all.find(({ row }) => row.group === 'ataa' && row.target.includes(label) && row.target.endsWith('uncached') && row.page.path === '/' && row.encoding === encoding)
		lines.push([
			`Home page uncached ≥ ${GOALS.homeVsWordPress}× WordPress's req/s (${label})`,
			home
				? `${fixed(home.row.reqPerSec, 0)} req/s${home.vsWordPress === undefined ? ', WordPress not measured' : ` = ${times(home.vsWordPress)} WordPress${wordpressCpu(home)}`}`
				: 'not measured',
			mark(home?.vsWordPress === undefined ? undefined : home.vsWordPress >= GOALS.homeVsWordPress),
		])
		lines.push([
			`Home page uncached ≤ ${GOALS.homeCpuMs} ms CPU a request (${label})`,
			home ? `${fixed(home.row.cpuMsPerRequest, 2)} ms` : 'not measured',
			mark(home ? home.row.cpuMsPerRequest <= GOALS.homeCpuMs : undefined),
		])
		const cached = all.filter(({ row }) => row.group === 'ataa' && row.target.includes(label) && row.target.endsWith('· cached') && row.encoding === encoding && Number.isFinite(row.reqPerSec))
		const compared = cached.filter((item) => item.vsNginx !== undefined)
		const worst = [...compared].sort((a, b) => a.vsNginx! - b.vsNginx!)[0]
		const percent = (ratio: number) => `${(ratio * 100).toFixed(ratio < 0.1 ? 1 : 0)}%`
		lines.push([
			`Public HTML cached ≥ ${GOALS.cachedVsNginx * 100}% of nginx's req/s, same bytes (${label})`,
			worst ? compared.map((item) => `${item.row.page.label} ${percent(item.vsNginx!)}`).join(', ') : 'not measured',
			mark(worst ? worst.vsNginx! >= GOALS.cachedVsNginx : undefined),
		])
		const rss = runs.filter((run) => run.database === database && run.rssMb !== undefined)
		const highest = rss.length ? Math.max(...rss.flatMap((run) => [run.rssMb!, run.idleRssMb])) : undefined
		const goal = GOALS.rssMb[database]
		lines.push([
			`Server RSS < ${goal} MB idle and after the rounds (${label})`,
			highest === undefined ? 'not measured' : `${highest.toFixed(0)} MB at most`,
			mark(highest === undefined ? undefined : highest < goal),
		])
	}
	return lines
}

function report(
	options: Options,
	rows: Row[],
	runs: ServerRun[],
	facts: { machine: string; date: string; loadAtStart: string; htmlCache: boolean; peers: PeerFacts; notes: string[]; revision: string; roundLoads: string[] },
): string {
	const summaries = summarize(rows)
	const multipleEncodings = options.encodings.length > 1
	const clientBound = (row: Row) => row.clientCores >= CLIENT_BOUND * (options.workers ?? 1)
	const boundNote = summaries.some(({ row }) => clientBound(row))
		? [
				`‡ autocannon itself used ${Math.round(CLIENT_BOUND * 100)}% of its ${options.workers ?? 1} thread${(options.workers ?? 1) > 1 ? 's' : ''} or more: that req/s is what the load generator could send, a floor of what the server can do (use \`--workers\` on a machine with cores to spare).`,
			]
		: []
	const header = ['target', 'page', ...(multipleEncodings ? ['encoding'] : []), 'CPU ms/req', '× WordPress (CPU)', 'req/s', '× WordPress (req/s)', '× nginx (req/s)', 'p50 ms', 'p99 ms', 'client CPU']
	const cells = summaries.map(({ row, vsWordPress, cpuVsWordPress, vsNginx }) => [
		row.target,
		row.group === 'ataa' || row.group === 'nginx' ? `\`${row.page.label === 'news item' ? '/news/<id>' : row.page.path}\`` : `${row.page.label} (\`${row.page.path}\`)`,
		...(multipleEncodings ? [row.encoding] : []),
		fixed(row.cpuMsPerRequest, 2),
		times(cpuVsWordPress),
		`${fixed(row.reqPerSec, 0)}${clientBound(row) ? ' ‡' : ''}${row.requests === 0 ? ' (✖ no answer in the run)' : row.failures ? ` (✖ ${row.failures} failed)` : ''}`,
		times(vsWordPress),
		times(vsNginx),
		String(row.p50),
		String(row.p99),
		`${(row.clientCores * 100).toFixed(0)}%`,
	])
	const loadAtEnd = loadNow()
	const run = `autocannon -c ${options.connections} -d ${options.duration} (after a ${options.warmup} s warm-up), Accept-Encoding: ${options.encodings.join(' / ')}`
	console.log(`\nAtaa HTTP benchmark: ${run}`)
	console.log(
		textTable(
			header,
			cells.map((line) => line.map((cell) => cell.replaceAll('`', ''))),
			multipleEncodings ? 3 : 2,
		)
			.map((line) => `  ${line}`)
			.join('\n'),
	)
	const goals = goalLines(summaries, runs, options)
	console.log('\nAgainst the goals:')
	console.log(
		textTable(['goal', 'today', 'status'], goals, 3)
			.map((line) => `  ${line}`)
			.join('\n'),
	)
	const memoryText = (memory: Record<string, number> | undefined) =>
		memory
			? `; of it V8's heap ${fixed(memory.heapUsedMb, 0)} MB used of ${fixed(memory.heapTotalMb, 0)}, buffers outside it ${fixed(memory.externalMb, 0)} MB${memory.pgliteWasmMb ? `, PGlite's WebAssembly memory ${fixed(memory.pgliteWasmMb, 0)} MB` : ''}`
			: '; its own figures not read (kill -USR2 gave no memory line)'
	const serverLines = runs.map(
		(item) =>
			`${DATABASE_LABEL[item.database]} ${item.cache}: ${item.idleRssMb.toFixed(0)} MB RSS idle, ${fixed(item.rssMb, 0)} MB after the rounds${memoryText(item.memory)} (answered ${item.startSeconds.toFixed(1)} s after spawn)`,
	)
	console.log(`\n  ${serverLines.join('\n  ')}`)
	for (const note of [...boundNote, ...facts.notes, ...facts.peers.notes]) console.log(`  note: ${note}`)

	const markdown = [
		'### HTTP throughput (`npm run bench:http`)',
		'',
		options.quick ? '**Quick smoke run (`--quick`): a check that the benchmark works, not figures to compare with the goals.**\n' : '',
		`Measured ${facts.date} on commit ${facts.revision} by \`${commandLine('bench:http')}\`: ${run}; the production server on a fresh data directory with the demo content.`,
		'',
		`Machine: ${facts.machine}; load average ${facts.loadAtStart} at the start, ${loadAtEnd} at the end; at the start of each round: ${facts.roundLoads.join('; ')}.`,
		'',
		`${options.rounds} paired round${options.rounds > 1 ? 's' : ''}: every server below ran at once, and each round measured each page on each of them in turn. Each figure is the median of the rounds; each ratio is taken within a round (against WordPress and nginx measured minutes apart at most, under the same load), then its median. CPU a request is the figure to trust on a shared machine; req/s moves with what else runs.`,
		'',
		`Peers in the same run: ${[facts.peers.nginx ? `${facts.peers.nginx} serving the app's own bytes (fetched once from the cached server) as files, with the same Content-Encoding and the app's headers` : 'nginx not measured', facts.peers.wordpress ?? 'WordPress not measured'].join('; ')}.`,
		'',
		facts.htmlCache
			? '"uncached" is a server started with `HTML_CACHE=off`; "cached" one with the default.'
			: '"uncached" is a server started with `HTML_CACHE=off`, "cached" one with the default; this build has no HTML page cache yet, so both are uncached.',
		'',
		markdownTable(
			header,
			cells,
			header.map((_, column) => (column < (multipleEncodings ? 3 : 2) ? 'l' : 'r')),
		),
		'',
		"CPU ms/req is the CPU time (user + system) of the serving processes during the measured seconds divided by the requests answered: the app server and its children, plus on PostgreSQL the backends of the bench database; nginx's master and workers; for WordPress nginx, php-fpm and the whole MariaDB server. × WordPress compares with WordPress's home (for `/` and `/news`), its page (for `/about`) or a post (for a news item); × nginx with nginx serving the same page's bytes. × WordPress (CPU) is WordPress's CPU a request over ours. Client CPU is autocannon's own CPU during the run, in % of one core: near 100%, the load generator, not the server, set the pace.",
		'',
		'Against the goals:',
		'',
		markdownTable(['goal', 'today', 'status'], goals, ['l', 'l', 'l']),
		'',
		...serverLines.map((line) => `- ${line}`),
		...[...boundNote, ...facts.notes, ...facts.peers.notes].map((note) => `- ${note.startsWith('‡') ? note : `Note: ${note}`}`),
	]
	return markdown.filter((line, index, all) => !(line === '' && all[index - 1] === '')).join('\n')
}

// ——— Main ———

async function main(options: Options): Promise<boolean> {
	buildIfNeeded()
	// The commit measured: the one built now, not whatever is checked out when the run ends.
	const revision = gitRevision(root)
	const machine = machineFacts()
	tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-bench-http-'))
	// nginx's workers and php-fpm's children (www-data) read the files and the socket in here.
	fs.chmodSync(tempDir, 0o755)
	const htmlCache = buildKnowsHtmlCache(root)
	console.log(`Ataa HTTP benchmark on ${machine.line}; load average ${machine.loadAtStart}`)
	// nginx is the yardstick of the cached figures: without it (and without --peers none) the run stops here, saying how to fix it.
	if (options.peers !== 'none') ensureDebianPackages(NGINX_PACKAGES, 'The nginx reference (--peers none leaves it out)')
	if (!htmlCache) console.log('This build has no HTML page cache switch (HTML_CACHE) yet: the "cached" runs are uncached too.')
	const pages: Page[] = [
		{ label: 'home', path: '/', peer: 'home' },
		{ label: 'about', path: '/about', peer: 'page' },
		{ label: 'news', path: '/news', peer: 'home' },
	]
	const rows: Row[] = []
	const runs: ServerRun[] = []
	const bytes: PageBytes[] = []
	const notes: string[] = []
	const roundLoads: string[] = []
	const apps = await startApps(options, pages, runs, bytes, notes)
	const peers = await startPeers(options, bytes)
	await runRounds(options, [...apps, ...peers.targets], rows, roundLoads)
	await readMemory(runs)
	await stopAll()
	const markdown = report(options, rows, runs, { machine: machine.line, date: machine.date, loadAtStart: machine.loadAtStart, htmlCache, peers: peers.facts, notes, revision, roundLoads })
	if (options.doc) console.log(`\nWritten to ${path.relative(process.cwd(), writeDocSection(root, 'bench:http', markdown)) || 'docs/performance.md'}`)
	return rows.every((row) => row.failures === 0)
}

runBenchmark({
	readOptions,
	timeoutSeconds: (options) => options.timeoutSeconds,
	main,
	cleanUp,
	abort,
	onAbort: () => {
		cannon.stop()
	},
	quiet: (error) => error instanceof PeerUnavailable,
})
