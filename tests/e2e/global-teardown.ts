// Removes this run's stored staff sessions (auth.setup.ts) once every test has run: one folder per
// server, PGlite's and PostgreSQL's (playwright.config.ts).
import fs from 'node:fs'
import { staffStateDir } from './utils.ts'

export default function globalTeardown() {
	for (const port of [process.env.E2E_PORT, process.env.E2E_PG_PORT]) {
		if (port) fs.rmSync(staffStateDir(port), { recursive: true, force: true })
	}
}
