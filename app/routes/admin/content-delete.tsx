import { data, Form, Link } from 'react-router'
import type { Route } from './+types/content-delete'
import { getDb } from '#app/db/database.server.ts'
import { requireRole } from '#app/auth/user-context.server.ts'
import { deleteEntry, getEntry } from '#app/content/store.server.ts'
import { contentCrumbs, findContentType } from '#app/content/types.ts'
import { areaRoles } from '#app/db/roles.ts'
import { redirectWithFlash } from '#app/http/flash.server.ts'
import { PageTitle } from '#app/components/forms.tsx'
import type { AdminHandle } from './layout.tsx'
import { audited } from '#app/audit/audit-trail.server.ts'

// Deleting asks first, on a page of its own: it works without JavaScript and never by a GET.

export const handle: AdminHandle = { breadcrumb: (data) => [...contentCrumbs((data as { typeName: string }).typeName), { label: 'حذف' }] }

export const middleware = [audited({ read: false, write: 'content.delete' })]

async function open(params: { type: string; id: string }, context: Route.LoaderArgs['context']) {
	const user = requireRole(context, areaRoles.content)
	const type = findContentType(params.type)
	if (!type || type.kind !== 'collection') throw data(null, { status: 404 })
	const db = await getDb()
	const entry = await getEntry(db, type, params.id)
	if (!entry) throw data(null, { status: 404 })
	return { type, db, entry, user }
}

export async function loader({ params, context }: Route.LoaderArgs) {
	const { type, entry } = await open(params, context)
	return { typeName: type.type, title: String((entry.data as Record<string, unknown>)[type.listColumns[0]!] ?? '') }
}

export async function action({ params, context }: Route.ActionArgs) {
	const { type, db, entry, user } = await open(params, context)
	await deleteEntry(db, type, entry.id, user.id)
	return redirectWithFlash(`/admin/content/${type.type}`, { tone: 'success', message: type.messages.deleted })
}

export default function ContentDelete({ loaderData }: Route.ComponentProps) {
	const type = findContentType(loaderData.typeName)!
	return (
		<>
			<PageTitle title={`حذف ${type.singular}`} />
			<h1 className="text-2xl font-bold text-brand-900">
				حذف {type.singular}: {loaderData.title}
			</h1>
			<p className="mt-3">سيختفي من الموقع ومن هذه القائمة. هل أنت متأكد؟</p>
			<Form method="post" className="mt-6 flex flex-wrap gap-3">
				<button type="submit" className="btn bg-red-800 text-white hover:bg-red-900">
					نعم، احذف
				</button>
				<Link to={`/admin/content/${type.type}`} className="btn-secondary">
					تراجع
				</Link>
			</Form>
		</>
	)
}
