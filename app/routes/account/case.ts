import { redirect } from 'react-router'
import type { Route } from './+types/case'
import { getDb } from '#app/db/database.server.ts'
import { openAccountCase, requireInstitution } from '#app/accounts/institution-accounts.server.ts'

/**
 * One of the institution's own cases: opened through a new private link. Any other reference —
 * another institution's case, a deleted one, none — is the same 404, so nothing is said about
 * which cases exist.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
	const account = await requireInstitution(request)
	const token = await openAccountCase(await getDb(), account.id, params.reference)
	if (!token) throw new Response('الصفحة غير موجودة', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
	return redirect(`/apply/r/${token}`)
}
