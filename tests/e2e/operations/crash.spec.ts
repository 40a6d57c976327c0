// Crash safety, briefly (`npm run bench:crash` runs it at length): applicants save sections and
// upload PDFs while the production server's node process is killed with SIGKILL at random moments
// and started again on the same data, on PGlite and on PostgreSQL. Every save the server
// acknowledged must be there afterwards, intact, and nothing half-written may be seen
// (scripts/lib/crash-loop.ts; docs/decisions/010-pglite-durability.md). No browser: fetch only.
import { expect, test } from '@playwright/test'
import { runCrashLoop } from '../../../scripts/lib/crash-loop.ts'
import { preparedInstance } from '../../../scripts/lib/prepared-instance.ts'
import type { BenchDatabase } from '../../../scripts/lib/bench-options.ts'
import { testDatabaseUrl } from '#tests/postgres.ts'

const KILLS = 3
// SKIP_POSTGRES=1 leaves PostgreSQL out, as it does for the other suites (playwright.config.ts).
const databases: BenchDatabase[] = process.env.SKIP_POSTGRES === '1' ? ['pglite'] : ['pglite', 'postgres']

for (const database of databases) {
	test(`every save acknowledged before a SIGKILL is there after the restart (${database})`, async () => {
		// About 40 s each on an idle 2-core machine; the margin is for a busy one.
		test.setTimeout(180_000)
		const run = await runCrashLoop({
			root: process.cwd(),
			database,
			// Started on an instance a first start prepared (migrated, seeded): the restarts are what is tested.
			instance: await preparedInstance(database, 'ataa-crash-'),
			kills: KILLS,
			adminUrl: testDatabaseUrl,
			savesBeforeKill: { min: 8, max: 30 },
			log: (line) => console.log(line),
		})
		console.log(`${database}: ${run.kills} kills, ${run.cases} cases, ${run.sections} sections and ${run.uploads} uploads acknowledged, ${run.interrupted} requests cut off, ${run.lost.length} lost, ${run.halfWritten.length} half-written, ${run.seconds.toFixed(0)} s`)
		expect(run.lost, 'acknowledged saves missing or changed').toEqual([])
		expect(run.halfWritten, 'half-written data seen').toEqual([])
		expect(run.refused, 'valid saves the server refused').toEqual([])
		expect(run.kills).toBe(KILLS)
		expect(run.sections).toBeGreaterThan(0)
		expect(run.uploads).toBeGreaterThan(0)
	})
}
