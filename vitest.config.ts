import os from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
	test: {
		// Vitest's default on two cores is one file at a time. Most of a database test file's time is
		// PGlite's start and PostgreSQL's answers, so two at once: 364 s down to 246 s on two cores.
		maxWorkers: Math.max(2, os.availableParallelism() - 1),
		projects: [
			{
				test: {
					name: 'unit',
					include: ['app/**/*.test.ts', 'scripts/**/*.test.ts', 'vite/**/*.test.ts'],
					exclude: ['app/**/*.db.test.ts'],
					environment: 'node',
					// Hashing a password, encoding a picture or importing a route module's tree takes seconds
					// on a busy two-core machine; a passing test never waits for this.
					testTimeout: 30_000,
				},
			},
			{
				test: {
					name: 'db:pglite',
					include: ['app/**/*.db.test.ts'],
					// Starting PGlite and migrating takes seconds, a minute or more on a busy two-core machine
					// (npm test beside other work); a passing test never waits for these.
					hookTimeout: 180_000,
					testTimeout: 90_000,
					// Applicants' links open without SMS codes here, as in the browser tests; the codes' own tests
					// (app/verify/) turn them on.
					env: { TEST_DB: 'pglite', APPLICANT_VERIFICATION: 'off' },
					globalSetup: ['tests/pglite-global-setup.ts'],
				},
			},
			{
				test: {
					name: 'db:postgres',
					include: ['app/**/*.db.test.ts'],
					hookTimeout: 180_000,
					testTimeout: 90_000,
					env: { TEST_DB: 'postgres', APPLICANT_VERIFICATION: 'off' },
					globalSetup: ['tests/postgres-global-setup.ts'],
				},
			},
		],
	},
})
