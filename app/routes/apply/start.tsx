import { data, Link } from 'react-router'
import type { Route } from './+types/start'
import { getDb } from '#app/db/database.server.ts'
import { getIntake } from '#app/cases/intake-state.server.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { PageHeader } from '#app/components/page-header.tsx'
import { PageTitle } from '#app/components/forms.tsx'
import { holdsSensitive } from '#app/forms/conditions.ts'
import { consentTitle } from '#app/privacy/consent-rules.ts'
import { PrivacyLine } from '#app/privacy/privacy-line.tsx'
import { PHOTO_TIP } from '#app/cases/document-pages.ts'

export async function loader({ params }: Route.LoaderArgs) {
	const definition = findDefinition(params.type)
	if (!definition) throw data(null, { status: 404 })
	const intake = await getIntake(await getDb(), definition.type)
	const { type, title, summary, eligibility, prepare = [] } = definition
	// What the file slots will ask for, from the definition: the same names the attachments step shows.
	const documents = definition.sections.flatMap((section) => (section.files ?? []).map((slot) => ({ label: slot.label, required: slot.required === true, pictures: slot.pictures === true })))
	// The consent step stands before the first section holding health or bank data (docs/product.md#privacy-and-consent).
	const steps = definition.sections.flatMap((section) => [...(section === definition.sections.find(holdsSensitive) ? [consentTitle(definition)] : []), section.title])
	return { type, title, summary, eligibility, documents, prepare, intake, steps }
}

export default function Start({ loaderData }: Route.ComponentProps) {
	const { type, title, summary, eligibility, documents, prepare, intake, steps } = loaderData
	return (
		<>
			<PageTitle title={title} />
			<PageHeader title={title} lead={summary} crumbs={[{ to: '/apply', label: 'تقديم طلب' }]} />
			<div className="mx-auto max-w-3xl space-y-8 px-4 py-8">
				{intake.state === 'paused' ? (
					<p role="status" className="rounded-lg border-s-4 border-gold-500 bg-gold-100 p-4 font-semibold text-gold-700">
						{intake.pausedNotice}
					</p>
				) : null}
				{intake.state === 'closed' ? (
					<div className="rounded-lg border-s-4 border-stone-500 bg-white p-5">
						<p className="font-semibold">{intake.closedNotice}</p>
						<Link to="/apply/status" className="btn-secondary mt-4">
							الاستعلام عن طلب
						</Link>
					</div>
				) : null}
				<section aria-labelledby="eligibility">
					<h2 id="eligibility" className="text-xl font-bold text-brand-900">
						من يحق له التقديم
					</h2>
					<ul className="mt-3 list-disc space-y-1 ps-6">
						{eligibility.map((line) => (
							<li key={line}>{line}</li>
						))}
					</ul>
				</section>
				<section aria-labelledby="documents">
					<h2 id="documents" className="text-xl font-bold text-brand-900">
						جهّز هذه المستندات
					</h2>
					{documents.length ? (
						<>
							<ul className="mt-3 list-disc space-y-1 ps-6">
								{documents.map((document) => (
									<li key={document.label}>
										{document.label} <span className="text-stone-600">({document.required ? 'مطلوب' : 'اختياري'})</span>
									</li>
								))}
								{prepare.map((line) => (
									<li key={line}>{line}</li>
								))}
							</ul>
							<p className="mt-3 text-stone-700">
								لا يلزم ملف PDF: يكفي أن تصوّر كل مستند بكاميرا الجوال، صفحة بعد صفحة، ونجمعها لك في ملف واحد. {PHOTO_TIP}
							</p>
						</>
					) : (
						<ul className="mt-3 list-disc space-y-1 ps-6">
							<li>لا يلزم إرفاق مستندات.</li>
							{prepare.map((line) => (
								<li key={line}>{line}</li>
							))}
						</ul>
					)}
				</section>
				<section aria-labelledby="steps">
					<h2 id="steps" className="text-xl font-bold text-brand-900">
						خطوات الطلب
					</h2>
					<ol className="mt-3 list-decimal space-y-1 ps-6">
						{steps.map((step) => (
							<li key={step}>{step}</li>
						))}
						<li>مراجعة البيانات وإرسال الطلب</li>
					</ol>
					<p className="mt-3 text-stone-700">
						تُحفظ بياناتك بعد كل خطوة، وتحصل بعد الخطوة الأولى على رابط خاص تكمل منه الطلب لاحقاً.
					</p>
					<PrivacyLine />
				</section>
				{intake.state !== 'closed' ? (
					<Link to={`/apply/${type}/new`} className="btn-primary text-lg">
						ابدأ الطلب
					</Link>
				) : null}
			</div>
		</>
	)
}
