import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { openDatabase } from '#app/db/client.server.ts'

/**
 * Migrates one in-memory PGlite cluster and dumps it to a file that each test file's database is
 * loaded from (tests/db.ts), instead of each file migrating from nothing. Removed after the run.
 */
export default async function migratedPgliteTemplate(project: TestProject) {
	const handle = await openDatabase({})
	await handle.migrate()
	const dump = await handle.dumpDataDir!()
	await handle.close()
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-pglite-template-'))
	const file = path.join(dir, 'migrated.tar.gz')
	fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()))
	project.provide('pgliteTemplate', file)
	return () => fs.rmSync(dir, { recursive: true, force: true })
}
