import { ensureRoleSettings } from '#app/auth/totp.server.ts'
import { sql } from 'drizzle-orm'
import sharp from 'sharp'
import { openDatabase, type Database, type DatabaseHandle } from '#app/db/client.server.ts'
import { seedDemoContent } from '#app/seed.server.ts'
import { sweepUnreferencedMedia } from '#app/content/media-sweep.server.ts'
import { seedContent } from '#app/content/seed.server.ts'
import { ensureDefaultNotice } from '#app/privacy/notice.server.ts'
import { startFinishingImages, stopFinishingImages } from '#app/images/deferred.server.ts'
import { resumeDocuments } from '#app/cases/document-pages.server.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { getFileKeys, getFileStorage } from '#app/storage/file-storage.server.ts'
import { countActiveUsers, createUser } from '#app/domain/staff-users.server.ts'
import { generatePassword } from '#app/utils/password.server.ts'
import { purgeExpiredSessions } from '#app/auth/session.server.ts'
import { purgeExpiredAccountSessions } from '#app/accounts/institution-accounts.server.ts'
import { provideDatabase } from '#app/db/database.server.ts'
import { lockDataDir } from '#app/utils/data-dir-lock.server.ts'
import { EnvError, getEnv, publicOrigin, type Env } from '#app/utils/env.server.ts'
import { purgeOld } from '#app/http/rate-limit.server.ts'
import { stopWatchingContent, watchContent } from '#app/cache/content-version.server.ts'
import { onPageView } from '#app/cache/page-cache.server.ts'
import { flushViews, noteView } from '#app/content/views.server.ts'
import { startControlServer } from '#app/operations/control.server.ts'
import { registerBackupCommands } from '#app/operations/backup.server.ts'
import { logger } from '#app/utils/log.server.ts'
import { deploymentWarnings } from '#app/operations/deployment-checks.ts'
import { registerRetentionCommands, retentionSettled } from '#app/operations/retention-schedule.server.ts'
import { startScheduler, type Scheduler } from '#app/operations/scheduler.server.ts'
import { checkSmsConfig } from '#app/notify/sms-providers.server.ts'

interface App {
	handle: DatabaseHandle
	release: () => void
	/** Closes the control socket (PGlite only: DATA_DIR/ataa.sock, app/operations/control.server.ts). */
	stopControl: () => Promise<void>
	/** Reminders and messages due, run by one instance of all (app/operations/scheduler.server.ts); none under Vitest. */
	scheduler?: Scheduler
}

// Kept on globalThis so the dev server's module reloads reuse one database.
const state = globalThis as typeof globalThis & { __ataa?: Promise<App> }

const DEFAULT_ADMIN_EMAIL = 'admin@ataa.local'

/** Opens the database, applies migrations, seeds demo content and the first admin; once per process. */
export function prepare(log: (line: string) => void = (line) => logger.info(line)): Promise<App> {
	if (!state.__ataa) {
		state.__ataa = start(getEnv(), log).catch((error: unknown) => {
			state.__ataa = undefined
			provideDatabase(undefined)
			throw error
		})
		provideDatabase(state.__ataa.then((app) => app.handle.db))
	}
	return state.__ataa
}

export async function shutdown(): Promise<void> {
	const app = state.__ataa
	// Visits counted in memory are written while the database is still there.
	onPageView(undefined)
	if (app) await flushViews()
	state.__ataa = undefined
	provideDatabase(undefined)
	if (!app) return
	const { handle, release, stopControl, scheduler } = await app
	await stopControl()
	// Waits for a tick under way and gives the lease up: another instance takes the work over at once.
	await scheduler?.stop()
	await stopFinishingImages()
	await retentionSettled()
	await stopWatchingContent()
	await handle.close()
	release()
}

/** The process's memory in MB: resident, V8's heap, buffers outside it, and PGlite's WebAssembly memory. */
export function memoryFigures(handle: Pick<DatabaseHandle, 'wasmMemoryBytes'>): Record<string, number> {
	const usage = process.memoryUsage()
	const mb = (bytes: number) => Math.round(bytes / 1e5) / 10
	return {
		rssMb: mb(usage.rss),
		heapUsedMb: mb(usage.heapUsed),
		heapTotalMb: mb(usage.heapTotal),
		externalMb: mb(usage.external),
		arrayBuffersMb: mb(usage.arrayBuffers),
		pgliteWasmMb: mb(handle.wasmMemoryBytes?.() ?? 0),
	}
}

async function start(env: Env, log: (line: string) => void): Promise<App> {
	// libvips keeps up to 50 MB of recent operations to reuse them; the server never makes the same
	// picture twice, so that memory would only be held (docs/performance.md, memory).
	sharp.cache(false)
	// Applicants' files are encrypted: in production a missing FILE_ENCRYPTION_KEY stops the start here, with how to make one.
	getFileKeys((line) => logger.warn(line))
	// Links sent to people are built on APP_ORIGIN: in production an unset one stops the start here.
	publicOrigin(env)
	// Codes and notices go by SMS: in production a provider lacking its keys, or none while mobiles are verified, stops the start here.
	checkSmsConfig(env, (line) => logger.warn(line))
	for (const warning of deploymentWarnings(env)) logger.warn(warning)
	if (env.NODE_ENV === 'production' && env.ATAA_CLOCK_FILE) throw new EnvError('ATAA_CLOCK_FILE moves the server clock for browser tests only: unset it in production.')
	const release = env.DATABASE_URL ? () => {} : lockDataDir(env.dataDir, 'server')
	try {
		const handle = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATABASE_URL ? undefined : `${env.dataDir}/pgdata` })
		await handle.migrate()
		// /privacy and the consent step need a notice from the first start, in production too (demo cases name it).
		await ensureDefaultNotice(handle.db)
		await ensureRoleSettings(handle.db)
		await seedDemoContent(handle.db, { cases: env.demoCases })
		await seedContent(handle.db, getFileStorage())
		// A day-old temp file is no upload in progress, even on another server sharing DATA_DIR.
		const storage = getFileStorage()
		await Promise.all([purgeExpiredSessions(handle.db), purgeExpiredAccountSessions(handle.db), purgeOld(handle.db), storage.sweepTemp(24 * 60 * 60 * 1000), sweepUnreferencedMedia(handle.db, storage)])
		await ensureFirstAdmin(handle.db, env, log)
		// PGlite runs no autovacuum: without fresh statistics and a visibility map its planner
		// ignores the list indexes (bench:cases). A PostgreSQL server does this by itself.
		if (handle.kind === 'pglite') await handle.db.execute(sql`vacuum (analyze) cases`)
		// From here on, public pages and their data may be kept in memory until content changes.
		await watchContent(handle)
		// A news item's visits, cache hits included, are counted in batches (app/content/views.server.ts).
		onPageView(noteView)
		// The demo pictures' variants not made yet (app/images/deferred.server.ts), while the app serves.
		startFinishingImages(handle.db, storage, log)
		// Photos of documents received before a stop and not cleaned yet (app/cases/document-pages.server.ts).
		const resumed = await resumeDocuments(handle.db, findDefinition)
		if (resumed) log(`Documents of ${resumed} case(s) being made again: photos received before the last stop`)
		// Closed cases' data past RETENTION_MONTHS: daily, a task of the scheduler started below; `npm run retention` asks for it now.
		registerRetentionCommands(handle.db)
		// The embedded database is this process's alone: `npm run backup` (and other operator commands)
		// reach it through the control socket while the server runs. PostgreSQL is reached directly.
		let stopControl = async () => {}
		if (handle.kind === 'pglite') {
			registerBackupCommands(handle)
			try {
				stopControl = await startControlServer(env.dataDir)
			} catch (error) {
				log(`No control socket, so no backup while the server runs: ${error instanceof Error ? error.message : error}`)
			}
		}
		// `kill -USR2 <pid>`: one log line with the process's memory, V8's heap and PGlite's apart (docs/operations.md#memory).
		if (!process.env.VITEST) process.on('SIGUSR2', () => logger.info({ memory: memoryFigures(handle) }, 'Memory'))
		// Last, once the rest has started: Vitest runs start no scheduler (a test starts its own).
		const scheduler = process.env.VITEST ? undefined : startScheduler(handle.db)
		return { handle, release, stopControl, scheduler }
	} catch (error) {
		release()
		throw error
	}
}

/**
 * The first admin. A generated password is printed once, to the operator's console and not through
 * the logger: the log may be collected and kept elsewhere, the password must not be (docs/operations.md#logs).
 */
async function ensureFirstAdmin(db: Database, env: Env, log: (line: string) => void): Promise<void> {
	const signInUrl = `http://localhost:${env.PORT}/login`
	// Nobody who can sign in (a first start; the demo's own staff are inactive): the first admin is made.
	if ((await countActiveUsers(db)) > 0) {
		log(`Staff sign-in: ${signInUrl} (forgotten password: npm run user:reset-password -- --email <e-mail>)`)
		return
	}
	const email = env.ADMIN_EMAIL ?? DEFAULT_ADMIN_EMAIL
	const password = env.ADMIN_PASSWORD ?? generatePassword()
	// A generated password is shown once on the console: it is changed at the first sign-in. ADMIN_PASSWORD is the operator's own.
	await createUser(db, { name: 'مدير النظام', email, mobile: '', roles: ['admin'], password, temporary: !env.ADMIN_PASSWORD })
	if (env.ADMIN_PASSWORD) {
		log(`Created the first admin ${email} with the password from ADMIN_PASSWORD. Staff sign-in: ${signInUrl}`)
		return
	}
	log(`Created the first admin ${email} with a generated password, printed once to the console. Staff sign-in: ${signInUrl}`)
	console.log(
		[
			'',
			'  First start: an admin account was created. This password is shown only once:',
			`    sign in at  ${signInUrl}`,
			`    e-mail      ${email}`,
			`    password    ${password}`,
			'  Change it later with: npm run user:reset-password -- --email ' + email,
			'',
		].join('\n'),
	)
}
