// Removes this run's stored staff sessions (auth.setup.ts) once every test has run.
import fs from 'node:fs'
import { staffStateDir } from './utils.ts'

export default function globalTeardown() {
	fs.rmSync(staffStateDir(), { recursive: true, force: true })
}
