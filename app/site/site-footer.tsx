import { Form } from 'react-router'
import { contactChannels, socialNetworks, type FoundationInfo } from '#app/domain/foundation-details.ts'
import { LogoMark } from '#app/components/logo.tsx'

type FooterInfo = Pick<FoundationInfo, 'name' | 'phone' | 'phone2' | 'email' | 'location' | (typeof socialNetworks)[number]['key']>

export function SiteFooter({ info, links, signedIn }: { info: FooterInfo; links: readonly { label: string; url: string }[]; signedIn: boolean }) {
	const social = socialNetworks.filter((network) => info[network.key])
	return (
		<footer className="mt-16 bg-brand-900 text-brand-50">
			<div className="mx-auto grid max-w-7xl gap-10 px-4 py-10 md:grid-cols-3">
				<div>
					<div className="flex items-center gap-3">
						<LogoMark className="size-12" />
						<h2 className="text-lg font-bold text-white">
							{info.name}
						</h2>
					</div>
					<p className="mt-3 text-sm text-brand-100">{info.location}</p>
				</div>

				<div>
					<h2 className="text-lg font-bold text-white">
						تواصل معنا
					</h2>
					<dl className="mt-3 space-y-2 text-sm">
						{contactChannels(info).map((channel) => (
							<div key={channel.label} className="flex gap-2">
								<dt>{channel.label}:</dt>
								<dd>
									<a href={channel.href} className="underline underline-offset-4" dir={channel.ltr ? 'ltr' : undefined}>
										{channel.value}
									</a>
								</dd>
							</div>
						))}
					</dl>
					<a href="/contact" className="mt-4 inline-block font-semibold text-white underline underline-offset-4">
						نموذج التواصل
					</a>
					<a href="/privacy" className="mt-2 block font-semibold text-white underline underline-offset-4">
						إشعار الخصوصية
					</a>
				</div>

				<div>
					<h2 className="text-lg font-bold text-white">
						تابعنا
					</h2>
					{social.length ? (
						<ul className="mt-3 flex flex-wrap gap-2 text-sm">
							{social.map((network) => (
								<li key={network.key}>
									<a
										href={info[network.key]}
										rel="noopener noreferrer"
										target="_blank"
										className="inline-flex min-h-11 items-center rounded-full border border-brand-200/50 px-4 hover:bg-brand-800"
									>
										{network.label}
										<span className="sr-only"> (يفتح في نافذة جديدة)</span>
									</a>
								</li>
							))}
						</ul>
					) : null}
					{links.length ? (
						<>
							<h2 className="mt-6 text-lg font-bold text-white">روابط مهمة</h2>
							<ul className="mt-2 space-y-1 text-sm">
								{links.map((link) => (
									<li key={link.url}>
										{link.url.startsWith('/') ? (
											<a href={link.url} className="underline underline-offset-4">
												{link.label}
											</a>
										) : (
											<a href={link.url} className="underline underline-offset-4" rel="noopener noreferrer" target="_blank">
												{link.label}
												<span className="sr-only"> (يفتح في نافذة جديدة)</span>
											</a>
										)}
									</li>
								))}
							</ul>
						</>
					) : null}
					{signedIn ? (
						<Form method="post" action="/logout" className="mt-6">
							<button type="submit" className="btn min-h-11 border border-white/60 text-white hover:bg-brand-800">
								تسجيل الخروج
							</button>
						</Form>
					) : null}
				</div>
			</div>
			<p className="border-t border-brand-800 py-4 text-center text-xs text-brand-100">
				© {new Date().getFullYear()} {info.name}. جميع الحقوق محفوظة.
			</p>
		</footer>
	)
}
