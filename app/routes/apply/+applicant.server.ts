// The HTTP side of an application for the routes under /apply: the case behind a private link, the
// staff member asking, and the visitors' limits. What the steps do with the answers is in app/runner/;
// the case store (app/cases/) knows nothing of requests or responses.
import { data, redirect } from 'react-router'
import type { Database } from '#app/db/client.server.ts'
import { getInstitution, institutionOwnsCase } from '#app/accounts/institution-accounts.server.ts'
import { verificationOn } from '#app/verify/case-verification.server.ts'
import { isRemembered } from '#app/verify/remembered.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { completedSections } from '#app/cases/journey.ts'
import { getUser } from '#app/auth/session.server.ts'
import { areaRoles, hasRole } from '#app/db/roles.ts'
import { findApplicationByToken, type CaseRow, type IdChecksumOverride } from '#app/cases/case-store.server.ts'
import { addressCheck, limitOrThrow, publicLimits } from '#app/http/ip-limit.server.ts'
import { hashResumeToken } from '#app/cases/tokens.server.ts'

/**
 * The application behind a private link. Anyone without a valid token gets the same 404 as for a
 * page that does not exist: a wrong link says nothing about which links exist. A valid link on a
 * browser that has not proven the case's mobile is sent to prove it (docs/security.md#verified-mobile).
 */
export async function loadApplication(request: Request, token: string | undefined) {
	const found = await findLinkedCase(token)
	const { db, row, definition, state } = found
	if (!(await mayOpen(db, request, row))) throw redirect(`/apply/r/${token}/verify`)
	return { db, row, definition, state, completed: completedSections(definition, state) }
}

/** The case behind a private link, proven or not (the page that asks for the code); a 404 otherwise. */
export async function findLinkedCase(token: string | undefined) {
	const db = await getDb()
	const found = token ? await findApplicationByToken(db, token) : undefined
	const definition = found ? findDefinition(found.row.type) : undefined
	if (!found || !definition || found.row.deletedAt) throw data(null, { status: 404 })
	return { db, definition, row: found.row, state: found.state }
}

/**
 * Whether this browser may open the case without a code: it proved the case's mobile, or it is
 * signed in as the staff who handle cases, or as the institution the case belongs to.
 */
export async function mayOpen(db: Database, request: Request, row: CaseRow): Promise<boolean> {
	if (!verificationOn()) return true
	if (await isRemembered(db, request, row)) return true
	if (await getCaseStaff(request)) return true
	const institution = row.accountId !== null || row.type === 'institution-registration' ? await getInstitution(request) : null
	return institution ? institutionOwnsCase(db, institution.id, row) : false
}

/**
 * The signed-in staff member who handles cases (admin or case officer), or null: only they may
 * enter paper applications, accept a failing national ID, or skip the visitors' limits.
 */
export async function getCaseStaff(request: Request) {
	const user = await getUser(request)
	return user && hasRole(user, ...areaRoles.cases) ? user : null
}

/**
 * A signed-in staff member filling in a form for a family may accept a national ID that fails the
 * checksum, with a reason. Returns the override, null when none was asked for, or 'no-note'.
 */
export async function readIdChecksumOverride(request: Request, formData: FormData): Promise<IdChecksumOverride | null | 'no-note'> {
	if (formData.get('overrideIdChecksum') !== 'on') return null
	const staff = await getCaseStaff(request)
	if (!staff) return null
	const note = String(formData.get('overrideNote') ?? '')
		.trim()
		.slice(0, 500)
	return note ? { actorId: staff.id, note } : 'no-note'
}

/**
 * The limits on a visitor's posts: the address's ceiling (`rule`) and, under a private link
 * (/apply/r/<token>/…), the link's own limit, counted by the token's hash (the token is never
 * stored). Staff entering paper applications all day from the foundation's one address skip them.
 */
export async function limitVisitor(request: Request, rule: (typeof publicLimits)[keyof typeof publicLimits]): Promise<void> {
	if (await getCaseStaff(request)) return
	const token = /^\/apply\/r\/([^/]+)/.exec(new URL(request.url).pathname)?.[1]
	await limitOrThrow([
		addressCheck(request, rule),
		...(token ? [{ rule: publicLimits.savePerLink, key: hashResumeToken(token), reason: 'محاولات حفظ كثيرة جداً على رابط هذا الطلب.' }] : []),
	])
}

