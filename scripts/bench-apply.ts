// Load benchmark for online applications: N simulated applicants complete one programme's form
// against a production build (C at a time), then every acknowledged save is looked up in the database.
// The answers and files come from the programme's definition (app/forms/sample-answers.ts), so any
// programme in app/forms/registry.ts can be benchmarked.
//   npm run bench:apply -- [--type needy-families] [--applicants 50] [--concurrency 10] [--database postgres://127.0.0.1/…] [--timeout 600]
// Env fallbacks: BENCH_TYPE, BENCH_APPLICANTS, BENCH_CONCURRENCY, BENCH_DATABASE_URL, BENCH_TIMEOUT.
// Only ever talks to this machine; the server, its data and any bench database are removed at the end.
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import sharp from 'sharp'
import { openDatabase, type DatabaseHandle } from '#app/db/client.server.ts'
import { findCaseByReference, findCaseByToken, listAttachments, loadSavedState, type CaseRow } from '#app/cases/case-store.server.ts'
import { collectionOf, type ApplicationDef, type FieldDef, type SectionDef } from '#app/forms/definition.ts'
import { CHECK_STEP, type SavedState } from '#app/forms/journey.ts'
import { applicationDefinitions, findDefinition } from '#app/forms/registry.ts'
import { sampleAnswers, sampleFiles, type SampleAnswers, type SampleFile } from '#app/forms/sample-answers.ts'
import { isPasswordHash, rowSchema, sectionSchema } from '#app/forms/schema.ts'
import { localFileStorage } from '#app/storage/file-storage.server.ts'
import { lockDataDir } from '#app/utils/data-dir-lock.server.ts'
import { minimalPdf } from '#tests/fixtures/pdf.ts'
import { buildIfNeeded } from './build-if-needed.mjs'
import { freePort } from './lib/free-port.ts'
import { localDatabaseUrl, positiveInt, UsageError } from './lib/bench-options.ts'
import { createBenchDatabase, dropBenchDatabase } from './lib/bench-postgres.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const DEFAULT_TYPE = 'needy-families'
const REQUEST_TIMEOUT_MS = 60_000
// The first start seeds the demo content before it answers (its pictures are encoded later).
const HEALTH_TIMEOUT_MS = 180_000


interface Options {
	definition: ApplicationDef
	applicants: number
	concurrency: number
	database: string | undefined
	timeoutSeconds: number
}


function readOptions(): Options {
	const { values } = parseArgs({
		args: process.argv.slice(2),
		options: { type: { type: 'string' }, applicants: { type: 'string' }, concurrency: { type: 'string' }, database: { type: 'string' }, timeout: { type: 'string' } },
	})
	const type = values.type || process.env.BENCH_TYPE || DEFAULT_TYPE
	const definition = findDefinition(type)
	if (!definition) throw new UsageError(`--type must be one of ${applicationDefinitions.map((known) => known.type).join(', ')} (got "${type}")`)
	const database = values.database ?? process.env.BENCH_DATABASE_URL
	if (database !== undefined) {
		localDatabaseUrl(database)
	}
	return {
		definition,
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



async function benchDatabaseOn(adminUrl: string): Promise<string> {
	const { name, url } = await createBenchDatabase(adminUrl)
	benchDatabase = { adminUrl, name }
	return url
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
	// Made-up applicants give made-up e-mail addresses and mobiles: nothing may be sent to them.
	delete env.SMTP_URL
	delete env.SMS_URL
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
				await dropBenchDatabase(adminUrl, name)
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

type Group = Extract<FieldDef, { kind: 'group' }>
type FileKind = 'pdf' | 'photo'

/** One request of an applicant's journey, derived from the definition and the applicant's answers. */
type Step =
	/** The first section, which creates the case (POST /apply/<type>/new). */
	| { name: string; kind: 'start'; section: SectionDef; values: Record<string, unknown> }
	/** Any other section, its fields posted at once (a fixed-size group as `name[i].field`). */
	| { name: string; kind: 'section'; section: SectionDef; values: Record<string, unknown>; next: string }
	/** One row of a collection section (intent=add-row). */
	| { name: string; kind: 'row'; section: SectionDef; group: Group; index: number; values: Record<string, unknown> }
	/** A collection section's «save and continue» (intent=next). */
	| { name: string; kind: 'rows'; section: SectionDef; group: Group; count: number; next: string }
	/** One file into a required slot. */
	| { name: string; kind: 'upload'; file: SampleFile; fileKind: FileKind }
	/** The check page's submit. */
	| { name: string; kind: 'check' }

/**
 * The journey through a definition: the first section starts the case; each section's required
 * files are uploaded before it is saved (its save is refused without them), those of the first
 * section right after it; a collection is filled row by row; then the check page.
 */
function planOf(definition: ApplicationDef, answers: SampleAnswers): Step[] {
	const answered = definition.sections.filter((section) => answers[section.key] !== undefined)
	const uploads = (section: SectionDef): Step[] =>
		sampleFiles(definition)
			.filter((file) => file.section === section.key && file.required)
			.map((file) => ({ name: `upload:${file.slot}`, kind: 'upload', file, fileKind: file.accept[0] === 'photo' ? 'photo' : 'pdf' }))
	const steps: Step[] = []
	answered.forEach((section, index) => {
		const values = answers[section.key]!
		const next = answered[index + 1]?.key ?? CHECK_STEP
		if (index === 0) {
			steps.push({ name: section.key, kind: 'start', section, values }, ...uploads(section))
			return
		}
		steps.push(...uploads(section))
		const group = collectionOf(section)
		if (!group) {
			steps.push({ name: section.key, kind: 'section', section, values, next })
			return
		}
		const rows = (values[group.name] ?? []) as Record<string, unknown>[]
		rows.forEach((row, rowIndex) => steps.push({ name: `${section.key}:add-${rowIndex + 1}`, kind: 'row', section, group, index: rowIndex, values: row }))
		steps.push({ name: `${section.key}:next`, kind: 'rows', section, group, count: rows.length, next })
	})
	steps.push({ name: 'check', kind: 'check' })
	return steps
}

interface Save {
	step: string
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
	plan: Step[]
	token: string | undefined
	reference: string | undefined
	saves: Save[]
}

const pdf = minimalPdf()
/** A photo as a phone sends it (JPEG), made once in main(): the server re-encodes it to WebP. */
let photo: Uint8Array<ArrayBuffer> = new Uint8Array()
const usedIds = new Set<string>()

/**
 * The applicant's answers: the definition's full sample for seed = the applicant's number, or the
 * next seed along when that national ID is taken (a second open case with it would be refused).
 */
function answersFor(definition: ApplicationDef, index: number): { answers: SampleAnswers; nationalId: string } {
	// The identity may be asked after the first step (an institution's permit number).
	const holder = definition.sections.find((section) => section.fields.some((field) => field.name === definition.applicant.nationalId))!.key
	for (let attempt = 0; ; attempt++) {
		const answers = sampleAnswers(definition, { seed: index + attempt * 1_000_003, variant: 'full' })
		const nationalId = String(answers[holder]?.[definition.applicant.nationalId] ?? '')
		if (!usedIds.has(nationalId)) {
			usedIds.add(nationalId)
			return { answers, nationalId }
		}
	}
}

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value))

/**
 * A form's inputs as a browser without JavaScript posts them: every text input and select (empty
 * ones as ''), ticked radios and checkboxes only, a group's rows as `name[i].field` (Conform).
 */
function inputsOf(fields: readonly FieldDef[], values: Record<string, unknown>, prefix = ''): [string, string][] {
	const inputs: [string, string][] = []
	for (const field of fields) {
		const name = `${prefix}${field.name}`
		const value = values[field.name]
		switch (field.kind) {
			case 'group': {
				const rows = (value ?? []) as Record<string, unknown>[]
				rows.forEach((row, index) => inputs.push(...inputsOf(field.fields, row, `${name}[${index}].`)))
				break
			}
			case 'checkboxes':
				for (const chosen of (value ?? []) as unknown[]) inputs.push([name, text(chosen)])
				if (field.other) inputs.push([`${name}Other`, text(values[`${field.name}Other`])])
				break
			case 'checkbox':
				if (value === true) inputs.push([name, 'on'])
				break
			case 'newPassword':
				inputs.push([name, text(value)], [`${name}Confirm`, text(values[`${field.name}Confirm`])])
				break
			case 'radio':
				if (value !== undefined && value !== '') inputs.push([name, text(value)])
				break
			default:
				inputs.push([name, text(value)])
		}
	}
	return inputs
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

async function runApplicant(definition: ApplicationDef, index: number, origin: string): Promise<Applicant> {
	const { answers, nationalId } = answersFor(definition, index)
	const applicant: Applicant = {
		index,
		// Each applicant its own address, so the per-IP limits count them as real families.
		ip: `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`,
		nationalId,
		plan: planOf(definition, answers),
		token: undefined,
		reference: undefined,
		saves: [],
	}
	const headers = { Origin: origin, 'X-Forwarded-For': applicant.ip }

	/** One save; true when the server acknowledged it as expected. */
	async function save(step: string, url: string, body: URLSearchParams | FormData, expect: (status: number, location: string, text: string) => boolean, accept?: string) {
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

	const run = async (step: Step, base: string): Promise<{ ok: boolean; location: string }> => {
		switch (step.kind) {
			case 'start':
				// The new case's private page, /apply/r/<token>, says it was created.
				return save(step.name, `/apply/${definition.type}/new`, form({}, inputsOf(step.section.fields, step.values)), (status, location) => {
					if (status !== 302 && status !== 303) return false
					return /^\/apply\/r\/[A-Za-z0-9_-]{43}$/.test(new URL(location, origin).pathname)
				})
			case 'section':
				return save(step.name, `${base}/${step.section.key}`, form({}, inputsOf(step.section.fields, step.values)), redirectTo(`${base}/${step.next}`))
			case 'row':
				return save(step.name, `${base}/${step.section.key}`, form({ intent: 'add-row' }, inputsOf(step.group.fields, step.values)), redirectTo(`${base}/${step.section.key}`))
			case 'rows':
				return save(step.name, `${base}/${step.section.key}`, new URLSearchParams({ intent: 'next' }), redirectTo(`${base}/${step.next}`))
			case 'upload': {
				// Field order as in the upload form: the slot before the file.
				const body = new FormData()
				body.append('slot', step.file.slot)
				body.append(
					'file',
					step.fileKind === 'photo'
						? new File([photo], `${step.file.slot}.jpg`, { type: 'image/jpeg' })
						: new File([pdf], `${step.file.slot}.pdf`, { type: 'application/pdf' }),
				)
				return save(
					step.name,
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
			}
			case 'check':
				return save(step.name, `${base}/${CHECK_STEP}`, form({ acknowledge: 'on' }), redirectTo(`${base}/done`))
		}
	}

	let base = ''
	for (const step of applicant.plan) {
		const result = await run(step, base)
		// A failed step leaves the case where the next steps cannot be reached: stop this applicant here.
		if (!result.ok) break
		if (step.kind === 'start') {
			applicant.token = new URL(result.location, origin).pathname.split('/').at(-1)!
			base = `/apply/r/${applicant.token}`
		}
	}
	if (!applicant.token) return applicant

	// The reference the applicant would write down, to check it against the stored case.
	try {
		const response = await fetch(`${origin}${base}`, { headers, redirect: 'manual', signal: AbortSignal.any([abort.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]) })
		const html = (await response.text()).replaceAll(applicant.token, '')
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
			results.push(await runApplicant(options.definition, index, origin))
		}
	}
	await Promise.all(Array.from({ length: Math.min(options.concurrency, options.applicants) }, worker))
	if (abort.signal.aborted) throw abort.signal.reason
	return results.sort((a, b) => a.index - b.index)
}

// ——— Verification, with the server stopped ———

interface Lost {
	index: number
	step: string
	why: string
}

type Answers = Record<string, unknown> | undefined

const asRecords = (value: unknown) => (Array.isArray(value) ? (value as Record<string, unknown>[]) : [])

/** A value as JSON with its keys sorted and without rows' `_key`: stored and expected answers compare equal. */
function canonical(value: unknown): string {
	return JSON.stringify(value, (key, inner: unknown) => {
		if (key === '_key') return undefined
		if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return inner
		return Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
	})
}

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

/** What a section's new passwords are once stored: a hash (sealed by the server). */
function passwordsAsHashed(section: SectionDef): Record<string, string> {
	return Object.fromEntries(section.fields.filter((field) => field.kind === 'newPassword').map((field) => [field.name, 'scrypt$1$1$1$a$b']))
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
		/** What the server should have stored: the answers as the section's schema gives them back. */
		/** A new password is stored as its hash: it must be one, and it is compared as such. */
		const sealed = (section: SectionDef, values: Record<string, unknown>) => {
			const copy = { ...values }
			for (const field of section.fields) if (field.kind === 'newPassword') copy[field.name] = isPasswordHash(copy[field.name]) ? 'hash' : copy[field.name]
			return copy
		}
		const sameSection = (section: SectionDef, values: Record<string, unknown>) =>
			canonical(sealed(section, answers(section.key) ?? {})) === canonical(sealed(section, { ...sectionSchema(section).parse(values), ...passwordsAsHashed(section) }))
				? null
				: `${section.key} answers missing or wrong`
		const checkFile = async (file: SampleFile, kind: FileKind): Promise<string | null> => {
			if (state.fileCounts[file.slot] !== 1) return `${state.fileCounts[file.slot] ?? 0} files in slot ${file.slot}`
			const stored = files.find((candidate) => candidate.slot === file.slot)!
			const expected = kind === 'pdf' ? stored.size === pdf.length : stored.contentType === 'image/webp'
			return (await fileIsStored(storageRoot, stored.storageKey, stored.size)) && expected ? null : `${file.slot}: stored file unreadable or not the one sent`
		}
		const check = async (step: Step): Promise<string | null> => {
			switch (step.kind) {
				case 'start':
					if (row.nationalId !== applicant.nationalId) return `case stored with national ID ${row.nationalId}`
					return sameSection(step.section, step.values)
				case 'section':
					return sameSection(step.section, step.values)
				case 'row': {
					const stored = asRecords(answers(step.section.key)?.[step.group.name])
					const wanted = rowSchema(step.group.fields).parse(step.values)
					return canonical(stored[step.index]) === canonical(wanted) ? null : `${step.group.name} row ${step.index + 1} missing or wrong (${stored.length} stored)`
				}
				case 'rows': {
					const stored = asRecords(answers(step.section.key)?.[step.group.name])
					return stored.length === step.count ? null : `${stored.length} ${step.group.name} rows stored, ${step.count} added`
				}
				case 'upload':
					return checkFile(step.file, step.fileKind)
				case 'check':
					return row.submittedAt !== null ? null : 'not submitted'
			}
		}
		for (const save of acknowledged) {
			const step = applicant.plan.find((candidate) => candidate.name === save.step)!
			const why = await check(step)
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
	const planned = applicants.reduce((total, applicant) => total + applicant.plan.length, 0)
	const notReached = planned - saves.length
	// Every step any applicant was to take, in journey order (plans differ only if a `when` skips a section).
	const steps = [...new Set(applicants.flatMap((applicant) => applicant.plan.map((step) => step.name)))]
	const lengths = [...new Set(applicants.map((applicant) => applicant.plan.length))].sort((a, b) => a - b)
	const perApplicant = lengths.length > 1 ? `${lengths[0]}–${lengths.at(-1)}` : String(lengths[0] ?? 0)
	const latencies = saves.map((save) => save.ms).sort((a, b) => a - b)
	const submitted = applicants.filter((applicant) => applicant.saves.some((save) => save.step === 'check' && save.ok)).length
	const lines = [
		'',
		`Ataa apply benchmark (${options.definition.type}, production build)`,
		`  applicants      ${applicants.length} of ${options.applicants} (${submitted} submitted)`,
		`  concurrency     ${options.concurrency}`,
		`  database        ${kind}`,
		`  saves           ${saves.length} (${perApplicant} per applicant${notReached ? `, ${notReached} not reached after a failure` : ''})`,
		`  acknowledged    ${acknowledged.length}`,
		`  failed saves    ${failed.length}`,
		`  lost saves      ${lost.length} (${acknowledged.length - lost.filter((item) => item.step !== 'reference').length} acknowledged saves found in the database)`,
		`  references      ${applicants.filter((applicant) => applicant.reference).length} read from the private-link page, checked against the stored cases`,
		`  wall time       ${(wallMs / 1000).toFixed(2)} s`,
		`  saves/s         ${(acknowledged.length / (wallMs / 1000)).toFixed(1)}`,
		`  latency ms      p50 ${ms(percentile(latencies, 50))}  p95 ${ms(percentile(latencies, 95))}  p99 ${ms(percentile(latencies, 99))}  max ${ms(latencies.at(-1) ?? NaN)}`,
		'',
		`  ${'step'.padEnd(22)}${'n'.padStart(6)}${'p50'.padStart(9)}${'p95'.padStart(9)}${'max'.padStart(9)}`,
		...steps.map((step) => {
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
	const url = options.database ? await benchDatabaseOn(options.database) : undefined
	const kind = url ? `PostgreSQL (${benchDatabase!.name}, dropped afterwards)` : 'PGlite (embedded)'
	const port = await freePort()
	const origin = `http://127.0.0.1:${port}`
	photo = new Uint8Array(await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 196, g: 164, b: 132 } } }).jpeg().toBuffer())
	console.log(`Starting the production server on ${origin} (${kind})…`)
	await startServer(port, tempDir, url)
	console.log(`Running ${options.applicants} applicants of ${options.definition.type}, ${options.concurrency} at a time…`)

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
