// The production server as the HTTP and Lighthouse benchmarks run it: `node server.mjs` on a free
// loopback port, a data directory of the bench's own, PGlite or a throw-away PostgreSQL database.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { startService, stopService, treeRssMb, waitForHttp, waitUntilQuiet, type Service } from './bench-processes.ts'
import { freePort } from './free-port.ts'

// The first start draws and encodes the demo images before it answers (about a minute; more on a busy machine).
const HEALTH_TIMEOUT_MS = 300_000

export interface AppServer {
	origin: string
	service: Service
	/** Seconds from spawn to the first 200 from /healthz. */
	startSeconds: number
	/** Seconds from then until the server went quiet (the demo pictures' variants made in the background). */
	settleSeconds: number
	/** Resident memory once quiet, before any request of the benchmark (MB). */
	idleRssMb: number
}

export interface AppServerOptions {
	root: string
	dataDir: string
	/** A PostgreSQL database for this run; PGlite in `dataDir` when undefined. */
	databaseUrl: string | undefined
	/** Extra variables (HTML_CACHE=off); the ones not given here are not inherited either. */
	env?: Record<string, string>
	signal?: AbortSignal
	/**
	 * Whether to wait, once it answers, until the server has gone quiet (default: yes). A benchmark
	 * measures a settled server; a test needs only one that answers, and a busy machine may keep the
	 * server from settling for long.
	 */
	settle?: boolean
}

/** Variables the bench sets itself: an inherited value must not change what is measured. */
const CONTROLLED = ['DATABASE_URL', 'HTML_CACHE', 'SMTP_URL', 'SMS_URL', 'SMS_PROVIDER', 'APPLICANT_VERIFICATION', 'PORT', 'DATA_DIR', 'APP_ORIGIN', 'TRUST_PROXY', 'NODE_ENV']

export async function startAppServer(options: AppServerOptions): Promise<AppServer> {
	const port = await freePort()
	const env: NodeJS.ProcessEnv = { ...process.env }
	for (const name of CONTROLLED) delete env[name]
	Object.assign(env, {
		PORT: String(port),
		DATA_DIR: options.dataDir,
		// The address the bench opens; production refuses to start without a public origin.
		APP_ORIGIN: `http://127.0.0.1:${port}`,
		// A staff account nobody signs in with: the seed would otherwise print a generated password.
		ADMIN_EMAIL: 'bench@ataa.local',
		ADMIN_PASSWORD: randomBytes(18).toString('base64url'),
		// As a foundation runs it: no demo cases, applicants' files encrypted under the operator's key.
		NODE_ENV: 'production',
		FILE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
		// As `npm start` runs the server (docs/performance.md, memory): two malloc arenas, not eight a core.
		MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
		// No SMS provider here: applicants' links open without a code (a test that wants codes sets a fake provider and `on`).
		APPLICANT_VERIFICATION: 'off',
		...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
		...options.env,
	})
	fs.mkdirSync(options.dataDir, { recursive: true })
	options.signal?.throwIfAborted()
	const started = performance.now()
	// BENCH_NODE_ARGS: flags for the server's node, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile what is measured.
	const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)
	const service = startService('the app server', process.execPath, [...nodeArgs, path.join(options.root, 'server.mjs')], { cwd: options.root, env })
	const origin = `http://127.0.0.1:${port}`
	try {
		await waitForHttp(`${origin}/healthz`, service, HEALTH_TIMEOUT_MS, options.signal)
		const startSeconds = (performance.now() - started) / 1000
		const settleSeconds = options.settle === false ? 0 : await waitUntilQuiet(service.pid, { timeoutMs: HEALTH_TIMEOUT_MS, service, signal: options.signal })
		return { origin, service, startSeconds, settleSeconds, idleRssMb: treeRssMb(service.pid) }
	} catch (error) {
		await stopService(service)
		const log = service.log.slice(-20).join('\n  ')
		throw new Error(`${error instanceof Error ? error.message : error}${log ? `\n  ${log}` : ''}`)
	}
}

/** Whether this build reads HTML_CACHE (the HTML page cache's switch); before it exists, every run is uncached. */
export function buildKnowsHtmlCache(root: string): boolean {
	const dir = path.join(root, 'build/server')
	const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'))
	return files.some((file) => fs.readFileSync(path.join(dir, file), 'utf8').includes('HTML_CACHE'))
}

/** The first link on `pagePath` whose path matches `pattern` (a news item, a service, an album). */
export async function firstLink(origin: string, pagePath: string, pattern: RegExp): Promise<string | undefined> {
	const response = await fetch(origin + pagePath)
	const html = await response.text()
	for (const match of html.matchAll(/href="([^"#?]+)"/g)) {
		const href = match[1]!
		if (pattern.test(href)) return href
	}
	return undefined
}
