// What a staff action's handler returns (app/casework/): the route turns it into a response and
// never decides anything itself (docs/architecture.md#casework).
import type { Flash } from '#app/http/flash.server.ts'

/** Done: where the browser goes next, and the notice it shows there. */
export interface Done {
	kind: 'done'
	redirect: string
	flash: Flash
}

/** Refused: the form the errors belong to, the errors by field ('' for the form), the HTTP status, and what was typed. */
export interface Refused {
	kind: 'refused'
	form: string
	errors: Record<string, string[] | null | undefined>
	status: number
	values: Record<string, string>
}

/** Not this member of staff's to do at all: the route answers with this status and message (an error page). */
export interface Forbidden {
	kind: 'forbidden'
	message: string
	status: 403
}

/** Done, and shown on the same page (the committee's batch: each case's own outcome). */
export interface Shown<Result> {
	kind: 'shown'
	result: Result
}

/** What a handler returns; `Shown` only for a handler that stays on its page with a result. */
export type Outcome<Result = never> = [Result] extends [never] ? Done | Refused | Forbidden : Done | Refused | Forbidden | Shown<Result>

export function done(redirect: string, flash: Flash): Done {
	return { kind: 'done', redirect, flash }
}

/** What was typed comes back with the errors (strings only), so nothing is lost on a page without JavaScript. */
export function refused(form: string, errors: Refused['errors'], status = 400, values: Record<string, unknown> = {}): Refused {
	const typed = Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
	return { kind: 'refused', form, errors, status, values: typed }
}
