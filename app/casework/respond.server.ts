// A handler's outcome (./outcome.ts) as a route's answer: a redirect with its notice, the refused
// form with its errors and what was typed, or an error page.
import { data } from 'react-router'
import { redirectWithFlash } from '#app/http/flash.server.ts'
import type { Done, Forbidden, Outcome } from './outcome.ts'

export function respond(outcome: Done | Forbidden): Promise<Response>
export function respond(outcome: Outcome): ReturnType<typeof refusal> | Promise<Response>
export function respond(outcome: Outcome) {
	switch (outcome.kind) {
		case 'done':
			return redirectWithFlash(outcome.redirect, outcome.flash)
		case 'forbidden':
			throw data(outcome.message, { status: outcome.status })
		case 'refused':
			return refusal(outcome)
	}
}

function refusal(outcome: Extract<Outcome, { kind: 'refused' }>) {
	return data({ form: outcome.form, errors: outcome.errors, values: outcome.values }, { status: outcome.status })
}
