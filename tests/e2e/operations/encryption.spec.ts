// Applicants' files need a key (docs/operations.md#encryption-at-rest). server.mjs started as an
// operator starts it: in production without FILE_ENCRYPTION_KEY it does not start, and says how to
// make one; as the demo (no NODE_ENV), it makes a key of its own in DATA_DIR and warns.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort } from '../../../scripts/lib/free-port.ts'
import { expect, test } from '../utils.ts'

const root = fileURLToPath(new URL('../../../', import.meta.url))

/** server.mjs on a fresh data directory; resolves with what it printed once it exits or answers /healthz. */
async function start(env: Record<string, string>) {
	const port = await freePort()
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-encryption-'))
	const inherited = { ...process.env }
	for (const name of ['DATABASE_URL', 'FILE_ENCRYPTION_KEY', 'FILE_ENCRYPTION_OLD_KEYS', 'NODE_ENV', 'ATAA_ENV', 'DEMO_CASES']) delete inherited[name]
	const child = spawn(process.execPath, ['server.mjs'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...inherited, APP_ORIGIN: `http://localhost:${port}`, ...env, PORT: String(port), DATA_DIR: dataDir, DEMO_CASES: 'false', LOG_FORMAT: 'json' } })
	let output = ''
	child.stdout.on('data', (part: Buffer) => (output += part.toString()))
	child.stderr.on('data', (part: Buffer) => (output += part.toString()))
	const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
	const stop = async () => {
		if (child.exitCode === null) {
			child.kill('SIGTERM')
			await exited
		}
		fs.rmSync(dataDir, { recursive: true, force: true })
	}
	for (const started = Date.now(); child.exitCode === null && Date.now() - started < 170_000; ) {
		const answered = await fetch(`http://localhost:${port}/healthz`).then(
			(response) => response.ok,
			() => false,
		)
		if (answered) break
		await new Promise((resolve) => setTimeout(resolve, 250))
	}
	// Each JSON log line by its message, as an operator reads it (LOG_FORMAT=json escapes new lines and quotes).
	const messages = () =>
		output
			.split('\n')
			.map((line) => {
				try {
					return String((JSON.parse(line) as { msg?: unknown }).msg ?? line)
				} catch {
					return line
				}
			})
			.join('\n')
	return { dataDir, output: messages, exitCode: () => child.exitCode, stop }
}

test('production without FILE_ENCRYPTION_KEY: the server does not start, and says how to make a key', async () => {
	test.setTimeout(120_000)
	const server = await start({ NODE_ENV: 'production' })
	try {
		expect(server.exitCode()).toBe(1)
		expect(server.output()).toContain('FILE_ENCRYPTION_KEY is not set')
		expect(server.output()).toContain(`node -e "console.log(require('node:crypto').randomBytes(32).toString('hex'))"`)
		expect(server.output()).toContain('Ataa did not start.')
		// No key of its own was made for it, and no database was opened.
		expect(fs.readdirSync(server.dataDir)).toEqual([])
	} finally {
		await server.stop()
	}
})

test('production without APP_ORIGIN: the server does not start, and says why (links sent are built on it, not on the request)', async () => {
	test.setTimeout(120_000)
	const server = await start({ NODE_ENV: 'production', FILE_ENCRYPTION_KEY: '0'.repeat(64), APP_ORIGIN: '' })
	try {
		expect(server.exitCode()).toBe(1)
		expect(server.output()).toContain('APP_ORIGIN is not set')
		expect(server.output()).toContain('Ataa did not start.')
		expect(fs.readdirSync(server.dataDir)).toEqual([])
	} finally {
		await server.stop()
	}
})

test('the demo without a key: one is made in DATA_DIR, readable by its owner only, and production is warned of', async () => {
	test.setTimeout(200_000)
	const server = await start({})
	try {
		expect(server.exitCode()).toBeNull()
		const keyFile = path.join(server.dataDir, 'file-encryption.key')
		expect(fs.readFileSync(keyFile, 'utf8')).toMatch(/^[0-9a-f]{64}\n$/)
		expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600)
		expect(server.output()).toContain('In production set FILE_ENCRYPTION_KEY')
	} finally {
		await server.stop()
	}
})
