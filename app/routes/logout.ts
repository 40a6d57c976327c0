import { redirect } from 'react-router'
import { getDb } from '#app/db/database.server.ts'
import { clearedSessionCookie, deleteSession, getSessionToken, getUser } from '#app/auth/session.server.ts'
import { recordAudit } from '#app/audit/audit-trail.server.ts'

/** Signing out is a POST (a GET could be forged by any page); it ends the session on the server. */
export async function action({ request }: { request: Request }) {
	const token = getSessionToken(request)
	if (token) {
		const db = await getDb()
		const user = await getUser(request)
		await deleteSession(db, token)
		if (user) await recordAudit(db, { actor: user, action: 'auth.sign-out', request })
	}
	return redirect('/', { headers: { 'Set-Cookie': clearedSessionCookie() } })
}

export function loader() {
	return redirect('/')
}
