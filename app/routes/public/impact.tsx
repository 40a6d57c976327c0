import type { Route } from './+types/impact'
import { getDb } from '#app/db/database.server.ts'
import { getSingleton } from '#app/content/store.server.ts'
import { impactPage } from '#app/content/types.ts'
import { latestImpact } from '#app/aid/impact.server.ts'
import { FEWEST, publishYear, type PublishedFigures } from '#app/aid/impact-disclosure.ts'
import { applicationDefinitions, findDefinition } from '#app/forms/registry.ts'
import { formatDate, formatMoney, formatNumber, formatYear } from '#app/text/format.ts'
import { PageHeader } from '#app/components/page-header.tsx'
import { PageTitle } from '#app/components/forms.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import { countOf, families } from '#app/text/arabic-count.ts'

// «أثرنا» (docs/product.md#our-impact): families helped and riyals given per programme and year, as
// the aid ledger stood at the end of last month (the scheduler's monthly snapshot, app/aid/impact.server.ts);
// no personal data. A figure that could point to a family, or that subtraction from the total would
// reveal, is withheld (app/aid/impact-disclosure.ts). Kept by the page cache; a new snapshot refreshes it.

const WITHHELD = 'لا يُنشر'
const DEFAULT_INTRO = '<p>تصل تبرعاتكم وزكواتكم إلى الأسر المحتاجة والمرضى والجمعيات عبر برامج المؤسسة. هذه أرقام ما صُرف فعلاً، من سجل الصرف نفسه.</p>'

const shown = (figures: PublishedFigures) => ({
	families: figures.families === null ? WITHHELD : formatNumber(figures.families),
	riyals: figures.riyals === null ? WITHHELD : formatMoney(figures.riyals),
})

export async function loader() {
	const db = await getDb()
	const [intro, snapshot] = await Promise.all([getSingleton(db, impactPage), latestImpact(db)])
	const figures = snapshot?.figures ?? []
	const years = [...new Set(figures.map((row) => row.year))].sort((a, b) => b - a)
	const order = (programme: string) => applicationDefinitions.findIndex((item) => item.type === programme)
	return {
		intro: (intro?.data.intro as string | undefined) ?? DEFAULT_INTRO,
		through: snapshot ? formatDate(`${snapshot.through}T12:00:00Z`) : null,
		years: years.map((year) => {
			const published = publishYear(figures.filter((row) => row.year === year).sort((a, b) => order(a.programme) - order(b.programme)))
			return {
				year,
				label: formatYear(year),
				rows: published.rows.map((row) => ({ programme: findDefinition(row.programme)?.title ?? 'برامج سابقة', ...shown(row) })),
				total: shown(published.total),
				withheld: published.rows.some((row) => row.families === null) || published.total.families === null,
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
				{loaderData.through ? (
					<p className="rounded-xl border border-stone-200 bg-white p-4">
						الأرقام كما في سجل الصرف حتى <span className="whitespace-nowrap">{loaderData.through}</span>، وتُحدَّث مرة في أول كل شهر.
					</p>
				) : null}
				{loaderData.years.length === 0 ? <p className="rounded-xl border border-stone-200 bg-white p-4">لا أرقام منشورة بعد.</p> : null}
				{loaderData.years.map((year) => (
					<section key={year.year} aria-labelledby={`year-${year.year}`}>
						<h2 id={`year-${year.year}`} className="text-xl font-bold text-brand-900">
							{year.label}
						</h2>
						<DataTable
							label={`جدول ${year.label}`}
							caption={year.label}
							headings={['البرنامج', 'الأسر والجهات المستفيدة', 'المصروف']}
							headCellClassName="p-3 text-start"
							className="mt-3"
							tableClassName="text-start"
							footer={
								<tr className="border-t-2 border-stone-300 font-bold">
									<th scope="row" className="p-3 text-start">
										المجموع
									</th>
									<td className="p-3">{year.total.families}</td>
									<td className="p-3">{year.total.riyals}</td>
								</tr>
							}
						>
							{year.rows.map((row) => (
								<tr key={row.programme} className="border-t border-stone-100">
									<th scope="row" className="p-3 text-start font-semibold">
										{row.programme}
									</th>
									<td className="p-3">{row.families}</td>
									<td className="p-3">{row.riyals}</td>
								</tr>
							))}
						</DataTable>
						{year.withheld ? (
							<p className="mt-2 text-sm text-stone-600">
								«{WITHHELD}»: رقم برنامج ساعد أقل من {countOf(FEWEST, families)}، أو رقم يُعرف منه ذلك الرقم بالطرح من المجموع؛ حمايةً لخصوصية الأسر.
							</p>
						) : null}
					</section>
				))}
			</div>
		</>
	)
}
