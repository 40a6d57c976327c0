import { data } from 'react-router'
import { audited } from '#app/audit/audit-trail.server.ts'

// A POST to a screen that does not exist answers 404 and changes nothing.
export const middleware = [audited({ read: false, write: 'nothing' })]

export function loader() {
	throw data(null, { status: 404 })
}

export function action() {
	throw data(null, { status: 404 })
}

export default function AdminNotFound() {
	return null
}
