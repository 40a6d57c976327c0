// Benchmark of the verified-mobile round trip (docs/security.md#verified-mobile) on a production build:
// N applicants at once prove their mobile with a code sent by SMS, without JavaScript, against
// `node server.mjs` with APPLICANT_VERIFICATION=on and a fake SMS gateway (tests/fakes/sms-providers.ts),
// on PGlite and on a new PostgreSQL database. Two journeys, each with every applicant at once:
//   1. first: the first section posted (POST /apply/<type>/new) makes the case and sends the code in
//      the same request (app/routes/apply/new.tsx), then redirects to /apply/r/<token>/verify; the
//      applicant opens that page, types the code from the SMS, and opens the private page with the
//      cookie it was given.
//   2. new browser: the same cases on browsers that have not proved the mobile: the private link
//      redirects to /verify; the applicant asks for a code (intent=send-code), types it, opens the page.
// Per applicant: the sending post's server time (Server-Timing) and client time, the SMS's delivery
// (from the sending post's start to the gateway receiving it), the code's post, the private page, and
// the whole round trip (the sending post's start → 200 on the private page with the cookie).
//   npm run bench:verify -- [--applicants 50] [--type needy-families] [--only pglite|postgres]
//     [--database postgres://postgres@127.0.0.1:5432/postgres] [--timeout 600]
// Prints the figures and a Markdown table to paste. Exits 1 unless every applicant got through both journeys.
// Only ever talks to this machine; the server, the fake gateway, their data and the bench database are removed at the end.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import type { ApplicationDef } from '#app/forms/definition.ts'
import { applicationDefinitions, findDefinition } from '#app/forms/registry.ts'
import { startFakeSmsProvider, type FakeSmsMessage, type FakeSmsProvider } from '#tests/fakes/sms-providers.ts'
import { buildIfNeeded } from './build-if-needed.mjs'
import { answersFor, excerptOf, form, inputsOf, ms, percentile, serverTime, sortedOf } from './lib/apply-client.ts'
import { startAppServer, type AppServer } from './lib/bench-app.ts'
import { adminDatabaseUrl, DATABASE_LABEL, databasesToRun, positiveInt, UsageError, type BenchDatabase } from './lib/bench-options.ts'
import { createBenchDatabase, dropBenchDatabase } from './lib/bench-postgres.ts'
import { stopAll, stopService, treeRssMb } from './lib/bench-processes.ts'
import { runBenchmark } from './lib/bench-run.ts'
import { commandLine, gitRevision, loadNow, machineFacts, markdownTable, textTable } from './lib/perf-doc.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const DEFAULT_TYPE = 'needy-families'
const REQUEST_TIMEOUT_MS = 60_000
/** How long an applicant waits for the SMS after the sending post has answered. */
const SMS_TIMEOUT_MS = 30_000

interface Options {
	definition: ApplicationDef
	applicants: number
	databases: BenchDatabase[]
	adminUrl: string
	timeoutSeconds: number
}

function readOptions(): Options {
	const { values } = parseArgs({
		args: process.argv.slice(2),
		options: {
			applicants: { type: 'string' },
			type: { type: 'string' },
			only: { type: 'string' },
			database: { type: 'string' },
			timeout: { type: 'string' },
		},
	})
	const type = values.type || process.env.BENCH_TYPE || DEFAULT_TYPE
	const definition = findDefinition(type)
	if (!definition) throw new UsageError(`--type must be one of ${applicationDefinitions.map((known) => known.type).join(', ')} (got "${type}")`)
	// The code is sent when the case is made: the mobile must be asked on the first step.
	if (!definition.sections[0]!.fields.some((field) => field.name === definition.applicant.mobile)) {
		throw new UsageError(`--type ${type}: its first section does not ask for the mobile, so starting it sends no code`)
	}
	return {
		definition,
		applicants: positiveInt('--applicants', values.applicants ?? process.env.BENCH_APPLICANTS, 50),
		databases: databasesToRun(values.only ?? process.env.BENCH_ONLY),
		adminUrl: adminDatabaseUrl(values.database),
		timeoutSeconds: positiveInt('--timeout', values.timeout ?? process.env.BENCH_TIMEOUT, 600),
	}
}

// ——— Run-wide state, kept here so that cleanup can reach it from any exit path ———

const abort = new AbortController()
let tempDir: string | undefined
let benchDatabase: { adminUrl: string; name: string } | undefined
let fake: FakeSmsProvider | undefined

async function cleanUp(): Promise<void> {
	const steps: [string, () => Promise<void>][] = [
		['stop the server', stopAll],
		[
			'stop the fake SMS gateway',
			async () => {
				const open = fake
				fake = undefined
				await open?.close()
			},
		],
		[
			'drop the bench database',
			async () => {
				if (!benchDatabase) return
				const { adminUrl, name } = benchDatabase
				benchDatabase = undefined
				await dropBenchDatabase(adminUrl, name)
			},
		],
		['remove the temp dir', async () => void (tempDir && fs.rmSync(tempDir, { recursive: true, force: true }))],
	]
	for (const [what, step] of steps) {
		try {
			await step()
		} catch (error) {
			console.error(`Cleanup: could not ${what}:`, error instanceof Error ? error.message : error)
		}
	}
}

// ——— One applicant's browser ———

/** One request and its answer as the browser saw it. */
interface Exchange {
	status: number
	location: string
	/** From the request's start to the end of the answer's body. */
	clientMs: number
	/** The server's own time to its headers (Server-Timing), NaN if it sent none. */
	serverMs: number
	text: string
	setCookies: string[]
}

/** A browser without JavaScript: its own address, its cookies, no redirect followed unseen. */
class Browser {
	private readonly cookies = new Map<string, string>()
	readonly origin: string
	readonly ip: string

	constructor(origin: string, ip: string) {
		this.origin = origin
		this.ip = ip
	}

	has(name: RegExp): boolean {
		return [...this.cookies.keys()].some((cookie) => name.test(cookie))
	}

	async request(method: 'GET' | 'POST', url: string, body?: URLSearchParams): Promise<Exchange> {
		const headers: Record<string, string> = { 'X-Forwarded-For': this.ip }
		// A form post from our own page carries our origin (the app refuses cross-site posts).
		if (method === 'POST') headers.Origin = this.origin
		if (this.cookies.size) headers.Cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
		const started = performance.now()
		let exchange: Exchange
		try {
			const response = await fetch(`${this.origin}${url}`, { method, body, headers, redirect: 'manual', signal: AbortSignal.any([abort.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]) })
			const text = await response.text()
			exchange = {
				status: response.status,
				location: response.headers.get('location') ?? '',
				clientMs: performance.now() - started,
				serverMs: serverTime(response),
				text,
				setCookies: response.headers.getSetCookie(),
			}
		} catch (error) {
			abort.signal.throwIfAborted()
			const text = `request failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`
			exchange = { status: 0, location: '', clientMs: performance.now() - started, serverMs: NaN, text, setCookies: [] }
		}
		for (const line of exchange.setCookies) {
			const [pair = ''] = line.split(';')
			const equals = pair.indexOf('=')
			if (equals <= 0) continue
			const name = pair.slice(0, equals).trim()
			const value = pair.slice(equals + 1).trim()
			const expired = /;\s*max-age=0(?:;|$)/i.test(line) || /;\s*expires=Thu, 01 Jan 1970/i.test(line) || value === ''
			if (expired) this.cookies.delete(name)
			else this.cookies.set(name, value)
		}
		return exchange
	}
}

type JourneyName = 'first' | 'new browser'

interface Journey {
	index: number
	/** 9665XXXXXXXX: the number the gateway is asked to send to. */
	to: string
	token: string | undefined
	/** The post that sends the code: the first section's (first), or intent=send-code (new browser). */
	send: Exchange | undefined
	/** From the sending post's start to the gateway receiving the SMS (NaN: none came). */
	smsMs: number
	confirm: Exchange | undefined
	/** The private page opened with the cookie the code gave. */
	open: Exchange | undefined
	/** The sending post's start → the private page's 200 with the cookie. */
	roundTripMs: number
	/** Why this applicant did not get through; undefined when it did. */
	failure: string | undefined
}

/** The code in the SMS (app/verify/codes.server.ts codeText): «رمز التحقق: 123456 … #123456». */
function codeIn(text: string): string | undefined {
	return (/#(\d{6})\s*$/.exec(text) ?? /رمز التحقق:\s*(\d{6})/.exec(text))?.[1]
}

const isRedirect = (status: number) => status === 302 || status === 303
const pathOf = (location: string, origin: string) => (location ? new URL(location, origin).pathname : '')
const said = (exchange: Exchange) => `HTTP ${exchange.status || '-'}${exchange.location ? ` → ${exchange.location}` : ''} ${excerptOf(exchange.text)}`

/**
 * Waits for the next SMS to `to` that carries a code. Registered before the sending post starts, so
 * the time is taken the moment the fake gateway (in this process) accepts the message.
 */
function nextCode(gateway: FakeSmsProvider, to: string, started: number): Promise<{ message: FakeSmsMessage; ms: number } | { error: string }> {
	const before = gateway.messages.length
	return gateway
		.waitForMessage((message) => message.to === to && codeIn(message.text) !== undefined && gateway.messages.indexOf(message) >= before, REQUEST_TIMEOUT_MS + SMS_TIMEOUT_MS)
		.then(
			(message) => ({ message, ms: performance.now() - started }),
			(error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
		)
}

/**
 * One applicant's journey. `first`: starts the case, whose post sends the code. `new browser`: the
 * case's private link on a browser without the cookie, which asks for a code itself.
 */
async function runJourney(
	name: JourneyName,
	definition: ApplicationDef,
	gateway: FakeSmsProvider,
	origin: string,
	index: number,
	mobile: string,
	values: Record<string, unknown>,
	token?: string,
): Promise<Journey> {
	// Each applicant its own address (the per-address limits count families); another one on the new browser.
	const browser = new Browser(origin, `10.${name === 'first' ? 1 : 2}.${(index >> 8) & 255}.${index & 255}`)
	const to = `966${mobile.slice(1)}`
	const journey: Journey = { index, to, token, send: undefined, smsMs: NaN, confirm: undefined, open: undefined, roundTripMs: NaN, failure: undefined }
	const fail = (why: string) => {
		journey.failure = why
		return journey
	}
	const verifyPath = () => `/apply/r/${journey.token}/verify`

	let started: number
	let sms: ReturnType<typeof nextCode>
	if (name === 'first') {
		started = performance.now()
		sms = nextCode(gateway, to, started)
		journey.send = await browser.request('POST', `/apply/${definition.type}/new`, form({}, inputsOf(definition.sections[0]!.fields, values)))
		// With codes on, the new case's link opens only after the code: the start redirects to /verify.
		const created = /^\/apply\/r\/([A-Za-z0-9_-]+)\/verify$/.exec(pathOf(journey.send.location, origin))
		if (!isRedirect(journey.send.status) || !created) return fail(`start: ${said(journey.send)}`)
		journey.token = created[1]!
		// The browser follows the redirect: the page asking for the code sent.
		const page = await browser.request('GET', verifyPath())
		if (page.status !== 200 || !page.text.includes('name="code"')) return fail(`verify page after the start: ${said(page)}`)
	} else {
		// The private link on a browser that has not proved the mobile: sent to prove it.
		const link = await browser.request('GET', `/apply/r/${token}`)
		if (!isRedirect(link.status) || pathOf(link.location, origin) !== verifyPath()) return fail(`private link without the cookie: ${said(link)}`)
		const page = await browser.request('GET', verifyPath())
		if (page.status !== 200 || !page.text.includes('value="send-code"')) return fail(`verify page: ${said(page)}`)
		started = performance.now()
		sms = nextCode(gateway, to, started)
		journey.send = await browser.request('POST', verifyPath(), form({ intent: 'send-code' }))
		// The same page, now asking for the code.
		if (journey.send.status !== 200 || !journey.send.text.includes('name="code"')) return fail(`send-code: ${said(journey.send)}`)
	}

	const arrived = await sms
	if ('error' in arrived) return fail(`no SMS: ${arrived.error}`)
	journey.smsMs = arrived.ms
	const code = codeIn(arrived.message.text)!
	journey.confirm = await browser.request('POST', verifyPath(), form({ intent: 'check-code', code }))
	if (!isRedirect(journey.confirm.status) || pathOf(journey.confirm.location, origin) !== `/apply/r/${journey.token}`) return fail(`code: ${said(journey.confirm)}`)
	if (!browser.has(/ataa_verified$/)) return fail(`code: no cookie remembering the browser (Set-Cookie: ${journey.confirm.setCookies.map((line) => line.split('=')[0]).join(', ') || 'none'})`)
	journey.open = await browser.request('GET', `/apply/r/${journey.token}`)
	if (journey.open.status !== 200) return fail(`private page with the cookie: ${said(journey.open)}`)
	journey.roundTripMs = performance.now() - started
	return journey
}

// ——— Report ———


interface Phase {
	name: JourneyName
	journeys: Journey[]
	wallMs: number
	rssAfterMb: number
}

interface DatabaseRun {
	database: BenchDatabase
	startSeconds: number
	idleRssMb: number
	loadAtStart: string
	loadAtEnd: string
	phases: Phase[]
	smsReceived: number
}

/** The figures of a journey, each over the applicants that got that far. */
const FIGURES: { label: string; of: (journey: Journey) => number }[] = [
	{ label: 'send server', of: (journey) => journey.send?.serverMs ?? NaN },
	{ label: 'send client', of: (journey) => journey.send?.clientMs ?? NaN },
	{ label: 'SMS delivered', of: (journey) => journey.smsMs },
	{ label: 'code server', of: (journey) => journey.confirm?.serverMs ?? NaN },
	{ label: 'code client', of: (journey) => journey.confirm?.clientMs ?? NaN },
	{ label: 'page server', of: (journey) => journey.open?.serverMs ?? NaN },
	{ label: 'page client', of: (journey) => journey.open?.clientMs ?? NaN },
	{ label: 'round trip', of: (journey) => journey.roundTripMs },
]

function statsOf(phase: Phase, of: (journey: Journey) => number) {
	const sorted = sortedOf(phase.journeys.map(of))
	return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) ?? NaN }
}

const completed = (phase: Phase) => phase.journeys.filter((journey) => !journey.failure).length

function printRun(run: DatabaseRun, applicants: number, serverLog: string[]): boolean {
	const lines = [
		'',
		`${DATABASE_LABEL[run.database]}: answering ${run.startSeconds.toFixed(1)} s after spawn, ${run.idleRssMb.toFixed(0)} MB RSS idle; load average ${run.loadAtStart} → ${run.loadAtEnd}`,
	]
	let ok = true
	for (const phase of run.phases) {
		ok &&= completed(phase) === applicants
		lines.push(
			'',
			`  ${phase.name}: ${completed(phase)}/${applicants} verified in ${(phase.wallMs / 1000).toFixed(2)} s, ${phase.rssAfterMb.toFixed(0)} MB RSS after`,
			...textTable(
				['ms', 'p50', 'p95', 'max'],
				FIGURES.map(({ label, of }) => {
					const stats = statsOf(phase, of)
					return [label, ms(stats.p50), ms(stats.p95), ms(stats.max)]
				}),
			).map((line) => `    ${line}`),
		)
		const failed = phase.journeys.filter((journey) => journey.failure)
		if (failed.length) {
			lines.push('', '    Failed (first 10):')
			for (const journey of failed.slice(0, 10)) lines.push(`      #${journey.index} ${journey.failure}`)
		}
	}
	lines.push('', `  SMS received by the fake gateway: ${run.smsReceived} (${run.phases.length * applicants} codes asked for)`)
	if (!ok && serverLog.length) lines.push('', '  Server output (last 40 lines):', ...serverLog.slice(-40).map((line) => `    ${line}`))
	console.log(lines.join('\n'))
	return ok
}

function markdownOf(options: Options, runs: DatabaseRun[], facts: { machine: string; date: string; loadAtStart: string; loadAtEnd: string; revision: string }): string {
	const cell = (phase: Phase, of: (journey: Journey) => number) => {
		const stats = statsOf(phase, of)
		return `${ms(stats.p50)} / ${ms(stats.p95)} / ${ms(stats.max)}`
	}
	const rows = runs.flatMap((run) =>
		run.phases.map((phase) => [
			DATABASE_LABEL[run.database],
			phase.name,
			`${completed(phase)}/${phase.journeys.length}`,
			...FIGURES.map(({ of }) => cell(phase, of)),
			(phase.wallMs / 1000).toFixed(2),
			phase.rssAfterMb.toFixed(0),
		]),
	)
	return [
		'### Verified mobile (`npm run bench:verify`)',
		'',
		`Measured ${facts.date} on ${facts.machine}; load average ${facts.loadAtStart} at the start, ${facts.loadAtEnd} at the end; commit ${facts.revision}.`,
		'',
		`Command: \`${commandLine('bench:verify')}\``,
		'',
		`${options.applicants} applicants at once (${options.definition.type}), each with its own national ID, mobile and address, without JavaScript, against the production server with \`APPLICANT_VERIFICATION=on\` and a fake SMS gateway (\`SMS_PROVIDER=http\`) on this machine. **first**: the first section's post makes the case and sends the code in the same request, then the browser opens the page asking for it, posts the code from the SMS and opens its private page with the cookie it was given. **new browser**: the same cases on browsers without that cookie: the link redirects to the code page, the applicant asks for a code (\`intent=send-code\`), posts it and opens the page. Each cell is p50 / p95 / max in ms. *send* is the post that sends the code (the first section's, or send-code); *SMS delivered* runs from that post's start to the gateway receiving the message; *code* is the post of the code; *page* the private page opened with the cookie; *round trip* from the sending post's start to that page's 200. Server ms is the server's own time to its answer's headers (its \`Server-Timing\`); client ms adds the network and the body.`,
		'',
		markdownTable(['database', 'journey', 'verified', ...FIGURES.map(({ label }) => `${label} ms`), 'wall s', 'RSS after MB'], rows),
		'',
		`Idle, before the first request: ${runs.map((run) => `${DATABASE_LABEL[run.database]} ${run.idleRssMb.toFixed(0)} MB`).join(', ')}. Load average per database (1/5/15 min, start → end): ${runs.map((run) => `${DATABASE_LABEL[run.database]} ${run.loadAtStart} → ${run.loadAtEnd}`).join('; ')}.`,
	].join('\n')
}

// ——— Main ———

let stopping = false

async function measureOn(options: Options, database: BenchDatabase): Promise<{ run: DatabaseRun; ok: boolean }> {
	const loadAtStart = loadNow()
	let url: string | undefined
	if (database === 'postgres') {
		const created = await createBenchDatabase(options.adminUrl)
		benchDatabase = { adminUrl: options.adminUrl, name: created.name }
		url = created.url
	}
	fake = await startFakeSmsProvider('http')
	const gateway = fake
	const dataDir = path.join(tempDir!, `${database}-data`)
	console.log(
		`\nStarting the production server on ${DATABASE_LABEL[database]}${benchDatabase ? ` (${benchDatabase.name}, dropped afterwards)` : ''}, codes on, SMS to a fake gateway at ${gateway.url}…`,
	)
	// Each applicant has an address of its own (X-Forwarded-For), so the per-address limits count families.
	const server: AppServer = await startAppServer({ root, dataDir, databaseUrl: url, env: { APPLICANT_VERIFICATION: 'on', TRUST_PROXY: 'true', ...gateway.env }, signal: abort.signal })
	console.log(`  answering after ${server.startSeconds.toFixed(1)} s, quiet ${server.settleSeconds.toFixed(1)} s later (${server.idleRssMb.toFixed(0)} MB RSS)`)
	// The server going away mid-run is a failure, not a wait for timeouts.
	void server.service.exited.then(({ code, signal }) => {
		if (!abort.signal.aborted && !stopping) abort.abort(new Error(`the server exited unexpectedly (code ${code}, signal ${signal})`))
	})

	// Each applicant its own national ID (answersFor) and its own mobile: codes are limited per mobile and per ID.
	const usedIds = new Set<string>()
	const first = options.definition.sections[0]!
	const applicants = Array.from({ length: options.applicants }, (_, offset) => {
		const index = offset + 1
		const mobile = `05${String(50_000_000 + index).padStart(8, '0')}`
		const values = { ...answersFor(options.definition, index, usedIds).answers[first.key], [options.definition.applicant.mobile]: mobile }
		return { index, mobile, values }
	})

	const phases: Phase[] = []
	const run = async (name: JourneyName, tokens: (string | undefined)[]) => {
		console.log(`  ${name}: ${options.applicants} applicants at once…`)
		const started = performance.now()
		const journeys = await Promise.all(
			applicants.map((applicant, position) => {
				const token = tokens[position]
				if (name === 'new browser' && !token) {
					const journey: Journey = {
						index: applicant.index,
						to: '',
						token,
						send: undefined,
						smsMs: NaN,
						confirm: undefined,
						open: undefined,
						roundTripMs: NaN,
						failure: 'no case from the first journey',
					}
					return journey
				}
				return runJourney(name, options.definition, gateway, server.origin, applicant.index, applicant.mobile, applicant.values, token)
			}),
		)
		abort.signal.throwIfAborted()
		phases.push({ name, journeys, wallMs: performance.now() - started, rssAfterMb: treeRssMb(server.service.pid) })
		return journeys
	}
	const firsts = await run('first', [])
	await run(
		'new browser',
		firsts.map((journey) => (journey.failure ? undefined : journey.token)),
	)

	const serverLog = [...server.service.log]
	stopping = true
	await stopService(server.service)
	stopping = false
	if (server.service.exit?.code !== 0) console.error(`Note: the server did not exit cleanly on SIGTERM (code ${server.service.exit?.code}, signal ${server.service.exit?.signal}).`)
	const smsReceived = gateway.messages.length
	fake = undefined
	await gateway.close()
	if (benchDatabase) {
		const { adminUrl, name } = benchDatabase
		benchDatabase = undefined
		await dropBenchDatabase(adminUrl, name)
	}
	const result: DatabaseRun = { database, startSeconds: server.startSeconds, idleRssMb: server.idleRssMb, loadAtStart, loadAtEnd: loadNow(), phases, smsReceived }
	return { run: result, ok: printRun(result, options.applicants, serverLog) }
}

async function main(options: Options): Promise<boolean> {
	buildIfNeeded()
	// The commit measured: the one built now, not whatever is checked out when the run ends.
	const revision = gitRevision(root)
	const machine = machineFacts()
	tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-bench-verify-'))
	console.log(`Ataa verified-mobile benchmark (${options.definition.type}, ${options.applicants} applicants at once) on ${machine.line}; load average ${machine.loadAtStart}`)
	const runs: DatabaseRun[] = []
	let passed = true
	for (const database of options.databases) {
		const { run, ok } = await measureOn(options, database)
		runs.push(run)
		passed &&= ok
	}
	const markdown = markdownOf(options, runs, { machine: machine.line, date: machine.date, loadAtStart: machine.loadAtStart, loadAtEnd: loadNow(), revision })
	console.log(`\n${markdown}\n`)
	if (!passed) console.error('Not every applicant got through: see the failures above.')
	return passed
}

runBenchmark({ readOptions, timeoutSeconds: (options) => options.timeoutSeconds, main, cleanUp, abort })
