import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Database } from './client.server.ts'
import { appSecrets } from './schema.ts'

// One key per database (tests open several): made once, kept in `app_secrets`, so every instance,
// a restart and a restore sign and hash with the same key.
const cache = new WeakMap<Database, Map<string, Promise<string>>>()

/** The app's key named `name` (256 random bits, base64url), made on first use. */
export function appSecret(db: Database, name: string): Promise<string> {
	let byName = cache.get(db)
	if (!byName) cache.set(db, (byName = new Map()))
	let secret = byName.get(name)
	if (!secret) {
		secret = (async () => {
			await db.insert(appSecrets).values({ name, value: randomBytes(32).toString('base64url') }).onConflictDoNothing()
			const [row] = await db.select({ value: appSecrets.value }).from(appSecrets).where(eq(appSecrets.name, name))
			return row!.value
		})()
		secret.catch(() => byName.delete(name))
		byName.set(name, secret)
	}
	return secret
}
