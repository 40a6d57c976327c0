import { Form, Link, useNavigation, type ShouldRevalidateFunctionArgs } from 'react-router'
import { parseWithZod } from '@conform-to/zod/v4'
import type { Route } from './+types/case'
import { requireRole } from '#app/auth/user-context.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { flashContext } from '#app/http/flash.server.ts'
import { FlashNotice, PageTitle } from '#app/components/forms.tsx'
import { audited, auditSink } from '#app/audit/audit-trail.server.ts'
import { caseActionSchema, formOf } from '#app/casework/case-schemas.ts'
import { runCaseAction } from '#app/casework/case-actions.server.ts'
import { refused } from '#app/casework/outcome.ts'
import { respond } from '#app/casework/respond.server.ts'
import type { AdminHandle } from './layout.tsx'
import { AidLedger, Answers, Files, Panel, StudyPanel } from './+case-parts.tsx'
import { CaseActions } from './+case-actions.tsx'
import { CaseMessages } from './+case-messages.tsx'
import { DecisionPanel } from './+case-decision.tsx'
import { caseView, openCase } from './+case-view.server.ts'

// One case, as staff work it (docs/product.md#the-case-view): the data is shaped in
// ./+case-view.server.ts, and each form's action runs in app/casework/case-actions.server.ts.

export const handle: AdminHandle = {
	breadcrumb: (loaderData) => {
		const { list, reference } = loaderData as { list: { to: string; label: string }; reference: string }
		return [list, { label: reference }]
	},
}

export const middleware = [
	audited({
		read: 'case.view',
		write: { byIntent: { decide: 'case.decide', status: 'case.status', assign: 'case.assign', note: 'case.note', message: 'case.message', propose: 'case.propose', delete: 'case.delete', restore: 'case.restore', visit: 'case.visit', 'cancel-visit': 'case.visit', resend: 'case.resend' } },
	}),
]

export async function loader({ params, context }: Route.LoaderArgs) {
	const user = requireRole(context, areaRoles.caseReading)
	const { db, row, definition } = await openCase(params.reference, user)
	return caseView(db, row, definition, user, context.get(flashContext))
}

/**
 * A change refused because the case moved meanwhile (409) reloads the case, as a page without
 * JavaScript does: the badge and the status panel then show where the case is now, beside the
 * message saying so. React Router skips the reload after a 4xx by default.
 */
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
	return actionStatus === 409 || defaultShouldRevalidate
}

export async function action({ params, request, context }: Route.ActionArgs) {
	requireRole(context, areaRoles.caseReading)
	const form = await request.formData()
	// The committee decides; every other form is the case officers'. Asked before the case is looked up: the same 403 whether it exists or not.
	const user = requireRole(context, form.get('intent') === 'decide' ? areaRoles.decisions : areaRoles.cases)
	const { db, row, definition } = await openCase(params.reference, user)
	const submission = parseWithZod(form, { schema: caseActionSchema })
	if (submission.status !== 'success') return respond(refused(formOf(submission.payload), submission.error ?? { '': ['الطلب غير صالح'] }, 400, submission.payload))
	return respond(await runCaseAction({ db, row, definition, user, audit: auditSink(context) }, submission.value, submission.payload))
}

export default function CaseView({ loaderData: c, actionData }: Route.ComponentProps) {
	// Busy while a form is sent: a second click must not restore the case twice.
	const busy = useNavigation().state !== 'idle'
	return (
		<>
			<PageTitle title={`${c.name} - ${c.reference}`} error={Boolean(actionData)} />
			<FlashNotice notice={c.notice} live className="mb-4" />
			{c.deleted ? (
				<div role="alert" className="mb-4 rounded-lg border-s-4 border-red-700 bg-red-50 p-4 text-red-900">
					<p className="font-bold">هذا الطلب محذوف ({c.deleted.at}).</p>
					<p>السبب: {c.deleted.reason}</p>
					<Form method="post" className="mt-2">
						<input type="hidden" name="intent" value="restore" />
						<button type="submit" disabled={busy} className="btn-primary">
							استعادة الطلب
						</button>
					</Form>
				</div>
			) : null}
			{c.purged ? (
				<div role="note" className="mb-4 rounded-lg border-s-4 border-stone-600 bg-stone-50 p-4 text-stone-900">
					<p className="font-bold">أُتلفت بيانات هذا الطلب في {c.purged} وفق مدة الاحتفاظ.</p>
					<p>أُتلفت أقسامه ومرفقاته وبيانات مقدمه الشخصية، وبقي منه سجل مختصر: رقمه، والبرنامج، والتواريخ، والحالة، والدعم المقدم (سجل الإتلاف في لوحة التحكم).</p>
				</div>
			) : null}
			<header className="flex flex-wrap items-start justify-between gap-3">
				<div>
					<p className="text-sm font-semibold text-stone-600">{c.title}</p>
					<h1 className="text-2xl font-bold text-brand-900">{c.name}</h1>
					<p className="mt-1 flex flex-wrap items-center gap-2 text-sm">
						<span>
							رقم الطلب{' '}
							<strong dir="ltr" className="tracking-wider">
								{c.reference}
							</strong>
						</span>
						<span className={`rounded-full px-3 py-1 text-xs font-bold ${c.status.badge}`}>{c.status.name}</span>
						{c.paperIntake ? <span className="rounded-full bg-stone-200 px-3 py-1 text-xs font-bold">طلب ورقي</span> : null}
						{c.idChecksumOverride ? <span className="rounded-full bg-gold-100 px-3 py-1 text-xs font-bold text-gold-700">رقم هوية مقبول يدوياً</span> : null}
					</p>
					<p className="mt-1 text-sm text-stone-700">
						أُرسل في {c.submitted} — منذ آخر تغيير: {c.waited}
					</p>
					{c.consent ? (
						<p className="mt-1 text-sm">
							<span className="font-semibold">{c.consent.title}:</span> {c.consent.answer}
						</p>
					) : null}
				</div>
				<div className="flex flex-wrap gap-2">
					<a href={`/admin/cases/${c.reference}/print`} className="btn-secondary">
						طباعة التقرير
					</a>
				</div>
			</header>

			<div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
				<div className="min-w-0 space-y-6">
					{c.flags.length ? (
						<Panel title="تنبيهات تكرار محتمل" id="flags" className="border-orange-300 bg-orange-50">
							<ul className="mt-2 space-y-1">
								{c.flags.map((flag) => (
									<li key={`${flag.kind}-${flag.reference}`}>
										{flag.label}:{' '}
										<Link to={`/admin/cases/${flag.reference}`} className="link">
											{flag.applicantName} (<bdi dir="ltr">{flag.reference}</bdi>)
										</Link>
									</li>
								))}
							</ul>
						</Panel>
					) : null}

					{c.studies ? <StudyPanel c={c} /> : null}

					<DecisionPanel c={c} actionData={actionData} />

					<AidLedger c={c} />

					{c.sections.map((section) => {
						const hasFiles = section.files.some((slot) => slot.files.length)
						const hasAnswers = section.answers.some((item) => (item.kind === 'line' ? item.line.value !== '' : item.group.rows.length > 0))
						if (!hasFiles && !hasAnswers && section.files.length === 0) return null
						return (
							<Panel key={section.key} title={section.title} id={`section-${section.key}`}>
								{section.edit && !c.deleted ? (
									<Link to={section.edit} className="link mt-1 inline-flex min-h-11 items-center">
										تصحيح البيانات<span className="sr-only"> {section.title}</span>
									</Link>
								) : null}
								<Answers answers={section.answers} />
								{section.files.length ? <Files slots={section.files} /> : null}
							</Panel>
						)
					})}
				</div>

				{/* Keyed by the history: after each recorded change the forms start empty again. */}
				{c.works ? <CaseActions key={c.history.length} c={c} actionData={actionData} /> : null}
			</div>
			<CaseMessages messages={c.messages} canResend={c.works && !c.deleted && !c.purged} errors={actionData?.form === 'resend' ? actionData.errors : undefined} />
			{/* After the decisions: on a phone, the officer reaches them before the long history. */}
			<Panel className="mt-6" title="سجل الطلب" id="history">
				<ol className="mt-2 divide-y divide-stone-200 text-sm">
					{c.history.map((event) => (
						<li key={event.id} className="py-2">
							<p>
								<span className="font-semibold">{event.what}</span>
							</p>
							{event.note ? <p className="mt-1 whitespace-pre-line rounded bg-stone-50 p-2">{event.note}</p> : null}
							<p className="text-xs text-stone-600">
								{event.actor} — {event.at}
							</p>
						</li>
					))}
				</ol>
			</Panel>
		</>
	)
}
