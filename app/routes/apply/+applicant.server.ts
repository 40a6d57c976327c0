// The HTTP side of an application for the routes under /apply: the case store (app/cases/) knows
// nothing of requests or responses.
import { data } from 'react-router'
import { getDb } from '#app/db/database.server.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { completedSections } from '#app/forms/journey.ts'
import { getUser } from '#app/auth/session.server.ts'
import { areaRoles } from '#app/domain/roles.ts'
import { findCaseByToken, loadSavedState, type IdChecksumOverride } from '#app/cases/case-store.server.ts'
import { limitByIp, type publicLimits } from '#app/utils/ip-limit.server.ts'

/**
 * The application behind a private link. Anyone without a valid token gets the same 404 as for a
 * page that does not exist: a wrong link says nothing about which links exist.
 */
export async function loadApplication(token: string | undefined) {
	const db = await getDb()
	const row = token ? await findCaseByToken(db, token) : undefined
	const definition = row ? findDefinition(row.type) : undefined
	if (!row || !definition || row.deletedAt) throw data(null, { status: 404 })
	const state = await loadSavedState(db, row.id)
	return { db, row, definition, state, completed: completedSections(definition, state) }
}


/**
 * The signed-in staff member who handles cases (admin or case officer), or null: only they may
 * enter paper applications, accept a failing national ID, or skip the visitors' limits.
 */
export async function getCaseStaff(request: Request) {
	const user = await getUser(request)
	return user && (areaRoles.cases as readonly string[]).includes(user.role) ? user : null
}

export const OVERRIDE_NOTE_MISSING = 'الرجاء كتابة سبب قبول رقم الهوية'

/**
 * A signed-in staff member filling in a form for a family may accept a national ID that fails the
 * checksum, with a reason. Returns the override, null when none was asked for, or 'no-note'.
 */
export async function readIdChecksumOverride(request: Request, formData: FormData): Promise<IdChecksumOverride | null | 'no-note'> {
	if (formData.get('overrideIdChecksum') !== 'on') return null
	const staff = await getCaseStaff(request)
	if (!staff) return null
	const note = String(formData.get('overrideNote') ?? '').trim().slice(0, 500)
	return note ? { actorId: staff.id, note } : 'no-note'
}

/**
 * The per-address limits on applications, for visitors only: staff entering paper applications all
 * day from the foundation's one address must not be locked out by a limit meant for bots.
 */
export async function limitVisitor(request: Request, rule: (typeof publicLimits)[keyof typeof publicLimits]): Promise<void> {
	if (await getCaseStaff(request)) return
	await limitByIp(request, rule)
}
