// Data directories (and PostgreSQL databases) that a first start has already prepared: migrated,
// the foundation's content seeded, its pictures' variants made, and no staff yet. The operations
// tests start a dozen servers of their own; each first start from nothing took 25 s of CPU on a
// quiet machine (migrations, the seed, the pictures), so one is prepared per run and database, and
// each test starts on a copy (docs/performance.md, the test run). What a first start from nothing
// does is still tested where it matters (encryption.spec.ts, the browser suites' own servers).
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startAppServer } from './bench-app.ts'
import { stopService } from './bench-processes.ts'
import { createBenchDatabase, dropBenchDatabase, withAdminClient } from './bench-postgres.ts'

export interface Instance {
	dataDir: string
	/** The instance's PostgreSQL database; PGlite in `dataDir` when undefined. */
	databaseUrl: string | undefined
	databaseName: string | undefined
}

export type DatabaseKind = 'pglite' | 'postgres'

const postgresUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

/** This run's folder of prepared instances, shared by the runner's workers (set by playwright.config.ts). */
function templatesRoot(): string {
	const root = process.env.E2E_TEMPLATES
	if (!root) throw new Error('E2E_TEMPLATES is not set: the prepared instances belong to a Playwright run (playwright.config.ts)')
	return root
}

interface Template {
	dataDir: string
	databaseName?: string
}

/** Made once per run and database by whichever worker asks first; the others wait for it. */
async function template(root: string, database: DatabaseKind): Promise<Template> {
	const dir = path.join(root, database)
	const ready = path.join(dir, 'ready.json')
	fs.mkdirSync(root, { recursive: true })
	try {
		fs.mkdirSync(dir)
	} catch {
		// Another worker is making it (or has made it).
		for (let waited = 0; !fs.existsSync(ready); waited += 250) {
			if (fs.existsSync(path.join(dir, 'failed'))) throw new Error(`preparing the ${database} instance failed in another worker`)
			if (waited > 600_000) throw new Error(`the prepared ${database} instance was not ready after 10 minutes`)
			await new Promise((resolve) => setTimeout(resolve, 250))
		}
		return JSON.parse(fs.readFileSync(ready, 'utf8')) as Template
	}
	try {
		const dataDir = path.join(dir, 'data')
		const made = database === 'postgres' ? await createBenchDatabase(postgresUrl, 'ataa_template') : undefined
		// Written first, so that the teardown drops the database even if preparing it fails.
		if (made) fs.writeFileSync(path.join(dir, 'database'), made.name)
		const server = await startAppServer({
			root: process.cwd(),
			dataDir,
			databaseUrl: made?.url,
			env: { ADMIN_EMAIL: 'template@e2e.test', ADMIN_PASSWORD: randomBytes(18).toString('base64url') },
		})
		try {
			// Quiet is not proof: the pictures' variants are done when the server says so.
			for (let waited = 0; !server.service.log.some((line) => line.includes('Demo pictures: the variants of')); waited += 250) {
				if (waited > 300_000) throw new Error(`the prepared ${database} instance's pictures were not done after 5 minutes:\n${server.service.log.slice(-20).join('\n')}`)
				await new Promise((resolve) => setTimeout(resolve, 250))
			}
		} finally {
			await stopService(server.service)
		}
		// No staff: each test's server makes its own first admin from its ADMIN_EMAIL.
		await removeStaff(dataDir, made?.url)
		const prepared: Template = { dataDir, databaseName: made?.name }
		fs.writeFileSync(ready, JSON.stringify(prepared))
		return prepared
	} catch (error) {
		fs.writeFileSync(path.join(dir, 'failed'), String(error))
		throw error
	}
}

async function removeStaff(dataDir: string, databaseUrl: string | undefined): Promise<void> {
	// Imported here: the app's database client is only needed by whoever prepares the instance.
	const { openDatabase } = await import('#app/db/client.server.ts')
	const { sql } = await import('drizzle-orm')
	const handle = await openDatabase(databaseUrl ? { url: databaseUrl } : { dataDir: path.join(dataDir, 'pgdata') })
	try {
		await handle.db.execute(sql`delete from audit_log`)
		await handle.db.execute(sql`delete from users`)
	} finally {
		await handle.close()
	}
}

/**
 * A new instance as a first start leaves it (no staff), in a data directory named `prefix`…, on
 * PGlite or on a new PostgreSQL database copied from the run's template. Remove it with `removeInstance`.
 */
export async function preparedInstance(database: DatabaseKind, prefix = 'ataa-e2e-'): Promise<Instance> {
	const made = await template(templatesRoot(), database)
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
	fs.cpSync(made.dataDir, dataDir, { recursive: true })
	if (!made.databaseName) return { dataDir, databaseUrl: undefined, databaseName: undefined }
	const name = `ataa_e2e_${randomBytes(5).toString('hex')}`
	// Two workers may copy the template at once; PostgreSQL refuses a copy while another connection is on it.
	for (let attempt = 0; ; attempt++) {
		try {
			await withAdminClient(postgresUrl, (client) => client.query(`create database ${name} template ${made.databaseName}`))
			break
		} catch (error) {
			if (attempt >= 20 || !/being accessed by other users/.test(String(error))) throw error
			await new Promise((resolve) => setTimeout(resolve, 500))
		}
	}
	const url = new URL(postgresUrl)
	url.pathname = `/${name}`
	return { dataDir, databaseUrl: url.toString(), databaseName: name }
}

/** An empty instance: a data directory named `prefix`… and, on PostgreSQL, a new empty database (a restore's target). */
export async function emptyInstance(database: DatabaseKind, prefix = 'ataa-e2e-'): Promise<Instance> {
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
	const made = database === 'postgres' ? await createBenchDatabase(postgresUrl) : undefined
	return { dataDir, databaseUrl: made?.url, databaseName: made?.name }
}

export async function removeInstance(instance: Instance): Promise<void> {
	fs.rmSync(instance.dataDir, { recursive: true, force: true })
	if (instance.databaseName) await dropBenchDatabase(postgresUrl, instance.databaseName)
}

/** Removes this run's prepared instances (playwright's global teardown). */
export async function removeTemplates(): Promise<void> {
	const root = process.env.E2E_TEMPLATES
	if (!root || !fs.existsSync(root)) return
	const database = path.join(root, 'postgres', 'database')
	if (fs.existsSync(database)) await dropBenchDatabase(postgresUrl, fs.readFileSync(database, 'utf8')).catch(() => {})
	fs.rmSync(root, { recursive: true, force: true })
}

