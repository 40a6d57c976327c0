import { defineConfig } from 'vitest/config'

export default defineConfig({
	test: {
		projects: [
			{
				test: {
					name: 'unit',
					include: ['app/**/*.test.ts', 'scripts/**/*.test.ts'],
					exclude: ['app/**/*.db.test.ts'],
					environment: 'node',
				},
			},
			{
				test: {
					name: 'db:pglite',
					include: ['app/**/*.db.test.ts'],
					env: { TEST_DB: 'pglite' },
				},
			},
			{
				test: {
					name: 'db:postgres',
					include: ['app/**/*.db.test.ts'],
					env: { TEST_DB: 'postgres' },
					globalSetup: ['tests/postgres-global-setup.ts'],
				},
			},
		],
	},
})
