import type { Route } from './+types/impact'
import { getDb } from '#app/db/database.server.ts'
import { getSingleton } from '#app/content/store.server.ts'
import { impactPage } from '#app/content/types.ts'
import { impactFigures } from '#app/aid/reports.server.ts'
import { applicationDefinitions, findDefinition } from '#app/forms/registry.ts'
import { formatYear, formatMoney } from '#app/text/format.ts'
import { PageHeader } from '#app/components/page-header.tsx'
import { PageTitle } from '#app/components/forms.tsx'

// «أثرنا» (docs/product.md#our-impact): families helped and riyals given per programme and year,
// from the aid ledger; no personal data. Fewer than 5 families is said so, and their riyals are not
// shown: a small figure could point to a family. Kept by the page cache, refreshed when aid is recorded.

const FEWEST = 5
const DEFAULT_INTRO = '<p>تصل تبرعاتكم وزكواتكم إلى الأسر المحتاجة والمرضى والجمعيات عبر برامج المؤسسة. هذه أرقام ما صُرف فعلاً، من سجل الصرف نفسه.</p>'

export async function loader() {
	const db = await getDb()
	const [intro, figures] = await Promise.all([getSingleton(db, impactPage), impactFigures(db)])
	const years = [...new Set(figures.map((row) => row.year))].sort((a, b) => b - a)
	const shown = (families: number, riyals: number) => (families < FEWEST ? { families: `أقل من ${FEWEST}`, riyals: '—' } : { families: String(families), riyals: formatMoney(riyals) })
	return {
		intro: (intro?.data.intro as string | undefined) ?? DEFAULT_INTRO,
		years: years.map((year) => {
			const rows = figures.filter((row) => row.year === year).sort((a, b) => applicationDefinitions.findIndex((item) => item.type === a.programme) - applicationDefinitions.findIndex((item) => item.type === b.programme))
			const families = rows.reduce((sum, row) => sum + row.families, 0)
			const riyals = rows.reduce((sum, row) => sum + row.riyals, 0)
			return {
				year,
				label: formatYear(year),
				rows: rows.map((row) => ({ programme: findDefinition(row.programme)?.title ?? 'برامج سابقة', ...shown(row.families, row.riyals) })),
				total: shown(families, riyals),
			}
		}),
	}
}

export default function Impact({ loaderData }: Route.ComponentProps) {
	return (
		<>
			<PageTitle title="أثرنا" />
			<PageHeader title="أثرنا" description="الأسر والجهات التي دعمتها المؤسسة وما صرفته لها، حسب البرنامج والعام." />
			<div className="mx-auto max-w-5xl space-y-8 px-4 py-8">
				{/* Sanitised on save (app/utils/sanitize-html.server.ts). */}
				<div className="space-y-4 text-lg leading-9" dangerouslySetInnerHTML={{ __html: loaderData.intro }} />
				{loaderData.years.length === 0 ? <p className="rounded-xl border border-stone-200 bg-white p-4">لا أرقام منشورة بعد.</p> : null}
				{loaderData.years.map((year) => (
					<section key={year.year} aria-labelledby={`year-${year.year}`}>
						<h2 id={`year-${year.year}`} className="text-xl font-bold text-brand-900">
							{year.label}
						</h2>
						<div className="mt-3 overflow-x-auto rounded-xl border border-stone-200 bg-white">
							<table className="w-full text-start">
								<thead className="bg-stone-50">
									<tr>
										<th scope="col" className="p-3 text-start">
											البرنامج
										</th>
										<th scope="col" className="p-3 text-start">
											الأسر والجهات المستفيدة
										</th>
										<th scope="col" className="p-3 text-start">
											المصروف
										</th>
									</tr>
								</thead>
								<tbody>
									{year.rows.map((row) => (
										<tr key={row.programme} className="border-t border-stone-100">
											<th scope="row" className="p-3 text-start font-semibold">
												{row.programme}
											</th>
											<td className="p-3">{row.families}</td>
											<td className="p-3">{row.riyals}</td>
										</tr>
									))}
									<tr className="border-t-2 border-stone-300 font-bold">
										<th scope="row" className="p-3 text-start">
											المجموع
										</th>
										<td className="p-3">{year.total.families}</td>
										<td className="p-3">{year.total.riyals}</td>
									</tr>
								</tbody>
							</table>
						</div>
					</section>
				))}
			</div>
		</>
	)
}
