import { Form, Link, Outlet, useMatches, useRouteError, useRouteLoaderData } from 'react-router'
import type { Route } from './+types/layout'
import { requireUser } from '#app/auth/session.server.ts'
import { staffContext } from '#app/auth/user-context.server.ts'
import { auditGuard } from '#app/audit/audit-trail.server.ts'
import { rolesLabel, type UserRole } from '#app/db/roles.ts'
import { LogoMark } from '#app/components/logo.tsx'
import { ErrorMessage } from '#app/components/error-message.tsx'

export interface Crumb {
	/** Absent for the current screen. */
	to?: string
	label: string
}

export interface AdminHandle {
	hydrate?: boolean
	/** The crumb this screen adds after «لوحة التحكم», or the crumbs its loader data calls for. */
	breadcrumb?: string | ((data: unknown) => Crumb[])
}

export const handle: AdminHandle = { hydrate: true }

/** Every /admin loader and action runs after this: no session, no back office; no audit plan, no answer. */
export const middleware: Route.MiddlewareFunction[] = [
	async ({ request, context }) => {
		context.set(staffContext, await requireUser(request))
	},
	auditGuard,
]

export function loader({ context }: Route.LoaderArgs) {
	const { name, roles } = context.get(staffContext)
	return { user: { name, roles } }
}

function AdminFrame({ user, children }: { user: { name: string; roles: readonly UserRole[] } | undefined; children: React.ReactNode }) {
	return (
		<div className="flex min-h-dvh flex-col bg-stone-100">
			<header className="bg-brand-900 text-white">
				<div className="mx-auto flex max-w-7xl flex-wrap items-center gap-3 px-4 py-3">
					<Link to="/admin" className="flex items-center gap-2 font-bold">
						<LogoMark className="size-9" />
						لوحة تحكم عطاء
					</Link>
					<div className="ms-auto flex flex-wrap items-center gap-3 text-sm">
						{user ? (
							<Link to="/admin/account" className="underline-offset-4 hover:underline">
								{user.name} <span className="text-brand-200">— {rolesLabel(user.roles)}</span>
								<span className="sr-only"> (حسابي)</span>
							</Link>
						) : null}
						<Link to="/" className="underline underline-offset-4">
							الموقع العام
						</Link>
						<Form method="post" action="/logout">
							<button type="submit" className="btn min-h-9 border border-white/60 px-3 py-1 text-sm hover:bg-brand-800">
								تسجيل الخروج
							</button>
						</Form>
					</div>
				</div>
			</header>
			<main id="main" className="mx-auto w-full min-w-0 max-w-7xl flex-1 px-4 py-6">
				<Breadcrumbs />
				{children}
			</main>
		</div>
	)
}

function Breadcrumbs() {
	const crumbs = useMatches().flatMap((match): Crumb[] => {
		const breadcrumb = (match.handle as AdminHandle | undefined)?.breadcrumb
		if (typeof breadcrumb === 'function') return match.loaderData === undefined ? [] : breadcrumb(match.loaderData)
		return breadcrumb ? [{ to: match.pathname, label: breadcrumb }] : []
	})
	return (
		<nav aria-label="مسار التنقل" className="mb-4">
			<ol className="flex flex-wrap items-center gap-2 text-sm text-stone-700">
				<li>
					{crumbs.length ? (
						<Link to="/admin" className="link">
							لوحة التحكم
						</Link>
					) : (
						<span aria-current="page">لوحة التحكم</span>
					)}
				</li>
				{crumbs.map((crumb, index) => (
					<li key={`${index}-${crumb.label}`} className="flex items-center gap-2">
						<span aria-hidden="true">‹</span>
						{index === crumbs.length - 1 || !crumb.to ? (
							<span aria-current="page">{crumb.label}</span>
						) : (
							<Link to={crumb.to} className="link">
								{crumb.label}
							</Link>
						)}
					</li>
				))}
			</ol>
		</nav>
	)
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
	return (
		<AdminFrame user={loaderData.user}>
			<Outlet />
		</AdminFrame>
	)
}

export function ErrorBoundary() {
	const error = useRouteError()
	const data = useRouteLoaderData<typeof loader>('routes/admin/layout')
	return (
		<AdminFrame user={data?.user}>
			<div className="rounded-xl bg-white p-8 text-center">
				<ErrorMessage error={error} />
				<Link to="/admin" className="btn-primary mt-6">
					العودة إلى لوحة التحكم
				</Link>
			</div>
		</AdminFrame>
	)
}
