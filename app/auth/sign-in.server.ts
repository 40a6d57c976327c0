import { eq, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { users } from '#app/db/schema.ts'
import { findUserByEmail, normaliseEmail, type User } from '#app/domain/users.server.ts'
import { hit, peek, reset, type RateLimitRule } from '#app/utils/rate-limit.server.ts'
import { getDummyHash, verifyPassword } from './password.server.ts'

/** Failed sign-ins allowed per e-mail and per IP address in a window (docs/decisions/003). */
export const signInLimits = {
	email: { bucket: 'sign-in:email', limit: 5, windowSeconds: 15 * 60 },
	ip: { bucket: 'sign-in:ip', limit: 30, windowSeconds: 15 * 60 },
} satisfies Record<string, RateLimitRule>

export type SignInResult =
	| { ok: true; user: User }
	| { ok: false; reason: 'invalid' }
	| { ok: false; reason: 'limited'; retryAfter: number }

export async function attemptSignIn(
	db: Database,
	input: { email: string; password: string; ip: string },
): Promise<SignInResult> {
	const email = normaliseEmail(input.email)
	const [byEmail, byIp] = await Promise.all([
		peek(db, signInLimits.email, email),
		peek(db, signInLimits.ip, input.ip),
	])
	if (byEmail.limited || byIp.limited) {
		return { ok: false, reason: 'limited', retryAfter: Math.max(byEmail.retryAfter, byIp.retryAfter) }
	}

	const user = await findUserByEmail(db, email)
	// Verify against a dummy hash for unknown e-mails so the answer takes as long either way.
	const valid = await verifyPassword(input.password, user?.passwordHash ?? (await getDummyHash()))
	if (!user || !valid || !user.active) {
		await Promise.all([hit(db, signInLimits.email, email), hit(db, signInLimits.ip, input.ip)])
		return { ok: false, reason: 'invalid' }
	}

	await reset(db, signInLimits.email, email)
	await db.update(users).set({ lastSignInAt: sql`now()` }).where(eq(users.id, user.id))
	return { ok: true, user }
}
