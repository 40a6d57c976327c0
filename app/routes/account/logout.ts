import { redirect } from 'react-router'
import { getDb } from '#app/db/database.server.ts'
import { clearedAccountSessionCookie, deleteAccountSession, getAccountSessionToken } from '#app/accounts/institution-accounts.server.ts'

/** An institution signs out with a POST (a GET could be forged by any page); the session ends on the server. */
export async function action({ request }: { request: Request }) {
	const token = getAccountSessionToken(request)
	if (token) await deleteAccountSession(await getDb(), token)
	return redirect('/account/login', { headers: { 'Set-Cookie': clearedAccountSessionCookie() } })
}

export function loader() {
	return redirect('/account')
}
