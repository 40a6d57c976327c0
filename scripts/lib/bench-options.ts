import { parseArgs } from 'node:util'
// What the benchmark scripts share about their command line: a usage error, whole-number options
// and a PostgreSQL URL that may only point at this machine (the benches create and drop databases).

export class UsageError extends Error {}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]'])

export function positiveInt(name: string, value: string | undefined, fallback: number): number {
	if (value === undefined || value === '') return fallback
	const number = Number(value)
	if (!Number.isInteger(number) || number < 1) throw new UsageError(`${name} must be a whole number ≥ 1 (got "${value}")`)
	return number
}

/** `--database`: a postgres:// URL on this machine, or a UsageError saying what is wrong. */
export function localDatabaseUrl(database: string): string {
	let url: URL
	try {
		url = new URL(database)
	} catch {
		throw new UsageError('--database must be a URL like postgres://postgres@127.0.0.1:5432/postgres')
	}
	if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new UsageError('--database must start with postgres://')
	if (!LOCAL_HOSTS.has(url.hostname)) throw new UsageError('--database must point at 127.0.0.1 or localhost')
	return database
}

/** The two databases the benches run the app on, and how reports name them. */
export type BenchDatabase = 'pglite' | 'postgres'
export const DATABASE_LABEL: Record<BenchDatabase, string> = { pglite: 'PGlite', postgres: 'PostgreSQL' }

/** `--only` (or BENCH_ONLY): the database named, or both when it is not given. */
export function databasesToRun(only: string | undefined): BenchDatabase[] {
	if (only === undefined || only === '') return ['pglite', 'postgres']
	if (only !== 'pglite' && only !== 'postgres') throw new UsageError(`--only must be pglite or postgres (got "${only}")`)
	return [only]
}

/** `--database` (or BENCH_DATABASE_URL): the PostgreSQL server on which a bench makes and drops its databases. */
export function adminDatabaseUrl(database: string | undefined): string {
	return localDatabaseUrl(database ?? process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres')
}

/** The options of a bench over generated cases on both databases: `--cases`, `--runs`, `--database`, `--only` (or their BENCH_ variables). */
export interface CaseBenchOptions {
	cases: number
	runs: number
	database: string
	only: BenchDatabase | undefined
}

export function readCaseBenchOptions(defaults: { runs: number }): CaseBenchOptions {
	const { values } = parseArgs({ args: process.argv.slice(2), options: { cases: { type: 'string' }, database: { type: 'string' }, runs: { type: 'string' }, only: { type: 'string' } } })
	const only = values.only ?? process.env.BENCH_ONLY
	return {
		cases: positiveInt('--cases', values.cases ?? process.env.BENCH_CASES, 100_000),
		runs: positiveInt('--runs', values.runs ?? process.env.BENCH_RUNS, defaults.runs),
		database: adminDatabaseUrl(values.database),
		only: only ? databasesToRun(only)[0] : undefined,
	}
}
