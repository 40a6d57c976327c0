import { Link, useLocation } from 'react-router'
import { navigation, type SiteGroup, type SiteLink } from '#app/site/site-map.ts'
import { LogoMark } from '#app/components/logo.tsx'

const isGroup = (item: SiteLink | SiteGroup): item is SiteGroup => 'links' in item

function Chevron() {
	return (
		<svg viewBox="0 0 20 20" className="size-4 shrink-0 transition-transform group-open:rotate-180" aria-hidden="true">
			<path d="m5 7.5 5 5 5-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
		</svg>
	)
}

const desktopLink = (isActive: boolean) =>
	`block rounded-md px-2.5 py-2 font-medium hover:bg-brand-50 hover:text-brand-800 ${isActive ? 'text-brand-700 underline decoration-2 underline-offset-8' : ''}`

/**
 * A menu link, marked as the current page when it is. A plain link: the pages it leads to are
 * documents of their own, and the menu's eighty-odd links are drawn on every public page, where a
 * NavLink would resolve and match each path against the router.
 */
function MenuLink({ to, current, className, children }: { to: string; current: boolean; className: string; children: string }) {
	return (
		<a href={to} className={className} aria-current={current ? 'page' : undefined}>
			{children}
		</a>
	)
}

/**
 * Menus are native <details>: they open by keyboard and touch without JavaScript, and the shared
 * `name` keeps one open at a time. Below the xl breakpoint the whole menu folds behind one button.
 */
export function SiteHeader({ signedIn }: { signedIn: boolean }) {
	const portal = signedIn ? { to: '/admin', label: 'لوحة التحكم' } : { to: '/login', label: 'بوابة الموظفين' }
	const { pathname } = useLocation()
	const here = pathname.replace(/\/+$/, '') || '/'
	return (
		<header className="relative border-b border-stone-200 bg-white">
			<a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:start-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:p-2">
				تخطَّ إلى المحتوى
			</a>
			<div className="mx-auto flex max-w-7xl items-center gap-3 px-4 py-3">
				<Link to="/" className="flex min-w-0 items-center gap-3" aria-label="مؤسسة عطاء الخيرية — الصفحة الرئيسية">
					<LogoMark className="size-11 shrink-0 sm:size-12" />
					<span className="leading-tight">
						<span className="block text-lg font-bold text-brand-900 sm:whitespace-nowrap">مؤسسة عطاء الخيرية</span>
						<span className="hidden text-xs text-stone-600 sm:block xl:hidden 2xl:block">مسجلة لدى وزارة الموارد البشرية والتنمية الاجتماعية</span>
					</span>
				</Link>

				<nav aria-label="القائمة الرئيسية" className="ms-auto hidden xl:block">
					<ul className="flex items-center gap-0.5 whitespace-nowrap">
						{navigation.map((item) =>
							isGroup(item) ? (
								<li key={item.label} className="relative">
									<details name="main-menu" className="group">
										<summary className="flex items-center gap-1 rounded-md px-2.5 py-2 font-medium hover:bg-brand-50 hover:text-brand-800">
											{item.label}
											<Chevron />
										</summary>
										<ul className="absolute start-0 top-full z-40 mt-1 w-64 rounded-lg border border-stone-200 bg-white p-2 shadow-lg">
											{item.links.map((link) => (
												<li key={link.to}>
													<MenuLink to={link.to} current={link.to === here} className={desktopLink(link.to === here)}>
														{link.label}
													</MenuLink>
												</li>
											))}
										</ul>
									</details>
								</li>
							) : (
								<li key={item.to}>
									<MenuLink to={item.to} current={item.to === here} className={desktopLink(item.to === here)}>
										{item.label}
									</MenuLink>
								</li>
							),
						)}
						<li>
							<Link to={portal.to} className="btn-primary ms-2 min-h-10 px-4 text-sm">
								{portal.label}
							</Link>
						</li>
					</ul>
				</nav>

				<details className="ms-auto shrink-0 xl:hidden">
					<summary className="btn-secondary min-h-11 px-4" aria-label="القائمة">
						<svg viewBox="0 0 24 24" className="size-5" aria-hidden="true">
							<path d="M4 6h16M4 12h16M4 18h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
						</svg>
						<span>القائمة</span>
					</summary>
					<nav
						aria-label="القائمة الرئيسية"
						className="absolute inset-x-0 top-full z-40 max-h-[80dvh] overflow-y-auto border-y border-stone-200 bg-white px-4 py-3 shadow-lg"
					>
						<ul className="space-y-1">
							{navigation.map((item) =>
								isGroup(item) ? (
									<li key={item.label}>
										<details name="mobile-menu" className="group">
											<summary className="flex min-h-11 items-center justify-between rounded-md px-3 font-semibold hover:bg-brand-50">
												{item.label}
												<Chevron />
											</summary>
											<ul className="ms-3 border-s-2 border-brand-100 ps-2">
												{item.links.map((link) => (
													<li key={link.to}>
														<MenuLink to={link.to} current={link.to === here} className={`flex min-h-11 items-center rounded-md px-3 hover:bg-brand-50 ${link.to === here ? 'font-bold text-brand-700' : ''}`}>
															{link.label}
														</MenuLink>
													</li>
												))}
											</ul>
										</details>
									</li>
								) : (
									<li key={item.to}>
										<MenuLink to={item.to} current={item.to === here} className={`flex min-h-11 items-center rounded-md px-3 font-semibold hover:bg-brand-50 ${item.to === here ? 'text-brand-700' : ''}`}>
											{item.label}
										</MenuLink>
									</li>
								),
							)}
							<li className="pt-2">
								<Link to={portal.to} className="btn-primary w-full">
									{portal.label}
								</Link>
							</li>
						</ul>
					</nav>
				</details>
			</div>
		</header>
	)
}
