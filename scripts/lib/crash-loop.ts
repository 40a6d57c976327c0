// The crash test's loop, shared by tests/e2e/operations/crash.spec.ts (a few kills) and
// `npm run bench:crash` (many): applicants save sections and upload PDFs over HTTP while the server's
// node process is killed with SIGKILL at random moments and started again on the same data. After
// each restart, the pages of the private links show every save the server acknowledged, and every
// file they list downloads with the bytes that were sent; at the end, with the server stopped, the
// database itself is read: every acknowledged save is there, and nothing half-written is
// (docs/decisions/010-pglite-durability.md).
import { createHash, randomBytes, randomInt } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openDatabase, type DatabaseHandle } from '#app/db/client.server.ts'
import { and, eq, isNull } from 'drizzle-orm'
import { attachments, caseSections, cases } from '#app/db/schema.ts'
import { hashResumeToken } from '#app/cases/tokens.server.ts'
import { nationalIdWithCheckDigit } from '#app/domain/validators.ts'
import type { FieldDef } from '#app/forms/definition.ts'
import { needyFamilies } from '#app/forms/definitions/needy-families.ts'
import { sectionSchema } from '#app/forms/schema.ts'
import { asksConsent } from '#app/privacy/consent-rules.ts'
import { lockDataDir } from '#app/utils/data-dir-lock.server.ts'
import { basicAnswers, sectionAnswers, validIban } from '#tests/fixtures/needy-families.ts'
import { markedPdf, pdfText } from '#tests/fixtures/marked-pdf.ts'
import { startAppServer } from './bench-app.ts'
import type { BenchDatabase } from './bench-options.ts'
import { createBenchDatabase, dropBenchDatabase } from './bench-postgres.ts'
import { startService, stopService, waitForHttp, type Service } from './bench-processes.ts'
import { freePort } from './free-port.ts'

export interface CrashLoopOptions {
	/** The repository whose build (build/server) is run. */
	root: string
	database: BenchDatabase
	kills: number
	/** Applicants saving at once (4). */
	clients?: number
	/** The PostgreSQL server on which a throw-away database is made (database 'postgres'). */
	adminUrl?: string
	/**
	 * How many saves the server acknowledges between a restart and the next kill, drawn evenly from
	 * [min, max] (10-60): counted in saves, not seconds, so that a slow machine tests as much. The
	 * kill then comes 0-150 ms later, in the middle of whatever is under way.
	 */
	savesBeforeKill?: { min: number; max: number }
	log?: (line: string) => void
	signal?: AbortSignal
	/**
	 * Where to start instead of from nothing: a data directory (and database) a first start already
	 * prepared (scripts/lib/prepared-instance.ts). Removed at the end like one made here.
	 */
	instance?: { dataDir: string; databaseUrl: string | undefined; databaseName: string | undefined }
}

export interface CrashLoopResult {
	database: BenchDatabase
	kills: number
	/** Applications whose start the server acknowledged. */
	cases: number
	/** Saves acknowledged: the first section, later sections, rows, «next», the final submit. */
	sections: number
	uploads: number
	/** Requests cut off by a kill: what they carried may or may not be stored, and either is right. */
	interrupted: number
	/** Answers that were neither the acknowledgement expected nor a cut connection (must be none). */
	refused: string[]
	/** Acknowledged saves missing or changed (must be none). */
	lost: string[]
	/** Things visible that no acknowledged or interrupted save wrote (must be none). */
	halfWritten: string[]
	seconds: number
}

const definition = needyFamilies
const sectionOf = (key: string) => definition.sections.find((section) => section.key === key)!
const REQUEST_TIMEOUT_MS = 60_000
/** Saves in the loop phase before an applicant sends the application and the next one starts. */
const LOOP_ACTIONS = 8

type Values = Record<string, unknown>

/** The first section's answers: the applicant's identity, which starts the case. */
export const basicValues = (nationalId: string, mobile: string): Values => basicAnswers(nationalId, mobile)

const familyMember = { ...sectionAnswers.family.members[0]! }
const referrers = [
	{ Name: 'الشيخ فهد العتيبي', RelatedPerson: 'tribe_sheikh' },
	{ Name: 'إمام مسجد الحي', PhoneNumber: '0501112233', RelatedPerson: 'mosque_imam' },
	{ Name: 'جار الأسرة', RelatedPerson: 'other' },
]

/** A valid national ID nobody else's run will draw. */
export const randomNationalId = () => nationalIdWithCheckDigit(`1${String(randomInt(100_000_000)).padStart(8, '0')}`)

/** The case behind a private link, read from the database (as app/cases/case-store.server.ts finds it). */
export async function caseByToken(handle: DatabaseHandle, token: string) {
	const [row] = await handle.db.select().from(cases).where(eq(cases.resumeTokenHash, hashResumeToken(token)))
	return row
}

/** A case's files as its list shows them (removed ones left out). */
export function storedAttachments(handle: DatabaseHandle, caseId: string) {
	return handle.db
		.select()
		.from(attachments)
		.where(and(eq(attachments.caseId, caseId), isNull(attachments.deletedAt)))
}

/** A case's saved answers by section. */
async function savedAnswers(handle: DatabaseHandle, caseId: string): Promise<Record<string, Values | undefined>> {
	const rows = await handle.db.select({ section: caseSections.section, answers: caseSections.answers }).from(caseSections).where(eq(caseSections.caseId, caseId))
	return Object.fromEntries(rows.map((row) => [row.section, row.answers as Values]))
}

/** What one section should hold: the last acknowledged answers, or one of those sent after them whose answer a kill cut off. */
interface SectionRecord {
	acked: Values | undefined
	pending: Values[]
}

/**
 * A PDF sent: the server keeps it made again (docs/security.md#uploads), never its bytes, so it is
 * found by the marker its page draws, and by its file name (which holds the marker too).
 */
interface Upload {
	slot: string
	marker: string
	name: string
	acked: boolean
}

interface Applicant {
	n: number
	ip: string
	nationalId: string
	token: string | undefined
	/** A start whose answer a kill cut off: a case may exist that nobody holds the link to. */
	lostStart: boolean
	step: number
	loops: number
	sections: Map<string, SectionRecord>
	/** Rows by section: those acknowledged, and all sent (a cut-off one may be stored). */
	rows: Map<string, { acked: string[]; sent: string[] }>
	uploads: Upload[]
	submitted: 'no' | 'sent' | 'acked'
	/** The consent step answered «given», acknowledged. */
	consent: boolean
	/** Saved since the last check through the app. */
	touched: boolean
	done: boolean
}

type Outcome = 'acked' | 'interrupted' | 'refused'

// ——— What applicants send ———

/** A PDF of 2 to 200 kB whose page draws `marker`, padded with random text: every upload's bytes are its own. */
function distinctPdf(marker: string): Buffer {
	const padding = randomBytes(randomInt(1_500, 150_000))
		.toString('base64')
		.replace(/[^A-Za-z0-9]/g, 'z')
	return markedPdf(marker, padding)
}

/** What a person reads first on a refused page: its title and error summary, not the site's header. */
function excerptOf(html: string): string {
	const plain = (part: string) =>
		part
			.replace(/<script[\s\S]*?<\/script>/g, ' ')
			.replace(/<[^>]+>/g, ' ')
			.replace(/\s+/g, ' ')
			.trim()
	const title = html.match(/<title>([\s\S]*?)<\/title>/)?.[1] ?? ''
	const alert = html.match(/<div[^>]*role="alert"[^>]*>([\s\S]*?)<\/div>/)?.[1] ?? ''
	return (title || alert ? `${plain(title)} — ${plain(alert)}` : plain(html)).slice(0, 240)
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** The uploads whose marker a PDF's pages draw. */
const heldIn = (bytes: Uint8Array, uploads: readonly Upload[]) => {
	if (Buffer.from(bytes.subarray(0, 5)).toString('latin1') !== '%PDF-') return []
	const text = pdfText(bytes)
	return uploads.filter((upload) => text.includes(upload.marker))
}

function financialValues(): Values {
	return { Net_Income: String(randomInt(500, 20_000)), Social_Insurance: `${randomInt(0, 3_000)}.${randomInt(10, 99)}`, Subsidies: String(randomInt(0, 900)) }
}

function bankValues(): Values {
	return { Bank_Name_1: 'alrajhi', Bank_No_1: validIban, Bank_No_2: 'SA' }
}

/**
 * The journey up to the loop phase: the needy-families form, every section in order (the consent
 * step before the bank details), its two required files right after the start as a phone's camera
 * would send them (a slot takes files before its step is reached).
 */
const JOURNEY = ['start', 'upload-identity', 'upload-family_report', ...(asksConsent(definition) ? ['consent'] : []), 'bank', 'financial', 'family-row', 'family-next', 'referrers', 'services', 'files']

/** A form as a browser sends it: the honeypot empty, ticked boxes as repeated names, a fixed-size group's rows as `name[i].field` (Conform). */
function formOf(values: Values, extra: Record<string, string> = {}): URLSearchParams {
	const body = new URLSearchParams({ website: '', ...extra })
	for (const [name, value] of Object.entries(values)) {
		for (const [index, item] of (Array.isArray(value) ? value : [value]).entries()) {
			if (item !== null && typeof item === 'object') for (const [field, inner] of Object.entries(item)) body.append(`${name}[${index}].${field}`, String(inner))
			else body.append(name, String(item))
		}
	}
	return body
}

// ——— One run ———

export async function runCrashLoop(options: CrashLoopOptions): Promise<CrashLoopResult> {
	const started = performance.now()
	const log = options.log ?? (() => {})
	const clients = options.clients ?? 4
	const savesBeforeKill = options.savesBeforeKill ?? { min: 10, max: 60 }
	const dataDir = options.instance?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-crash-'))
	// Kept across restarts, as an operator's key is: files written before a kill must still decrypt.
	const env = { FILE_ENCRYPTION_KEY: randomBytes(32).toString('hex'), TRUST_PROXY: 'true' }
	let benchDatabase: { name: string; url: string } | undefined = options.instance?.databaseName ? { name: options.instance.databaseName, url: options.instance.databaseUrl! } : undefined
	let server: { origin: string; service: Service; startSeconds: number } | undefined
	let verifyHandle: DatabaseHandle | undefined
	const result: CrashLoopResult = { database: options.database, kills: 0, cases: 0, sections: 0, uploads: 0, interrupted: 0, refused: [], lost: [], halfWritten: [], seconds: 0 }
	const applicants: Applicant[] = []
	// A run number in the national IDs: two runs on one PostgreSQL server never share one.
	const runId = randomInt(1_000, 9_999)
	let nextApplicant = 0

	// A free port is found by closing a probe on it; another process on the machine may take it before
	// the server listens (EADDRINUSE). That start is tried again, on another port.
	const retryingPort = async (begin: () => Promise<void>) => {
		for (let attempt = 1; ; attempt++) {
			try {
				return await begin()
			} catch (error) {
				if (attempt === 3 || !String(error instanceof Error ? error.message : error).includes('EADDRINUSE')) throw error
			}
		}
	}
	const start = () =>
		retryingPort(async () => {
			server = await startAppServer({ root: options.root, dataDir, databaseUrl: benchDatabase?.url, env, signal: options.signal })
		})
	// A restart as a service manager makes it: the same command, data and variables, in use once
	// /healthz answers. (startAppServer would also wait for the first start's background work, the
	// demo pictures, to end: seconds a crash test need not spend on every restart.)
	const restart = () => retryingPort(restartOnce)
	const restartOnce = async () => {
		const port = await freePort()
		const variables: NodeJS.ProcessEnv = { ...process.env, ...env, PORT: String(port), DATA_DIR: dataDir, NODE_ENV: 'production', APPLICANT_VERIFICATION: 'off', MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' }
		for (const name of ['DATABASE_URL', 'APP_ORIGIN', 'HTML_CACHE', 'SMTP_URL', 'SMS_URL']) delete variables[name]
		variables.APP_ORIGIN = `http://127.0.0.1:${port}`
		if (benchDatabase) variables.DATABASE_URL = benchDatabase.url
		const spawned = performance.now()
		const service = startService('the app server', process.execPath, [path.join(options.root, 'server.mjs')], { cwd: options.root, env: variables })
		const origin = `http://127.0.0.1:${port}`
		server = { origin, service, startSeconds: 0 }
		try {
			await waitForHttp(`${origin}/healthz`, service, 120_000, options.signal)
		} catch (error) {
			throw new Error(`${error instanceof Error ? error.message : error}\n  ${service.log.slice(-20).join('\n  ')}`)
		}
		server.startSeconds = (performance.now() - spawned) / 1000
	}

	// The applicants pause while the server is down; `gate` resolves when they may go on.
	let paused = false
	let stopped = false
	let gate: Promise<void> = Promise.resolve()
	let openGate = () => {}
	const idle = new Set<number>()
	let idleChanged = () => {}

	const newApplicant = (): Applicant => {
		const n = nextApplicant++
		const applicant: Applicant = {
			n,
			ip: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
			nationalId: nationalIdWithCheckDigit(`1${runId}${String(n).padStart(4, '0')}`),
			token: undefined,
			lostStart: false,
			step: 0,
			loops: 0,
			sections: new Map(),
			rows: new Map(),
			uploads: [],
			submitted: 'no',
			consent: false,
			touched: true,
			done: false,
		}
		applicants.push(applicant)
		return applicant
	}

	// Saves acknowledged since the last restart, and who waits for a number of them (the next kill).
	let acksSinceStart = 0
	let ackWaiter: { count: number; resolve: () => void } | undefined
	const acknowledged = () => {
		acksSinceStart++
		if (ackWaiter && acksSinceStart >= ackWaiter.count) ackWaiter.resolve()
	}
	const afterSaves = (count: number, timeoutMs: number) =>
		new Promise<void>((resolve) => {
			const timer = setTimeout(resolve, timeoutMs)
			ackWaiter = {
				count,
				resolve: () => {
					clearTimeout(timer)
					resolve()
				},
			}
			if (acksSinceStart >= count) ackWaiter.resolve()
		})

	/** One POST; 'acked' only once the whole answer is in and is the one a success gives. */
	async function post(applicant: Applicant, url: string, body: URLSearchParams | FormData, expect: (response: Response, text: string) => boolean, accept?: string): Promise<Outcome> {
		const origin = server!.origin
		let response: Response
		let text: string
		try {
			response = await fetch(origin + url, {
				method: 'POST',
				body,
				redirect: 'manual',
				headers: { Origin: origin, 'X-Forwarded-For': applicant.ip, ...(accept ? { Accept: accept } : {}) },
				signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
			})
			text = await response.text()
		} catch {
			result.interrupted++
			return 'interrupted'
		}
		if (expect(response, text)) {
			acknowledged()
			return 'acked'
		}
		// A kill between the answer's head and its end is a cut connection too (text() above threw);
		// anything else is the server refusing a valid save.
		result.refused.push(`applicant ${applicant.n}, POST ${url.replace(applicant.token ?? '-', '<token>')}: ${response.status} ${response.headers.get('location') ?? ''} ${excerptOf(text)}`)
		return 'refused'
	}

	const redirectsTo = (wanted: RegExp) => (response: Response) => (response.status === 302 || response.status === 303) && wanted.test(new URL(response.headers.get('location') ?? '', server!.origin).pathname)
	const uploadOk = (response: Response, text: string) => {
		if (response.status !== 200) return false
		try {
			return (JSON.parse(text) as { ok?: unknown }).ok === true
		} catch {
			return false
		}
	}

	function record(applicant: Applicant, key: string, values: Values, outcome: Outcome) {
		const entry = applicant.sections.get(key) ?? { acked: undefined, pending: [] }
		applicant.sections.set(key, entry)
		if (outcome === 'acked') {
			entry.acked = values
			entry.pending = []
			result.sections++
		} else if (outcome === 'interrupted') entry.pending.push(values)
	}

	async function saveSection(applicant: Applicant, key: string, values: Values, next: RegExp): Promise<Outcome> {
		const outcome = await post(applicant, `/apply/r/${applicant.token}/${key}`, formOf(values), redirectsTo(next))
		record(applicant, key, values, outcome)
		return outcome
	}

	async function addRow(applicant: Applicant, key: string, values: Values & { name: string }): Promise<Outcome> {
		const rows = applicant.rows.get(key) ?? { acked: [], sent: [] }
		applicant.rows.set(key, rows)
		const { name, ...fields } = values
		rows.sent.push(name)
		const base = `/apply/r/${applicant.token}`
		const outcome = await post(applicant, `${base}/${key}`, formOf(fields, { intent: 'add-row' }), redirectsTo(new RegExp(`^${base}/${key}$`)))
		if (outcome === 'acked') {
			rows.acked.push(name)
			result.sections++
		}
		return outcome
	}

	async function upload(applicant: Applicant, slot: string): Promise<Outcome> {
		const marker = `crash${randomBytes(8).toString('hex')}`
		const sent: Upload = { slot, marker, name: `${slot}-${marker}.pdf`, acked: false }
		applicant.uploads.push(sent)
		const body = new FormData()
		body.append('slot', slot)
		body.append('file', new File([new Uint8Array(distinctPdf(marker))], sent.name, { type: 'application/pdf' }))
		const outcome = await post(applicant, `/apply/r/${applicant.token}/files/upload`, body, uploadOk, 'application/json')
		if (outcome === 'acked') {
			sent.acked = true
			result.uploads++
		}
		return outcome
	}

	/** The applicant's next save: the journey's next step, then random saves, then the submit. */
	async function act(applicant: Applicant): Promise<void> {
		applicant.touched = true
		const base = `/apply/r/${applicant.token}`
		const forward = (key: string) => new RegExp(`^${base}/${key}$`)
		let outcome: Outcome
		if (applicant.step < JOURNEY.length) {
			const step = JOURNEY[applicant.step]!
			switch (step) {
				case 'start': {
					const values = basicValues(applicant.nationalId, `05${String(runId).slice(0, 4)}${String(applicant.n).padStart(4, '0')}`)
					let location = ''
					outcome = await post(applicant, `/apply/${definition.type}/new`, formOf(values), (response) => {
						location = response.headers.get('location') ?? ''
						return (response.status === 302 || response.status === 303) && /^\/apply\/r\/[A-Za-z0-9_-]{43}$/.test(new URL(location, server!.origin).pathname)
					})
					if (outcome === 'acked') {
						applicant.token = new URL(location, server!.origin).pathname.split('/').at(-1)!
						record(applicant, 'basic', values, outcome)
						result.cases++
					} else if (outcome === 'interrupted') applicant.lostStart = true
					break
				}
				case 'consent':
					outcome = await post(applicant, `${base}/consent`, formOf({ consent: 'given' }), redirectsTo(forward('bank')))
					if (outcome === 'acked') {
						applicant.consent = true
						result.sections++
					}
					break
				case 'bank':
					outcome = await saveSection(applicant, 'bank', bankValues(), forward('financial'))
					break
				case 'financial':
					outcome = await saveSection(applicant, 'financial', financialValues(), forward('family'))
					break
				case 'family-row':
					outcome = await addRow(applicant, 'family', { ...familyMember, FamilyName: `فرد ${applicant.n}`, name: `فرد ${applicant.n}` })
					break
				case 'family-next':
					// A collection's «save and continue»: what it stores is checked as the rows above.
					outcome = await post(applicant, `${base}/family`, new URLSearchParams({ intent: 'next' }), redirectsTo(forward('referrers')))
					if (outcome === 'acked') result.sections++
					break
				case 'referrers':
					// Three referrers, a fixed-size group: one form.
					outcome = await saveSection(applicant, 'referrers', { persons: referrers.map((person) => ({ ...person, NationalAddress: `RRS${randomInt(1_000, 9_999)}` })) }, forward('services'))
					break
				case 'services':
					outcome = await saveSection(applicant, 'services', { services: ['food_basket', 'other'], servicesOther: `أجهزة منزلية ${randomInt(1_000_000)}` }, forward('files'))
					break
				case 'upload-identity':
				case 'upload-family_report':
					outcome = await upload(applicant, step.slice('upload-'.length))
					break
				case 'files':
					outcome = await saveSection(applicant, 'files', { PatientMassage: `نرجو النظر في حالتنا ${randomInt(1_000_000)}` }, forward('check'))
					break
				default:
					throw new Error(`No such step: ${step}`)
			}
			// A step cut off mid-journey leaves the case where it stands (and checked as such): the next
			// steps depend on what it stored, so this applicant stops and another starts.
			if (outcome === 'acked') applicant.step++
			else applicant.done = true
			return
		}
		if (applicant.loops >= LOOP_ACTIONS) {
			outcome = await post(applicant, `${base}/check`, formOf({ acknowledge: 'on' }), redirectsTo(forward('done')))
			applicant.submitted = outcome === 'acked' ? 'acked' : outcome === 'interrupted' ? 'sent' : 'no'
			if (outcome === 'acked') result.sections++
			applicant.done = true
			return
		}
		applicant.loops++
		const pick = Math.random()
		if (pick < 0.5) outcome = await upload(applicant, 'other')
		else if (pick < 0.75) outcome = await saveSection(applicant, 'financial', financialValues(), forward('family'))
		else if (pick < 0.9) outcome = await saveSection(applicant, 'bank', bankValues(), forward('financial'))
		else outcome = await saveSection(applicant, 'files', { PatientMassage: `رسالة ${randomInt(1_000_000)}` }, forward('check'))
		if (outcome === 'refused') applicant.done = true
	}

	async function worker(id: number) {
		let applicant = newApplicant()
		while (!stopped) {
			if (paused) {
				idle.add(id)
				idleChanged()
				await gate
				idle.delete(id)
				continue
			}
			if (applicant.done) applicant = newApplicant()
			await act(applicant)
		}
		idle.add(id)
		idleChanged()
	}

	const allIdle = () =>
		new Promise<void>((resolve) => {
			const check = () => {
				if (idle.size === clients) resolve()
			}
			idleChanged = check
			check()
		})

	// ——— Checks through the app ———

	/** A GET as the applicant's browser makes it; an answer cut short (a file shorter than it says) is status 0. */
	async function get(url: string): Promise<{ status: number; text: string; bytes: Uint8Array }> {
		try {
			const response = await fetch(server!.origin + url, { redirect: 'manual', signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })
			const bytes = new Uint8Array(await response.arrayBuffer())
			return { status: response.status, text: new TextDecoder().decode(bytes), bytes }
		} catch (error) {
			return { status: 0, text: String(error), bytes: new Uint8Array() }
		}
	}

	/** The value a page's input shows (money fields are plain inputs). */
	const inputValue = (html: string, name: string) => {
		const tag = html.match(new RegExp(`<input[^>]*\\bname="${name}"[^>]*>`))?.[0]
		return tag?.match(/\bvalue="([^"]*)"/)?.[1] ?? ''
	}

	async function checkThroughApp(applicant: Applicant, when: string) {
		if (!applicant.token) return
		const base = `/apply/r/${applicant.token}`
		const who = `${when}, applicant ${applicant.n}`
		const overview = await get(base)
		if (overview.status !== 200) {
			result.lost.push(`${who}: the private link answers ${overview.status}`)
			return
		}
		if (applicant.submitted === 'acked' || applicant.submitted === 'sent') return
		// The section the loop keeps changing: its page shows the last acknowledged amounts, or those
		// of a save cut off after them.
		const financial = applicant.sections.get('financial')
		if (financial?.acked) {
			const page = await get(`${base}/financial`)
			const shown = Number(inputValue(page.text, 'Net_Income'))
			const allowed = [financial.acked, ...financial.pending].map((values) => Number(values.Net_Income))
			if (page.status !== 200 || !allowed.includes(shown)) result.lost.push(`${who}: financial shows Net_Income ${shown} (status ${page.status}), expected one of ${allowed.join(', ')}`)
		}
		if (!applicant.sections.get('services')?.acked) return
		// Every file the files step lists must download whole; every acknowledged one must be listed.
		const page = await get(`${base}/files`)
		if (page.status !== 200) {
			result.lost.push(`${who}: the files step answers ${page.status} ${page.status === 302 ? 'redirect' : ''}`)
			return
		}
		// Every file listed is a PDF holding uploads of this applicant (a document made of its pages, or
		// one PDF made again); every acknowledged upload is in one, or shown as a page of a document
		// still being made from its pages (after a restart, or right after the upload).
		const held = new Set<Upload>()
		for (const [, fileId] of page.text.matchAll(new RegExp(`href="${base}/files/([^"/]+)"`, 'g'))) {
			const file = await get(`${base}/files/${fileId}`)
			const uploads = file.status === 200 ? heldIn(file.bytes, applicant.uploads) : []
			if (uploads.length === 0) result.halfWritten.push(`${who}: listed file ${fileId} answers ${file.status} with ${file.bytes.length} bytes that hold no upload sent`)
			for (const upload of uploads) held.add(upload)
		}
		for (const sent of applicant.uploads) if (sent.acked && !held.has(sent) && !page.text.includes(sent.name)) result.lost.push(`${who}: acknowledged upload ${sent.name} is neither in a listed file nor shown as a page`)
	}

	// ——— The check of the database, with the server stopped ———

	/** A document the database lists, to be downloaded through the app: its recorded bytes, and the uploads it may hold. */
	interface Download {
		who: string
		url: string
		sha256: string
		uploads: Upload[]
	}
	/** Acknowledged uploads without a page: their document must hold them. */
	const unpaged: { who: string; sent: Upload }[] = []

	const canonical = (value: unknown) =>
		JSON.stringify(value, (key, inner: unknown) => {
			if (key === '_key') return undefined
			if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return inner
			return Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
		})

	/** Checks the database; returns every attachment it lists, to be downloaded through the app. */
	async function checkDatabase(handle: DatabaseHandle): Promise<Download[]> {
		const known = new Set<string>()
		const downloads: Download[] = []
		for (const applicant of applicants) {
			if (!applicant.token) continue
			const who = `applicant ${applicant.n}`
			const row = await caseByToken(handle, applicant.token)
			if (!row) {
				result.lost.push(`${who}: no case for the private link`)
				continue
			}
			known.add(row.id)
			const answers = await savedAnswers(handle, row.id)
			for (const [key, entry] of applicant.sections) {
				const section = sectionOf(key)
				const stored = canonical(answers[key] ?? null)
				const allowed = [...(entry.acked ? [entry.acked] : []), ...entry.pending].map((values) => canonical(sectionSchema(section).parse(values)))
				if (!entry.acked) allowed.push(canonical(null))
				if (!allowed.includes(stored)) result.lost.push(`${who}: section ${key} holds ${stored.slice(0, 200)}`)
			}
			for (const [key, rows] of applicant.rows) {
				const group = sectionOf(key).fields.find((field): field is Extract<FieldDef, { kind: 'group' }> => field.kind === 'group')!
				const stored = ((answers[key]?.[group.name] ?? []) as Values[]).map((item) => String(item[group.fields[0]!.name]))
				const order = (names: string[]) => names.filter((name) => stored.includes(name)).join('|')
				if (rows.acked.some((name) => !stored.includes(name))) result.lost.push(`${who}: ${key} rows ${stored.join(', ')} lack an acknowledged one of ${rows.acked.join(', ')}`)
				if (stored.some((name) => !rows.sent.includes(name)) || order(rows.sent) !== stored.join('|')) result.halfWritten.push(`${who}: ${key} rows ${stored.join(', ')}, sent ${rows.sent.join(', ')}`)
			}
			const files = await storedAttachments(handle, row.id)
			// A document's pages (slot page:<slot>) are the uploads, each under its name; the document
			// (the slot itself) is the PDF the server made of them, checked once downloaded. Pages are
			// not served; documents are. Once the case is sent, its pages go and its documents stay.
			for (const file of files) {
				const slot = file.slot.replace(/^page:/, '')
				if (slot === file.slot) {
					downloads.push({ who, url: `/apply/r/${applicant.token}/files/${file.id}`, sha256: file.sha256, uploads: applicant.uploads.filter((upload) => upload.slot === slot) })
					continue
				}
				const sent = applicant.uploads.find((upload) => upload.name === file.originalName)
				if (!sent || sent.slot !== slot) result.halfWritten.push(`${who}: page ${file.id} (${file.slot}, ${file.originalName}) matches no upload sent`)
			}
			for (const sent of applicant.uploads) if (sent.acked && !files.some((file) => file.originalName === sent.name)) unpaged.push({ who, sent })
			if (applicant.consent && row.consent !== 'given') result.lost.push(`${who}: acknowledged consent, case says ${row.consent}`)
			if (applicant.submitted === 'acked' && row.submittedAt === null) result.lost.push(`${who}: acknowledged submit, case not sent`)
			if (applicant.submitted === 'no' && row.submittedAt !== null) result.halfWritten.push(`${who}: case sent without a submit`)
		}
		// Cases nobody holds a link to (a start cut off by a kill) must be whole too: a case never lacks its first section.
		const all = await handle.db.select({ id: cases.id, nationalId: cases.nationalId }).from(cases)
		const lostStarts = applicants.filter((applicant) => applicant.lostStart).map((applicant) => applicant.nationalId)
		for (const row of all) {
			if (!(await savedAnswers(handle, row.id)).basic) result.halfWritten.push(`case ${row.id} has no first section`)
			if (!known.has(row.id) && !lostStarts.includes(row.nationalId ?? '')) result.halfWritten.push(`case ${row.id} was started by no applicant of this run`)
		}
		return downloads
	}

	// ——— The loop ———

	try {
		if (options.database === 'postgres' && !benchDatabase) benchDatabase = await createBenchDatabase(options.adminUrl ?? 'postgres://postgres@127.0.0.1:5432/postgres')
		await start()
		log(`${options.database}: serving at ${server!.origin} after ${server!.startSeconds.toFixed(1)} s`)
		const workers = Array.from({ length: clients }, (_, id) => worker(id))
		for (let kill = 1; kill <= options.kills; kill++) {
			options.signal?.throwIfAborted()
			// A minute without enough saves is a server that stopped answering: the checks will say so.
			await afterSaves(randomInt(savesBeforeKill.min, savesBeforeKill.max + 1), 60_000)
			await new Promise((resolve) => setTimeout(resolve, randomInt(0, 151)))
			// The node process itself, mid-request: no handler runs, nothing is flushed or closed.
			const { service } = server!
			service.child.kill('SIGKILL')
			paused = true
			gate = new Promise((resolve) => (openGate = resolve))
			await service.exited
			await allIdle()
			result.kills++
			await restart()
			const checked = performance.now()
			const ready = await get('/readyz')
			if (ready.status !== 200) result.halfWritten.push(`after kill ${kill}: /readyz answers ${ready.status} ${ready.text}`)
			for (const applicant of applicants) {
				if (!applicant.touched) continue
				applicant.touched = false
				await checkThroughApp(applicant, `after kill ${kill}`)
			}
			log(`${options.database}: kill ${kill}/${options.kills}, answering again ${server!.startSeconds.toFixed(1)} s after the restart, checked in ${((performance.now() - checked) / 1000).toFixed(1)} s; ${result.sections} sections and ${result.uploads} uploads acknowledged so far`)
			acksSinceStart = 0
			paused = false
			openGate()
		}
		stopped = true
		openGate()
		await Promise.all(workers)
		// The database itself, with the server stopped as an operator stops it (SIGTERM).
		const stopCleanly = async (when: string) => {
			const { service } = server!
			await stopService(service)
			if (service.exit?.code !== 0) result.halfWritten.push(`${when}: the server did not stop cleanly on SIGTERM (exit ${service.exit?.code}, ${service.exit?.signal})`)
		}
		await stopCleanly('after the last save')
		const release = benchDatabase ? () => {} : lockDataDir(dataDir, 'crash test')
		let downloads: Awaited<ReturnType<typeof checkDatabase>>
		try {
			verifyHandle = await openDatabase({ url: benchDatabase?.url, dataDir: benchDatabase ? undefined : path.join(dataDir, 'pgdata') })
			downloads = await checkDatabase(verifyHandle)
		} finally {
			await verifyHandle?.close()
			verifyHandle = undefined
			release()
		}
		// Then every attachment the database lists, sent cases' too, downloaded as its applicant would: the bytes sent, decrypted.
		await restart()
		// An acknowledged upload with no page any more (the case was sent) is in its slot's document.
		const inDocuments = new Set<Upload>()
		for (const download of downloads) {
			const file = await get(download.url)
			const where = download.url.replace(/\/r\/[^/]+/, '/r/<token>')
			if (file.status !== 200 || sha256(file.bytes) !== download.sha256) result.halfWritten.push(`${download.who}: ${where} answers ${file.status} with ${file.bytes.length} bytes, not the file recorded`)
			const uploads = heldIn(file.bytes, download.uploads)
			if (uploads.length === 0) result.halfWritten.push(`${download.who}: ${where} holds no upload sent to its slot`)
			for (const upload of uploads) inDocuments.add(upload)
		}
		for (const { who, sent } of unpaged) if (!inDocuments.has(sent)) result.lost.push(`${who}: acknowledged upload ${sent.name} has no page, and its slot's document does not hold it`)
		await stopCleanly('at the end')
	} finally {
		stopped = true
		openGate()
		if (server) await stopService(server.service, 'SIGKILL')
		await verifyHandle?.close()
		if (benchDatabase) await dropBenchDatabase(options.adminUrl ?? 'postgres://postgres@127.0.0.1:5432/postgres', benchDatabase.name)
		fs.rmSync(dataDir, { recursive: true, force: true })
	}
	result.seconds = (performance.now() - started) / 1000
	return result
}

/** The figures as a table, one row per database. */
export function crashTable(results: CrashLoopResult[]): string {
	const rows = [
		['database', 'kills', 'cases', 'sections acked', 'uploads acked', 'interrupted', 'refused', 'lost', 'half-written', 'seconds'],
		...results.map((run) => [run.database, run.kills, run.cases, run.sections, run.uploads, run.interrupted, run.refused.length, run.lost.length, run.halfWritten.length, run.seconds.toFixed(0)].map(String)),
	]
	const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)))
	return rows.map((row) => row.map((cell, column) => cell.padStart(widths[column]!)).join('  ')).join('\n')
}
