import { redirect } from 'react-router'
import { getDb } from '#app/db/database.server.ts'
import { clearedSessionCookie, deleteSession, getSessionToken } from '#app/auth/session.server.ts'

/** Signing out is a POST (a GET could be forged by any page); it ends the session on the server. */
export async function action({ request }: { request: Request }) {
	const token = getSessionToken(request)
	if (token) await deleteSession(await getDb(), token)
	return redirect('/', { headers: { 'Set-Cookie': clearedSessionCookie() } })
}

export function loader() {
	return redirect('/')
}
