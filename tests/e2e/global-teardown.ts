// Removes this run's stored staff sessions (auth.setup.ts) once every test has run: one folder per
// server, PGlite's and PostgreSQL's (playwright.config.ts); and the operations tests' prepared instances.
import fs from 'node:fs'
import { removeTemplates } from '../../scripts/lib/prepared-instance.ts'
import { staffStateDir } from './utils.ts'

export default async function globalTeardown() {
	await removeTemplates()
	for (const port of [process.env.E2E_PORT, process.env.E2E_PG_PORT]) {
		if (port) fs.rmSync(staffStateDir(port), { recursive: true, force: true })
	}
}
