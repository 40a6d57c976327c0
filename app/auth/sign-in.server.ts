import { eq, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { users } from '#app/db/schema.ts'
import { findUserByEmail, normaliseEmail, type User } from '#app/domain/staff-users.server.ts'
import { hit, peek, reset, type RateLimitRule } from '#app/http/rate-limit.server.ts'
import { tryAgainAfter } from '#app/text/arabic-count.ts'
import { getDummyHash, hashPassword, needsRehash, verifyPassword } from '#app/utils/password.server.ts'

/**
 * Failed sign-ins allowed per e-mail and per IP address in a window (docs/decisions/003). Guessing
 * is stopped per account; per address only a ceiling, as many offices sit behind one carrier address.
 */
export const signInLimits = {
	email: { bucket: 'sign-in:email', limit: 5, windowSeconds: 15 * 60 },
	ip: { bucket: 'sign-in:ip', limit: 300, windowSeconds: 15 * 60 },
} satisfies Record<string, RateLimitRule>

const signInRules = { name: signInLimits.email, ip: signInLimits.ip }

/** What a refused sign-in says, on every sign-in page: never whether the account exists. */
export const signInMessages = {
	invalid: 'الرجاء التحقق من بيانات الدخول',
	limited: (retryAfter: number) => `محاولات دخول كثيرة. ${tryAgainAfter(retryAfter)}`,
}

export type SignInResult =
	| { ok: true; user: User }
	| { ok: false; reason: 'invalid' }
	| { ok: false; reason: 'limited'; retryAfter: number }

/** What `checkSignIn` answers: the account whose password matched, or why not. */
export type SignInCheck<Account> =
	| { ok: true; account: Account }
	| { ok: false; reason: 'invalid' }
	| { ok: false; reason: 'limited'; retryAfter: number }

/**
 * The sign-in rules shared by staff and institution accounts (docs/decisions/003): refused while
 * the typed name or the IP address is over its limit, even with the right password; an unknown
 * name is checked against a dummy hash so that a failure takes as long either way; each failure
 * counts against both; a success clears the name's counter.
 */
/** The words for a password typed again that is not the account's. */
export const WRONG_CURRENT_PASSWORD = 'كلمة المرور الحالية غير صحيحة'

/**
 * A signed-in person's password, typed again before a change a session alone must not make (a new
 * password, a sign-in code turned off): null when it is theirs, else why not. A wrong one counts
 * against the sign-in limit of `key` (the account's sign-in name), so it cannot be guessed here either.
 */
export async function passwordAgainProblem(db: Database, rule: RateLimitRule, key: string, typed: string, passwordHash: string | undefined): Promise<string | null> {
	const limit = await peek(db, rule, key)
	if (limit.limited) return `محاولات كثيرة بكلمة مرور خاطئة. ${tryAgainAfter(limit.retryAfter)}`
	if (await verifyPassword(typed, passwordHash ?? '')) return null
	await hit(db, rule, key)
	return WRONG_CURRENT_PASSWORD
}

export async function checkSignIn<Account extends { passwordHash: string; active: boolean }>(
	db: Database,
	rules: { name: RateLimitRule; ip: RateLimitRule },
	input: { name: string; password: string; ip: string },
	find: () => Promise<Account | undefined>,
): Promise<SignInCheck<Account>> {
	const [byName, byIp] = await Promise.all([peek(db, rules.name, input.name), peek(db, rules.ip, input.ip)])
	if (byName.limited || byIp.limited) {
		return { ok: false, reason: 'limited', retryAfter: Math.max(byName.retryAfter, byIp.retryAfter) }
	}

	const account = await find()
	// Verify against a dummy hash for unknown names so the answer takes as long either way.
	const valid = await verifyPassword(input.password, account?.passwordHash ?? (await getDummyHash()))
	if (!account || !valid || !account.active) {
		await Promise.all([hit(db, rules.name, input.name), hit(db, rules.ip, input.ip)])
		return { ok: false, reason: 'invalid' }
	}

	await reset(db, rules.name, input.name)
	return { ok: true, account }
}

export async function attemptSignIn(
	db: Database,
	input: { email: string; password: string; ip: string },
): Promise<SignInResult> {
	const email = normaliseEmail(input.email)
	const result = await checkSignIn(db, signInRules, { name: email, password: input.password, ip: input.ip }, () => findUserByEmail(db, email))
	if (!result.ok) return result
	// A hash made with older, weaker settings is made again now that the password is at hand.
	const rehashed = needsRehash(result.account.passwordHash) ? { passwordHash: await hashPassword(input.password) } : {}
	await db
		.update(users)
		.set({ lastSignInAt: sql`now()`, ...rehashed })
		.where(eq(users.id, result.account.id))
	return { ok: true, user: result.account }
}
