// Runs the production server on a fresh temporary data directory and removes it when stopped.
// With --postgres, the server runs on a new PostgreSQL database (ataa_e2e_<random>, on
// TEST_DATABASE_URL or the local server) instead of PGlite; the database is dropped when stopped.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { ensurePostgres } from '../../scripts/lib/test-machine.mjs'

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-e2e-'))
/** @type {NodeJS.ProcessEnv} */
const env = { ...process.env, DATA_DIR: dataDir }
// The address the tests open: links e-mailed to applicants and staff are built on it, and production
// refuses to start without it (app/utils/env.server.ts, publicOrigin).
env.APP_ORIGIN ??= `http://localhost:${env.PORT}`

const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
/** The database this run made, dropped again on exit; null on PGlite. */
const database = process.argv.includes('--postgres') ? `ataa_e2e_${randomBytes(6).toString('hex')}` : null

/** @param {string} sql */
async function onServer(sql) {
	const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 })
	await client.connect()
	try {
		await client.query(sql)
	} finally {
		await client.end()
	}
}

if (database) {
	await ensurePostgres(serverUrl)
	try {
		await onServer(`create database ${database}`)
	} catch (error) {
		fs.rmSync(dataDir, { recursive: true, force: true })
		console.error(`PostgreSQL is not reachable at ${serverUrl} (${/** @type {Error} */ (error).message}): the browser tests run on PostgreSQL too.`)
		console.error('Start it (README, «Running on PostgreSQL»), set TEST_DATABASE_URL, or — by hand only — SKIP_POSTGRES=1.')
		process.exit(1)
	}
	const url = new URL(serverUrl)
	url.pathname = `/${database}`
	env.DATABASE_URL = url.toString()
}

const server = spawn(process.execPath, ['server.mjs'], { stdio: 'inherit', env })

async function cleanUp() {
	fs.rmSync(dataDir, { recursive: true, force: true })
	if (database) await onServer(`drop database if exists ${database} with (force)`).catch((error) => console.error(`could not drop ${database}:`, error.message))
}

server.on('exit', async (code) => {
	await cleanUp()
	process.exit(code ?? 0)
})
for (const signal of ['SIGTERM', 'SIGINT']) {
	process.on(signal, () => server.kill('SIGTERM'))
}
