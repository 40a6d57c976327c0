import { data, redirect } from 'react-router'
import type { Route } from './+types/not-found'
import { legacyLocation } from '#app/site/legacy-redirects.ts'

/** Old links keep working (301 to the new path, query kept); anything else is a 404 page. */
export function loader({ request }: Route.LoaderArgs) {
	const target = legacyLocation(new URL(request.url))
	if (target) throw redirect(target, 301)
	throw data(null, { status: 404 })
}

export function action({ request }: Route.ActionArgs) {
	return loader({ request } as Route.LoaderArgs)
}

export default function NotFound() {
	return null
}
