import { createContext, type MiddlewareFunction, type RouterContextProvider } from 'react-router'
import type { Database } from '#app/db/client.server.ts'
import { auditLog } from '#app/db/schema.ts'
import { getDb } from '#app/db/database.server.ts'
import { clientIp } from '#app/utils/origin.server.ts'
import { staffContext } from '#app/auth/user-context.server.ts'
import type { PublicUser } from '#app/domain/users.server.ts'
import { normaliseReference } from '#app/cases/tokens.server.ts'
import type { AuditAction } from './actions.ts'

// The audit trail (docs/security.md#audit-trail). The back office's middleware records every change
// and every read of an applicant's data from the route that answered (the table below), so a new
// screen cannot be left out unnoticed: app/audit/audit-routes.test.ts fails for a route without a line.
// Screens add what only they know (a status's old and new value) with `noteAudit`.

export interface AuditEntry {
	actor?: Pick<PublicUser, 'id' | 'name'> | null
	/** Who, when there is no staff member: an institution's name, the e-mail a failed sign-in typed. */
	actorName?: string
	action: AuditAction
	caseReference?: string | null
	/** Absent for what the app does by itself (retention's daily run): no page, no address. */
	request?: Request
	data?: Record<string, unknown>
}

export async function recordAudit(db: Database, entry: AuditEntry): Promise<void> {
	await db.insert(auditLog).values({
		actorId: entry.actor?.id ?? null,
		actorName: (entry.actor?.name ?? entry.actorName ?? '').slice(0, 254),
		action: entry.action,
		caseReference: entry.caseReference ?? null,
		path: entry.request ? pathOf(entry.request) : '',
		ip: entry.request ? clientIp(entry.request) : '',
		data: entry.data ?? {},
	})
}

/** The page a request was for, without its query or React Router's `.data` ending. */
const pathOf = (request: Request) => new URL(request.url).pathname.replace(/\.data$/, '').slice(0, 500)

/**
 * What a change through a route records: one action, one per form `intent`, the entries the screen
 * records itself (`'by-screen'`), or nothing for an action that changes nothing (`'nothing'`).
 */
type Write = AuditAction | { byIntent: Partial<Record<string, AuditAction>>; otherwise?: AuditAction } | 'by-screen' | 'nothing'

/**
 * Every back-office route, by its pattern: what a successful read of it (`read`) and a successful
 * change through it (`write`) record. `false`: nothing to record (a list), or no action at all.
 */
export const auditedRoutes: Record<string, { read: AuditAction | false; write: Write | false }> = {
	'/admin': { read: false, write: false },
	'/admin/users': { read: false, write: { byIntent: { 'toggle-active': 'user.update', delete: 'user.delete', 'two-step-roles': 'auth.two-step-roles', 'reset-two-step': 'auth.two-step-reset' } } },
	'/admin/users/new': { read: false, write: 'user.create' },
	'/admin/users/:id/edit': { read: false, write: 'user.update' },
	'/admin/cases': { read: false, write: { byIntent: { 'bulk-status': 'cases.bulk-status', 'bulk-assign': 'cases.bulk-assign' } } },
	'/admin/associations': { read: false, write: { byIntent: { 'bulk-status': 'cases.bulk-status', 'bulk-assign': 'cases.bulk-assign' } } },
	'/admin/cases/export/:format': { read: 'cases.export', write: false },
	'/admin/associations/export/:format': { read: 'cases.export', write: false },
	// Paper intake posts to the public form's own route (/apply/:type/new), which records the case's creation.
	'/admin/cases/new': { read: false, write: false },
	'/admin/cases/:reference': {
		read: 'case.view',
		write: {
			byIntent: {
				status: 'case.status',
				assign: 'case.assign',
				note: 'case.note',
				message: 'case.message',
				aid: 'case.aid',
				delete: 'case.delete',
				restore: 'case.restore',
			},
		},
	},
	'/admin/cases/:reference/edit/:section': { read: 'case.view', write: 'case.correct' },
	'/admin/cases/:reference/files/:fileId': { read: 'case.file', write: false },
	'/admin/cases/:reference/print': { read: 'case.print', write: false },
	'/admin/intake': { read: false, write: 'intake.change' },
	'/admin/foundation': { read: false, write: 'foundation.change' },
	'/admin/privacy': { read: false, write: 'privacy.publish' },
	'/admin/inquiries': { read: false, write: false },
	'/admin/inquiries/:id': { read: 'inquiry.view', write: 'inquiry.change' },
	'/admin/content/:type': { read: false, write: 'content.upload' },
	'/admin/content/:type/new': { read: false, write: 'content.create' },
	'/admin/content/:type/upload': { read: false, write: 'content.upload' },
	'/admin/content/:type/video-upload': { read: false, write: 'content.upload' },
	'/admin/content/albums/:id/photos': { read: false, write: { byIntent: { caption: 'content.update', cover: 'content.update', delete: 'content.delete' }, otherwise: 'content.upload' } },
	'/admin/content/:type/edit': { read: false, write: 'content.update' },
	'/admin/content/:type/:id/edit': { read: false, write: 'content.update' },
	'/admin/content/:type/:id/delete': { read: false, write: { byIntent: { restore: 'content.restore' }, otherwise: 'content.delete' } },
	'/admin/audit': { read: false, write: false },
	'/admin/audit/export': { read: 'audit.export', write: false },
	'/admin/retention': { read: false, write: false },
	// Looking a national ID up reads what is held about a person; the ZIP is all of it.
	'/admin/subject-access': { read: false, write: 'subject-access.lookup' },
	'/admin/subject-access/export': { read: false, write: 'subject-access.export' },
	'/admin/account': { read: false, write: 'by-screen' },
	'/admin/account/two-step': { read: false, write: 'by-screen' },
	// A POST to a screen that does not exist answers 404.
	'/admin/*': { read: false, write: 'nothing' },
}

/** What a screen adds to the entry its request records: details, or a more precise action. */
interface AuditNote {
	action?: AuditAction
	data?: Record<string, unknown>
	/** The screen recorded its own entry (sign-in pages, the account screen). */
	recorded?: boolean
}

const auditNoteContext = createContext<AuditNote | null>(null)

/** Adds to the entry this request records, if it records one. */
export function noteAudit(context: Readonly<RouterContextProvider>, note: AuditNote): void {
	const current = context.get(auditNoteContext)
	if (current) Object.assign(current, { ...note, data: { ...current.data, ...note.data } })
}

const SAFE_METHODS = new Set(['GET', 'HEAD'])

/** The form's `intent`, when the body is a plain form (a file upload never needs one to be told apart). */
async function intentOf(request: Request): Promise<string | undefined> {
	if (!request.headers.get('Content-Type')?.startsWith('application/x-www-form-urlencoded')) return undefined
	const intent = (await request.clone().formData()).get('intent')
	return typeof intent === 'string' ? intent : undefined
}

function actionFor(route: (typeof auditedRoutes)[string], method: string, intent: string | undefined): AuditAction | false {
	if (SAFE_METHODS.has(method)) return route.read
	const write = route.write
	if (write === 'by-screen' || write === 'nothing') return false
	if (!write || typeof write === 'string') return write
	return (intent !== undefined ? write.byIntent[intent] : undefined) ?? write.otherwise ?? false
}

/**
 * Runs after the staff member is known: records the request once it has been answered. A change
 * is recorded when it succeeded (any answer below 400), a read when it answered 200, and a refusal
 * for lack of a role (403) as `access.denied`. app/audit/audit-routes.test.ts keeps the table whole.
 */
export const auditMiddleware: MiddlewareFunction<Response> = async ({ request, context, pattern, params }, next) => {
	const method = request.method.toUpperCase()
	const route = auditedRoutes[pattern]
	const intent = SAFE_METHODS.has(method) ? undefined : await intentOf(request)
	const note: AuditNote = {}
	context.set(auditNoteContext, note)
	const response = await next()
	if (note.recorded) return response
	const planned = route ? actionFor(route, method, intent) : false
	const action = response.status === 403 ? 'access.denied' : (note.action ?? planned)
	const succeeded = response.status === 403 || (SAFE_METHODS.has(method) ? response.status === 200 : response.status < 400)
	if (!action || !succeeded || method === 'HEAD') return response
	await recordAudit(await getDb(), {
		actor: context.get(staffContext),
		action,
		caseReference: params.reference ? normaliseReference(params.reference) : null,
		request,
		data: { ...(intent ? { intent } : {}), ...note.data, ...(response.status === 403 ? { method } : {}) },
	})
	return response
}
