import { createHash, randomBytes } from 'node:crypto'
import { and, desc, eq, gt, isNull, lt, ne, or, sql } from 'drizzle-orm'
import { redirect } from 'react-router'
import type { Database } from '#app/db/client.server.ts'
import { sessions, users, type UserRole } from '#app/db/schema.ts'
import { hasRole } from '#app/db/roles.ts'
import { getDb } from '#app/db/database.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { clientIp } from '#app/utils/origin.server.ts'
import { readCookie, serializeCookie } from '#app/utils/cookies.server.ts'
import { publicColumns, type PublicUser } from '#app/domain/staff-users.server.ts'

// Staff sessions (docs/decisions/003-sessions-and-passwords.md, docs/security.md#sessions).

/** `__Host-` pins the cookie to our host and path when it can be Secure. */
export function sessionCookieName(): string {
	return getEnv().cookieSecure ? '__Host-ataa_session' : 'ataa_session'
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

/** Between the password and the authenticator's code: long enough to open the app and type it. */
const PENDING_MINUTES = 10

export interface NewSession {
	token: string
	expiresAt: Date
}

/**
 * A new session for the user. `verified: false` is the first step of a two-step sign-in: it opens
 * only the page that asks for the code, for PENDING_MINUTES.
 */
export async function createSession(db: Database, userId: number, options: { request?: Request; verified?: boolean } = {}): Promise<NewSession> {
	const token = randomBytes(32).toString('base64url')
	const verified = options.verified ?? true
	const lifetime = verified ? getEnv().SESSION_DAYS * 24 * 60 * 60 * 1000 : PENDING_MINUTES * 60 * 1000
	const expiresAt = new Date(Date.now() + lifetime)
	await db.insert(sessions).values({
		id: hashToken(token),
		userId,
		expiresAt,
		verified,
		ip: options.request ? clientIp(options.request) : '',
		userAgent: (options.request?.headers.get('User-Agent') ?? '').slice(0, 300),
	})
	return { token, expiresAt }
}

export function sessionCookie(token: string, expiresAt: Date): string {
	return serializeCookie(sessionCookieName(), token, {
		secure: getEnv().cookieSecure,
		maxAge: (expiresAt.getTime() - Date.now()) / 1000,
	})
}

export function clearedSessionCookie(): string {
	return serializeCookie(sessionCookieName(), '', { secure: getEnv().cookieSecure, maxAge: 0 })
}

export async function deleteSession(db: Database, token: string): Promise<void> {
	await db.delete(sessions).where(eq(sessions.id, hashToken(token)))
}

/** Ends every session of the user (a stopped account, a new role, a password reset), or all but one. */
export async function deleteUserSessions(db: Database, userId: number, options: { except?: string } = {}): Promise<number> {
	const ended = await db
		.delete(sessions)
		.where(and(eq(sessions.userId, userId), options.except ? ne(sessions.id, options.except) : undefined))
		.returning({ id: sessions.id })
	return ended.length
}

/** Ends one of the user's own sessions, by the id their list of sessions shows; false when none matched. */
export async function endOwnSession(db: Database, userId: number, sessionId: string): Promise<boolean> {
	const ended = await db
		.delete(sessions)
		.where(and(eq(sessions.userId, userId), eq(sessions.id, sessionId)))
		.returning({ id: sessions.id })
	return ended.length > 0
}

/** Sessions past their end or unused for longer than the idle limit. */
export async function purgeExpiredSessions(db: Database): Promise<void> {
	await db.delete(sessions).where(or(lt(sessions.expiresAt, sql`now()`), lt(sessions.lastSeenAt, idleCutoff())))
}

const idleCutoff = () => sql`now() - make_interval(mins => ${getEnv().SESSION_IDLE_MINUTES})`

export function getSessionToken(request: Request): string | undefined {
	return readCookie(request, sessionCookieName()) || undefined
}

export interface StaffSession {
	user: PublicUser
	/** The session's id as stored (the token's hash): what the list of sessions names it by. */
	id: string
	verified: boolean
}

/**
 * The session this request carries, if it is current: not past its end, used within the idle limit,
 * its user active and not deleted. Its use is noted at most once a minute (one UPDATE).
 */
export async function getStaffSession(request: Request): Promise<StaffSession | null> {
	const token = getSessionToken(request)
	if (!token) return null
	const db = await getDb()
	const id = hashToken(token)
	const [row] = await db
		.select({ user: publicColumns, verified: sessions.verified, stale: sql<boolean>`${sessions.lastSeenAt} < now() - interval '1 minute'` })
		.from(sessions)
		.innerJoin(users, eq(users.id, sessions.userId))
		.where(and(eq(sessions.id, id), gt(sessions.expiresAt, sql`now()`), gt(sessions.lastSeenAt, idleCutoff()), eq(users.active, true), isNull(users.deletedAt)))
	if (!row) return null
	if (row.stale) await db.update(sessions).set({ lastSeenAt: sql`now()` }).where(eq(sessions.id, id))
	return { user: row.user, id, verified: row.verified }
}

/** The signed-in, active user of this request, or null (a session waiting for its code counts as none). */
export async function getUser(request: Request): Promise<PublicUser | null> {
	const session = await getStaffSession(request)
	return session?.verified ? session.user : null
}

export interface SessionListing {
	id: string
	createdAt: Date
	lastSeenAt: Date
	ip: string
	userAgent: string
}

/** The user's current sessions, the most recently used first. */
export async function listSessions(db: Database, userId: number): Promise<SessionListing[]> {
	return db
		.select({ id: sessions.id, createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt, ip: sessions.ip, userAgent: sessions.userAgent })
		.from(sessions)
		.where(and(eq(sessions.userId, userId), eq(sessions.verified, true), gt(sessions.expiresAt, sql`now()`), gt(sessions.lastSeenAt, idleCutoff())))
		.orderBy(desc(sessions.lastSeenAt))
}

/**
 * A fresh session id for the same user, the old one ended: after the second step of a sign-in and
 * after a change of the user's own password, so that an id seen before cannot be used after.
 */
export async function rotateSession(db: Database, request: Request, userId: number): Promise<string> {
	const previous = getSessionToken(request)
	if (previous) await deleteSession(db, previous)
	const session = await createSession(db, userId, { request })
	return sessionCookie(session.token, session.expiresAt)
}

/** The staff member's own account, where a password set by someone else is replaced. */
const OWN_ACCOUNT = '/admin/account'

/** Where to send a signed-out visitor so that signing in brings them back here. */
export function loginRedirect(request: Request): Response {
	const url = new URL(request.url)
	const redirectTo = url.pathname + url.search
	return redirect(`/login?${new URLSearchParams({ redirectTo })}`)
}

/** The signed-in user, or a thrown redirect to /login; with `roles`, a 403 for anyone else. */
export async function requireUser(request: Request, roles?: readonly UserRole[]): Promise<PublicUser> {
	const user = await getUser(request)
	if (!user) throw loginRedirect(request)
	// A password someone else set is changed before anything else is opened (ASVS 6.4.1).
	if (user.mustChangePassword && new URL(request.url).pathname.replace(/\.data$/, '') !== OWN_ACCOUNT) throw redirect(OWN_ACCOUNT)
	if (roles && !hasRole(user, ...roles)) {
		throw new Response('ليست لديك صلاحية للوصول إلى هذه الصفحة', { status: 403 })
	}
	return user
}

/** Only same-site relative paths: never an open redirect to another host. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/admin'): string {
	// Browsers drop tabs and newlines and read a backslash as a slash: «/\t/evil» is «//evil».
	if (typeof to !== 'string' || !to.startsWith('/') || /[\p{Cc}\s\\]/u.test(to)) return fallback
	let url: URL
	try {
		url = new URL(to, 'http://ataa.invalid')
	} catch {
		return fallback
	}
	if (url.origin !== 'http://ataa.invalid') return fallback
	const path = url.pathname + url.search + url.hash
	// Dot segments resolve first: «/.//evil» and «/x/..//evil» become «//evil», another host to a browser.
	if (path.startsWith('//')) return fallback
	return path
}
