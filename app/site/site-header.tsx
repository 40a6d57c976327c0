import { useLocation } from 'react-router'
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

/** A menu link's classes: a row of the folded menu below xl, a link of the bar or of a group's list above. */
const linkClass = (current: boolean, topLevel: boolean) =>
	[
		'flex min-h-11 items-center rounded-md px-3 hover:bg-brand-50 xl:block xl:min-h-0 xl:px-2.5 xl:py-2 xl:font-medium xl:hover:text-brand-800',
		topLevel ? 'font-semibold' : '',
		current ? 'font-bold text-brand-700 xl:underline xl:decoration-2 xl:underline-offset-8' : '',
	].join(' ')

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
 * `name` keeps one open at a time. The menu is drawn once (docs/performance.md#a-dynamic-page): a bar
 * from the xl breakpoint, and below it a panel that the «القائمة» button before it shows when open
 * (`.menu-toggle[open] + .site-nav` in app/app.css), its groups unfolding in place.
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
				<a href="/" className="flex min-w-0 items-center gap-3" aria-label="مؤسسة عطاء الخيرية — الصفحة الرئيسية">
					<LogoMark className="size-11 shrink-0 sm:size-12" />
					<span className="leading-tight">
						<span className="block text-lg font-bold text-brand-900 sm:whitespace-nowrap">مؤسسة عطاء الخيرية</span>
						<span className="hidden text-xs text-stone-600 sm:block xl:hidden 2xl:block">مسجلة لدى وزارة الموارد البشرية والتنمية الاجتماعية</span>
					</span>
				</a>

				<details className="menu-toggle ms-auto shrink-0 xl:hidden">
					<summary className="btn-secondary min-h-11 px-4" aria-label="القائمة">
						<svg viewBox="0 0 24 24" className="size-5" aria-hidden="true">
							<path d="M4 6h16M4 12h16M4 18h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
						</svg>
						<span>القائمة</span>
					</summary>
				</details>
				<nav
					aria-label="القائمة الرئيسية"
					className="site-nav absolute inset-x-0 top-full z-40 hidden max-h-[80dvh] overflow-y-auto border-y border-stone-200 bg-white px-4 py-3 shadow-lg xl:static xl:ms-auto xl:block xl:max-h-none xl:overflow-visible xl:border-0 xl:bg-transparent xl:p-0 xl:shadow-none"
				>
					<ul className="space-y-1 xl:flex xl:items-center xl:gap-0.5 xl:space-y-0 xl:whitespace-nowrap">
						{navigation.map((item) =>
							isGroup(item) ? (
								<li key={item.label} className="xl:relative">
									<details name="main-menu" className="group">
										<summary className="flex min-h-11 items-center justify-between gap-1 rounded-md px-3 font-semibold hover:bg-brand-50 xl:min-h-0 xl:justify-start xl:px-2.5 xl:py-2 xl:font-medium xl:hover:text-brand-800">
											{item.label}
											<Chevron />
										</summary>
										<ul className="ms-3 border-s-2 border-brand-100 ps-2 xl:absolute xl:start-0 xl:top-full xl:z-40 xl:ms-0 xl:mt-1 xl:w-64 xl:rounded-lg xl:border xl:border-stone-200 xl:bg-white xl:p-2 xl:shadow-lg">
											{item.links.map((link) => (
												<li key={link.to}>
													<MenuLink to={link.to} current={link.to === here} className={linkClass(link.to === here, false)}>
														{link.label}
													</MenuLink>
												</li>
											))}
										</ul>
									</details>
								</li>
							) : (
								<li key={item.to}>
									<MenuLink to={item.to} current={item.to === here} className={linkClass(item.to === here, true)}>
										{item.label}
									</MenuLink>
								</li>
							),
						)}
						<li className="pt-2 xl:pt-0">
							<a href={portal.to} className="btn-primary w-full xl:ms-2 xl:min-h-10 xl:w-auto xl:px-4 xl:text-sm">
								{portal.label}
							</a>
						</li>
					</ul>
				</nav>
			</div>
		</header>
	)
}
