import { createHash, randomBytes } from 'node:crypto'
import { and, eq, gt, lt, sql } from 'drizzle-orm'
import { redirect } from 'react-router'
import type { Database } from '#app/db/client.server.ts'
import { sessions, users, type UserRole } from '#app/db/schema.ts'
import { getDb } from '#app/db/database.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { readCookie, serializeCookie } from './cookies.server.ts'
import { publicColumns, type PublicUser } from '#app/domain/users.server.ts'

/** `__Host-` pins the cookie to our host and path when it can be Secure. */
export function sessionCookieName(): string {
	return getEnv().cookieSecure ? '__Host-ataa_session' : 'ataa_session'
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

export async function createSession(db: Database, userId: number): Promise<{ token: string; expiresAt: Date }> {
	const token = randomBytes(32).toString('base64url')
	const expiresAt = new Date(Date.now() + getEnv().SESSION_DAYS * 24 * 60 * 60 * 1000)
	await db.insert(sessions).values({ id: hashToken(token), userId, expiresAt })
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

export async function deleteUserSessions(db: Database, userId: number): Promise<void> {
	await db.delete(sessions).where(eq(sessions.userId, userId))
}

export async function purgeExpiredSessions(db: Database): Promise<void> {
	await db.delete(sessions).where(lt(sessions.expiresAt, sql`now()`))
}

export function getSessionToken(request: Request): string | undefined {
	return readCookie(request, sessionCookieName()) || undefined
}

/** The signed-in, active user of this request, or null. */
export async function getUser(request: Request): Promise<PublicUser | null> {
	const token = getSessionToken(request)
	if (!token) return null
	const db = await getDb()
	const [row] = await db
		.select(publicColumns)
		.from(sessions)
		.innerJoin(users, eq(users.id, sessions.userId))
		.where(and(eq(sessions.id, hashToken(token)), gt(sessions.expiresAt, sql`now()`), eq(users.active, true)))
	return row ?? null
}

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
	if (roles && !roles.includes(user.role)) {
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
	return url.pathname + url.search + url.hash
}
