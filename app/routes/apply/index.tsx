import { Link } from 'react-router'
import type { Route } from './+types/index'
import { applicationDefinitions } from '#app/forms/registry.ts'
import { PageHeader } from '#app/components/page-header.tsx'
import { PageTitle } from '#app/components/forms.tsx'

export function loader() {
	return {
		// The registry is the one programme list (the menu and the site map read it too).
		programmes: applicationDefinitions.map((definition) => ({
			to: `/apply/${definition.type}`,
			title: definition.title,
			summary: definition.summary ?? null,
			eligibility: definition.eligibility ?? [],
			// The required documents, as the attachments step names them (app/forms/definitions/).
			documents: definition.sections.flatMap((section) => (section.files ?? []).filter((slot) => slot.required).map((slot) => slot.label)),
		})),
	}
}

export default function Apply({ loaderData }: Route.ComponentProps) {
	return (
		<>
			<PageTitle title="تقديم طلب" />
			<PageHeader title="تقديم طلب" lead="اختر البرنامج الذي تريد التقديم عليه، أو استعلم عن طلب سابق." />
			<div className="mx-auto max-w-7xl px-4 py-8">
				<Link to="/apply/status" className="btn-secondary">
					الاستعلام عن طلب سابق
				</Link>
				<ul className="mt-6 grid gap-4 md:grid-cols-2">
					{loaderData.programmes.map((programme) => (
						<li key={programme.to} className="flex flex-col rounded-xl border border-stone-200 bg-white p-5 shadow-sm">
							<h2 className="text-lg font-bold text-brand-900">{programme.title}</h2>
							{programme.summary ? <p className="mt-2 text-stone-700">{programme.summary}</p> : null}
							{programme.eligibility.length ? (
								<>
									<h3 className="mt-4 font-semibold">من يحق له التقديم</h3>
									<ul className="mt-1 list-disc space-y-1 ps-6 text-sm">
										{programme.eligibility.map((line) => (
											<li key={line}>{line}</li>
										))}
									</ul>
								</>
							) : null}
							{programme.documents.length ? (
								<>
									<h3 className="mt-4 font-semibold">المستندات المطلوبة</h3>
									<ul className="mt-1 list-disc space-y-1 ps-6 text-sm">
										{programme.documents.map((line) => (
											<li key={line}>{line}</li>
										))}
									</ul>
								</>
							) : null}
							<Link to={programme.to} className="btn-primary mt-5 self-start">
								التفاصيل والتقديم<span className="sr-only">: {programme.title}</span>
							</Link>
						</li>
					))}
				</ul>
			</div>
		</>
	)
}
