// Lighthouse on every public template: one URL per template of the public site (app/routes.ts),
// Lighthouse 12's default (mobile) configuration in Debian's Chromium, N runs each (3 by default),
// the median of each score and of LCP, FCP, TBT and CLS, and the JavaScript each page downloads.
// Optionally WordPress's home and a post (the same stock Debian peer as bench:http) for comparison.
// Writes the figures to docs/performance.md.
//   npm run bench:lighthouse -- [--quick] [--runs 3] [--only /,/about,…] [--peers] [--timeout 3600] [--no-doc]
// Env fallbacks: BENCH_RUNS, CHROMIUM_PATH (default /usr/bin/chromium).
// Only ever talks to 127.0.0.1; the server, Chromium, nginx, php-fpm and their data are removed at the end.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import type { Result as LighthouseResult } from 'lighthouse'
import { documentCategories } from '#app/content/types.ts'
import { buildIfNeeded } from './build-if-needed.mjs'
import { ensureChromium } from './lib/test-machine.mjs'
import { firstLink, startAppServer } from './lib/bench-app.ts'
import { positiveInt, UsageError } from './lib/bench-options.ts'
import {
	ensureDebianPackages,
	NGINX_PACKAGES,
	PeerUnavailable,
	setUpWordPress,
	startNginx,
	startPhpFpm,
	WORDPRESS_PACKAGES,
	WORDPRESS_PACKAGES_FIRST,
	wordpressServerBlock,
	type WordPressSite,
} from './lib/bench-peers.ts'
import { stopAll, treeRssMb } from './lib/bench-processes.ts'
import { runBenchmark } from './lib/bench-run.ts'
import { freePort } from './lib/free-port.ts'
import { commandLine, gitRevision, loadNow, machineFacts, markdownTable, textTable, writeDocSection } from './lib/perf-doc.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync']
const GOALS = { score: 100, lcpSeconds: 1.0, loginJsKiB: 20, rssMb: 300 }

/**
 * What a template is for the goals: content pages carry no JavaScript; the home page's slider and
 * /login are allowed some; forms and the 404 page are reported only.
 */
type Kind = 'home' | 'content' | 'form' | 'login' | 'error'

interface Template {
	name: string
	path: string
	kind: Kind
}

/** One URL per public template (app/routes.ts); the ones with an id are found on the running site. */
async function templates(origin: string): Promise<Template[]> {
	const found = async (page: string, pattern: RegExp, what: string) => {
		const link = await firstLink(origin, page, pattern)
		if (!link) throw new Error(`${page} links to no ${what}: is the demo content there?`)
		return link
	}
	return [
		{ name: 'home', path: '/', kind: 'home' },
		{ name: 'about', path: '/about', kind: 'content' },
		{ name: 'contact', path: '/contact', kind: 'form' },
		{ name: 'services', path: '/services', kind: 'content' },
		{ name: 'service', path: await found('/services', /^\/services\/[^/]+$/, 'service'), kind: 'content' },
		{ name: 'news list', path: '/news', kind: 'content' },
		{ name: 'news item', path: await found('/news', /^\/news\/[^/]+$/, 'news item'), kind: 'content' },
		{ name: 'gallery', path: '/gallery', kind: 'content' },
		{ name: 'album', path: await found('/gallery', /^\/gallery\/(?!videos$)[^/]+$/, 'album'), kind: 'content' },
		{ name: 'videos', path: '/gallery/videos', kind: 'content' },
		{ name: 'documents library', path: documentCategories[0].path, kind: 'content' },
		{ name: 'basic regulation', path: '/basic-regulation', kind: 'content' },
		{ name: 'board members', path: '/board-members', kind: 'content' },
		{ name: 'committees', path: '/committees', kind: 'content' },
		{ name: 'image page', path: '/jobs', kind: 'content' },
		{ name: 'chairman speech', path: '/chairman-speech', kind: 'content' },
		{ name: 'visual identity', path: '/visual-identity', kind: 'content' },
		{ name: 'referrer form', path: '/apply/referrer-form', kind: 'content' },
		{ name: 'apply', path: '/apply', kind: 'form' },
		{ name: 'application form', path: '/apply/needy-families', kind: 'form' },
		{ name: 'status lookup', path: '/apply/status', kind: 'form' },
		{ name: 'login', path: '/login', kind: 'login' },
		{ name: 'institution login', path: '/account/login', kind: 'form' },
		{ name: '404', path: '/no-such-page', kind: 'error' },
	]
}

interface Options {
	runs: number
	quick: boolean
	only: string[] | undefined
	peers: boolean
	timeoutSeconds: number
	doc: boolean
}

function readOptions(): Options {
	const { values } = parseArgs({
		args: process.argv.slice(2),
		options: {
			quick: { type: 'boolean', default: false },
			runs: { type: 'string' },
			only: { type: 'string' },
			peers: { type: 'boolean', default: false },
			timeout: { type: 'string' },
			'no-doc': { type: 'boolean', default: false },
		},
	})
	const only = values.only
		?.split(',')
		.map((item) => item.trim())
		.filter(Boolean)
	if (only && !only.length) throw new UsageError('--only takes template names or paths separated by commas, e.g. --only /,/about,news item')
	return {
		quick: values.quick,
		runs: positiveInt('--runs', values.runs ?? process.env.BENCH_RUNS, values.quick ? 1 : 3),
		only,
		peers: values.peers,
		timeoutSeconds: positiveInt('--timeout', values.timeout, 3600),
		doc: !values['no-doc'],
	}
}

// ——— Run-wide state, kept here so that cleanup can reach it from any exit path ———

const abort = new AbortController()
let tempDir: string | undefined
let chrome: chromeLauncher.LaunchedChrome | undefined
let wordpress: WordPressSite | undefined

async function cleanUp(): Promise<void> {
	const browser = chrome
	const site = wordpress
	chrome = undefined
	wordpress = undefined
	const steps: [string, () => void | Promise<void>][] = [
		['stop Chromium', () => browser?.kill()],
		['stop the servers', stopAll],
		['remove the WordPress database and config', () => site?.tearDown()],
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

interface Run {
	scores: Record<(typeof CATEGORIES)[number], number>
	lcp: number
	fcp: number
	tbt: number
	cls: number
	jsBytes: number
	benchmarkIndex: number
}

interface Measured {
	template: Template
	target: 'ataa' | 'wordpress'
	runs: Run[]
	errors: string[]
	/** Bytes of JavaScript written into the HTML (<script> without src), which Lighthouse's transfer sizes leave out. */
	inlineJsBytes: number
}

/** The JavaScript inside the page's HTML: the text of its <script> elements without src (JSON data blocks excluded). */
async function inlineJsBytes(url: string): Promise<number> {
	const html = await (await fetch(url, { signal: abort.signal })).text()
	let bytes = 0
	for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
		const attributes = match[1] ?? ''
		if (/\ssrc\s*=/i.test(attributes)) continue
		const type = attributes.match(/\stype\s*=\s*["']?([^"'\s>]+)/i)?.[1]?.toLowerCase()
		if (type && !['module', 'text/javascript', 'application/javascript'].includes(type)) continue
		bytes += Buffer.byteLength(match[2] ?? '')
	}
	return bytes
}

function runOf(lhr: LighthouseResult): Run {
	const score = (id: (typeof CATEGORIES)[number]) => Math.round((lhr.categories[id]?.score ?? NaN) * 100)
	const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN
	const items = (lhr.audits['resource-summary']?.details as { items?: { resourceType: string; transferSize: number }[] } | undefined)?.items ?? []
	return {
		scores: { performance: score('performance'), accessibility: score('accessibility'), 'best-practices': score('best-practices'), seo: score('seo') },
		lcp: numeric('largest-contentful-paint') / 1000,
		fcp: numeric('first-contentful-paint') / 1000,
		tbt: numeric('total-blocking-time'),
		cls: numeric('cumulative-layout-shift'),
		jsBytes: items.find((item) => item.resourceType === 'script')?.transferSize ?? 0,
		benchmarkIndex: lhr.environment.benchmarkIndex,
	}
}

async function audit(url: string, template: Template): Promise<Run> {
	abort.signal.throwIfAborted()
	const result = await lighthouse(url, {
		port: chrome!.port,
		output: 'json',
		logLevel: 'error',
		onlyCategories: [...CATEGORIES],
		// The 404 template answers 404 on purpose: audit the page anyway.
		ignoreStatusCode: template.kind === 'error',
	})
	if (!result) throw new Error('Lighthouse returned nothing')
	const { lhr } = result
	if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`)
	return runOf(lhr)
}

/** Lighthouse sometimes fails to record a trace on a busy machine (NO_NAVSTART, …) and says to run it again: a run gets 3 attempts. */
const ATTEMPTS = 3

async function measure(options: Options, origin: string, template: Template, target: Measured['target']): Promise<Measured> {
	const measured: Measured = { template, target, runs: [], errors: [], inlineJsBytes: await inlineJsBytes(origin + template.path) }
	for (let run = 0; run < options.runs; run++) {
		for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
			try {
				measured.runs.push(await audit(origin + template.path, template))
				break
			} catch (error) {
				if (abort.signal.aborted) throw error
				if (attempt === ATTEMPTS) measured.errors.push(error instanceof Error ? error.message : String(error))
			}
		}
	}
	const median = summary(measured)
	console.log(
		`  ${`${target === 'wordpress' ? 'WordPress ' : ''}${template.name}`.padEnd(22)} ${template.path.slice(0, 40).padEnd(41)} ${median ? `${median.scores.join('/')}  LCP ${median.lcp} s  FCP ${median.fcp} s  TBT ${median.tbt} ms  CLS ${median.cls}  JS ${median.js} KiB + ${(measured.inlineJsBytes / 1024).toFixed(1)} KiB inline` : ''}${measured.errors.length ? `  ✖ ${measured.errors.length} failed: ${measured.errors[0]}` : ''}`,
	)
	return measured
}

function median(values: number[]): number {
	const sorted = values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b)
	if (!sorted.length) return NaN
	const middle = Math.floor(sorted.length / 2)
	return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** The median of each figure over the runs, formatted; undefined when every run failed. */
function summary(measured: Measured) {
	const { runs } = measured
	if (!runs.length) return undefined
	const of = (pick: (run: Run) => number) => median(runs.map(pick))
	return {
		scores: CATEGORIES.map((category) => of((run) => run.scores[category]).toFixed(0)),
		values: {
			scores: CATEGORIES.map((category) => of((run) => run.scores[category])),
			lcp: of((run) => run.lcp),
			/** Downloaded and inline, KiB. */
			js: (of((run) => run.jsBytes) + measured.inlineJsBytes) / 1024,
		},
		lcp: of((run) => run.lcp).toFixed(2),
		fcp: of((run) => run.fcp).toFixed(2),
		tbt: of((run) => run.tbt).toFixed(0),
		cls: of((run) => run.cls).toFixed(3),
		js: (of((run) => run.jsBytes) / 1024).toFixed(1),
		inlineJs: (measured.inlineJsBytes / 1024).toFixed(1),
	}
}

// ——— WordPress, for comparison ———

async function wordpressOrigin(notes: string[]): Promise<{ origin: string; paths: WordPressSite['paths'] } | undefined> {
	try {
		console.log('\nSetting up the WordPress peer (Debian packages, php-fpm, MariaDB, nginx)…')
		ensureDebianPackages(NGINX_PACKAGES, 'The WordPress peer')
		ensureDebianPackages(WORDPRESS_PACKAGES_FIRST, 'The WordPress peer')
		ensureDebianPackages(WORDPRESS_PACKAGES, 'The WordPress peer')
		abort.signal.throwIfAborted()
		const fpm = await startPhpFpm(tempDir!)
		const port = await freePort()
		wordpress = setUpWordPress(tempDir!, `127.0.0.1:${port}`)
		const block = wordpressServerBlock(wordpress, fpm.socket, ['brotli on;', 'brotli_comp_level 3;', 'gzip on;', 'gzip_comp_level 3;'].join('\n'))
		await startNginx(tempDir!, { workers: 1, servers: [{ port, block }], brotliFilter: true })
		notes.push(
			`WordPress ${wordpress.version} (Debian's package, locale ${wordpress.locale}, theme ${wordpress.theme}, 12 Arabic posts), PHP ${fpm.version} php-fpm, MariaDB ${wordpress.mariadbVersion}, behind nginx with brotli 3 / gzip 3`,
		)
		return { origin: `http://127.0.0.1:${port}`, paths: wordpress.paths }
	} catch (error) {
		if (abort.signal.aborted) throw error
		const why = error instanceof Error ? error.message : String(error)
		if (!(error instanceof PeerUnavailable)) console.error(error)
		console.log(`WordPress could not be set up here, so it is left out: ${why}`)
		notes.push(`WordPress was not measured: ${why}`)
		return undefined
	}
}

// ——— Report ———

function report(options: Options, results: Measured[], facts: { machine: string; date: string; loadAtStart: string; chromium: string; rssMb: number; notes: string[]; revision: string }): string {
	const header = ['template', 'URL', 'perf', 'a11y', 'best pr.', 'SEO', 'LCP s', 'FCP s', 'TBT ms', 'CLS', 'JS KiB', 'inline JS KiB']
	const rows = results.map((measured) => {
		const median = summary(measured)
		const name = `${measured.target === 'wordpress' ? 'WordPress: ' : ''}${measured.template.name}`
		const failed = measured.errors.length ? ` (✖ ${measured.errors.length} of ${options.runs} runs failed)` : ''
		if (!median) return [`${name}${failed}`, `\`${measured.template.path}\``, '—', '—', '—', '—', '—', '—', '—', '—', '—', (measured.inlineJsBytes / 1024).toFixed(1)]
		return [`${name}${failed}`, `\`${measured.template.path}\``, ...median.scores, median.lcp, median.fcp, median.tbt, median.cls, median.js, median.inlineJs]
	})
	const ours = results.filter((measured) => measured.target === 'ataa')
	const medians = ours.map((measured) => ({ measured, median: summary(measured) }))
	const missing = medians.filter((item) => !item.median).map((item) => item.measured.template.name)
	const measuredOnes = medians.filter((item) => item.median)
	const mark = (ok: boolean) => (ok ? '✓ met' : '✗ not met')
	const perfect = measuredOnes.filter((item) => item.median!.values.scores.every((score) => score >= GOALS.score))
	const notPerfect = measuredOnes.filter((item) => !perfect.includes(item))
	const slowLcp = measuredOnes.filter((item) => item.median!.values.lcp > GOALS.lcpSeconds)
	const worstLcp = measuredOnes.reduce<(typeof measuredOnes)[number] | undefined>((worst, item) => (!worst || item.median!.values.lcp > worst.median!.values.lcp ? item : worst), undefined)
	const contentWithJs = measuredOnes.filter((item) => item.measured.template.kind === 'content' && item.median!.values.js > 0)
	const login = measuredOnes.find((item) => item.measured.template.kind === 'login')
	const incomplete = missing.length ? ` (${missing.join(', ')} not measured)` : ''
	const goals = [
		[
			'Lighthouse mobile 100/100/100/100 on every public template',
			`${perfect.length} of ${ours.length} templates${notPerfect.length ? `; below 100: ${notPerfect.map((item) => `${item.measured.template.name} ${item.median!.scores.join('/')}`).join(', ')}` : ''}${incomplete}`,
			mark(perfect.length === ours.length),
		],
		[
			`LCP ≤ ${GOALS.lcpSeconds.toFixed(1)} s on every public template`,
			`${measuredOnes.length - slowLcp.length} of ${ours.length} templates${worstLcp ? `; slowest ${worstLcp.measured.template.name} ${worstLcp.median!.lcp} s` : ''}${incomplete}`,
			mark(slowLcp.length === 0 && !missing.length),
		],
		[
			'No JavaScript on content pages',
			contentWithJs.length
				? `JavaScript on ${contentWithJs.map((item) => `${item.measured.template.name} (${item.median!.values.js.toFixed(1)} KiB)`).join(', ')}`
				: `none on the ${measuredOnes.filter((item) => item.measured.template.kind === 'content').length} content templates`,
			mark(contentWithJs.length === 0),
		],
		[
			`/login ≤ ${GOALS.loginJsKiB} KiB of JavaScript, or none`,
			login ? `${login.median!.values.js.toFixed(1)} KiB` : 'not measured',
			login ? mark(login.median!.values.js <= GOALS.loginJsKiB) : 'not measured',
		],
		[`Server RSS < ${GOALS.rssMb} MB after the benchmark (PGlite)`, `${facts.rssMb.toFixed(0)} MB`, mark(facts.rssMb < GOALS.rssMb)],
	]
	const benchmarkIndex = median(results.flatMap((measured) => measured.runs.map((run) => run.benchmarkIndex)))
	const how = `Lighthouse 12.8.2, default (mobile) configuration with its simulated throttling, ${facts.chromium} headless; median of ${options.runs} run${options.runs > 1 ? 's' : ''} per template; Lighthouse's benchmark index of this machine ${benchmarkIndex.toFixed(0)} (median)`
	console.log(`\nAtaa Lighthouse benchmark: ${how}`)
	console.log(
		textTable(
			header,
			rows.map((row) => row.map((cell) => cell.replaceAll('`', ''))),
			2,
		)
			.map((line) => `  ${line}`)
			.join('\n'),
	)
	console.log('\nAgainst the goals:')
	console.log(
		textTable(['goal', 'today', 'status'], goals, 3)
			.map((line) => `  ${line}`)
			.join('\n'),
	)
	for (const note of facts.notes) console.log(`  note: ${note}`)
	const markdown = [
		'### Lighthouse (`npm run bench:lighthouse`)',
		'',
		options.quick ? '**Quick smoke run (`--quick`): a check that the benchmark works, not figures to compare with the goals.**\n' : '',
		`Measured ${facts.date} on commit ${facts.revision} by \`${commandLine('bench:lighthouse')}\`: ${how}. The production server on a fresh data directory with the demo content (PGlite, HTML cache as by default).`,
		'',
		`Machine: ${facts.machine}; load average ${facts.loadAtStart} at the start, ${loadNow()} at the end.`,
		'',
		markdownTable(
			header,
			rows,
			header.map((_, column) => (column < 2 ? 'l' : 'r')),
		),
		'',
		'JS KiB is the JavaScript the page downloads (transferred, compressed); inline JS KiB the script written into its HTML (uncompressed), which the JavaScript goals count too. The 404 template is audited although it answers 404 (`ignoreStatusCode`), so its SEO score counts that status against it.',
		'',
		'Against the goals:',
		'',
		markdownTable(['goal', 'today', 'status'], goals, ['l', 'l', 'l']),
		'',
		...facts.notes.map((note) => `- Note: ${note}`),
	]
	return markdown.filter((line, index, all) => !(line === '' && all[index - 1] === '')).join('\n')
}

// ——— Main ———

async function main(options: Options): Promise<boolean> {
	buildIfNeeded()
	// The commit measured: the one built now, not whatever is checked out when the run ends.
	const revision = gitRevision(root)
	const machine = machineFacts()
	tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-bench-lighthouse-'))
	// nginx's workers and php-fpm's children (www-data) read the files and the socket in here.
	fs.chmodSync(tempDir, 0o755)
	console.log(`Ataa Lighthouse benchmark on ${machine.line}; load average ${machine.loadAtStart}`)
	// As npm test finds it, but the whole browser, not the tests' headless shell: CHROMIUM_PATH, else
	// Debian's chromium, installed with apt-get when missing.
	const noChromium = ensureChromium({ full: true })
	if (noChromium) throw new UsageError(noChromium)
	const chromePath = process.env.CHROMIUM_PATH!
	console.log('Starting the production server (PGlite)…')
	const server = await startAppServer({ root, dataDir: path.join(tempDir, 'data'), databaseUrl: undefined, signal: abort.signal })
	console.log(`  answering after ${server.startSeconds.toFixed(1)} s`)
	let list = await templates(server.origin)
	if (options.only) {
		const wanted = options.only
		list = list.filter((template) => wanted.includes(template.name) || wanted.includes(template.path))
		if (!list.length) throw new UsageError(`--only matched no template; templates: ${(await templates(server.origin)).map((template) => template.name).join(', ')}`)
	}
	const notes: string[] = []
	const peer = options.peers ? await wordpressOrigin(notes) : undefined
	abort.signal.throwIfAborted()
	chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS, handleSIGINT: false, logLevel: 'silent' })
	const chromium = (await (await fetch(`http://127.0.0.1:${chrome.port}/json/version`)).json()) as { Browser?: string }
	console.log(`\n${chromium.Browser ?? 'Chromium'}: ${list.length} templates × ${options.runs} run${options.runs > 1 ? 's' : ''}`)
	const results: Measured[] = []
	for (const template of list) results.push(await measure(options, server.origin, template, 'ataa'))
	if (peer) {
		console.log('')
		for (const template of [
			{ name: 'home', path: peer.paths.home, kind: 'home' },
			{ name: 'post', path: peer.paths.post, kind: 'content' },
		] satisfies Template[]) {
			results.push(await measure(options, peer.origin, template, 'wordpress'))
		}
	}
	const rssMb = treeRssMb(server.service.pid)
	chrome.kill()
	chrome = undefined
	await stopAll()
	const markdown = report(options, results, {
		machine: machine.line,
		date: machine.date,
		loadAtStart: machine.loadAtStart,
		chromium: chromium.Browser ?? 'Chromium',
		rssMb,
		notes,
		revision,
	})
	if (options.doc) console.log(`\nWritten to ${path.relative(process.cwd(), writeDocSection(root, 'bench:lighthouse', markdown)) || 'docs/performance.md'}`)
	return results.every((measured) => measured.errors.length === 0)
}

runBenchmark({
	readOptions,
	timeoutSeconds: (options) => options.timeoutSeconds,
	main,
	cleanUp,
	abort,
	// A Lighthouse run in progress does not watch the abort signal: Chromium's end ends it.
	onAbort: () => {
		chrome?.kill()
	},
})
