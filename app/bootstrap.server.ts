import { sql } from 'drizzle-orm'
import sharp from 'sharp'
import { openDatabase, type Database, type DatabaseHandle } from '#app/db/client.server.ts'
import { seedDemoContent } from '#app/db/seed.server.ts'
import { sweepUnreferencedMedia } from '#app/content/media-sweep.server.ts'
import { seedContent } from '#app/content/seed.server.ts'
import { startFinishingImages, stopFinishingImages } from '#app/images/deferred.server.ts'
import { getFileStorage } from '#app/storage/file-storage.server.ts'
import { countUsers, createUser } from '#app/domain/users.server.ts'
import { generatePassword } from '#app/auth/password.server.ts'
import { purgeExpiredSessions } from '#app/auth/session.server.ts'
import { purgeExpiredAccountSessions } from '#app/accounts/institution-accounts.server.ts'
import { provideDatabase } from '#app/db/database.server.ts'
import { lockDataDir } from '#app/utils/data-dir-lock.server.ts'
import { getEnv, type Env } from '#app/utils/env.server.ts'
import { purgeOld } from '#app/utils/rate-limit.server.ts'
import { stopWatchingContent, watchContent } from '#app/cache/content-version.server.ts'

interface App {
	handle: DatabaseHandle
	release: () => void
}

// Kept on globalThis so the dev server's module reloads reuse one database.
const state = globalThis as typeof globalThis & { __ataa?: Promise<App> }

const DEFAULT_ADMIN_EMAIL = 'admin@ataa.local'

/** Opens the database, applies migrations, seeds demo content and the first admin; once per process. */
export function prepare(log: (line: string) => void = console.log): Promise<App> {
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
	state.__ataa = undefined
	provideDatabase(undefined)
	if (!app) return
	const { handle, release } = await app
	await stopFinishingImages()
	await stopWatchingContent()
	await handle.close()
	release()
}

async function start(env: Env, log: (line: string) => void): Promise<App> {
	// libvips keeps up to 50 MB of recent operations to reuse them; the server never makes the same
	// picture twice, so that memory would only be held (docs/performance.md, memory).
	sharp.cache(false)
	const release = env.DATABASE_URL ? () => {} : lockDataDir(env.dataDir, 'server')
	try {
		const handle = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATABASE_URL ? undefined : `${env.dataDir}/pgdata` })
		await handle.migrate()
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
		// The demo pictures' variants not made yet (app/images/deferred.server.ts), while the app serves.
		startFinishingImages(handle.db, storage, log)
		return { handle, release }
	} catch (error) {
		release()
		throw error
	}
}

async function ensureFirstAdmin(db: Database, env: Env, log: (line: string) => void): Promise<void> {
	const signInUrl = `http://localhost:${env.PORT}/login`
	if ((await countUsers(db)) > 0) {
		log(`Staff sign-in: ${signInUrl} (forgotten password: npm run user:reset-password -- --email <e-mail>)`)
		return
	}
	const email = env.ADMIN_EMAIL ?? DEFAULT_ADMIN_EMAIL
	const password = env.ADMIN_PASSWORD ?? generatePassword()
	// A generated password is shown once in the log: it is changed at the first sign-in. ADMIN_PASSWORD is the operator's own.
	await createUser(db, { name: 'مدير النظام', email, mobile: '', role: 'admin', password, temporary: !env.ADMIN_PASSWORD })
	if (env.ADMIN_PASSWORD) {
		log(`Created the first admin ${email} with the password from ADMIN_PASSWORD. Staff sign-in: ${signInUrl}`)
		return
	}
	log(
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
