// `npm test`: every check, in order, stopping at the first failure.
import { spawnSync } from 'node:child_process'
import { ensureChromium, ensureFfmpeg, ensurePostgres } from './lib/test-machine.mjs'

const skipPostgres = process.env.SKIP_POSTGRES === '1'
const vitestProjects = skipPostgres ? ['--project', 'unit', '--project', 'db:pglite'] : []

/** @type {[name: string, command: string, args: string[]][]} */
const steps = [
	['lint', 'npm', ['run', '--silent', 'lint']],
	['typecheck', 'npm', ['run', '--silent', 'typecheck']],
	['unit and integration tests (PGlite and PostgreSQL)', 'npx', ['vitest', 'run', ...vitestProjects]],
	['production build', 'node', ['scripts/build-if-needed.mjs']],
	['browser tests (Chromium)', 'npx', ['playwright', 'test']],
]

if (skipPostgres) {
	console.warn('\n!!! SKIP_POSTGRES=1: the data-layer tests and the browser security suite on PostgreSQL are NOT run. Never set this in CI. !!!\n')
} else {
	await ensurePostgres(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres')
}

// Before the first step, so a missing browser stops the run at once instead of after the build.
const machineProblem = ensureChromium() ?? ensureFfmpeg()
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
