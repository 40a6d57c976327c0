// `npm test`: every check, in order, stopping at the first failure.
import { spawn } from 'node:child_process'
import { ensureChromium, ensureFfmpeg, ensureNginx, ensurePostgres } from './lib/test-machine.mjs'

const skipPostgres = process.env.SKIP_POSTGRES === '1'
const vitestProjects = skipPostgres ? ['--project', 'unit', '--project', 'db:pglite'] : []

// `npm run test:cluster`: the cluster browser test alone (it is also among the browser tests below).
const clusterOnly = process.argv.includes('--cluster')

/** @typedef {[name: string, command: string, args: string[]]} Step */
/** Each entry one step, or steps run side by side (each one process on one core: lint and typecheck). @type {(Step | Step[])[]} */
const allSteps = [
	[
		['lint', 'npm', ['run', '--silent', 'lint']],
		['typecheck', 'npm', ['run', '--silent', 'typecheck']],
	],
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

/**
 * Runs one step; `quiet` keeps its output until it ends (steps side by side would mix theirs).
 * @param {Step} step
 * @param {boolean} quiet
 * @returns {Promise<{ name: string, code: number, output: string, seconds: number }>}
 */
function run([name, command, args], quiet) {
	const started = performance.now()
	return new Promise((resolve) => {
		const child = spawn(command, args, { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' })
		let output = ''
		child.stdout?.on('data', (chunk) => (output += chunk))
		child.stderr?.on('data', (chunk) => (output += chunk))
		child.on('close', (code, signal) => resolve({ name, code: code ?? (signal ? 1 : 0), output, seconds: Math.round((performance.now() - started) / 1000) }))
	})
}

const started = performance.now()
for (const entry of steps) {
	const group = typeof entry[0] === 'string' ? [/** @type {Step} */ (entry)] : /** @type {Step[]} */ (entry)
	console.log(`\n▶ ${group.map(([name]) => name).join(' and ')}`)
	const results = await Promise.all(group.map((step) => run(step, group.length > 1)))
	for (const result of results) {
		if (result.output) process.stdout.write(result.output)
		console.log(`${result.code === 0 ? '✔' : '✖'} ${result.name}: ${result.seconds} s`)
	}
	const failed = results.find((result) => result.code !== 0)
	if (failed) {
		console.error(`\n✖ ${failed.name} failed`)
		process.exit(failed.code)
	}
}
console.log(`\n✔ all checks passed in ${Math.round((performance.now() - started) / 1000)} s`)
