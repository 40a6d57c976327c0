// Load benchmark for online applications: N simulated families complete the needy-families form
// against a production build (C at a time), then every acknowledged save is looked up in the database.
//   npm run bench:apply -- [--applicants 50] [--concurrency 10] [--database postgres://127.0.0.1/…] [--timeout 600]
// Env fallbacks: BENCH_APPLICANTS, BENCH_CONCURRENCY, BENCH_DATABASE_URL, BENCH_TIMEOUT.
// Only ever talks to this machine; the server, its data and any bench database are removed at the end.
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { openDatabase, type DatabaseHandle } from '#app/db/client.server.ts'
import { findCaseByReference, findCaseByToken, listAttachments, loadSavedState, type CaseRow } from '#app/cases/case-store.server.ts'
import type { SavedState } from '#app/forms/journey.ts'
import { localFileStorage } from '#app/storage/file-storage.server.ts'
import { lockDataDir } from '#app/utils/data-dir-lock.server.ts'
import { randomNationalId, validIban } from '#tests/fixtures/needy-families.ts'
import { minimalPdf } from '#tests/fixtures/pdf.ts'
import { buildIfNeeded } from './build-if-needed.mjs'
import { freePort } from './lib/free-port.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const FORM = 'needy-families'
const REQUEST_TIMEOUT_MS = 60_000
// The first start draws and encodes the demo images before it answers.
const HEALTH_TIMEOUT_MS = 180_000
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]'])

class UsageError extends Error {}

interface Options {
	applicants: number
	concurrency: number
	database: string | undefined
	timeoutSeconds: number
}

function positiveInt(name: string, value: string | undefined, fallback: number): number {
	if (value === undefined || value === '') return fallback
	const number = Number(value)
	if (!Number.isInteger(number) || number < 1) throw new UsageError(`${name} must be a whole number ≥ 1 (got "${value}")`)
	return number
}

function readOptions(): Options {
	const { values } = parseArgs({
		args: process.argv.slice(2),
		options: { applicants: { type: 'string' }, concurrency: { type: 'string' }, database: { type: 'string' }, timeout: { type: 'string' } },
	})
	const database = values.database ?? process.env.BENCH_DATABASE_URL
	if (database !== undefined) {
		let url: URL
		try {
			url = new URL(database)
		} catch {
			throw new UsageError('--database must be a URL like postgres://postgres@127.0.0.1:5432/postgres')
		}
		if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new UsageError('--database must start with postgres://')
		// The bench creates and drops databases: never anywhere but this machine.
		if (!LOCAL_HOSTS.has(url.hostname)) throw new UsageError('--database must point at 127.0.0.1 or localhost')
	}
	return {
		applicants: positiveInt('--applicants', values.applicants ?? process.env.BENCH_APPLICANTS, 50),
		concurrency: positiveInt('--concurrency', values.concurrency ?? process.env.BENCH_CONCURRENCY, 10),
		database,
		timeoutSeconds: positiveInt('--timeout', values.timeout ?? process.env.BENCH_TIMEOUT, 600),
	}
}

// ——— Run-wide state, kept here so that cleanup can reach it from any exit path ———

const abort = new AbortController()
let server: ChildProcess | undefined
let spawned: ChildProcess | undefined
let serverExited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> = Promise.resolve({ code: 0, signal: null })
let tempDir: string | undefined
let benchDatabase: { adminUrl: string; name: string } | undefined
let verifyHandle: DatabaseHandle | undefined
const serverLog: string[] = []

function databaseUrl(adminUrl: string, name: string): string {
	const url = new URL(adminUrl)
	url.pathname = `/${name}`
	return url.toString()
}

async function withAdminClient<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
	const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 10_000 })
	await client.connect()
	try {
		return await work(client)
	} finally {
		await client.end()
	}
}

async function createBenchDatabase(adminUrl: string): Promise<string> {
	const name = `ataa_bench_${randomBytes(5).toString('hex')}`
	await withAdminClient(adminUrl, (client) => client.query(`create database ${name}`))
	benchDatabase = { adminUrl, name }
	return databaseUrl(adminUrl, name)
}

async function startServer(port: number, dataDir: string, url: string | undefined): Promise<void> {
	const env: NodeJS.ProcessEnv = {
		...process.env,
		PORT: String(port),
		DATA_DIR: dataDir,
		TRUST_PROXY: 'true',
		ADMIN_EMAIL: 'bench@ataa.local',
		ADMIN_PASSWORD: randomBytes(18).toString('base64url'),
	}
	// An inherited DATABASE_URL must not turn a PGlite run into a run against someone's database.
	delete env.DATABASE_URL
	if (url) env.DATABASE_URL = url
	const child = spawn(process.execPath, [path.join(root, 'server.mjs')], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] })
	server = child
	spawned = child
	serverExited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
	// Kept for the report: a failed save's cause is usually in the server's stderr.
	child.stderr?.setEncoding('utf8')
	child.stderr?.on('data', (chunk: string) => {
		serverLog.push(...chunk.split('\n').filter(Boolean))
		if (serverLog.length > 200) serverLog.splice(0, serverLog.length - 200)
	})
	child.once('exit', (code, signal) => {
		if (server === child) {
			server = undefined
			abort.abort(new Error(`the server exited unexpectedly (code ${code}, signal ${signal})`))
		}
	})
	const deadline = Date.now() + HEALTH_TIMEOUT_MS
	for (;;) {
		if (abort.signal.aborted) throw abort.signal.reason
		try {
			const response = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2_000) })
			await response.arrayBuffer()
			if (response.status === 200) return
		} catch {
			// Not listening yet.
		}
		if (Date.now() > deadline) throw new Error(`the server did not answer /healthz with 200 within ${HEALTH_TIMEOUT_MS / 1000} s`)
		await new Promise((resolve) => setTimeout(resolve, 200))
	}
}

/** SIGTERM and wait: the embedded database may only be opened once the server has let go of it. */
async function stopServer(): Promise<void> {
	const child = server
	if (!child) return
	server = undefined
	child.kill('SIGTERM')
	const killed = setTimeout(() => child.kill('SIGKILL'), 15_000)
	const { code, signal } = await serverExited
	clearTimeout(killed)
	// A server that cannot shut down cleanly is worth knowing about, though the data check decides.
	if (code !== 0) console.error(`Note: the server did not exit cleanly on SIGTERM (code ${code}, signal ${signal}).`)
}

async function cleanUp(): Promise<void> {
	const steps: [string, () => Promise<void>][] = [
		['stop the server', stopServer],
		['close the database', async () => void (await verifyHandle?.close())],
		[
			'drop the bench database',
			async () => {
				if (!benchDatabase) return
				const { adminUrl, name } = benchDatabase
				await withAdminClient(adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`))
				benchDatabase = undefined
			},
		],
		['remove the temp dir', async () => void (tempDir && fs.rmSync(tempDir, { recursive: true, force: true }))],
	]
	verifyHandle = undefined
	for (const [what, step] of steps) {
		try {
			await step()
		} catch (error) {
			console.error(`Cleanup: could not ${what}:`, error instanceof Error ? error.message : error)
		}
	}
}

// ——— One applicant ———

const STEPS = [
	'basic',
	'bank',
	'financial',
	'family:add-1',
	'family:add-2',
	'family:next',
	'referrers',
	'services',
	'upload:identity',
	'upload:family_report',
	'files',
	'check',
] as const
type StepName = (typeof STEPS)[number]

interface Save {
	step: StepName
	ok: boolean
	ms: number
	status: number
	location: string
	excerpt: string
}

interface Applicant {
	index: number
	ip: string
	nationalId: string
	token: string | undefined
	reference: string | undefined
	saves: Save[]
}

const members = [
	{ FamilyName: 'نورة', RelationShip: 'wife', Age: '38', Gander: 'female', Level_Edu: 'secondary', Social_Status: 'married', Health_Status: 'healthy' },
	{ FamilyName: 'سعد', RelationShip: 'son', Age: '9', Gander: 'male', Level_Edu: 'primary', Social_Status: 'single', Health_Status: 'chronic' },
]
const persons = [
	{ Name: 'الشيخ فهد العتيبي', NationalAddress: 'RRSA2345', RelatedPerson: 'tribe_sheikh' },
	{ Name: 'إمام مسجد الحي', NationalAddress: 'RRSB1234', RelatedPerson: 'mosque_imam' },
	{ Name: 'جار الأسرة', NationalAddress: 'RRSC9876', RelatedPerson: 'other' },
]
const MESSAGE = 'نرجو النظر في حالتنا.'
const pdf = minimalPdf()
const usedIds = new Set<string>()

function uniqueNationalId(): string {
	for (;;) {
		const id = randomNationalId()
		if (!usedIds.has(id)) {
			usedIds.add(id)
			return id
		}
	}
}

/** A browser without JavaScript sends every input, the empty honeypot included. */
function form(fields: Record<string, string>, extra: [string, string][] = []): URLSearchParams {
	const body = new URLSearchParams({ website: '', ...fields })
	for (const [name, value] of extra) body.append(name, value)
	return body
}

const plain = (html: string) =>
	html
		.replace(/<script[\s\S]*?<\/script>/g, ' ')
		.replace(/<[^>]+>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim()

/** What a person would read first on a refused page: its title and error summary, not the site header. */
function excerptOf(text: string): string {
	const title = text.match(/<title>([\s\S]*?)<\/title>/)?.[1]
	const alert = text.match(/<div[^>]*role="alert"[^>]*>([\s\S]*?)<\/div>/)?.[1]
	const summary = title || alert ? [title, alert].filter(Boolean).map((part) => plain(part!)).join(' — ') : plain(text)
	return summary.slice(0, 240)
}

const REFERENCE = /(?<![A-Za-z0-9_-])[A-HJ-NP-Y2-9]{4}-[A-HJ-NP-Y2-9]{4}(?![A-Za-z0-9_-])/

async function runApplicant(index: number, origin: string): Promise<Applicant> {
	const applicant: Applicant = {
		index,
		// Each family its own address, so the per-IP limits count them as real families.
		ip: `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`,
		nationalId: uniqueNationalId(),
		token: undefined,
		reference: undefined,
		saves: [],
	}
	const headers = { Origin: origin, 'X-Forwarded-For': applicant.ip }

	/** One save; true when the server acknowledged it as expected. */
	async function save(step: StepName, url: string, body: URLSearchParams | FormData, expect: (status: number, location: string, text: string) => boolean, accept?: string) {
		const started = performance.now()
		let status = 0
		let location = ''
		let text = ''
		try {
			const response = await fetch(`${origin}${url}`, {
				method: 'POST',
				body,
				redirect: 'manual',
				headers: accept ? { ...headers, Accept: accept } : headers,
				signal: AbortSignal.any([abort.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
			})
			status = response.status
			location = response.headers.get('location') ?? ''
			text = await response.text()
		} catch (error) {
			text = `request failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`
		}
		const ms = performance.now() - started
		const ok = status !== 0 && expect(status, location, text)
		applicant.saves.push({ step, ok, ms, status, location, excerpt: ok ? '' : excerptOf(text) })
		return { ok, location }
	}

	const redirectTo = (wanted: string) => (status: number, location: string) =>
		(status === 302 || status === 303) && new URL(location, origin).pathname === wanted

	const started = await save(
		'basic',
		`/apply/${FORM}/new`,
		form({
			Full_Name: 'عبدالله محمد سعد القحطاني',
			Identify_Id: applicant.nationalId,
			Gander: 'male',
			Nationalty: 'saudi',
			BirthDate: '',
			Social_Situation: 'married',
			Career: 'unemployed',
			Salary: '',
			Income_Source: '',
			Family_Role: 'head',
			Phone: `05${String(10_000_000 + index).slice(-8)}`,
			Email: '',
			Housing_Status: 'owned',
			Housing_Type: 'villa',
			city: 'الرياض',
			Neighborhood: '',
		}),
		(status, location) => {
			if (status !== 302 && status !== 303) return false
			const url = new URL(location, origin)
			return /^\/apply\/r\/[A-Za-z0-9_-]{43}$/.test(url.pathname) && url.searchParams.get('created') === '1'
		},
	)
	if (!started.ok) return applicant
	const token = new URL(started.location, origin).pathname.split('/').at(-1)!
	applicant.token = token
	const base = `/apply/r/${token}`

	const flow: (() => Promise<{ ok: boolean }>)[] = [
		() =>
			save(
				'bank',
				`${base}/bank`,
				form({ Bank_Name_1: 'alrajhi', Bank_No_1: validIban, Bank_Name_2: 'snb', Bank_No_2: 'SA' }),
				redirectTo(`${base}/financial`),
			),
		() =>
			save(
				'financial',
				`${base}/financial`,
				form({ Net_Income: '2500', Salary: '', Retirement: '', Social_Insurance: '1200.50', Social_Insurance_2: '', Subsidies: '', Other_Money_Sources: '' }),
				redirectTo(`${base}/family`),
			),
		() => save('family:add-1', `${base}/family`, form({ intent: 'add-row', ...members[0]! }), redirectTo(`${base}/family`)),
		() => save('family:add-2', `${base}/family`, form({ intent: 'add-row', ...members[1]! }), redirectTo(`${base}/family`)),
		() => save('family:next', `${base}/family`, new URLSearchParams({ intent: 'next' }), redirectTo(`${base}/referrers`)),
		() =>
			save(
				'referrers',
				`${base}/referrers`,
				form(
					Object.fromEntries(
						persons.flatMap((person, i) => [
							[`persons[${i}].Name`, person.Name],
							[`persons[${i}].NationalAddress`, person.NationalAddress],
							[`persons[${i}].PhoneNumber`, ''],
							[`persons[${i}].RelatedPerson`, person.RelatedPerson],
						]),
					),
				),
				redirectTo(`${base}/services`),
			),
		() =>
			save(
				'services',
				`${base}/services`,
				form({}, [
					['services', 'food_basket'],
					['services', 'bills'],
					['servicesOther', ''],
				]),
				redirectTo(`${base}/files`),
			),
		...(['identity', 'family_report'] as const).map((slot) => () => {
			// Field order as in the upload form: the slot before the file.
			const body = new FormData()
			body.append('slot', slot)
			body.append('file', new File([pdf], `${slot}.pdf`, { type: 'application/pdf' }))
			return save(
				`upload:${slot}`,
				`${base}/files/upload`,
				body,
				(status, _location, text) => {
					if (status !== 200) return false
					try {
						return (JSON.parse(text) as { ok?: unknown }).ok === true
					} catch {
						return false
					}
				},
				'application/json',
			)
		}),
		() => save('files', `${base}/files`, form({ PatientMassage: MESSAGE }), redirectTo(`${base}/check`)),
		() => save('check', `${base}/check`, form({ acknowledge: 'on' }), redirectTo(`${base}/done`)),
	]
	for (const step of flow) {
		// A failed step leaves the case where the next steps cannot be reached: stop this family here.
		if (!(await step()).ok) break
	}

	// The reference the family would write down, to check it against the stored case.
	try {
		const response = await fetch(`${origin}${base}`, { headers, redirect: 'manual', signal: AbortSignal.any([abort.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]) })
		const html = (await response.text()).replaceAll(token, '')
		applicant.reference = html.match(REFERENCE)?.[0]
	} catch {
		// Not a save; verification goes by the token anyway.
	}
	return applicant
}

async function runAll(options: Options, origin: string): Promise<Applicant[]> {
	const results: Applicant[] = []
	let next = 0
	const worker = async () => {
		while (next < options.applicants && !abort.signal.aborted) {
			const index = ++next
			results.push(await runApplicant(index, origin))
		}
	}
	await Promise.all(Array.from({ length: Math.min(options.concurrency, options.applicants) }, worker))
	if (abort.signal.aborted) throw abort.signal.reason
	return results.sort((a, b) => a.index - b.index)
}

// ——— Verification, with the server stopped ———

interface Lost {
	index: number
	step: StepName | 'reference'
	why: string
}

type Answers = Record<string, unknown> | undefined

const asRecords = (value: unknown) => (Array.isArray(value) ? (value as Record<string, unknown>[]) : [])

async function fileIsStored(storageRoot: string, key: string, size: number): Promise<boolean> {
	try {
		const stream = await localFileStorage(storageRoot).read(key)
		let bytes = 0
		for await (const chunk of stream) bytes += (chunk as Buffer).length
		return bytes === size
	} catch {
		return false
	}
}

async function verify(handle: DatabaseHandle, applicants: Applicant[], storageRoot: string): Promise<Lost[]> {
	const { db } = handle
	const lost: Lost[] = []
	for (const applicant of applicants) {
		const acknowledged = applicant.saves.filter((save) => save.ok)
		if (!acknowledged.length) continue
		const row: CaseRow | undefined = applicant.token ? await findCaseByToken(db, applicant.token) : undefined
		if (!row) {
			for (const save of acknowledged) lost.push({ index: applicant.index, step: save.step, why: 'no case for the token' })
			continue
		}
		const state: SavedState = await loadSavedState(db, row.id)
		const files = await listAttachments(db, row.id)
		const answers = (key: string) => state.answers[key] as Answers
		const family = asRecords(answers('family')?.members)
		const checkFile = async (slot: string): Promise<string | null> => {
			if (state.fileCounts[slot] !== 1) return `${state.fileCounts[slot] ?? 0} files in slot ${slot}`
			const file = files.find((candidate) => candidate.slot === slot)!
			return (await fileIsStored(storageRoot, file.storageKey, file.size)) && file.size === pdf.length ? null : `${slot}: stored file unreadable or wrong size`
		}
		const checks: Record<StepName, () => Promise<string | null> | string | null> = {
			basic: () => (answers('basic')?.Identify_Id === applicant.nationalId && row.nationalId === applicant.nationalId ? null : 'basic answers missing or wrong'),
			bank: () => (answers('bank')?.Bank_No_1 === validIban ? null : 'bank answers missing or wrong'),
			financial: () => (Number(answers('financial')?.Net_Income) === 2500 ? null : 'financial answers missing or wrong'),
			'family:add-1': () => (family[0]?.FamilyName === members[0]!.FamilyName ? null : `member 1 missing (${family.length} stored)`),
			'family:add-2': () => (family.length === 2 && family[1]?.FamilyName === members[1]!.FamilyName ? null : `member 2 missing (${family.length} stored)`),
			'family:next': () => (family.length >= 1 ? null : 'family has no members'),
			referrers: () => {
				const stored = asRecords(answers('referrers')?.persons)
				return stored.length === 3 && stored.some((person) => person.RelatedPerson === 'tribe_sheikh') ? null : `${stored.length} referrers stored`
			},
			services: () => {
				const stored = answers('services')?.services
				return Array.isArray(stored) && stored.includes('food_basket') && stored.includes('bills') ? null : 'services missing or wrong'
			},
			'upload:identity': () => checkFile('identity'),
			'upload:family_report': () => checkFile('family_report'),
			files: () => (answers('files')?.PatientMassage === MESSAGE ? null : 'files section answers missing or wrong'),
			check: () => (row.submittedAt !== null ? null : 'not submitted'),
		}
		for (const save of acknowledged) {
			const why = await checks[save.step]()
			if (why) lost.push({ index: applicant.index, step: save.step, why })
		}
		if (applicant.reference !== undefined) {
			const byReference = await findCaseByReference(db, applicant.reference)
			if (byReference?.id !== row.id) lost.push({ index: applicant.index, step: 'reference', why: `page showed ${applicant.reference}, stored ${row.reference}` })
		}
	}
	return lost
}

// ——— Report ———

function percentile(sorted: number[], p: number): number {
	if (!sorted.length) return NaN
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

const ms = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(1))

function report(options: Options, kind: string, applicants: Applicant[], lost: Lost[], wallMs: number): boolean {
	const saves = applicants.flatMap((applicant) => applicant.saves)
	const acknowledged = saves.filter((save) => save.ok)
	const failed = saves.filter((save) => !save.ok)
	const notReached = applicants.length * STEPS.length - saves.length
	const latencies = saves.map((save) => save.ms).sort((a, b) => a - b)
	const submitted = applicants.filter((applicant) => applicant.saves.some((save) => save.step === 'check' && save.ok)).length
	const lines = [
		'',
		'Ataa apply benchmark (needy-families, production build)',
		`  applicants      ${applicants.length} of ${options.applicants} (${submitted} submitted)`,
		`  concurrency     ${options.concurrency}`,
		`  database        ${kind}`,
		`  saves           ${saves.length} (${STEPS.length} per applicant${notReached ? `, ${notReached} not reached after a failure` : ''})`,
		`  acknowledged    ${acknowledged.length}`,
		`  failed saves    ${failed.length}`,
		`  lost saves      ${lost.length} (${acknowledged.length - lost.filter((item) => item.step !== 'reference').length} acknowledged saves found in the database)`,
		`  references      ${applicants.filter((applicant) => applicant.reference).length} read from the private-link page, checked against the stored cases`,
		`  wall time       ${(wallMs / 1000).toFixed(2)} s`,
		`  saves/s         ${(acknowledged.length / (wallMs / 1000)).toFixed(1)}`,
		`  latency ms      p50 ${ms(percentile(latencies, 50))}  p95 ${ms(percentile(latencies, 95))}  p99 ${ms(percentile(latencies, 99))}  max ${ms(latencies.at(-1) ?? NaN)}`,
		'',
		`  ${'step'.padEnd(22)}${'n'.padStart(6)}${'p50'.padStart(9)}${'p95'.padStart(9)}${'max'.padStart(9)}`,
		...STEPS.map((step) => {
			const times = saves.filter((save) => save.step === step).map((save) => save.ms).sort((a, b) => a - b)
			return `  ${step.padEnd(22)}${String(times.length).padStart(6)}${ms(percentile(times, 50)).padStart(9)}${ms(percentile(times, 95)).padStart(9)}${ms(times.at(-1) ?? NaN).padStart(9)}`
		}),
	]
	if (failed.length) {
		lines.push('', 'Failed saves (first 10):')
		const listed = applicants.flatMap((applicant) => applicant.saves.filter((save) => !save.ok).map((save) => ({ index: applicant.index, save })))
		for (const { index, save } of listed.slice(0, 10)) {
			lines.push(`  #${index} ${save.step}: HTTP ${save.status || '-'}${save.location ? ` → ${save.location}` : ''} ${save.excerpt}`)
		}
	}
	if (lost.length) {
		lines.push('', 'Lost saves (first 10):')
		for (const item of lost.slice(0, 10)) lines.push(`  #${item.index} ${item.step}: ${item.why}`)
	}
	if ((failed.length || lost.length) && serverLog.length) {
		lines.push('', 'Server stderr (last 40 lines):', ...serverLog.slice(-40).map((line) => `  ${line}`))
	}
	console.log(lines.join('\n'))
	return failed.length === 0 && lost.length === 0 && notReached === 0
}

// ——— Main ———

async function main(options: Options): Promise<boolean> {
	buildIfNeeded()
	tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-bench-'))
	const url = options.database ? await createBenchDatabase(options.database) : undefined
	const kind = url ? `PostgreSQL (${benchDatabase!.name}, dropped afterwards)` : 'PGlite (embedded)'
	const port = await freePort()
	const origin = `http://127.0.0.1:${port}`
	console.log(`Starting the production server on ${origin} (${kind})…`)
	await startServer(port, tempDir, url)
	console.log(`Running ${options.applicants} applicants, ${options.concurrency} at a time…`)

	const started = performance.now()
	const applicants = await runAll(options, origin)
	const wallMs = performance.now() - started

	await stopServer()
	const release = url ? () => {} : lockDataDir(tempDir, 'bench-apply')
	try {
		verifyHandle = await openDatabase(url ? { url } : { dataDir: path.join(tempDir, 'pgdata') })
		const lost = await verify(verifyHandle, applicants, path.join(tempDir, 'uploads'))
		return report(options, kind, applicants, lost, wallMs)
	} finally {
		await verifyHandle?.close()
		verifyHandle = undefined
		release()
	}
}

let finishing = false
async function finish(code: number) {
	if (finishing) return
	finishing = true
	await cleanUp()
	clearTimeout(deadline)
	process.exit(code)
}

let options: Options
try {
	options = readOptions()
} catch (error) {
	console.error(error instanceof Error ? error.message : error)
	process.exit(1)
}
// Bounded run: past the deadline everything in flight is aborted; if cleanup itself hangs, exit anyway.
const deadline = setTimeout(() => {
	abort.abort(new Error(`timed out after ${options.timeoutSeconds} s`))
	setTimeout(() => {
		if (spawned && spawned.exitCode === null && spawned.signalCode === null) spawned.kill('SIGKILL')
		if (tempDir) fs.rmSync(tempDir, { recursive: true, force: true })
		console.error('Cleanup did not finish in time.')
		process.exit(1)
	}, 60_000).unref()
}, options.timeoutSeconds * 1000)
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.on(signal, () => abort.abort(new Error(`stopped by ${signal}`)))
}

main(options).then(
	(ok) => finish(ok ? 0 : 1),
	(error: unknown) => {
		// An abort (deadline, Ctrl-C, server gone) needs its reason, not a stack trace.
		const detail = error instanceof Error ? (abort.signal.aborted ? error.message : (error.stack ?? error.message)) : String(error)
		console.error(`The benchmark did not complete: ${detail}`)
		if (serverLog.length) console.error(['Server stderr (last 40 lines):', ...serverLog.slice(-40)].join('\n'))
		return finish(1)
	},
)
