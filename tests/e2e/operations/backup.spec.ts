// A backup of a running instance, restored into a fresh one, holds every row and every byte
// (docs/operations.md, backups and restore). A server of the test's own, as a foundation runs it
// (production, applicants' files encrypted under the operator's key), gets a submitted case with
// its files, a staff user and a content edit; `npm run backup` runs while it serves visitors; the
// archive is restored with `npm run restore` into a new data directory (and a new PostgreSQL
// database); then both databases are read table by table, every stored file compared, and the
// applicant's file downloaded through a server started on the restore.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { sql } from 'drizzle-orm'
import sharp from 'sharp'
import type { Browser, Page } from '@playwright/test'
import { openDatabase } from '#app/db/client.server.ts'
import { databaseSnapshot, filesSnapshot } from '#app/operations/backup-snapshot.ts'
import { startAppServer, type AppServer } from '../../../scripts/lib/bench-app.ts'
import { stopService, waitUntilQuiet } from '../../../scripts/lib/bench-processes.ts'
import { emptyInstance, preparedInstance, removeInstance, type Instance } from '../../../scripts/lib/prepared-instance.ts'
import { caseFileIds, submitCaseAsStaff } from '../case-fixtures.ts'
import { addUser, expect, signIn, test, unique } from '../utils.ts'

const root = fileURLToPath(new URL('../../../', import.meta.url))

/** `npm run <script> -- <args>` as an operator runs it, with the instance's settings; its exit code and output. */
function npmRun(script: string, args: string[], instance: Instance, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
	const inherited = { ...process.env }
	for (const name of ['DATABASE_URL', 'DATA_DIR', 'NODE_ENV']) delete inherited[name]
	const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
		cwd: root,
		env: { ...inherited, ...env, DATA_DIR: instance.dataDir, ...(instance.databaseUrl ? { DATABASE_URL: instance.databaseUrl } : {}) },
		stdio: ['ignore', 'pipe', 'pipe'],
	})
	let output = ''
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')))
	child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')))
	return new Promise((resolve) => child.on('close', (code) => resolve({ code, output: output.replace(/^npm warn .*\n/gm, '') })))
}

/** Every row of every table, read with no server running (PGlite is one process's). */
async function rowsOf(instance: Instance) {
	const handle = await openDatabase(instance.databaseUrl ? { url: instance.databaseUrl } : { dataDir: path.join(instance.dataDir, 'pgdata') })
	try {
		return await databaseSnapshot(async (text) => (await handle.db.execute(sql.raw(text))) as unknown as { rows: Record<string, unknown>[] })
	} finally {
		await handle.close()
	}
}

const localOrigin = (server: AppServer) => server.origin.replace('127.0.0.1', 'localhost')

async function staffPage(browser: Browser, server: AppServer): Promise<Page> {
	const context = await browser.newContext({ baseURL: localOrigin(server), locale: 'ar-SA' })
	return context.newPage()
}

const databases = process.env.SKIP_POSTGRES === '1' ? (['pglite'] as const) : (['pglite', 'postgres'] as const)

for (const database of databases) {
	test(`a backup taken while the server runs restores into a fresh instance with every row and every byte (${database})`, async ({ browser }) => {
		test.setTimeout(900_000)
		const id = unique()
		const admin = { email: `backup-admin-${id}@e2e.test`, password: `Backup-Admin-${randomBytes(9).toString('base64url')}` }
		const serverEnv = { NODE_ENV: 'production', FILE_ENCRYPTION_KEY: randomBytes(32).toString('hex'), ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password }
		// The source as a first start left it; the restore's target empty, as the restore requires.
		const source = await preparedInstance(database, 'ataa-backup-e2e-')
		const restored = await emptyInstance(database, 'ataa-backup-e2e-')
		const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-backups-'))
		const servers: AppServer[] = []
		const start = async (instance: Instance) => {
			const server = await startAppServer({ root, dataDir: instance.dataDir, databaseUrl: instance.databaseUrl, env: serverEnv })
			servers.push(server)
			return server
		}
		try {
			const server = await start(source)
			const staff = await staffPage(browser, server)
			await signIn(staff, admin)
			// A staff user, a submitted case with the applicant's two PDFs, and a content edit with a picture.
			const officerEmail = `backup-officer-${id}@e2e.test`
			await addUser(staff, { name: `مسؤول حالات ${id}`, email: officerEmail, mobile: '0500000000', roles: ['case_officer'], password: `Officer-Pass-${id}` })
			const family = await submitCaseAsStaff(staff.context().request, { name: `عبدالله محمد سعد آل${id}` })
			const member = `أ. ريم بنت سعود العنزي ${id}`
			await staff.goto('/admin/content/members/new')
			await staff.getByLabel('الاسم').fill(member)
			await staff.getByLabel('المنصب').fill('عضو مجلس الإدارة')
			const photo = await sharp({ create: { width: 600, height: 600, channels: 3, background: '#2a7f62' } }).jpeg().toBuffer()
			await staff.getByLabel('الصورة').setInputFiles({ name: 'photo.jpg', mimeType: 'image/jpeg', buffer: photo })
			await staff.getByRole('button', { name: 'حفظ' }).click()
			await expect(staff.getByRole('status')).toHaveText('تمت إضافة العضو بنجاح')
			// What the server does in the background is done before the backup, or the source would change
			// after it (the prepared instance's demo pictures already have their variants: app/images/deferred.server.ts).
			await waitUntilQuiet(server.service.pid, { timeoutMs: 120_000, service: server.service })

			// Visitors keep coming while the backup runs (reading only: the source must not change after it).
			let visiting = true
			let visits = 0
			const visitor = (async () => {
				while (visiting) {
					const response = await fetch(`${server.origin}/board-members`)
					expect(response.status).toBe(200)
					await response.arrayBuffer()
					visits++
				}
			})()
			const backup = await npmRun('backup', ['--out', outDir], source, serverEnv)
			const visitsDuringBackup = visits
			visiting = false
			await visitor
			expect(backup.code, backup.output).toBe(0)
			expect(backup.output).toMatch(/Backup written in [\d.]+ s: .*ataa-backup-\S+\.tar/)
			if (database === 'pglite') expect(backup.output).toContain('The running server made the database dump.')
			expect(visitsDuringBackup, 'pages served while the backup ran').toBeGreaterThan(0)
			const archives = fs.readdirSync(outDir)
			expect(archives).toEqual([expect.stringMatching(/^ataa-backup-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.tar$/)])
			const archive = path.join(outDir, archives[0]!)

			await stopService(server.service)
			const restore = await npmRun('restore', [archive], restored, serverEnv)
			expect(restore.code, restore.output).toBe(0)
			expect(restore.output).toContain('every checksum matches')
			// A second restore into the same instance is refused: it is no longer empty.
			const again = await npmRun('restore', [archive], restored, serverEnv)
			expect(again.code).toBe(1)
			expect(again.output.trim()).toMatch(/already holds files: restore only into an empty data directory\.$/)

			// Every row of every table, and every stored file's bytes.
			const sourceRows = await rowsOf(source)
			const holds = (table: string, text: string) => sourceRows[`"public"."${table}"`]!.some((row) => row.includes(text))
			expect(holds('case_sections', family.name) && holds('users', officerEmail) && holds('content_entries', member)).toBe(true)
			// But the scheduler's lease: the backup holds the one the running server had, which its stop
			// then released (a restored instance's scheduler takes it over once it expires, within 3 minutes).
			const withoutLease = (rows: Record<string, unknown>) => Object.fromEntries(Object.entries(rows).filter(([table]) => table !== '"public"."scheduler_leases"'))
			expect(withoutLease(await rowsOf(restored))).toEqual(withoutLease(sourceRows))
			const sourceFiles = filesSnapshot(source.dataDir)
			expect(Object.keys(sourceFiles).length).toBeGreaterThan(2)
			expect(filesSnapshot(restored.dataDir)).toEqual(sourceFiles)

			// The restored instance serves: the applicant's files come back as they were stored, PDFs
			// made again (docs/security.md#uploads), decrypted with the same key; and the board member with the picture.
			const second = await start(restored)
			const reviewer = await staffPage(browser, second)
			await signIn(reviewer, admin)
			const fileIds = await caseFileIds(reviewer.context().request, family.reference)
			expect(fileIds).toHaveLength(2)
			for (const fileId of fileIds) {
				const download = await reviewer.context().request.get(`/admin/cases/${family.reference}/files/${fileId}`)
				expect(download.status()).toBe(200)
				const body = await download.body()
				expect(body.subarray(0, 5).toString('latin1')).toBe('%PDF-')
				expect(body.subarray(-6).toString('latin1')).toContain('%%EOF')
			}
			await reviewer.goto('/board-members')
			await expect(reviewer.getByText(member)).toBeVisible()
		} finally {
			for (const server of servers) await stopService(server.service)
			for (const instance of [source, restored]) await removeInstance(instance)
			fs.rmSync(outDir, { recursive: true, force: true })
		}
	})
}
