// Paged public lists against the number of items: the news list (its first and its last page) and a
// news item, drawn by the production server with the page cache off, first with the demo content (12
// news items), then with 10,000 more added to the same database. A list read a page at a time
// (drizzle/0033) costs the same at both; one that read every item would grow with them.
//   npm run bench:lists -- [--items 10000] [--runs 100] [--only pglite|postgres] [--database postgres://…] [--timeout 1200]
// Prints server time (Server-Timing) p50/p95 per page and count, and the ratio of the two. Only talks
// to 127.0.0.1; the data directory and the bench database are removed at the end.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { sql } from 'drizzle-orm'
import { openDatabase, type DatabaseHandle } from '#app/db/client.server.ts'
import { buildIfNeeded } from './build-if-needed.mjs'
import { firstLink, startAppServer } from './lib/bench-app.ts'
import { adminDatabaseUrl, DATABASE_LABEL, databasesToRun, positiveInt, type BenchDatabase } from './lib/bench-options.ts'
import { createBenchDatabase, dropBenchDatabase } from './lib/bench-postgres.ts'
import { stopAll, stopService } from './lib/bench-processes.ts'
import { runBenchmark } from './lib/bench-run.ts'
import { timings, type Timings } from './lib/case-list-searches.ts'
import { gitRevision, machineFacts, loadNow, markdownTable } from './lib/perf-doc.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

interface Options {
	items: number
	runs: number
	databases: BenchDatabase[]
	adminUrl: string
	timeoutSeconds: number
}

function readOptions(): Options {
	const { values } = parseArgs({
		args: process.argv.slice(2),
		options: { items: { type: 'string' }, runs: { type: 'string' }, only: { type: 'string' }, database: { type: 'string' }, timeout: { type: 'string' } },
	})
	return {
		items: positiveInt('--items', values.items, 10_000),
		runs: positiveInt('--runs', values.runs, 100),
		databases: databasesToRun(values.only),
		adminUrl: adminDatabaseUrl(values.database),
		timeoutSeconds: positiveInt('--timeout', values.timeout, 1200),
	}
}

const abort = new AbortController()
const tempDirs: string[] = []
const benchDatabases: { adminUrl: string; name: string }[] = []
let handle: DatabaseHandle | undefined

async function cleanUp(): Promise<void> {
	await stopAll()
	await handle?.close().catch(() => {})
	for (const { adminUrl, name } of benchDatabases.splice(0)) await dropBenchDatabase(adminUrl, name).catch(() => {})
	for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
}

const serverTime = (response: Response) => Number(response.headers.get('server-timing')?.match(/(?:^|,)\s*app;dur=([\d.]+)/)?.[1] ?? NaN)

interface Measured {
	lastPage: number
	pages: { label: string; path: string; server: Timings; bytes: number }[]
}

/** Starts the server (cache off), times each page `runs` times one request at a time, and stops it. */
async function measure(where: { dataDir: string; url?: string }, runs: number, knownLastPage?: number): Promise<Measured> {
	const server = await startAppServer({ root, dataDir: where.dataDir, databaseUrl: where.url, env: { HTML_CACHE: 'off' }, signal: abort.signal })
	try {
		const html = await (await fetch(`${server.origin}/news`)).text()
		// With the demo's two pages the paginator links them all; after the items added, their count says.
		const lastPage = knownLastPage ?? Math.max(1, ...[...html.matchAll(/[?&](?:amp;)?page=(\d+)/g)].map((match) => Number(match[1])))
		const item = await firstLink(server.origin, '/news', /^\/news\/[^/]+$/)
		const pages = [
			{ label: 'news list, page 1', path: '/news' },
			{ label: 'news list, last page', path: `/news?page=${lastPage}` },
			{ label: 'a news item', path: item ?? '/news' },
			{ label: 'home', path: '/' },
		]
		const result: Measured['pages'] = []
		for (const page of pages) {
			const times: number[] = []
			let bytes = 0
			for (let run = 0; run < runs + 5; run++) {
				const response = await fetch(server.origin + page.path, { headers: { 'Accept-Encoding': 'br' }, signal: abort.signal })
				const body = await response.arrayBuffer()
				if (response.status !== 200) throw new Error(`${page.path} answered ${response.status}`)
				// The first five warm it up.
				if (run >= 5) times.push(serverTime(response))
				bytes = body.byteLength
			}
			result.push({ ...page, server: timings(times), bytes })
		}
		return { lastPage, pages: result }
	} finally {
		await stopService(server.service)
	}
}

/** `count` news items (nine in ten published), dated over ten years, as staff would have added them; gives the news list's number of pages after. */
async function addNews(where: { dataDir: string; url?: string }, count: number): Promise<number> {
	handle = await openDatabase(where.url ? { url: where.url } : { dataDir: path.join(where.dataDir, 'pgdata') })
	await handle.db.execute(sql`
		insert into content_entries (type, data, search, author_name, views)
		select 'news',
			jsonb_build_object('title', 'خبر رقم ' || i, 'NewsDate', to_char(date '2016-01-01' + (i % 3650), 'YYYY-MM-DD'),
				'details', '<p>' || repeat('نص الخبر وتفاصيله عن برامج المؤسسة وأنشطتها. ', 20) || '</p>', 'IsPublish', (i % 10) <> 0),
			'خبر رقم ' || i || ' ' || repeat('نص الخبر وتفاصيله عن برامج المؤسسة وانشطتها ', 20), 'إدارة الإعلام', i % 500
		from generate_series(1, ${count}) as i`)
	await handle.db.execute(sql`analyze content_entries`)
	const published = await handle.db.execute<{ n: number }>(
		sql`select count(*)::int as n from content_entries where type = 'news' and deleted_at is null and (data -> 'IsPublish')::boolean is true`,
	)
	await handle.close()
	handle = undefined
	return Math.ceil(Number(published.rows[0]!.n) / 6)
}

async function main(options: Options): Promise<boolean> {
	buildIfNeeded()
	// The commit measured: the one built now, not whatever is checked out when the run ends.
	const revision = gitRevision(root)
	const machine = machineFacts()
	console.log(`Paged lists against their number of items, on ${machine.line}; load average ${machine.loadAtStart}`)
	const rows: string[][] = []
	for (const database of options.databases) {
		const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-bench-lists-'))
		tempDirs.push(dataDir)
		let url: string | undefined
		if (database === 'postgres') {
			const created = await createBenchDatabase(options.adminUrl)
			benchDatabases.push({ adminUrl: options.adminUrl, name: created.name })
			url = created.url
		}
		const where = { dataDir, url }
		console.log(`\n${DATABASE_LABEL[database]}: the demo content…`)
		const few = await measure(where, options.runs)
		console.log(`Adding ${options.items.toLocaleString('en')} news items (nine in ten published)…`)
		const lastPage = await addNews(where, options.items)
		const many = await measure(where, options.runs, lastPage)
		for (const [index, page] of few.pages.entries()) {
			const after = many.pages[index]!
			rows.push([
				DATABASE_LABEL[database],
				page.label,
				`${page.server.p50.toFixed(1)} / ${page.server.p95.toFixed(1)}`,
				`${after.server.p50.toFixed(1)} / ${after.server.p95.toFixed(1)}`,
				`${(after.server.p50 / page.server.p50).toFixed(2)}×`,
			])
			console.log(`  ${page.label.padEnd(22)} demo: p50 ${page.server.p50.toFixed(1)} ms p95 ${page.server.p95.toFixed(1)} ms; more news: p50 ${after.server.p50.toFixed(1)} ms p95 ${after.server.p95.toFixed(1)} ms`)
		}
		rows.push([DATABASE_LABEL[database], 'pages of the news list', String(few.lastPage), String(many.lastPage), ''])
	}
	console.log(`\nMeasured ${machine.date} on commit ${revision}; load average ${machine.loadAtStart} at the start, ${loadNow()} at the end. Server ms (Server-Timing), p50 / p95 of ${options.runs} requests one at a time, page cache off:\n`)
	console.log(markdownTable(['database', 'page', 'demo content', `+${options.items.toLocaleString('en')} news items`, 'ratio (p50)'], rows, ['l', 'l', 'r', 'r', 'r']))
	return true
}

runBenchmark({ readOptions, timeoutSeconds: (options) => options.timeoutSeconds, main, cleanUp, abort })
