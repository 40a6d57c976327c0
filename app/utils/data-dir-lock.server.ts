import fs from 'node:fs'
import path from 'node:path'

/**
 * PGlite is one process's database: a second process opening the same data directory would corrupt
 * it. The server and the operator scripts take this lock first; a stale lock (dead pid) is taken over.
 */
export function lockDataDir(dataDir: string, owner: string): () => void {
	fs.mkdirSync(dataDir, { recursive: true })
	const file = path.join(dataDir, 'ataa.lock')
	for (let attempt = 0; attempt < 2; attempt++) {
		try {
			fs.writeFileSync(file, JSON.stringify({ pid: process.pid, owner }), { flag: 'wx' })
			return () => fs.rmSync(file, { force: true })
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
			const holder = readHolder(file)
			if (holder && holder.pid !== process.pid && isAlive(holder.pid)) {
				throw new Error(
					`The data directory ${dataDir} is in use by process ${holder.pid} (${holder.owner}). Stop it first. ` +
						'The embedded database (PGlite) serves one process: to run several instances, give them a PostgreSQL server (DATABASE_URL).',
				)
			}
			fs.rmSync(file, { force: true })
		}
	}
	throw new Error(`Could not lock the data directory ${dataDir}.`)
}

function readHolder(file: string): { pid: number; owner: string } | undefined {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8'))
	} catch {
		return undefined
	}
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0)
		return true
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM'
	}
}
