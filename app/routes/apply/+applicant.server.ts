import { data } from 'react-router'
import { getDb } from '#app/bootstrap.server.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { completedSections } from '#app/forms/journey.ts'
import { clientIp } from '#app/utils/origin.server.ts'
import { hit, type RateLimitRule } from '#app/utils/rate-limit.server.ts'
import { getUser } from '#app/auth/session.server.ts'
import { findCaseByToken, loadSavedState, type IdChecksumOverride } from './case-store.server.ts'

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

/** Public form posts per IP address: generous for a family on a shared mobile network, not for a bot. */
export const publicLimits = {
	start: { bucket: 'apply:start', limit: 20, windowSeconds: 60 * 60 },
	save: { bucket: 'apply:save', limit: 300, windowSeconds: 10 * 60 },
	lookup: { bucket: 'apply:lookup', limit: 10, windowSeconds: 10 * 60 },
} satisfies Record<string, RateLimitRule>

export async function limitByIp(request: Request, rule: RateLimitRule): Promise<void> {
	const state = await hit(await getDb(), rule, clientIp(request))
	if (state.limited) {
		throw data(`طلبات كثيرة من جهازك. حاول مرة أخرى بعد ${Math.ceil(state.retryAfter / 60)} دقيقة.`, {
			status: 429,
			headers: { 'Retry-After': String(state.retryAfter) },
		})
	}
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
