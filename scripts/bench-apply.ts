// Load benchmark for online applications, on a production build: simulated applicants complete one
// programme's form, with uploads, against `node server.mjs` on PGlite and on a new PostgreSQL database.
//   1. realistic: R applicants at once, each pausing between steps as a person reads and types
//      (--think, seconds); the goal is on the server's own time (its Server-Timing header).
//   2. saturation: S applicants, C at a time, without pauses: the saves per second the server keeps up.
// Then every acknowledged save is looked up in the database. The answers and files come from the
// programme's definition (app/forms/sample-answers.ts), so any programme in app/forms/registry.ts works.
//   npm run bench:apply -- [--type needy-families] [--realistic 50] [--think 2-6] [--saturation 300] [--concurrency 50]
//     [--only pglite|postgres] [--database postgres://postgres@127.0.0.1:5432/postgres] [--timeout 1200] [--no-doc]
// Prints the figures and writes them to docs/performance.md. Exits 1 on any failed or lost save.
// Only ever talks to this machine; the servers, their data and the bench databases are removed at the end.
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
import { CHECK_STEP, CONSENT_STEP, type SavedState } from '#app/cases/journey.ts'
import { holdsSensitive } from '#app/forms/conditions.ts'
import { applicationDefinitions, findDefinition } from '#app/forms/registry.ts'
import { sampleFiles, type SampleAnswers, type SampleFile } from '#app/forms/sample-answers.ts'
import { isPasswordHash, rowSchema, sectionSchema } from '#app/forms/schema.ts'
import { FileKeyring } from '#app/storage/encryption.server.ts'
import { encryptedFileStorage, localFileStorage } from '#app/storage/file-storage.server.ts'
import { lockDataDir } from '#app/utils/data-dir-lock.server.ts'
import { minimalPdf } from '#tests/fixtures/pdf.ts'
import { buildIfNeeded } from './build-if-needed.mjs'
import { answersFor, excerptOf, form, inputsOf, ms, percentile, plain, serverTime, sortedOf } from './lib/apply-client.ts'
import { startAppServer, type AppServer } from './lib/bench-app.ts'
import { adminDatabaseUrl, DATABASE_LABEL, databasesToRun, positiveInt, UsageError, type BenchDatabase } from './lib/bench-options.ts'
import { createBenchDatabase, dropBenchDatabase } from './lib/bench-postgres.ts'
import { stopAll, stopService, treeRssMb } from './lib/bench-processes.ts'
import { runBenchmark } from './lib/bench-run.ts'
import { commandLine, gitRevision, loadNow, machineFacts, markdownTable, writeDocSection } from './lib/perf-doc.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const DEFAULT_TYPE = 'needy-families'
const REQUEST_TIMEOUT_MS = 60_000
const GOALS = { serverP95Ms: 50, savesPerSecond: 300, rssMb: 300 }


interface Options {
	definition: ApplicationDef
	realistic: number
	/** Pause between two steps of one applicant, drawn evenly from [min, max] seconds. */
	think: { min: number; max: number }
	saturation: number
	concurrency: number
	databases: BenchDatabase[]
	adminUrl: string
	timeoutSeconds: number
	doc: boolean
}

function count(name: string, value: string | undefined, fallback: number): number {
	if (value === '0') return 0
	return positiveInt(name, value, fallback)
}

function readOptions(): Options {
	const { values } = parseArgs({
		args: process.argv.slice(2),
		options: {
			type: { type: 'string' },
			realistic: { type: 'string' },
			think: { type: 'string' },
			saturation: { type: 'string' },
			concurrency: { type: 'string' },
			only: { type: 'string' },
			database: { type: 'string' },
			timeout: { type: 'string' },
			'no-doc': { type: 'boolean', default: false },
		},
	})
	const type = values.type || process.env.BENCH_TYPE || DEFAULT_TYPE
	const definition = findDefinition(type)
	if (!definition) throw new UsageError(`--type must be one of ${applicationDefinitions.map((known) => known.type).join(', ')} (got "${type}")`)
	const think = (values.think ?? '2-6').match(/^(\d+(?:\.\d+)?)(?:-(\d+(?:\.\d+)?))?$/)
	if (!think) throw new UsageError(`--think must be seconds, or a range like 2-6 (got "${values.think}")`)
	const min = Number(think[1])
	const max = think[2] === undefined ? min : Number(think[2])
	if (max < min) throw new UsageError(`--think: ${max} is less than ${min}`)
	const options: Options = {
		definition,
		realistic: count('--realistic', values.realistic, 50),
		think: { min, max },
		saturation: count('--saturation', values.saturation, 300),
		concurrency: positiveInt('--concurrency', values.concurrency, 50),
		databases: databasesToRun(values.only ?? process.env.BENCH_ONLY),
		adminUrl: adminDatabaseUrl(values.database),
		timeoutSeconds: positiveInt('--timeout', values.timeout ?? process.env.BENCH_TIMEOUT, 1200),
		doc: !values['no-doc'],
	}
	if (!options.realistic && !options.saturation) throw new UsageError('--realistic and --saturation are both 0: nothing to run')
	return options
}

// ——— Run-wide state, kept here so that cleanup can reach it from any exit path ———

const abort = new AbortController()
let tempDir: string | undefined
let benchDatabase: { adminUrl: string; name: string } | undefined
let verifyHandle: DatabaseHandle | undefined

async function cleanUp(): Promise<void> {
	const steps: [string, () => Promise<void>][] = [
		['stop the server', stopAll],
		['close the database', async () => void (await verifyHandle?.close())],
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
	/** The consent step before the first section holding health or bank data: «أوافق». */
	| { name: string; kind: 'consent'; next: string }
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
			.map((file) => ({ name: `upload:${file.slot}`, kind: 'upload', file, fileKind: file.pictures ? 'photo' : 'pdf' }))
	const steps: Step[] = []
	// The consent step stands before the first section holding health or bank data (app/cases/journey.ts).
	const anchor = answered.find(holdsSensitive)
	answered.forEach((section, index) => {
		const values = answers[section.key]!
		const next = answered[index + 1] && answered[index + 1] === anchor ? CONSENT_STEP : (answered[index + 1]?.key ?? CHECK_STEP)
		if (index === 0) {
			steps.push({ name: section.key, kind: 'start', section, values }, ...uploads(section))
			return
		}
		if (section === anchor) steps.push({ name: CONSENT_STEP, kind: 'consent', next: section.key })
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
	/** From the request's start to the end of the answer, as the applicant's browser waits. */
	ms: number
	/** The server's own time to its headers (Server-Timing: app;dur=…), NaN if it sent none. */
	serverMs: number
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

const REFERENCE = /(?<![A-Za-z0-9_-])[A-HJ-NP-Y2-9]{4}-[A-HJ-NP-Y2-9]{4}(?![A-Za-z0-9_-])/

/** Reads a page of the journey as the applicant would before the next step, then pauses. */
const pause = (think: Options['think']) => {
	const seconds = think.min + Math.random() * (think.max - think.min)
	return seconds > 0 ? new Promise((resolve) => setTimeout(resolve, seconds * 1000)) : Promise.resolve()
}

async function runApplicant(definition: ApplicationDef, index: number, origin: string, think: Options['think']): Promise<Applicant> {
	const { answers, nationalId } = answersFor(definition, index, usedIds)
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
		let serverMs = NaN
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
			serverMs = serverTime(response)
			text = await response.text()
		} catch (error) {
			text = `request failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`
		}
		const ms = performance.now() - started
		const ok = status !== 0 && expect(status, location, text)
		applicant.saves.push({ step, ok, ms, serverMs, status, location, excerpt: ok ? '' : excerptOf(text) })
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
			case 'consent':
				return save(step.name, `${base}/${CONSENT_STEP}`, form({ consent: 'given' }), redirectTo(`${base}/${step.next}`))
			case 'check':
				return save(step.name, `${base}/${CHECK_STEP}`, form({ acknowledge: 'on' }), redirectTo(`${base}/done`))
		}
	}

	let base = ''
	// Applicants arrive over the first pause, not all in the same millisecond.
	await pause({ min: 0, max: think.max })
	for (const [position, step] of applicant.plan.entries()) {
		if (position > 0) await pause(think)
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
		// The page's text, not its inline stylesheet (whose unicode-ranges look like references).
		const html = (await response.text()).replaceAll(applicant.token, '')
		const body = html.slice(html.indexOf('<body'))
		applicant.reference = plain(body).match(REFERENCE)?.[0]
	} catch {
		// Not a save; verification goes by the token anyway.
	}
	return applicant
}

/** Applicants `first`…`first + count - 1`, `concurrency` at a time; each pauses `think` between its steps. */
async function runPhase(definition: ApplicationDef, origin: string, first: number, count: number, concurrency: number, think: Options['think']): Promise<Applicant[]> {
	const results: Applicant[] = []
	let next = first
	const worker = async () => {
		while (next < first + count && !abort.signal.aborted) {
			const index = next++
			results.push(await runApplicant(definition, index, origin, think))
		}
	}
	await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker))
	abort.signal.throwIfAborted()
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

/** The key the server encrypts applicants' files with: given to it, so the files can be read back here. */
const fileKey = randomBytes(32)

async function fileIsStored(storageRoot: string, key: string, size: number): Promise<boolean> {
	try {
		const stream = await encryptedFileStorage(localFileStorage(storageRoot), () => new FileKeyring(fileKey)).read(key)
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
				case 'consent':
					return row.consent === 'given' ? null : `consent stored as ${row.consent}`
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


type PhaseName = 'realistic' | 'saturation'

interface Phase {
	name: PhaseName
	/** How it ran, in words, for the report. */
	how: string
	applicants: Applicant[]
	wallMs: number
	rssAfterMb: number
}

interface DatabaseRun {
	database: BenchDatabase
	startSeconds: number
	settleSeconds: number
	idleRssMb: number
	phases: Phase[]
	lost: Lost[]
}

const isUpload = (save: Save) => save.step.startsWith('upload:')

interface PhaseFigures {
	saves: number
	acknowledged: number
	failed: number
	notReached: number
	submitted: number
	perSecond: number
	server: { p50: number; p95: number; p99: number; max: number; sectionsP95: number; uploadsP95: number }
	clientP95: number
}

function figuresOf(phase: Phase): PhaseFigures {
	const saves = phase.applicants.flatMap((applicant) => applicant.saves)
	const acknowledged = saves.filter((save) => save.ok).length
	const planned = phase.applicants.reduce((total, applicant) => total + applicant.plan.length, 0)
	const server = sortedOf(saves.map((save) => save.serverMs))
	return {
		saves: saves.length,
		acknowledged,
		failed: saves.length - acknowledged,
		notReached: planned - saves.length,
		submitted: phase.applicants.filter((applicant) => applicant.saves.some((save) => save.step === 'check' && save.ok)).length,
		perSecond: acknowledged / (phase.wallMs / 1000),
		server: {
			p50: percentile(server, 50),
			p95: percentile(server, 95),
			p99: percentile(server, 99),
			max: server.at(-1) ?? NaN,
			sectionsP95: percentile(sortedOf(saves.filter((save) => !isUpload(save)).map((save) => save.serverMs)), 95),
			uploadsP95: percentile(sortedOf(saves.filter(isUpload).map((save) => save.serverMs)), 95),
		},
		clientP95: percentile(sortedOf(saves.map((save) => save.ms)), 95),
	}
}

function printRun(run: DatabaseRun, serverLog: string[]): boolean {
	const lines = ['', `${DATABASE_LABEL[run.database]}: answering ${run.startSeconds.toFixed(1)} s after spawn, quiet ${run.settleSeconds.toFixed(1)} s later, ${run.idleRssMb.toFixed(0)} MB RSS idle`]
	let ok = run.lost.length === 0
	for (const phase of run.phases) {
		const figures = figuresOf(phase)
		ok &&= figures.failed === 0 && figures.notReached === 0
		const saves = phase.applicants.flatMap((applicant) => applicant.saves)
		const steps = [...new Set(phase.applicants.flatMap((applicant) => applicant.plan.map((step) => step.name)))]
		lines.push(
			'',
			`  ${phase.name}: ${phase.how}`,
			`    applicants    ${phase.applicants.length} (${figures.submitted} submitted)`,
			`    saves         ${figures.saves}, ${figures.acknowledged} acknowledged, ${figures.failed} failed${figures.notReached ? `, ${figures.notReached} not reached after a failure` : ''}`,
			`    wall time     ${(phase.wallMs / 1000).toFixed(2)} s`,
			`    saves/s       ${figures.perSecond.toFixed(1)}`,
			`    server ms     p50 ${ms(figures.server.p50)}  p95 ${ms(figures.server.p95)}  p99 ${ms(figures.server.p99)}  max ${ms(figures.server.max)}  (p95 sections ${ms(figures.server.sectionsP95)}, uploads ${ms(figures.server.uploadsP95)})`,
			`    client ms     p95 ${ms(figures.clientP95)}`,
			`    RSS after     ${phase.rssAfterMb.toFixed(0)} MB`,
			'',
			`    ${'step'.padEnd(22)}${'n'.padStart(6)}${'server p50'.padStart(12)}${'p95'.padStart(9)}${'max'.padStart(9)}${'client p95'.padStart(12)}`,
			...steps.map((step) => {
				const mine = saves.filter((save) => save.step === step)
				const server = sortedOf(mine.map((save) => save.serverMs))
				const client = sortedOf(mine.map((save) => save.ms))
				return `    ${step.padEnd(22)}${String(mine.length).padStart(6)}${ms(percentile(server, 50)).padStart(12)}${ms(percentile(server, 95)).padStart(9)}${ms(server.at(-1) ?? NaN).padStart(9)}${ms(percentile(client, 95)).padStart(12)}`
			}),
		)
		const failed = phase.applicants.flatMap((applicant) => applicant.saves.filter((save) => !save.ok).map((save) => ({ index: applicant.index, save })))
		if (failed.length) {
			lines.push('', '    Failed saves (first 10):')
			for (const { index, save } of failed.slice(0, 10)) lines.push(`      #${index} ${save.step}: HTTP ${save.status || '-'}${save.location ? ` → ${save.location}` : ''} ${save.excerpt}`)
		}
	}
	const acknowledged = run.phases.flatMap((phase) => phase.applicants.flatMap((applicant) => applicant.saves.filter((save) => save.ok))).length
	lines.push('', `  lost saves      ${run.lost.length} (${acknowledged - run.lost.filter((item) => item.step !== 'reference').length} of ${acknowledged} acknowledged saves found in the database; references checked against the stored cases)`)
	if (run.lost.length) {
		lines.push('  Lost saves (first 10):')
		for (const item of run.lost.slice(0, 10)) lines.push(`    #${item.index} ${item.step}: ${item.why}`)
	}
	if (!ok && serverLog.length) lines.push('', '  Server output (last 40 lines):', ...serverLog.slice(-40).map((line) => `    ${line}`))
	console.log(lines.join('\n'))
	return ok
}

const mark = (met: boolean | undefined) => (met === undefined ? '– not measured' : met ? '✓ met' : '✗ not met')

function markdownOf(options: Options, runs: DatabaseRun[], facts: { machine: string; date: string; loadAtStart: string; loadAtEnd: string; revision: string }): string {
	const rows = runs.flatMap((run) =>
		run.phases.map((phase) => {
			const figures = figuresOf(phase)
			return [
				DATABASE_LABEL[run.database],
				phase.name,
				String(phase.applicants.length),
				`${figures.acknowledged}/${figures.saves}`,
				figures.perSecond.toFixed(1),
				ms(figures.server.p50),
				ms(figures.server.p95),
				ms(figures.server.sectionsP95),
				ms(figures.server.uploadsP95),
				ms(figures.clientP95),
				phase.rssAfterMb.toFixed(0),
			]
		}),
	)
	const phase = (run: DatabaseRun, name: PhaseName) => run.phases.find((candidate) => candidate.name === name)
	const goals = runs.flatMap((run) => {
		const label = DATABASE_LABEL[run.database]
		const realistic = phase(run, 'realistic')
		const saturation = phase(run, 'saturation')
		const p95 = realistic ? figuresOf(realistic).server.p95 : undefined
		const rate = saturation ? figuresOf(saturation).perSecond : undefined
		const rss = Math.max(...run.phases.map((item) => item.rssAfterMb))
		return [
			[`Server p95 < ${GOALS.serverP95Ms} ms with ${options.realistic} applicants at once, pausing (${label})`, p95 === undefined ? '–' : `${ms(p95)} ms`, mark(p95 === undefined ? undefined : p95 < GOALS.serverP95Ms)],
			[`≥ ${GOALS.savesPerSecond} saves/s at saturation (${label})`, rate === undefined ? '–' : rate.toFixed(1), mark(rate === undefined ? undefined : rate >= GOALS.savesPerSecond)],
			[`Server RSS < ${GOALS.rssMb} MB after the benchmark (${label})`, `${rss.toFixed(0)} MB`, mark(rss < GOALS.rssMb)],
		]
	})
	const lost = runs.reduce((total, run) => total + run.lost.length, 0)
	return [
		'### Section saves (`npm run bench:apply`)',
		'',
		`Measured ${facts.date} on ${facts.machine}; load average ${facts.loadAtStart} at the start, ${facts.loadAtEnd} at the end; commit ${facts.revision}.`,
		'',
		`Command: \`${commandLine('bench:apply')}\``,
		'',
		`Each applicant fills in the whole ${options.definition.type} application without JavaScript, as a browser posts it: every section, each row of a list, the required files (a PDF and a phone photo), then the check page. **realistic**: ${options.realistic} applicants at once, each pausing ${options.think.min}–${options.think.max} s between steps. **saturation**: ${options.saturation} applicants, ${options.concurrency} at a time, without pauses. Server ms is the server's own time to its answer's headers (its \`Server-Timing\`); client ms adds the network and the answer's body. RSS is the server's resident memory after each phase. Every acknowledged save was then looked up in the database: ${lost} lost.`,
		'',
		markdownTable(['database', 'phase', 'applicants', 'acknowledged', 'saves/s', 'server p50 ms', 'server p95 ms', 'p95 sections', 'p95 uploads', 'client p95 ms', 'RSS after MB'], rows),
		'',
		`Idle, before the first request: ${runs.map((run) => `${DATABASE_LABEL[run.database]} ${run.idleRssMb.toFixed(0)} MB`).join(', ')}.`,
		'',
		'Against the goals:',
		'',
		markdownTable(['goal', 'today', 'status'], goals, ['l', 'l', 'l']),
	].join('\n')
}

// ——— Main ———

async function measureOn(options: Options, database: BenchDatabase): Promise<DatabaseRun> {
	let url: string | undefined
	if (database === 'postgres') {
		const created = await createBenchDatabase(options.adminUrl)
		benchDatabase = { adminUrl: options.adminUrl, name: created.name }
		url = created.url
	}
	const dataDir = path.join(tempDir!, `${database}-data`)
	console.log(`\nStarting the production server on ${DATABASE_LABEL[database]}${benchDatabase ? ` (${benchDatabase.name}, dropped afterwards)` : ''}…`)
	// Each applicant has an address of its own (X-Forwarded-For), so the per-address limits count families.
	const server: AppServer = await startAppServer({ root, dataDir, databaseUrl: url, env: { TRUST_PROXY: 'true', FILE_ENCRYPTION_KEY: fileKey.toString('hex') }, signal: abort.signal })
	console.log(`  answering after ${server.startSeconds.toFixed(1)} s, quiet ${server.settleSeconds.toFixed(1)} s later (${server.idleRssMb.toFixed(0)} MB RSS)`)
	// The server going away mid-run is a failure, not a wait for timeouts.
	void server.service.exited.then(({ code, signal }) => {
		if (!abort.signal.aborted && !stopping) abort.abort(new Error(`the server exited unexpectedly (code ${code}, signal ${signal})`))
	})
	const phases: Phase[] = []
	const run = async (name: PhaseName, first: number, count: number, concurrency: number, think: Options['think'], how: string) => {
		console.log(`  ${name}: ${how}…`)
		const started = performance.now()
		const applicants = await runPhase(options.definition, server.origin, first, count, concurrency, think)
		phases.push({ name, how, applicants, wallMs: performance.now() - started, rssAfterMb: treeRssMb(server.service.pid) })
	}
	if (options.realistic) {
		await run('realistic', 1, options.realistic, options.realistic, options.think, `${options.realistic} applicants at once, ${options.think.min}–${options.think.max} s between steps`)
	}
	if (options.saturation) {
		await run('saturation', options.realistic + 1, options.saturation, options.concurrency, { min: 0, max: 0 }, `${options.saturation} applicants, ${options.concurrency} at a time, no pauses`)
	}
	const serverLog = [...server.service.log]
	stopping = true
	await stopService(server.service)
	stopping = false
	if (server.service.exit?.code !== 0) console.error(`Note: the server did not exit cleanly on SIGTERM (code ${server.service.exit?.code}, signal ${server.service.exit?.signal}).`)
	const release = url ? () => {} : lockDataDir(dataDir, 'bench-apply')
	let lost: Lost[]
	try {
		verifyHandle = await openDatabase(url ? { url } : { dataDir: path.join(dataDir, 'pgdata') })
		lost = await verify(verifyHandle, phases.flatMap((phase) => phase.applicants), path.join(dataDir, 'uploads'))
	} finally {
		await verifyHandle?.close()
		verifyHandle = undefined
		release()
	}
	if (benchDatabase) {
		const { adminUrl, name } = benchDatabase
		benchDatabase = undefined
		await dropBenchDatabase(adminUrl, name)
	}
	const result: DatabaseRun = { database, startSeconds: server.startSeconds, settleSeconds: server.settleSeconds, idleRssMb: server.idleRssMb, phases, lost }
	passed &&= printRun(result, serverLog)
	return result
}

let stopping = false
let passed = true

async function main(options: Options): Promise<boolean> {
	buildIfNeeded()
	// The commit measured: the one built now, not whatever is checked out when the run ends.
	const revision = gitRevision(root)
	const machine = machineFacts()
	tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-bench-apply-'))
	photo = new Uint8Array(await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 196, g: 164, b: 132 } } }).jpeg().toBuffer())
	console.log(`Ataa apply benchmark (${options.definition.type}) on ${machine.line}; load average ${machine.loadAtStart}`)
	const runs: DatabaseRun[] = []
	for (const database of options.databases) {
		usedIds.clear()
		runs.push(await measureOn(options, database))
	}
	const markdown = markdownOf(options, runs, { machine: machine.line, date: machine.date, loadAtStart: machine.loadAtStart, loadAtEnd: loadNow(), revision })
	if (options.doc) console.log(`\nWritten to ${path.relative(process.cwd(), writeDocSection(root, 'bench:apply', markdown)) || 'docs/performance.md'}`)
	return passed
}

runBenchmark({ readOptions, timeoutSeconds: (options) => options.timeoutSeconds, main, cleanUp, abort })
