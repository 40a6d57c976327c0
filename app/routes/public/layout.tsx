import { Outlet, useRouteError, useRouteLoaderData } from 'react-router'
import type { Route } from './+types/layout'
import { getDb } from '#app/db/database.server.ts'
import { getUser } from '#app/auth/session.server.ts'
import { getFoundationInfo } from '#app/domain/foundation-details.server.ts'
import { listEntries } from '#app/content/store.server.ts'
import { externalLinks } from '#app/content/types.ts'
import { SiteHeader } from '#app/site/site-header.tsx'
import { SiteFooter } from '#app/site/site-footer.tsx'
import { ErrorMessage } from '#app/components/error-message.tsx'
import { memoContent } from '#app/cache/content-memo.server.ts'

export async function loader({ request }: Route.LoaderArgs) {
	const db = await getDb()
	const [user, frame] = await Promise.all([getUser(request), memoContent('public-layout', () => loadFrame(db))])
	return { signedIn: Boolean(user), ...frame }
}

/** The header's and footer's content: the same for every page, read once per content change. */
async function loadFrame(db: Awaited<ReturnType<typeof getDb>>) {
	const [info, links] = await Promise.all([getFoundationInfo(db), listEntries(db, externalLinks)])
	const { name, phone, phone2, email, location, twitter, linkedin, youtube, facebook, instagram } = info
	return {
		info: { name, phone, phone2, email, location, twitter, linkedin, youtube, facebook, instagram },
		links: links.map(({ data }) => ({ label: data.label, url: data.url })),
	}
}

export default function PublicLayout({ loaderData }: Route.ComponentProps) {
	return (
		<div className="flex min-h-dvh flex-col">
			<SiteHeader signedIn={loaderData.signedIn} />
			<main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
				<Outlet />
			</main>
			<SiteFooter info={loaderData.info} links={loaderData.links} signedIn={loaderData.signedIn} />
		</div>
	)
}

export function ErrorBoundary() {
	const error = useRouteError()
	const data = useRouteLoaderData<typeof loader>('routes/public/layout')
	const body = (
		<div className="mx-auto max-w-3xl px-4 py-16 text-center">
			<ErrorMessage error={error} />
			<p className="mt-6 flex flex-wrap justify-center gap-3">
				<a href="/" className="btn-primary">
					الصفحة الرئيسية
				</a>
				<a href="/contact" className="btn-secondary">
					تواصل معنا
				</a>
			</p>
		</div>
	)
	if (!data) return <main id="main">{body}</main>
	return (
		<div className="flex min-h-dvh flex-col">
			<SiteHeader signedIn={data.signedIn} />
			<main id="main" className="flex-1">
				{body}
			</main>
			<SiteFooter info={data.info} links={data.links} signedIn={data.signedIn} />
		</div>
	)
}
