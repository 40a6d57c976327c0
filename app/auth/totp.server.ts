import { createHash, randomInt } from 'node:crypto'
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm'
import { Secret, TOTP } from 'otpauth'
import { loadQrCode } from '#app/utils/lazy-modules.server.ts'
import type { Database } from '#app/db/client.server.ts'
import { recoveryCodes, roleSettings, users, type UserRole } from '#app/db/schema.ts'
import { userRoles } from '#app/db/roles.ts'
import { hit, peek, reset, type RateLimitRule } from '#app/http/rate-limit.server.ts'

// Two-step sign-in for staff (docs/security.md#two-step-sign-in): a time-based code from an
// authenticator app (RFC 6238: SHA-1, 6 digits, 30 seconds, one step of drift either way), or one
// of ten recovery codes shown once and stored as SHA-256.

const PERIOD = 30
export const RECOVERY_CODE_COUNT = 10

/** Wrong codes allowed per user in a window: with a million codes, 5 tries in 15 minutes is no way in. */
export const twoStepLimit = { bucket: 'two-step:user', limit: 5, windowSeconds: 15 * 60 } satisfies RateLimitRule

export const newTotpSecret = () => new Secret({ size: 20 }).base32

const totpOf = (secret: string, email: string) => new TOTP({ issuer: 'Ataa', label: email, secret: Secret.fromBase32(secret), period: PERIOD, digits: 6, algorithm: 'SHA1' })

/** What the authenticator app reads from the QR code, as a picture to put in an <img> (the policy allows data: images). */
export async function enrolmentQr(secret: string, email: string): Promise<{ uri: string; image: string }> {
	const uri = totpOf(secret, email).toString()
	const svg = await (await loadQrCode()).toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 })
	return { uri, image: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` }
}

/** The key written out for typing into an app by hand, in groups of four. */
export const groupedSecret = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim()

const isSecret = (value: string) => /^[A-Z2-7]{32}$/.test(value)

/** What the set-up page shows: a new key, or the one a wrong code was typed for (so the app set up still works). */
export async function enrolmentView(email: string, typedFor = '') {
	const secret = isSecret(typedFor) ? typedFor : newTotpSecret()
	const { image } = await enrolmentQr(secret, email)
	return { qr: image, secret, grouped: groupedSecret(secret) }
}

const digitsOnly = (code: string) => code.replace(/[\s-]/g, '').replace(/[٠-٩]/g, (digit) => String(digit.charCodeAt(0) - 0x0660))

/** The time step a code is right for, or null: now, the step before or the step after. */
export function matchingStep(secret: string, email: string, code: string, now = Date.now()): number | null {
	const token = digitsOnly(code)
	if (!/^\d{6}$/.test(token)) return null
	const delta = totpOf(secret, email).validate({ token, timestamp: now, window: 1 })
	return delta === null ? null : Math.floor(now / 1000 / PERIOD) + delta
}

/**
 * Checks the code of a user who has two-step sign-in on. A code is taken once: the step it was
 * right for is stored, and that step or an earlier one is refused after (RFC 6238, 5.2).
 */
export async function verifyUserCode(db: Database, user: { id: number; email: string }, code: string): Promise<boolean> {
	const [row] = await db.select({ secret: users.totpSecret }).from(users).where(eq(users.id, user.id))
	if (!row?.secret) return false
	const step = matchingStep(row.secret, user.email, code)
	if (step === null) return false
	const taken = await db
		.update(users)
		.set({ totpLastStep: step })
		.where(and(eq(users.id, user.id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
		.returning({ id: users.id })
	return taken.length > 0
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'
const hashCode = (code: string) => createHash('sha256').update(code.toLowerCase().replace(/[\s-]/g, '')).digest('hex')

/**
 * Ten new recovery codes, as the user will see them once: 24 characters of 31, about 119 bits each,
 * so that a plain SHA-256 of each is enough to store (ASVS 6.5.2 asks a slow hash below 112 bits).
 */
function newRecoveryCodes(): string[] {
	return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
		const raw = Array.from({ length: 24 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('')
		return raw.match(/.{4}/g)!.join('-')
	})
}

/** Replaces the user's recovery codes with ten new ones; returns them (the only time they are readable). */
export async function replaceRecoveryCodes(db: Database, userId: number): Promise<string[]> {
	const codes = newRecoveryCodes()
	await db.transaction(async (tx) => {
		await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId))
		await tx.insert(recoveryCodes).values(codes.map((code) => ({ userId, codeHash: hashCode(code) })))
	})
	return codes
}

/** Takes one unused recovery code of the user, or answers false. */
export async function spendRecoveryCode(db: Database, userId: number, code: string): Promise<boolean> {
	const used = await db
		.update(recoveryCodes)
		.set({ usedAt: sql`now()` })
		.where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, hashCode(code)), isNull(recoveryCodes.usedAt)))
		.returning({ userId: recoveryCodes.userId })
	return used.length > 0
}

export async function unusedRecoveryCodes(db: Database, userId: number): Promise<number> {
	const [row] = await db
		.select({ count: sql<number>`count(*)::int` })
		.from(recoveryCodes)
		.where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)))
	return row?.count ?? 0
}

/**
 * Turns two-step sign-in on with the key the user's app was shown, once they typed a right code
 * from it; answers the recovery codes, or null for a wrong code.
 */
export async function enableTwoStep(db: Database, user: { id: number; email: string }, secret: string, code: string): Promise<string[] | null> {
	if (!isSecret(secret)) return null
	const step = matchingStep(secret, user.email, code)
	if (step === null) return null
	await db
		.update(users)
		.set({ totpSecret: secret, totpLastStep: step, updatedAt: sql`now()` })
		.where(eq(users.id, user.id))
	return replaceRecoveryCodes(db, user.id)
}

/** Turns it off: the key and the recovery codes are forgotten. */
export async function resetTwoStep(db: Database, userId: number): Promise<void> {
	await db
		.update(users)
		.set({ totpSecret: null, totpLastStep: null, updatedAt: sql`now()` })
		.where(eq(users.id, userId))
	await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId))
}

/**
 * Roles added after the first start (the aid cycle's approver and finance) sign in in two steps
 * until an admin says otherwise: they read applicants' health and bank data. Done at start, not in
 * the migration that adds them: PostgreSQL refuses a new enum value in the transaction adding it.
 */
export async function ensureRoleSettings(db: Database): Promise<void> {
	await db
		.insert(roleSettings)
		.values((['approver', 'finance'] as const).map((role) => ({ role, requireTwoFactor: true })))
		.onConflictDoNothing({ target: roleSettings.role })
}

/** The roles that must sign in in two steps. */
export async function twoStepRoles(db: Database): Promise<UserRole[]> {
	const rows = await db.select().from(roleSettings).where(eq(roleSettings.requireTwoFactor, true))
	return rows.map((row) => row.role)
}

export async function setTwoStepRoles(db: Database, roles: readonly UserRole[]): Promise<void> {
	await db
		.insert(roleSettings)
		.values(userRoles.map((role) => ({ role, requireTwoFactor: roles.includes(role) })))
		.onConflictDoUpdate({ target: roleSettings.role, set: { requireTwoFactor: sql`excluded.require_two_factor`, updatedAt: sql`now()` } })
}

/** Whether a user's wrong codes have reached the limit, and for how long. */
export const twoStepLimited = (db: Database, userId: number) => peek(db, twoStepLimit, String(userId))
export const countWrongCode = (db: Database, userId: number) => hit(db, twoStepLimit, String(userId))
export const clearWrongCodes = (db: Database, userId: number) => reset(db, twoStepLimit, String(userId))
