import { data, Link } from 'react-router'
import type { Route } from './+types/documents'
import { getDb } from '#app/db/database.server.ts'
import { withMedia } from '#app/content/public.server.ts'
import { listEntries } from '#app/content/store.server.ts'
import { sortDocuments } from '#app/content/document-order.ts'
import { documentCategories, libraryDocuments, type DocumentCategory } from '#app/content/types.ts'
import { findSectionPage } from '#app/site/site-map.ts'
import { formatFileSize } from '#app/text/format.ts'
import { PageHeader } from '#app/components/page-header.tsx'
import { PageTitle } from '#app/components/forms.tsx'
import { DataTable } from '#app/components/data-table.tsx'

// The documents library's pages (docs/product.md#documents-library): one category each, shown as
// the spec shows it — a table, tables by year, a numbered table, or cards. No JavaScript: «عرض»
// opens the PDF in the browser's own viewer in a new tab.

type Layout = 'list' | 'by-year' | 'yearly' | 'numbered' | 'cards'

const layouts: Record<DocumentCategory, Layout> = {
	policies: 'list',
	workshops: 'list',
	financial: 'by-year',
	yearly: 'yearly',
	'governance-2022': 'numbered',
	'governance-2023': 'numbered',
	'governance-2024': 'numbered',
	'projects-2022': 'cards',
	'projects-2023': 'cards',
}

/** The 2023 supported projects lead to the association-support application (docs/product.md#public-site). */
const applyLinks: Partial<Record<DocumentCategory, { to: string; label: string }>> = {
	'projects-2023': { to: '/apply/association-support', label: 'قدّم طلب دعم جمعية' },
}

export async function loader({ request }: Route.LoaderArgs) {
	const path = new URL(request.url).pathname.replace(/\/+$/, '').toLowerCase()
	const category = documentCategories.find((candidate) => candidate.path === path)
	const page = findSectionPage(path)
	if (!category || !page) throw data(null, { status: 404 })
	const db = await getDb()
	const entries = await withMedia(db, libraryDocuments, await listEntries(db, libraryDocuments, undefined, { where: { category: category.value } }))
	const layout = layouts[category.value]
	const rows = entries.map((entry) => ({
		id: entry.id,
		title: entry.data.title,
		year: entry.data.year,
		number: entry.data.number,
		order: entry.data.order,
		summary: entry.data.summary,
		file: entry.documents.file ? { href: entry.documents.file.href, size: formatFileSize(entry.documents.file.size) } : null,
	}))
	const by = layout === 'yearly' || layout === 'by-year' ? 'year' : layout === 'numbered' ? 'number' : 'order'
	return { category: category.value, title: page.title, lead: page.lead, layout, rows: sortDocuments(rows, by), apply: applyLinks[category.value] ?? null }
}

type Row = Awaited<ReturnType<typeof loader>>['rows'][number]

export default function DocumentsPage({ loaderData }: Route.ComponentProps) {
	const { title, lead, rows, layout } = loaderData
	return (
		<>
			<PageTitle title={title} />
			<PageHeader title={title} lead={lead} />
			<div className="mx-auto max-w-5xl px-4 py-8">
				{rows.length === 0 ? (
					<p className="rounded-xl bg-white p-5">لا توجد ملفات منشورة في هذا القسم حالياً.</p>
				) : layout === 'cards' ? (
					<ProjectCards rows={rows} apply={loaderData.apply} />
				) : layout === 'by-year' ? (
					<ByYear title={title} rows={rows} />
				) : (
					<DocumentTable title={title} rows={rows} layout={layout} />
				)}
			</div>
		</>
	)
}

/** «عرض» opens the PDF in a new tab; «تنزيل» saves it. Each says, for screen readers, what and how large. */
function FileLinks({ row }: { row: Row }) {
	if (!row.file) return <span className="text-stone-600">لا يوجد ملف</span>
	const about = ` ${row.title} (ملف PDF، ${row.file.size})`
	return (
		<span className="flex flex-wrap gap-2">
			<a href={`${row.file.href}?view`} target="_blank" rel="noopener" className="btn-primary min-h-10 px-4 py-1 text-sm">
				عرض<span className="sr-only">{about}، يفتح في نافذة جديدة</span>
			</a>
			<a href={row.file.href} download className="btn-secondary min-h-10 px-4 py-1 text-sm">
				تنزيل<span className="sr-only">{about}</span>
			</a>
		</span>
	)
}

const headings: Record<Exclude<Layout, 'cards' | 'by-year'>, string[]> = {
	list: ['#', 'العنوان', 'الملف'],
	yearly: ['السنة', 'التقرير', 'الملف', 'الإجراء'],
	numbered: ['الرقم', 'البند', 'الملف'],
}

function DocumentTable({ title, rows, layout }: { title: string; rows: readonly Row[]; layout: Exclude<Layout, 'cards' | 'by-year'> }) {
	return (
		<DataTable label={`جدول ${title}`} caption={title} headings={headings[layout]}>
			{rows.map((row, index) => (
				<tr key={row.id} className="border-t border-stone-200 align-middle">
					{/* A governance item keeps the number it was given: 2023 has no item 12. */}
					<td className="p-3 font-semibold">{layout === 'numbered' ? row.number || '—' : layout === 'yearly' ? row.year || '—' : index + 1}</td>
					<td className="p-3">{row.title}</td>
					{layout === 'yearly' ? <td className="p-3 whitespace-nowrap text-stone-700">PDF · {row.file?.size ?? '—'}</td> : null}
					<td className="p-3">
						<FileLinks row={row} />
					</td>
				</tr>
			))}
		</DataTable>
	)
}

/** Financial statements: each year's four quarterly and one annual report, the newest year first. */
function ByYear({ title, rows }: { title: string; rows: readonly Row[] }) {
	const years = [...new Set(rows.map((row) => row.year))].sort((a, b) => b - a)
	return (
		<div className="space-y-8">
			{years.map((year) => (
				<section key={year} aria-labelledby={`year-${year}`}>
					<h2 id={`year-${year}`} className="mb-3 text-xl font-bold text-brand-900">
						{year ? `عام ${year}` : 'تقارير أخرى'}
					</h2>
					<DataTable label={`${title} ${year || ''}`.trim()} caption={`${title} ${year || ''}`.trim()} headings={['التقرير', 'الملف', 'الإجراء']}>
						{rows
							.filter((row) => row.year === year)
							.map((row) => (
								<tr key={row.id} className="border-t border-stone-200 align-middle">
									<td className="p-3">{row.title}</td>
									<td className="p-3 whitespace-nowrap text-stone-700">PDF · {row.file?.size ?? '—'}</td>
									<td className="p-3">
										<FileLinks row={row} />
									</td>
								</tr>
							))}
					</DataTable>
				</section>
			))}
		</div>
	)
}

function ProjectCards({ rows, apply }: { rows: readonly Row[]; apply: { to: string; label: string } | null }) {
	return (
		<ul className="grid gap-4 sm:grid-cols-2">
			{rows.map((row) => (
				<li key={row.id} className="flex flex-col rounded-xl border border-stone-200 bg-white p-5 shadow-sm">
					<h2 className="text-lg font-bold text-brand-900">{row.title}</h2>
					{row.summary ? <p className="mt-2 flex-1 text-stone-700">{row.summary}</p> : <div className="flex-1" />}
					<div className="mt-4 flex flex-wrap items-center gap-2">
						<FileLinks row={row} />
						{apply ? (
							<Link to={apply.to} className="link font-semibold">
								{apply.label}
							</Link>
						) : null}
					</div>
				</li>
			))}
		</ul>
	)
}
