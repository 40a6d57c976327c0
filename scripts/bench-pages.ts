// Page-weight benchmark: what a visitor on a phone downloads for each public page, from a cold cache,
// against a production build with the demo content. Bytes are what crossed the wire (compressed).
//   npm run bench:pages -- [--json]
// Only ever talks to this machine; the server and its temporary data are removed at the end.
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { chromium, type Browser } from '@playwright/test'
import { sectionPages } from '#app/site/site-map.ts'
import { buildIfNeeded } from './build-if-needed.mjs'
import { freePort } from './lib/free-port.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
// The first start seeds the demo content before it answers (its pictures are encoded later).
const HEALTH_TIMEOUT_MS = 180_000
const KINDS = ['document', 'stylesheet', 'font', 'image', 'script', 'other'] as const
type Kind = (typeof KINDS)[number]

interface PageWeight {
	path: string
	status: number
	requests: number
	bytes: Record<Kind, number>
	total: number
	/** Hosts other than ours that the page contacted on its own (should be none). */
	thirdParty: string[]
}

const pages = [...new Set(['/', '/about', '/contact', '/services', '/services/needy-families', '/apply/needy-families', '/login', ...sectionPages.map((page) => page.path)])]

async function waitForHealth(origin: string): Promise<void> {
	const deadline = Date.now() + HEALTH_TIMEOUT_MS
	for (;;) {
		try {
			const response = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(2_000) })
			await response.arrayBuffer()
			if (response.status === 200) return
		} catch {
			// Not listening yet.
		}
		if (Date.now() > deadline) throw new Error(`the server did not answer /healthz within ${HEALTH_TIMEOUT_MS / 1000} s`)
		await new Promise((resolve) => setTimeout(resolve, 250))
	}
}

async function weigh(browser: Browser, origin: string, pagePath: string): Promise<PageWeight> {
	// A new context per page: a cold cache, as a first visit from a search result.
	const context = await browser.newContext({ viewport: { width: 375, height: 800 }, deviceScaleFactor: 2, locale: 'ar-SA' })
	const page = await context.newPage()
	const bytes = Object.fromEntries(KINDS.map((kind) => [kind, 0])) as Record<Kind, number>
	const thirdParty = new Set<string>()
	let requests = 0
	const pending: Promise<void>[] = []
	page.on('requestfinished', (request) => {
		pending.push(
			(async () => {
				const url = new URL(request.url())
				if (url.origin !== origin) thirdParty.add(url.host)
				const sizes = await request.sizes()
				const type = request.resourceType()
				const kind: Kind = (KINDS as readonly string[]).includes(type) ? (type as Kind) : 'other'
				bytes[kind] += sizes.responseBodySize + sizes.responseHeadersSize
				requests++
			})(),
		)
	})
	const response = await page.goto(origin + pagePath, { waitUntil: 'load' })
	// Lazy images below the fold are not part of the first view; let what the first view asked for finish.
	await page.waitForLoadState('networkidle')
	await Promise.all(pending)
	await context.close()
	return { path: pagePath, status: response?.status() ?? 0, requests, bytes, total: Object.values(bytes).reduce((sum, value) => sum + value, 0), thirdParty: [...thirdParty] }
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1)

function report(results: PageWeight[]): boolean {
	const header = ['page', 'status', 'requests', 'html', 'css', 'font', 'images', 'js', 'other', 'total KiB']
	const rows = results.map((result) => [
		result.path,
		String(result.status),
		String(result.requests),
		kb(result.bytes.document),
		kb(result.bytes.stylesheet),
		kb(result.bytes.font),
		kb(result.bytes.image),
		kb(result.bytes.script),
		kb(result.bytes.other),
		kb(result.total),
	])
	const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)))
	const line = (cells: string[]) => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ')
	console.log('\nAtaa page weight (375px, DPR 2, cold cache, production build, demo content; KiB as transferred)\n')
	console.log(line(header))
	for (const row of rows) console.log(line(row))
	const withoutJs = results.filter((result) => result.bytes.script === 0).length
	const heaviest = results.reduce((max, result) => (result.total > max.total ? result : max))
	console.log(`\n  pages with no JavaScript   ${withoutJs} of ${results.length}`)
	console.log(`  most JavaScript            ${kb(Math.max(...results.map((result) => result.bytes.script)))} KiB`)
	console.log(`  heaviest page              ${heaviest.path} (${kb(heaviest.total)} KiB)`)
	const failures = results.filter((result) => result.status !== 200 || result.thirdParty.length > 0)
	for (const failure of failures) console.error(`  ✖ ${failure.path}: status ${failure.status}${failure.thirdParty.length ? `, contacted ${failure.thirdParty.join(', ')}` : ''}`)
	return failures.length === 0
}

async function main(): Promise<boolean> {
	const { values } = parseArgs({ options: { json: { type: 'boolean', default: false } } })
	buildIfNeeded()
	const port = await freePort()
	const origin = `http://127.0.0.1:${port}`
	// tests/e2e/serve.mjs runs the production server on a temporary data directory and removes it when stopped.
	const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port) }
	// The embedded database, always: an inherited DATABASE_URL must not point the bench at someone's data.
	delete env.DATABASE_URL
	const server = spawn(process.execPath, [path.join(root, 'tests/e2e/serve.mjs')], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] })
	const exited = new Promise((resolve) => server.once('exit', resolve))
	let browser: Browser | undefined
	try {
		console.log(`Starting the production server on ${origin}…`)
		await waitForHealth(origin)
		browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' })
		const results: PageWeight[] = []
		for (const pagePath of pages) results.push(await weigh(browser, origin, pagePath))
		if (values.json) console.log(JSON.stringify(results, null, 2))
		return report(results)
	} finally {
		await browser?.close()
		server.kill('SIGTERM')
		await exited
	}
}

main().then(
	(ok) => process.exit(ok ? 0 : 1),
	(error: unknown) => {
		console.error(error instanceof Error ? error.message : error)
		process.exit(1)
	},
)
