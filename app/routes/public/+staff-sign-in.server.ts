import { redirect } from 'react-router'
import { hasRole } from '#app/db/roles.ts'
import type { Database } from '#app/db/client.server.ts'
import type { User } from '#app/domain/staff-users.server.ts'
import { recordAudit } from '#app/audit/audit-trail.server.ts'
import { createSession, deleteSession, getSessionToken, getStaffSession, rotateSession, safeRedirect, sessionCookie, type StaffSession } from '#app/auth/session.server.ts'
import { clearWrongCodes, twoStepRoles } from '#app/auth/totp.server.ts'

// What follows a right password (docs/security.md#two-step-sign-in): straight in, or a session that
// opens only the page asking for the authenticator's code, or the page that sets the app up when the
// user's role requires it and they have none yet.

const withRedirect = (path: string, redirectTo: string) => `${path}?${new URLSearchParams({ redirectTo })}`

export async function afterPassword(db: Database, request: Request, user: User, redirectTo: string | undefined): Promise<Response> {
	// A new session id at every sign-in; any session this browser had before is ended.
	const previous = getSessionToken(request)
	if (previous) await deleteSession(db, previous)
	const target = safeRedirect(redirectTo)
	const secondStep = user.totpSecret ? '/login/two-step' : hasRole(user, ...(await twoStepRoles(db))) ? '/login/two-step/setup' : null
	const session = await createSession(db, user.id, { request, verified: secondStep === null })
	const headers = { 'Set-Cookie': sessionCookie(session.token, session.expiresAt) }
	if (secondStep) return redirect(withRedirect(secondStep, target), { headers })
	await recordAudit(db, { actor: user, action: 'auth.sign-in', request, data: { method: 'password' } })
	return redirect(target, { headers })
}

/** The session between the two steps, or a redirect to the sign-in page when there is none. */
export async function requirePendingSession(request: Request): Promise<StaffSession> {
	const session = await getStaffSession(request)
	if (session?.verified) throw redirect(safeRedirect(new URL(request.url).searchParams.get('redirectTo')))
	if (!session) throw redirect(withRedirect('/login', safeRedirect(new URL(request.url).searchParams.get('redirectTo'))))
	return session
}

/** The second step passed: a new session id, fully signed in, and the sign-in in the audit trail. */
export async function completeSignIn(
	db: Database,
	request: Request,
	user: StaffSession['user'],
	method: 'code' | 'recovery-code' | 'enrolment',
	redirectTo: unknown,
): Promise<{ cookie: string; to: string }> {
	const cookie = await rotateSession(db, request, user.id)
	await clearWrongCodes(db, user.id)
	if (method === 'recovery-code') await recordAudit(db, { actor: user, action: 'auth.recovery-code-used', request })
	if (method === 'enrolment') await recordAudit(db, { actor: user, action: 'auth.two-step-enabled', request })
	await recordAudit(db, { actor: user, action: 'auth.sign-in', request, data: { method } })
	return { cookie, to: safeRedirect(typeof redirectTo === 'string' ? redirectTo : null) }
}
