import { createContext, type MiddlewareFunction, type RouterContextProvider } from 'react-router'
import type { Database } from '#app/db/client.server.ts'
import { auditLog } from '#app/db/schema.ts'
import { getDb } from '#app/db/database.server.ts'
import { clientIp } from '#app/utils/origin.server.ts'
import { onScreen } from '#app/http/screen.server.ts'
import { staffContext } from '#app/auth/user-context.server.ts'
import type { PublicUser } from '#app/domain/staff-users.server.ts'
import { normaliseReference } from '#app/cases/tokens.server.ts'
import type { AuditAction } from '#app/audit/actions.ts'
import type { AuditDetails } from '#app/audit/audit-log.server.ts'
import { ClosedPeriodError } from '#app/cases/refusals.ts'

// The audit trail (docs/security.md#audit-trail). Every back-office route's middleware records the
// changes and the reads of applicants' data it makes (`audited`, below); the layout refuses a route
// that declares nothing (`auditGuard`). Screens add what only they know (a status's old and new
// value) with `noteAudit`.

export interface AuditEntry {
	actor?: Pick<PublicUser, 'id' | 'name'> | null
	/** Who, when there is no staff member: an institution's name, the e-mail a failed sign-in typed. */
	actorName?: string
	action: AuditAction
	caseReference?: string | null
	/** Absent for what the app does by itself (retention's daily run): no page, no address. */
	request?: Request
	data?: AuditDetails
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
export type Write = AuditAction | { byIntent: Partial<Record<string, AuditAction>>; otherwise?: AuditAction } | 'by-screen' | 'nothing'

/**
 * What a back-office route records: a successful read of it (`read`) and a successful change
 * through it (`write`). `false`: nothing to record (a list), or no action at all.
 */
export interface AuditPlan {
	read: AuditAction | false
	write: Write | false
	/** Actions the screen may record instead of the planned one, through `noteAudit`. */
	screenActions?: readonly AuditAction[]
}

/** What a screen adds to the entry its request records: details, or a more precise action. */
export interface AuditNote {
	action?: AuditAction
	data?: AuditDetails
	/** The screen recorded its own entry (sign-in pages, the account screen). */
	recorded?: boolean
	/** A refused change (a 4xx answer) to record all the same: refused money actions are audited (docs/security.md#audit-trail), money dated in a closed month among them (`noteRefusal`). */
	refusal?: boolean
}

const auditNoteContext = createContext<AuditNote | null>(null)

/** Adds to the entry this request records, if it records one. */
export function noteAudit(context: Readonly<RouterContextProvider>, note: AuditNote): void {
	const current = context.get(auditNoteContext)
	if (current) Object.assign(current, { ...note, data: { ...current.data, ...note.data } })
}

/**
 * A money action refused because it is dated in a closed month (docs/product.md#periods): recorded
 * with the month, though the screen answers 409. Screens call it with whatever their store threw.
 */
export function noteRefusal(context: Readonly<RouterContextProvider>, error: unknown): void {
	if (error instanceof ClosedPeriodError) noteAudit(context, { refusal: true, data: { refused: 'closed-period', month: error.month } })
}

/**
 * Where a staff action's handler (app/casework/) notes what the request's audit entry records,
 * without knowing of requests: a route passes `auditSink(context)`, a test or a script its own.
 */
export interface AuditSink {
	note(note: AuditNote): void
	/** A refusal the store threw: recorded when it is a money action dated in a closed month (`noteRefusal`). */
	refusal(error: unknown): void
}

export function auditSink(context: Readonly<RouterContextProvider>): AuditSink {
	return { note: (note) => noteAudit(context, note), refusal: (error) => noteRefusal(context, error) }
}

/** A sink that keeps nothing: for callers without an audited request. */
export const noAudit: AuditSink = { note: () => {}, refusal: () => {} }

const SAFE_METHODS = new Set(['GET', 'HEAD'])

/** The form's `intent`, when the body is a plain form (a file upload never needs one to be told apart). */
async function intentOf(request: Request): Promise<string | undefined> {
	if (!request.headers.get('Content-Type')?.startsWith('application/x-www-form-urlencoded')) return undefined
	const intent = (await request.clone().formData()).get('intent')
	return typeof intent === 'string' ? intent : undefined
}

function actionFor(route: AuditPlan, method: string, intent: string | undefined): AuditAction | false {
	if (SAFE_METHODS.has(method)) return route.read
	const write = route.write
	if (write === 'by-screen' || write === 'nothing') return false
	if (!write || typeof write === 'string') return write
	return (intent !== undefined ? write.byIntent[intent] : undefined) ?? write.otherwise ?? false
}

/** Set by the back office's guard; the route's own `audited` middleware says it has run. */
const planContext = createContext<{ plan?: AuditPlan } | null>(null)

/** An audited route's middleware, with its plan for app/audit/audit-routes.test.ts to read. */
export type AuditedMiddleware = MiddlewareFunction<Response> & { auditPlan: AuditPlan }

/**
 * Each back-office route declares what it records, in its own module:
 * `export const middleware = [audited({ read: 'case.view', write: … })]`. The router runs it only for
 * the route that answers, so the declaration cannot drift from the route table as a table of paths
 * did (it once matched nothing). A route that declares nothing is refused by `auditGuard`.
 *
 * It records the request once answered: a change when it succeeded (any answer below 400), a read
 * when it answered 200, and a refusal for lack of a role (403) as `access.denied`.
 */
export function audited(plan: AuditPlan): AuditedMiddleware {
	const middleware: MiddlewareFunction<Response> = async ({ request, context, params }, next) => {
		const holder = context.get(planContext)
		if (holder) holder.plan = plan
		const method = request.method.toUpperCase()
		const intent = SAFE_METHODS.has(method) ? undefined : await intentOf(request)
		const note: AuditNote = {}
		context.set(auditNoteContext, note)
		// The money ledger notes the screen each entry comes from (app/http/screen.server.ts).
		const response = await onScreen(`${pathOf(request)}${intent ? `#${intent}` : ''}`, next)
		if (note.recorded) return response
		const planned = actionFor(plan, method, intent)
		const action = response.status === 403 ? 'access.denied' : (note.action ?? planned)
		const succeeded = response.status === 403 || (SAFE_METHODS.has(method) ? response.status === 200 : response.status < 400 || (note.refusal === true && response.status < 500))
		if (!action || !succeeded || method === 'HEAD') return response
		await recordAudit(await getDb(), {
			actor: context.get(staffContext),
			action,
			caseReference: params.reference ? normaliseReference(params.reference) : null,
			request,
			data: { ...(intent ? { intent } : {}), ...note.data, ...(response.status === 403 ? { method } : {}), ...(note.refusal && response.status !== 403 && response.status >= 400 ? { status: response.status } : {}) },
		})
		return response
	}
	return Object.assign(middleware, { auditPlan: plan })
}

/**
 * The back office's layout runs this before its routes: a request whose route declared no audit
 * plan fails (500) instead of going unrecorded. app/audit/audit-routes.test.ts keeps every route
 * declaring one; tests/e2e/security/audit.spec.ts proves each is recorded through the real server.
 */
export const auditGuard: MiddlewareFunction<Response> = async ({ request, context }, next) => {
	const holder: { plan?: AuditPlan } = {}
	context.set(planContext, holder)
	const response = await next()
	if (!holder.plan) throw new Error(`${request.method} ${new URL(request.url).pathname}: its route declares no audit plan (app/audit/audit-trail.server.ts, audited)`)
	return response
}
