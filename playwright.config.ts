import { randomBytes } from 'node:crypto'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { defineConfig, devices } from '@playwright/test'
import { chromiumArgs, findChromium } from './scripts/lib/test-machine.mjs'

/** A port nobody listens on, chosen once by the runner; workers inherit it through the environment. */
async function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = net.createServer()
		server.once('error', reject)
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as net.AddressInfo
			server.close(() => resolve(port))
		})
	})
}

process.env.E2E_PORT ??= String(await freePort())
// The applicant journeys are tried without SMS codes: every server a test starts inherits this. The
// codes themselves are tried by tests/e2e/security/verification-codes.spec.ts and
// tests/e2e/operations/messages.spec.ts, on servers of their own with codes on, fake SMS providers
// and an SMTP server.
process.env.APPLICANT_VERIFICATION ??= 'off'
const baseURL = `http://localhost:${process.env.E2E_PORT}`
// The operations tests' prepared instances (scripts/lib/prepared-instance.ts): made once per run, removed by the global teardown.
process.env.E2E_TEMPLATES ??= path.join(os.tmpdir(), `ataa-e2e-templates-${randomBytes(4).toString('hex')}`)
// A second server runs the same build on PostgreSQL for the security tests (tests/e2e/security/),
// unless SKIP_POSTGRES=1 leaves PostgreSQL out (scripts/test.mjs).
const postgres = process.env.SKIP_POSTGRES !== '1'
while (postgres && (!process.env.E2E_PG_PORT || process.env.E2E_PG_PORT === process.env.E2E_PORT)) process.env.E2E_PG_PORT = String(await freePort())
const pgBaseURL = `http://localhost:${process.env.E2E_PG_PORT}`
const desktop = { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } }
const found = findChromium()
const chromium = 'path' in found ? found.path : '/usr/bin/chromium'

/** What both servers are started with: the first admin, and a small PDF limit for documents.spec.ts. */
const serverEnv = {
	ADMIN_EMAIL: 'admin@e2e.test',
	ADMIN_PASSWORD: 'E2e-Admin-Pass-1',
	DOCUMENT_MAX_MB: '1',
	// As a foundation runs it: no demo cases, Secure cookies, applicants' files encrypted under a key of the operator's.
	NODE_ENV: 'production',
	LOG_LEVEL: 'warn',
	FILE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
}
/** The production build on a temporary data directory (tests/e2e/serve.mjs removes it, and drops the database, when stopped). */
const server = (port: string, database: 'pglite' | 'postgres') => ({
	command: database === 'postgres' ? 'node tests/e2e/serve.mjs --postgres' : 'node tests/e2e/serve.mjs',
	url: `http://localhost:${port}/healthz`,
	env: { ...serverEnv, PORT: port },
	reuseExistingServer: false,
	// The first start records the demo content; its pictures are encoded later (app/images/deferred.server.ts).
	timeout: 180_000,
	// SIGTERM, not Playwright's default SIGKILL: serve.mjs then removes its data directory and database.
	gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 15_000 },
	// The server logs to standard output (app/utils/log.server.ts); at LOG_LEVEL=warn only what went wrong shows here.
	stdout: 'pipe' as const,
	stderr: 'pipe' as const,
})

export default defineConfig({
	testDir: 'tests/e2e',
	fullyParallel: true,
	workers: process.env.CI ? 2 : undefined,
	forbidOnly: Boolean(process.env.CI),
	retries: 0,
	reporter: process.env.CI ? 'line' : 'list',
	// Generous for a busy two-core machine (a laptop at work, a shared CI runner): a passing test
	// never waits for these, a server action that hashes a password or encodes a picture may.
	timeout: 60_000,
	expect: { timeout: 15_000 },
	use: {
		baseURL,
		launchOptions: {
			// Debian's Chromium, its headless shell when installed (scripts/lib/test-machine.mjs); Playwright never downloads a browser here.
			executablePath: chromium,
			args: chromiumArgs,
		},
		locale: 'ar-SA',
		// axe-core is injected as an inline script; the policy itself is checked by public.spec.ts.
		bypassCSP: true,
		trace: 'retain-on-failure',
		screenshot: 'only-on-failure',
	},
	// Removes this run's stored sessions (tests/e2e/.auth/<port>/, one folder per server).
	globalTeardown: './tests/e2e/global-teardown.ts',
	projects: [
		// Signs in once per staff role and stores the sessions in tests/e2e/.auth/<port>/ (utils.ts: staffState, pageAs).
		// Signing three people in hashes passwords (scrypt) several times: minutes on a loaded machine,
		// and safe to do again (each try adds staff of its own), so tried again once.
		{ name: 'setup', testMatch: /auth\.setup\.ts$/, timeout: 240_000, retries: 1 },
		{ name: 'desktop', dependencies: ['setup'], use: desktop, testIgnore: [/mobile\.spec/, /site-wide\.spec/, /security\//, /operations\//, /cluster\//] },
		{ name: 'mobile', dependencies: ['setup'], use: { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true }, testMatch: /mobile\.spec/ },
		// Authorization, private links, forged requests and search input, mostly over HTTP (no browser),
		// on PGlite here and, as far as the database takes part, on PostgreSQL (security-pg below).
		{ name: 'security', dependencies: ['setup'], testMatch: /security\/.*\.spec\.ts$/ },
		// Operations (tests/e2e/operations): each test starts servers of its own, on PGlite and on
		// PostgreSQL — a backup restored into a fresh instance, a server killed mid-save, a log searched for secrets.
		{ name: 'operations', use: desktop, testMatch: /operations\/.*\.spec\.ts$/ },
		// Two instances behind nginx on PostgreSQL and an S3-compatible bucket, started by the test
		// (tests/e2e/cluster; scripts/lib/cluster.ts). Also alone: `npm run test:cluster`.
		{ name: 'cluster', use: desktop, testMatch: /cluster\/.*\.spec\.ts$/ },
		// Tests that change what every visitor sees (the home page's announcement, whether applications
		// are open) run once everything else has finished, so no other test meets their changes.
		{ name: 'site-wide', dependencies: ['desktop', 'mobile', 'security'], use: desktop, testMatch: /site-wide\.spec/ },
		...(postgres
			? [
					{ name: 'setup-pg', testMatch: /auth\.setup\.ts$/, use: { baseURL: pgBaseURL }, timeout: 240_000, retries: 1 },
					// What the database takes part in: authorization, private links, forged requests, injection,
					// uploads, limits and the audit trail. Escaping (xss), headers and error pages, and Chromium's
					// PDF viewer are the same whatever stores the rows, so they run once, on PGlite; so do the
					// files that start servers of their own (codes, «أثرنا»).
					{
						name: 'security-pg',
						dependencies: ['setup-pg'],
						testMatch: /security\/.*\.spec\.ts$/,
						testIgnore: [/security\/xss\.spec/, /security\/headers-errors\.spec/, /security\/pdf-viewer\.spec/, /security\/verification-codes\.spec/, /security\/impact-disclosure\.spec/],
						use: { baseURL: pgBaseURL },
					},
				]
			: []),
	],
	// `npm run test:cluster` runs the cluster project alone, which starts servers of its own.
	webServer: process.env.E2E_CLUSTER_ONLY === '1' ? [] : [server(process.env.E2E_PORT!, 'pglite'), ...(postgres ? [server(process.env.E2E_PG_PORT!, 'postgres')] : [])],
})
