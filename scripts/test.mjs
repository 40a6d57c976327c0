// `npm test`: every check, in order, stopping at the first failure.
import { spawnSync } from 'node:child_process'
import { ensureChromium, ensureFfmpeg, ensureNginx, ensurePostgres } from './lib/test-machine.mjs'

const skipPostgres = process.env.SKIP_POSTGRES === '1'
const vitestProjects = skipPostgres ? ['--project', 'unit', '--project', 'db:pglite'] : []

// `npm run test:cluster`: the cluster browser test alone (it is also among the browser tests below).
const clusterOnly = process.argv.includes('--cluster')

/** @type {[name: string, command: string, args: string[]][]} */
const allSteps = [
	['lint', 'npm', ['run', '--silent', 'lint']],
	['typecheck', 'npm', ['run', '--silent', 'typecheck']],
	['unit and integration tests (PGlite and PostgreSQL)', 'npx', ['vitest', 'run', ...vitestProjects]],
	['production build', 'node', ['scripts/build-if-needed.mjs']],
	['browser tests (Chromium)', 'npx', ['playwright', 'test']],
]
/** @type {typeof allSteps} */
const steps = clusterOnly
	? [
			['production build', 'node', ['scripts/build-if-needed.mjs']],
			['cluster browser test (two instances behind nginx)', 'npx', ['playwright', 'test', '--project', 'cluster']],
		]
	: allSteps
if (clusterOnly) process.env.E2E_CLUSTER_ONLY = '1'
if (clusterOnly && skipPostgres) {
	console.error('\n✖ The cluster runs on PostgreSQL: unset SKIP_POSTGRES to run it.')
	process.exit(1)
}

if (skipPostgres) {
	console.warn('\n!!! SKIP_POSTGRES=1: the data-layer tests, the browser security suite on PostgreSQL and the cluster test are NOT run. Never set this in CI. !!!\n')
} else {
	await ensurePostgres(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres')
}

// Before the first step, so a missing browser stops the run at once instead of after the build.
const machineProblem = ensureChromium() ?? ensureFfmpeg() ?? (skipPostgres ? null : ensureNginx())
if (machineProblem) {
	console.error(`\n✖ ${machineProblem}`)
	process.exit(1)
}

for (const [name, command, args] of steps) {
	console.log(`\n▶ ${name}`)
	const result = spawnSync(command, args, { stdio: 'inherit' })
	if (result.status !== 0) {
		console.error(`\n✖ ${name} failed`)
		process.exit(result.status ?? 1)
	}
}
console.log('\n✔ all checks passed')
