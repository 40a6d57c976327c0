// The HTTP side of an application for the routes under /apply: the case store (app/cases/) knows
// nothing of requests or responses.
import { data } from 'react-router'
import { getDb } from '#app/db/database.server.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { completedSections } from '#app/forms/journey.ts'
import { getUser } from '#app/auth/session.server.ts'
import { findCaseByToken, loadSavedState, type IdChecksumOverride } from '#app/cases/case-store.server.ts'

/**
 * The application behind a private link. Anyone without a valid token gets the same 404 as for a
 * page that does not exist: a wrong link says nothing about which links exist.
 */
export async function loadApplication(token: string | undefined) {
	const db = await getDb()
	const row = token ? await findCaseByToken(db, token) : undefined
	const definition = row ? findDefinition(row.type) : undefined
	if (!row || !definition) throw data(null, { status: 404 })
	const state = await loadSavedState(db, row.id)
	return { db, row, definition, state, completed: completedSections(definition, state) }
}

export const privateLink = (request: Request, token: string) => `${new URL(request.url).origin}/apply/r/${token}`

export const OVERRIDE_NOTE_MISSING = 'الرجاء كتابة سبب قبول رقم الهوية'

/**
 * A signed-in staff member filling in a form for a family may accept a national ID that fails the
 * checksum, with a reason. Returns the override, null when none was asked for, or 'no-note'.
 */
export async function readIdChecksumOverride(request: Request, formData: FormData): Promise<IdChecksumOverride | null | 'no-note'> {
	if (formData.get('overrideIdChecksum') !== 'on') return null
	const staff = await getUser(request)
	if (!staff) return null
	const note = String(formData.get('overrideNote') ?? '').trim().slice(0, 500)
	return note ? { actorId: staff.id, note } : 'no-note'
}
