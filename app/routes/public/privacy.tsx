import type { Route } from './+types/privacy'
import { getDb } from '#app/db/database.server.ts'
import { getFoundationInfo } from '#app/domain/foundation-details.server.ts'
import { contactChannels } from '#app/domain/foundation-details.ts'
import { currentNotice } from '#app/privacy/notice.server.ts'
import { formatDate } from '#app/text/format.ts'
import { PageHeader } from '#app/components/page-header.tsx'
import { PageTitle } from '#app/components/forms.tsx'

// The privacy notice (docs/product.md#privacy-and-consent): the newest version staff published at
// /admin/privacy, with its number and date, and the controller's name and contact details from the
// foundation's settings. A public page like the others: cached until content changes (a new version
// empties the cache through the table's trigger).

const TITLE = 'إشعار الخصوصية'

export async function loader() {
	const db = await getDb()
	const [notice, info] = await Promise.all([currentNotice(db), getFoundationInfo(db)])
	return {
		notice: notice ? { version: notice.version, body: notice.body, published: formatDate(notice.publishedAt) } : null,
		controller: { name: info.name, location: info.location, channels: contactChannels(info).filter((channel) => channel.value) },
	}
}

export default function Privacy({ loaderData }: Route.ComponentProps) {
	const { notice, controller } = loaderData
	return (
		<>
			<PageTitle title={TITLE} />
			<PageHeader title={TITLE} lead="كيف نجمع بياناتك الشخصية ونستخدمها ونحميها، وحقوقك عليها، وفق نظام حماية البيانات الشخصية." />
			<div className="mx-auto max-w-3xl space-y-8 px-4 py-8">
				{notice ? (
					<p className="font-semibold text-stone-700">
						الإصدار {notice.version} — نُشر في {notice.published}
					</p>
				) : null}
				<section aria-labelledby="controller" className="rounded-xl border border-stone-200 bg-white p-5">
					<h2 id="controller" className="text-xl font-bold text-brand-900">
						جهة التحكم في بياناتك
					</h2>
					<p className="mt-2 font-semibold">{controller.name}</p>
					{controller.location ? <p className="mt-1 text-stone-700">{controller.location}</p> : null}
					<dl className="mt-3 space-y-1">
						{controller.channels.map((channel) => (
							<div key={channel.label} className="flex flex-wrap gap-2">
								<dt>{channel.label}:</dt>
								<dd>
									<a href={channel.href} className="link" dir={channel.ltr ? 'ltr' : undefined}>
										{channel.value}
									</a>
								</dd>
							</div>
						))}
					</dl>
				</section>
				{notice ? (
					// Sanitised on the server when staff publish it (app/privacy/notice.server.ts).
					<div
						className="space-y-4 text-lg [&_a]:text-brand-700 [&_a]:underline [&_h2]:mt-8 [&_h2]:text-xl [&_h2]:font-bold [&_h2]:text-brand-900 [&_h3]:mt-4 [&_h3]:font-bold [&_ol]:list-decimal [&_ol]:space-y-1 [&_ol]:ps-6 [&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:ps-6"
						dangerouslySetInnerHTML={{ __html: notice.body }}
					/>
				) : (
					<p className="rounded-xl bg-white p-5">لم يُنشر إشعار الخصوصية بعد.</p>
				)}
			</div>
		</>
	)
}
