// The server's log holds no secret (docs/operations.md#logs). A server of the test's own, started as a
// foundation runs it with JSON logs, writes everything it prints into one file; a family applies with
// planted values, staff sign in (a wrong password too), set up their second step, change a password,
// download the family's file and change the case's status. Then the file is searched for every
// planted value, and for the request lines that prove the log was written at all.
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { BrowserContext } from '@playwright/test'
import { freePort } from '../../../scripts/lib/free-port.ts'
import { preparedInstance, removeInstance } from '../../../scripts/lib/prepared-instance.ts'
import { applyForNeedyFamilies, plantedApplicant } from '../apply-journey.ts'
import { pdfText } from '#tests/fixtures/marked-pdf.ts'
import { recordStudyInBrowser } from '../case-fixtures.ts'
import { addUser, authenticatorKey, expect, signIn, test, unique } from '../utils.ts'

const root = fileURLToPath(new URL('../../../', import.meta.url))

interface Server {
	origin: string
	logFile: string
	stop: () => Promise<void>
}

/** server.mjs on a new instance as a first start leaves it (and its own PostgreSQL database), everything it prints written to `logFile`. */
async function startServer(database: 'pglite' | 'postgres', logFile: string, env: Record<string, string>): Promise<Server> {
	const port = await freePort()
	const instance = await preparedInstance(database, 'ataa-logs-')
	const { dataDir } = instance
	const out = fs.openSync(logFile, 'w')
	const inherited = { ...process.env }
	for (const name of ['DATABASE_URL', 'SMTP_URL', 'SMS_URL', 'APP_ORIGIN', 'TRUST_PROXY', 'LOG_LEVEL', 'HTML_CACHE', 'DEMO_CASES']) delete inherited[name]
	const child: ChildProcess = spawn(process.execPath, ['server.mjs'], {
		cwd: root,
		// Standard output and standard error both into the file: nothing the server prints escapes the search.
		stdio: ['ignore', out, out],
		env: { ...inherited, ...env, PORT: String(port), APP_ORIGIN: `http://localhost:${port}`, DATA_DIR: dataDir, ...(instance.databaseUrl ? { DATABASE_URL: instance.databaseUrl } : {}) },
	})
	fs.closeSync(out)
	const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
	const origin = `http://localhost:${port}`
	let stopped = false
	const stop = async () => {
		if (stopped) return
		stopped = true
		child.kill('SIGTERM')
		await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))])
		if (child.exitCode === null) child.kill('SIGKILL')
		await removeInstance(instance)
	}
	// The first start records the demo content: up to a few minutes on a busy two-core machine.
	for (const started = Date.now(); ; ) {
		if (child.exitCode !== null) {
			await stop()
			throw new Error(`the server stopped on start:\n${fs.readFileSync(logFile, 'utf8').slice(-3000)}`)
		}
		const healthy = await fetch(`${origin}/healthz`).then((response) => response.ok, () => false)
		if (healthy) break
		if (Date.now() - started > 240_000) {
			await stop()
			throw new Error(`no answer from ${origin}/healthz in 4 minutes`)
		}
		await new Promise((resolve) => setTimeout(resolve, 500))
	}
	return { origin, logFile, stop }
}

/** The session cookies' values (and any other of ours) in these browser contexts. */
async function cookieValues(contexts: BrowserContext[]): Promise<string[]> {
	const cookies = (await Promise.all(contexts.map((context) => context.cookies()))).flat()
	return cookies.map((cookie) => cookie.value).filter((value) => value.length >= 8)
}

// One after the other: each starts a server and signs staff in (password hashing), too much at once for two cores.
test.describe.configure({ mode: 'default' })

const databases = process.env.SKIP_POSTGRES === '1' ? (['pglite'] as const) : (['pglite', 'postgres'] as const)

for (const database of databases) {
	test(`a full application and a staff review leave no secret in the log, and every request a line with its id (${database})`, async ({ browser }, testInfo) => {
		test.setTimeout(420_000)
		const id = unique()
		const adminPassword = `Logs-Admin-${randomBytes(9).toString('base64url')}`
		const officerPassword = `Logs-Officer-${randomBytes(9).toString('base64url')}`
		const wrongPassword = `Logs-Wrong-${randomBytes(9).toString('base64url')}`
		const admin = { email: `logs-admin-${id}@e2e.test`, password: adminPassword }
		const officer = { email: `logs-officer-${id}@e2e.test`, password: officerPassword }
		const planted = plantedApplicant(id)

		const server = await startServer(database, testInfo.outputPath('server.log'), {
			NODE_ENV: 'production',
			FILE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
			LOG_FORMAT: 'json',
			ADMIN_EMAIL: admin.email,
			ADMIN_PASSWORD: adminPassword,
		})
		const contexts: BrowserContext[] = []
		const newPage = async () => {
			const context = await browser.newContext({ baseURL: server.origin, locale: 'ar-SA' })
			contexts.push(context)
			return context.newPage()
		}
		let log = ''
		const seenIds: { id: string; route: string }[] = []
		try {
			// The family applies.
			const applicant = await newPage()
			const { token, reference } = await applyForNeedyFamilies(applicant, planted)
			// A request id of the caller's own (a proxy's) is kept; one the server makes is sent back.
			const traced = `logs-spec-${id}`
			const overview = await applicant.request.get(`/apply/r/${token}`, { headers: { 'X-Request-Id': traced } })
			expect(overview.headers()['x-request-id']).toBe(traced)

			// A wrong password, then the admin signs in (setting up the second step) and adds a case officer.
			const stranger = await newPage()
			await signIn(stranger, { email: admin.email, password: wrongPassword })
			await expect(stranger.getByRole('alert')).toContainText('الرجاء التحقق من بيانات الدخول')
			const staff = await newPage()
			await signIn(staff, admin)
			await addUser(staff, { name: `مسؤول حالات ${id}`, email: officer.email, mobile: '0500000000', roles: ['case_officer'], password: officerPassword })

			// The officer signs in with the password the admin set, sets up the second step, chooses a password of their own
			// (tests/e2e/utils.ts: the new one is the old one followed by «-Own-Choice»).
			const reviewer = await newPage()
			await signIn(reviewer, officer)
			const officerNewPassword = `${officerPassword}-Own-Choice`

			// The review: the case, a file downloaded, a status change with a note.
			const opened = await reviewer.goto(`/admin/cases/${reference}`)
			const openedId = opened!.headers()['x-request-id']!
			expect(openedId).toMatch(/^[0-9a-f-]{36}$/)
			seenIds.push({ id: openedId, route: '/admin/cases/:reference' })
			await expect(reviewer.getByRole('heading', { level: 1 })).toHaveText(planted.name)
			const href = await reviewer.getByRole('link', { name: /^تنزيل هوية/ }).getAttribute('href')
			const file = await reviewer.request.get(href!)
			expect(file.status()).toBe(200)
			expect(pdfText(await file.body())).toContain(planted.identityMarker)
			seenIds.push({ id: file.headers()['x-request-id']!, route: '/admin/cases/:reference/files/:fileId' })
			// The visit report first: «تمت الدراسة» follows it.
			await recordStudyInBrowser(reviewer, reference)
			const study = reviewer.locator('details', { has: reviewer.locator('summary', { hasText: 'إلى «تمت الدراسة»' }) })
			await study.locator('summary').click()
			await study.getByLabel('ملاحظة داخلية (سبب التغيير)').fill('زار الباحث الأسرة')
			await study.getByRole('button', { name: 'تغيير الحالة إلى «تمت الدراسة»' }).click()
			await expect(reviewer.getByRole('status')).toContainText('تم تغيير الحالة إلى «تمت الدراسة»')

			// A client's mistakes: an address no page has (a newline in it), a POST to a page without a form.
			const strange = await applicant.request.get('/%0a/x')
			expect(strange.status()).toBe(404)
			const posted = await applicant.request.post('/about', { form: { a: '1' }, headers: { Origin: server.origin } })
			expect(posted.status()).toBe(405)

			const secrets: Record<string, string> = {
				'the national ID': planted.nationalId,
				'the IBAN': planted.iban,
				'the IBAN without its check digits': planted.iban.slice(4),
				'the mobile': planted.mobile,
				'the mobile without its 0': planted.mobile.slice(1),
				'the e-mail': planted.email,
				'the private link token': token,
				"the identity file's bytes": planted.identityMarker,
				"the family file's bytes": planted.familyMarker,
				"the admin's password": adminPassword,
				"the case officer's first password": officerPassword,
				"the case officer's own password": officerNewPassword,
				'the wrong password': wrongPassword,
				"the admin's authenticator key": authenticatorKey(admin.email),
				"the case officer's authenticator key": authenticatorKey(officer.email),
			}
			for (const [index, value] of (await cookieValues(contexts)).entries()) secrets[`cookie ${index + 1}`] = value
			expect(Object.keys(secrets).filter((name) => name.startsWith('cookie')).length).toBeGreaterThanOrEqual(2)

			await server.stop()
			log = fs.readFileSync(server.logFile, 'utf8')
			for (const [what, value] of Object.entries(secrets)) {
				expect(log.includes(value), `${what} (${value}) is in the log`).toBe(false)
			}

			// LOG_FORMAT=json: the app's lines are JSON objects, and its requests are there with their ids.
			const entries = log
				.split('\n')
				.filter((line) => line.startsWith('{'))
				.map((line) => JSON.parse(line) as Record<string, unknown>)
			const requests = entries.filter((entry) => entry.msg === 'request')
			const line = (route: string, method = 'GET') => requests.find((entry) => entry.route === route && entry.method === method)
			for (const [route, method] of [
				['/apply/:type/new', 'POST'],
				['/apply/r/:token/:step', 'GET'],
				['/apply/r/:token/:step', 'POST'],
				['/apply/r/:token/files/upload', 'POST'],
				['/apply/r/:token/check', 'POST'],
				['/login', 'POST'],
				['/login/two-step/setup', 'POST'],
				['/admin/users/new', 'POST'],
				['/admin/account', 'POST'],
				['/admin/cases/:reference', 'POST'],
			] as const) {
				const found = line(route, method)
				expect(found, `a ${method} ${route} line`).toBeDefined()
				expect(found!.reqId).toEqual(expect.stringMatching(/^[A-Za-z0-9._-]{8,64}$/))
				expect(found!.status).toEqual(expect.any(Number))
				expect(found!.ms).toEqual(expect.any(Number))
			}
			for (const seen of seenIds) expect(requests.find((entry) => entry.reqId === seen.id), `the line of ${seen.route}`).toMatchObject({ route: seen.route, status: 200 })
			expect(requests.find((entry) => entry.reqId === traced)).toMatchObject({ method: 'GET', route: '/apply/r/:token', status: 200 })
			// Three sign-ins by password (the wrong one, the admin, the officer): three lines.
			expect(requests.filter((entry) => entry.route === '/login' && entry.method === 'POST').length).toBeGreaterThanOrEqual(3)
			// The client's mistakes are logged as theirs, with their status; only our own failures are errors.
			const clientErrors = entries.filter((entry) => entry.route === '/%0a/x' || (entry.route === '/about' && entry.method === 'POST'))
			expect(clientErrors.filter((entry) => entry.level === 'error' || entry.level === 'fatal'), 'no client error at error level').toEqual([])
			expect(clientErrors.find((entry) => entry.route === '/%0a/x' && entry.msg === 'client error')).toMatchObject({ level: 'info', status: 404 })
			expect(clientErrors.find((entry) => entry.route === '/about' && entry.msg === 'client error')).toMatchObject({ level: 'info', status: 405 })
			// No request line carries headers, a query string or a body.
			for (const entry of requests) expect(Object.keys(entry).sort()).toEqual(expect.arrayContaining(['method', 'reqId', 'route', 'status']))
			expect(requests.some((entry) => 'headers' in entry || 'req' in entry || 'res' in entry || String(entry.route).includes('?'))).toBe(false)
		} finally {
			await Promise.all(contexts.map((context) => context.close()))
			await server.stop()
			if (log) await testInfo.attach('server.log', { path: server.logFile })
		}
	})
}
