// Crash safety, at length: applicants save sections and upload PDFs while the production server's
// node process is killed with SIGKILL at random moments and started again on the same data; then
// every save the server acknowledged must be there, intact, and nothing half-written may be
// (scripts/lib/crash-loop.ts; docs/decisions/010-pglite-durability.md). `npm test` runs a few kills
// (tests/e2e/operations/crash.spec.ts); this runs many.
//   npm run bench:crash -- [--kills 25] [--db pglite|postgres] [--clients 4] [--database postgres://postgres@127.0.0.1:5432/postgres]
// Prints the figures per database; exits 1 on any lost, half-written or refused save.
// Only ever talks to this machine; the servers, their data and the bench databases are removed at the end.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { buildIfNeeded } from './build-if-needed.mjs'
import { crashTable, runCrashLoop, type CrashLoopResult } from './lib/crash-loop.ts'
import { adminDatabaseUrl, DATABASE_LABEL, databasesToRun, positiveInt, UsageError } from './lib/bench-options.ts'
import { killAllNow, stopAll } from './lib/bench-processes.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const abort = new AbortController()

async function main(): Promise<number> {
	const { values } = parseArgs({
		args: process.argv.slice(2),
		options: { kills: { type: 'string' }, db: { type: 'string' }, clients: { type: 'string' }, database: { type: 'string' } },
	})
	const kills = positiveInt('--kills', values.kills, 25)
	const clients = positiveInt('--clients', values.clients, 4)
	const databases = databasesToRun(values.db ?? process.env.BENCH_ONLY)
	const adminUrl = adminDatabaseUrl(values.database)
	buildIfNeeded()
	const results: CrashLoopResult[] = []
	for (const database of databases) {
		console.log(`\n${DATABASE_LABEL[database]}: ${kills} kills, ${clients} applicants at once`)
		results.push(await runCrashLoop({ root, database, kills, clients, adminUrl, log: (line) => console.log(`  ${line}`), signal: abort.signal }))
	}
	console.log(`\n${crashTable(results)}\n`)
	let ok = true
	for (const run of results) {
		for (const [what, lines] of [
			['refused', run.refused],
			['lost', run.lost],
			['half-written', run.halfWritten],
		] as const) {
			if (!lines.length) continue
			ok = false
			console.log(`${DATABASE_LABEL[run.database]}, ${what}:\n  ${lines.slice(0, 20).join('\n  ')}${lines.length > 20 ? `\n  … and ${lines.length - 20} more` : ''}`)
		}
	}
	console.log(ok ? 'Every acknowledged save survived every kill; nothing half-written was seen.' : 'FAILED: see above.')
	return ok ? 0 : 1
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.once(signal, () => {
		abort.abort()
		setTimeout(() => {
			killAllNow()
			process.exit(130)
		}, 10_000).unref()
	})
}

try {
	process.exitCode = await main()
} catch (error) {
	if (error instanceof UsageError) {
		console.error(error.message)
		process.exitCode = 2
	} else {
		console.error(error)
		process.exitCode = 1
	}
} finally {
	await stopAll()
}
