import net from 'node:net'
import { defineConfig, devices } from '@playwright/test'

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
const baseURL = `http://localhost:${process.env.E2E_PORT}`
const desktop = { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } }

export default defineConfig({
	testDir: 'tests/e2e',
	fullyParallel: true,
	workers: process.env.CI ? 2 : undefined,
	forbidOnly: Boolean(process.env.CI),
	retries: 0,
	reporter: process.env.CI ? 'line' : 'list',
	timeout: 30_000,
	use: {
		baseURL,
		launchOptions: {
			// Debian's Chromium; Playwright never downloads a browser here.
			executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
			args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
		},
		locale: 'ar-SA',
		// axe-core is injected as an inline script; the policy itself is checked by public.spec.ts.
		bypassCSP: true,
		trace: 'retain-on-failure',
		screenshot: 'only-on-failure',
	},
	// Removes this run's stored sessions (tests/e2e/.auth/<port>/).
	globalTeardown: './tests/e2e/global-teardown.ts',
	projects: [
		// Signs in once per staff role and stores the sessions in tests/e2e/.auth/<port>/ (utils.ts: staffState, pageAs).
		{ name: 'setup', testMatch: /auth\.setup\.ts$/ },
		{ name: 'desktop', dependencies: ['setup'], use: desktop, testIgnore: [/mobile\.spec/, /site-wide\.spec/] },
		{ name: 'mobile', dependencies: ['setup'], use: { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true }, testMatch: /mobile\.spec/ },
		// Tests that change what every visitor sees (the home page's announcement, whether applications
		// are open) run once everything else has finished, so no other test meets their changes.
		{ name: 'site-wide', dependencies: ['desktop', 'mobile'], use: desktop, testMatch: /site-wide\.spec/ },
	],
	webServer: {
		// The production build on a temporary data directory (tests/e2e/serve.mjs removes it afterwards).
		command: 'node tests/e2e/serve.mjs',
		url: `${baseURL}/healthz`,
		env: { PORT: process.env.E2E_PORT, ADMIN_EMAIL: 'admin@e2e.test', ADMIN_PASSWORD: 'E2e-Admin-Pass-1', DOCUMENT_MAX_MB: '1' },
		reuseExistingServer: false,
		// The first start records the demo content; its pictures are encoded later (app/images/deferred.server.ts).
		timeout: 180_000,
		stdout: 'ignore',
		stderr: 'pipe',
	},
})
