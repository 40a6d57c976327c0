import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { lockDataDir } from './data-dir-lock.server.ts'

const dirs: string[] = []
const tempDir = () => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-lock-'))
	dirs.push(dir)
	return dir
}
afterEach(() => {
	for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

it('a second process is refused while the first holds the data directory, and told how to run several instances', () => {
	const dir = tempDir()
	// The parent (the test runner) is alive: as a server holding the embedded database would be.
	fs.writeFileSync(path.join(dir, 'ataa.lock'), JSON.stringify({ pid: process.ppid, owner: 'server' }))
	expect(() => lockDataDir(dir, 'second server')).toThrow(
		`The data directory ${dir} is in use by process ${process.ppid} (server). Stop it first. The embedded database (PGlite) serves one process: to run several instances, give them a PostgreSQL server (DATABASE_URL).`,
	)
	expect(JSON.parse(fs.readFileSync(path.join(dir, 'ataa.lock'), 'utf8')).pid).toBe(process.ppid)
})

it('a lock left by a dead process is taken over, and released', () => {
	const dir = tempDir()
	const file = path.join(dir, 'ataa.lock')
	// Far above any pid the kernel hands out by default (pid_max 4194304).
	fs.writeFileSync(file, JSON.stringify({ pid: 4_194_305, owner: 'server' }))
	const release = lockDataDir(dir, 'server')
	expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ pid: process.pid, owner: 'server' })
	release()
	expect(fs.existsSync(file)).toBe(false)
})
