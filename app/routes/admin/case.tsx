import { data, Form, Link, useNavigation, type ShouldRevalidateFunctionArgs } from 'react-router'
import { z } from 'zod'
import { parseWithZod } from '@conform-to/zod/v4'
import type { Route } from './+types/case'
import { getDb } from '#app/db/database.server.ts'
import { requireRole } from '#app/auth/user-context.server.ts'
import { addApplicantMessage, addInternalNote, aidLedger, assignCases, CaseChangeError, caseHistory, caseOfficers, changeStatus, recordAid, restoreCase, softDeleteCase } from '#app/cases/case-decisions.server.ts'
import { isCalendarDay } from '#app/cases/case-lists.server.ts'
import { findCaseByReference, listAttachments, loadSavedState } from '#app/cases/case-store.server.ts'
import { askedSections, isOffered, offeredSlots } from '#app/forms/conditions.ts'
import { asksConsent, consentTitle, describeConsent } from '#app/privacy/consent-rules.ts'
import { caseFlags, flagLabels } from '#app/cases/flags.server.ts'
import { describeEvent } from '#app/cases/history.ts'
import { notifyStatusChange } from '#app/cases/notify-applicant.server.ts'
import { aidKindLabel, aidKinds } from '#app/cases/aid.ts'
import { INCOMPLETE, staffStatusName, statusInfo, SUPPORT_PROVIDED } from '#app/cases/case-statuses.ts'
import { normaliseReference } from '#app/cases/tokens.server.ts'
import { allowedTargets, type CaseKind } from '#app/cases/workflow.ts'
import { waitedFor } from '#app/cases/waited.ts'
import { areaRoles, type UserRole } from '#app/db/roles.ts'
import { describeSection } from '#app/forms/describe.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { identifierLabel } from '#app/forms/definition.ts'
import { maxCharacters } from '#app/text/messages.ts'
import { formatDate, formatDateTime, formatDateWithHijri, formatFileSize, formatMoney, formatSaudiMobile, todayInRiyadh, toWesternDigits } from '#app/text/format.ts'
import { flashContext, notices, redirectWithFlash } from '#app/http/flash.server.ts'
import { ErrorList, FlashNotice, PageTitle } from '#app/components/forms.tsx'
import { noteAudit, audited } from '#app/audit/audit-trail.server.ts'
import type { AdminHandle } from './layout.tsx'
import { AidFields, Answers, Files, NotesList, Panel, ReopenChoices, type ActionErrors } from './+case-parts.tsx'

// One case, as staff work it: every answer and file, the signs of a second application, the aid
// already given, the history, and the decisions the workflow allows (docs/product.md#the-case-view).

export const handle: AdminHandle = {
	breadcrumb: (loaderData) => {
		const { list, reference } = loaderData as { list: { to: string; label: string }; reference: string }
		return [list, { label: reference }]
	},
}

export const middleware = [
	audited({
		read: 'case.view',
		write: { byIntent: { status: 'case.status', assign: 'case.assign', note: 'case.note', message: 'case.message', aid: 'case.aid', delete: 'case.delete', restore: 'case.restore' } },
	}),
]

async function openCase(reference: string | undefined, role: string) {
	const db = await getDb()
	const normalised = normaliseReference(reference ?? '')
	const row = normalised ? await findCaseByReference(db, normalised) : undefined
	const definition = row ? findDefinition(row.type) : undefined
	// Drafts are the applicant's until sent; a deleted case is for an admin to restore.
	if (!row || !definition || !row.submittedAt || (row.deletedAt && role !== 'admin')) throw data('الطلب غير موجود', { status: 404 })
	return { db, row, definition }
}

export async function loader({ params, context }: Route.LoaderArgs) {
	const user = requireRole(context, areaRoles.cases)
	const { db, row, definition } = await openCase(params.reference, user.role)
	const [state, files, history, flags, ledger, officers] = await Promise.all([
		loadSavedState(db, row.id),
		listAttachments(db, row.id),
		caseHistory(db, row.id),
		caseFlags(db, definition, row),
		aidLedger(db, row.nationalId),
		caseOfficers(db),
	])
	const base = `/admin/cases/${row.reference}`
	return {
		reference: row.reference,
		list: definition.kind === 'association' ? { to: '/admin/associations', label: 'طلبات الجمعيات والمؤسسات' } : { to: '/admin/cases', label: 'طلبات الأفراد' },
		notice: context.get(flashContext),
		isAdmin: user.role === 'admin',
		title: definition.title,
		// The ledger is keyed by this number: a licence or permit number for an association or institution.
		idLabel: identifierLabel(definition),
		name: row.applicantName,
		// A purged case keeps a fingerprint of the ID, not the ID (app/operations/retention-purge.server.ts): nothing to show.
		nationalId: row.purgedAt ? '' : row.nationalId,
		purged: row.purgedAt ? formatDate(row.purgedAt) : null,
		mobile: formatSaudiMobile(row.mobile),
		email: row.email,
		status: { id: row.status, name: staffStatusName(row.status), badge: statusInfo(row.status).badge },
		submitted: formatDateWithHijri(row.submittedAt!),
		waited: waitedFor(row.statusChangedAt),
		paperIntake: row.paperIntake,
		// «الموافقة على البيانات الصحية والمالية: أُعطيت في …»; a form without health or bank data has no consent step.
		consent: asksConsent(definition) ? { title: consentTitle(definition), answer: describeConsent(row) } : null,
		idChecksumOverride: row.idChecksumOverride,
		deleted: row.deletedAt ? { at: formatDateTime(row.deletedAt), reason: row.deletedReason ?? '' } : null,
		assignedTo: row.assignedTo,
		officers,
		targets: row.deletedAt ? [] : allowedTargets(definition.kind, row.status, user.role).map((status) => ({ id: status, name: staffStatusName(status) })),
		reopenChoices: {
			// Without consent, health and bank data are not asked for again (docs/product.md#privacy-and-consent).
			sections: definition.sections.filter((section) => section.fields.length > 0 && isOffered(section, state.consent)).map((section) => ({ key: section.key, title: section.title })),
			slots: definition.sections.flatMap((section) => offeredSlots(section, state.consent)).map((slot) => ({ slot: slot.slot, label: slot.label })),
		},
		aidKinds,
		today: todayInRiyadh(),
		flags: flags.map((flag) => ({ ...flag, label: flagLabels[flag.kind] })),
		ledger: ledger.map((entry) => ({
			...entry,
			here: entry.reference === row.reference,
			givenOn: formatDateWithHijri(entry.givenOn),
			amount: formatMoney(entry.amount),
			kind: aidKindLabel(entry.kind),
			programme: findDefinition(entry.type)?.title ?? entry.type,
		})),
		ledgerTotal: formatMoney(ledger.reduce((sum, entry) => sum + entry.amount, 0)),
		// A section the applicant was not asked (its condition did not hold) is not part of the case.
		sections: (row.purgedAt ? [] : askedSections(definition, state.answers, state.consent)).map((section) => {
			return {
				key: section.key,
				title: section.title,
				answers: describeSection(section, state.answers[section.key]),
				edit: section.fields.length ? `${base}/edit/${section.key}` : null,
				files: offeredSlots(section, state.consent).map((slot) => ({
					slot: slot.slot,
					label: slot.label,
					files: files
						.filter((file) => file.slot === slot.slot)
						.map((file) => ({
							id: file.id,
							name: file.originalName,
							photo: file.contentType !== 'application/pdf',
							size: formatFileSize(file.size),
							date: formatDate(file.createdAt),
							href: `${base}/files/${file.id}`,
						})),
				})),
			}
		}),
		history: history.map((event) => ({
			id: event.id,
			kind: event.kind,
			at: formatDateTime(event.at),
			actor: event.actorName ?? (event.kind === 'created' || event.kind === 'submitted' || event.kind.startsWith('file_') || event.kind === 'section_saved' ? 'المتقدم' : 'النظام'),
			what: describeEvent(event, definition),
			note: event.kind === 'answers_corrected' ? '' : event.note,
		})),
	}
}

const text = (message: string, max = 2000) => z.string({ error: message }).trim().min(1, message).max(max, `النص: ${maxCharacters(max)}`)
const optionalText = (max = 2000) => z.string().trim().max(max).optional()
const list = z.preprocess((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]), z.array(z.string()))

const aidFields = {
	amount: z.preprocess(
		(value) =>
			typeof value === 'string'
				? toWesternDigits(value)
						.replace(/[\s,٬]/g, '')
						.replace('٫', '.')
				: value,
		z
			.string({ error: 'الرجاء كتابة مبلغ الدعم' })
			.regex(/^\d{1,9}(\.\d{1,2})?$/, 'الرجاء كتابة مبلغ صحيح بالريال، مثل 1500')
			.transform(Number)
			.refine((amount) => amount > 0, 'مبلغ الدعم يجب أن يكون أكبر من صفر'),
	),
	aidKind: z.enum(aidKinds.map((kind) => kind.value) as [string, ...string[]], { error: 'الرجاء اختيار نوع الدعم' }),
	givenOn: z
		.string({ error: 'الرجاء كتابة تاريخ الدعم' })
		.refine(isCalendarDay, 'الرجاء كتابة تاريخ صحيح')
		.refine((day) => day <= todayInRiyadh(), 'تاريخ الدعم لا يكون بعد اليوم'),
	aidNote: optionalText(),
}

const actionSchema = z.discriminatedUnion('intent', [
	z.object({
		intent: z.literal('status'),
		to: z.coerce.number().int(),
		/** The status the page showed: another change since then means the decision was made on a stale page. */
		from: z.coerce.number().int().optional(),
		note: text('الرجاء كتابة ملاحظة تغيير الحالة'),
		message: optionalText(),
		reopenSections: list,
		reopenSlots: list,
		amount: z.string().optional(),
		aidKind: z.string().optional(),
		givenOn: z.string().optional(),
		aidNote: z.string().optional(),
	}),
	z.object({ intent: z.literal('assign'), officer: z.string().regex(/^(none|\d+)$/, 'الرجاء اختيار الموظف') }),
	z.object({ intent: z.literal('note'), note: text('الرجاء كتابة الملاحظة') }),
	z.object({ intent: z.literal('message'), message: text('الرجاء كتابة الرسالة') }),
	z.object({ intent: z.literal('aid'), ...aidFields }),
	z.object({ intent: z.literal('delete'), reason: text('الرجاء كتابة سبب الحذف', 500), confirm: z.literal('on', { error: 'الرجاء تأكيد الحذف' }) }),
	z.object({ intent: z.literal('restore') }),
])


/** A status form whose page no longer offers it (the case moved meanwhile): its refusal shows above the others. */
const STALE_STATUS_FORM = 'status-stale'

/** What a colleague's change did to the case, and what this member of staff may do with it now. */
function staleStatusMessage(kind: CaseKind, now: number, role: UserRole): string {
	const allowed = allowedTargets(kind, now, role).map((status) => `«${staffStatusName(status)}»`)
	const what = `لم يُحفظ تغييرك: غيّر غيرك حالة الطلب إلى «${staffStatusName(now)}» بعد أن فتحت الصفحة.`
	return allowed.length ? `${what} يمكن نقله الآن إلى: ${allowed.join('، ')}.` : `${what} ولا يمكن تغيير حالته الآن.`
}

/** What was typed comes back with the errors, so nothing is lost on a page without JavaScript. */
function refused(form: string, errors: ActionErrors, status = 400, values: Record<string, unknown> = {}) {
	const typed = Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
	return data({ form, errors, values: typed }, { status })
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
	const user = requireRole(context, areaRoles.cases)
	const { db, row, definition } = await openCase(params.reference, user.role)
	const base = `/admin/cases/${row.reference}`
	const submission = parseWithZod(await request.formData(), { schema: actionSchema })
	const typed = submission.payload
	if (submission.status !== 'success') {
		const form = String(typed.intent ?? '')
		return refused(form === 'status' ? `status-${String(typed.to ?? '')}` : form, submission.error ?? { '': ['الطلب غير صالح'] }, 400, typed)
	}
	const value = submission.value
	if (row.deletedAt && value.intent !== 'restore') return refused(value.intent, { '': ['الطلب محذوف؛ استعده أولاً'] }, 409)
	// Retention destroyed the applicant's details: there is nobody to message, and the minimal record stays as it is.
	if (row.purgedAt && (value.intent === 'status' || value.intent === 'aid' || value.intent === 'message')) {
		return refused(
			value.intent === 'status' ? `status-${value.to}` : value.intent,
			{ '': ['أُتلفت بيانات هذا الطلب وفق مدة الاحتفاظ، فلا يمكن تغيير حالته أو تسجيل دعم عليه أو مراسلة مقدمه'] },
			409,
			typed,
		)
	}
	try {
		switch (value.intent) {
			case 'status': {
				const form = `status-${value.to}`
				if (value.from !== undefined && value.from !== row.status) return refused(STALE_STATUS_FORM, { '': [staleStatusMessage(definition.kind, row.status, user.role)] }, 409, typed)
				let aid
				if (value.to === SUPPORT_PROVIDED) {
					const parsed = z.object(aidFields).safeParse(value)
					if (!parsed.success) return refused(form, z.flattenError(parsed.error).fieldErrors, 400, typed)
					aid = { amount: parsed.data.amount, kind: parsed.data.aidKind, givenOn: parsed.data.givenOn, note: parsed.data.aidNote ?? '' }
				}
				const known = (items: string[], allowed: string[]) => items.filter((item) => allowed.includes(item))
				const reopened =
					value.to === INCOMPLETE
						? {
								sections: known(
									value.reopenSections,
									definition.sections.map((section) => section.key),
								),
								slots: known(
									value.reopenSlots,
									definition.sections.flatMap((section) => section.files ?? []).map((slot) => slot.slot),
								),
							}
						: undefined
				noteAudit(context, { data: { from: row.status, to: value.to } })
				const { row: changed } = await changeStatus(db, row.id, { to: value.to, note: value.note, message: value.message, reopened, aid }, user)
				await notifyStatusChange(db, request, changed, { to: value.to, message: value.message }, user)
				return redirectWithFlash(base, { tone: 'success', message: `تم تغيير الحالة إلى «${staffStatusName(value.to)}»` })
			}
			case 'assign': {
				await assignCases(db, [row.id], value.officer === 'none' ? null : Number(value.officer), user)
				return redirectWithFlash(base, notices.updated)
			}
			case 'note':
				await addInternalNote(db, row.id, value.note, user)
				return redirectWithFlash(base, notices.added)
			case 'message':
				await addApplicantMessage(db, row.id, value.message, user)
				await notifyStatusChange(db, request, row, { to: row.status, message: value.message, messageOnly: true }, user)
				return redirectWithFlash(base, { tone: 'success', message: 'تم إرسال الرسالة بنجاح' })
			case 'aid':
				if (row.status !== SUPPORT_PROVIDED) return refused('aid', { '': ['يُسجَّل الدعم على طلب حالته «تم تقديم الدعم»'] }, 409)
				await recordAid(db, row.id, { amount: value.amount, kind: value.aidKind, givenOn: value.givenOn, note: value.aidNote ?? '' }, user)
				return redirectWithFlash(base, notices.added)
			case 'delete':
				await softDeleteCase(db, row.id, value.reason, user)
				return redirectWithFlash(definition.kind === 'association' ? '/admin/associations' : '/admin/cases', notices.deleted)
			case 'restore':
				if (user.role !== 'admin') throw data('ليست لديك صلاحية استعادة الطلبات', { status: 403 })
				await restoreCase(db, row.id, user)
				return redirectWithFlash(base, { tone: 'success', message: 'تمت استعادة الطلب' })
		}
	} catch (error) {
		if (!(error instanceof CaseChangeError)) throw error
		return refused(value.intent === 'status' ? `status-${value.to}` : value.intent, { '': [error.message] }, 409, typed)
	}
}

export default function CaseView({ loaderData: c, actionData }: Route.ComponentProps) {
	const errorsFor = (form: string): ActionErrors => (actionData?.form === form ? actionData.errors : {})
	const typedIn = (form: string) => (name: string) => (actionData?.form === form ? actionData.values[name] : undefined)
	// Busy while a form is sent: a second click must not record the aid or send the message twice.
	const busy = useNavigation().state !== 'idle'
	const internal = c.history.filter((event) => event.kind === 'internal_note' || (event.kind === 'status_changed' && event.note))
	const messages = c.history.filter((event) => event.kind === 'applicant_message')
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

					<Panel title="الدعم المقدم لهذا المستفيد في كل البرامج" id="ledger">
						{c.ledger.length ? (
							<>
								<div className="mt-2 overflow-x-auto" tabIndex={0} role="region" aria-label="سجل الدعم">
									<table className="w-full text-sm">
										<caption className="sr-only">
											سجل الدعم ب{c.idLabel} {c.nationalId}
										</caption>
										<thead className="bg-stone-50">
											<tr>
												{['التاريخ', 'المبلغ', 'النوع', 'البرنامج', 'الطلب', 'ملاحظة'].map((heading) => (
													<th key={heading} scope="col" className="p-2 text-start whitespace-nowrap">
														{heading}
													</th>
												))}
											</tr>
										</thead>
										<tbody>
											{c.ledger.map((entry, index) => (
												<tr key={index} className="border-t border-stone-200">
													<td className="p-2 whitespace-nowrap">{entry.givenOn}</td>
													<td className="p-2 whitespace-nowrap">{entry.amount}</td>
													<td className="p-2">{entry.kind}</td>
													<td className="p-2">{entry.programme}</td>
													<td className="p-2" dir="ltr">
														{entry.here ? (
															entry.reference
														) : (
															<Link to={`/admin/cases/${entry.reference}`} className="link">
																{entry.reference}
															</Link>
														)}
													</td>
													<td className="p-2">{entry.note}</td>
												</tr>
											))}
										</tbody>
									</table>
								</div>
								<p className="mt-2 font-semibold">المجموع: {c.ledgerTotal}</p>
							</>
						) : (
							<p className="mt-2 text-stone-700">
								لم يُسجَّل أي دعم ل{c.idLabel} {c.nationalId} من قبل.
							</p>
						)}
					</Panel>

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
				<aside key={c.history.length} className="min-w-0 space-y-6" aria-label="إجراءات الطلب">
					<Panel title="تغيير الحالة" id="status">
						{actionData?.form.startsWith('status-') && !c.targets.some((target) => actionData.form === `status-${target.id}`) ? (
							// Refused for a status this page no longer offers: said here, with the note as typed so it is not lost.
							<div role="alert" className="mt-2 rounded-lg border-s-4 border-red-700 bg-red-50 p-3 text-red-900">
								<ErrorList errors={errorsFor(actionData.form)['']} />
								{actionData.values.note ? <p className="mt-2 whitespace-pre-line text-stone-800">ملاحظتك كما كتبتها: {actionData.values.note}</p> : null}
							</div>
						) : null}
						{c.targets.length === 0 ? (
							<p className="mt-2 text-stone-700">لا يمكن تغيير حالة هذا الطلب من حالته الحالية.</p>
						) : (
							<div className="mt-2 space-y-2">
								{c.targets.map((target) => {
									const form = `status-${target.id}`
									const errors = errorsFor(form)
									return (
										<details key={target.id} open={actionData?.form === form} className="rounded-lg border border-stone-200">
											<summary className="flex min-h-11 cursor-pointer items-center px-3 font-semibold">إلى «{target.name}»</summary>
											<Form method="post" className="space-y-3 p-3">
												<input type="hidden" name="intent" value="status" />
												<input type="hidden" name="to" value={target.id} />
												<input type="hidden" name="from" value={c.status.id} />
												<ErrorList errors={errors['']} />
												{target.id === 4 ? <ReopenChoices choices={c.reopenChoices} errors={errors} idPrefix={form} /> : null}
												{target.id === 3 ? <AidFields kinds={c.aidKinds} today={c.today} errors={errors} idPrefix={form} typed={typedIn(form)} /> : null}
												<div>
													<label htmlFor={`${form}-note`} className="block font-semibold">
														ملاحظة داخلية (سبب التغيير)
													</label>
													<ErrorList errors={errors.note} />
													<textarea id={`${form}-note`} name="note" rows={2} maxLength={2000} required defaultValue={typedIn(form)('note')} className="field-input mt-1" />
												</div>
												<div>
													<label htmlFor={`${form}-message`} className="block font-semibold">
														رسالة إلى المتقدم {target.id === 4 ? '(ما المطلوب منه)' : '(اختياري)'}
													</label>
													<p className="text-sm text-stone-600">تظهر للمتقدم في رابط طلبه وفي الاستعلام، وتصله مع إشعار تغيير الحالة.</p>
													<ErrorList errors={errors.message} />
													<textarea id={`${form}-message`} name="message" rows={2} maxLength={2000} required={target.id === 4} defaultValue={typedIn(form)('message')} className="field-input mt-1" />
												</div>
												<button type="submit" disabled={busy} className="btn-primary">
													تغيير الحالة إلى «{target.name}»
												</button>
											</Form>
										</details>
									)
								})}
							</div>
						)}
					</Panel>

					{!c.deleted ? (
						<>
							<Panel title="الإسناد" id="assign">
								<Form method="post" className="mt-2 space-y-2">
									<input type="hidden" name="intent" value="assign" />
									<label htmlFor="officer" className="block font-semibold">
										الموظف المسؤول
									</label>
									<select id="officer" name="officer" defaultValue={c.assignedTo ?? 'none'} className="field-input">
										<option value="none">بلا إسناد</option>
										{c.officers.map((officer) => (
											<option key={officer.id} value={officer.id}>
												{officer.name}
											</option>
										))}
									</select>
									<button type="submit" disabled={busy} className="btn-secondary">
										حفظ الإسناد
									</button>
								</Form>
							</Panel>

							{c.status.id === 3 ? (
								<Panel title="تسجيل دعم إضافي" id="aid">
									<Form method="post" className="mt-2 space-y-3">
										<input type="hidden" name="intent" value="aid" />
										<ErrorList errors={errorsFor('aid')['']} />
										<AidFields kinds={c.aidKinds} today={c.today} errors={errorsFor('aid')} idPrefix="aid" typed={typedIn('aid')} />
										<button type="submit" disabled={busy} className="btn-secondary">
											تسجيل الدعم
										</button>
									</Form>
								</Panel>
							) : null}

							<Panel title="ملاحظات داخلية" id="notes">
								<p className="text-sm text-stone-600">للموظفين فقط؛ لا يراها المتقدم.</p>
								<NotesList notes={internal} empty="لا توجد ملاحظات بعد." />
								<Form method="post" className="mt-3 space-y-2">
									<input type="hidden" name="intent" value="note" />
									<label htmlFor="note" className="block font-semibold">
										ملاحظة جديدة
									</label>
									<ErrorList errors={errorsFor('note').note} />
									<textarea id="note" name="note" rows={2} maxLength={2000} required defaultValue={typedIn('note')('note')} className="field-input" />
									<button type="submit" disabled={busy} className="btn-secondary">
										إضافة الملاحظة
									</button>
								</Form>
							</Panel>

							<Panel title="رسائل إلى المتقدم" id="messages">
								<p className="text-sm text-stone-600">يراها المتقدم في رابط طلبه وفي صفحة الاستعلام.</p>
								<NotesList notes={messages} empty="لم تُرسل رسائل بعد." />
								<Form method="post" className="mt-3 space-y-2">
									<input type="hidden" name="intent" value="message" />
									<label htmlFor="message" className="block font-semibold">
										رسالة جديدة
									</label>
									<ErrorList errors={errorsFor('message').message} />
									<textarea id="message" name="message" rows={2} maxLength={2000} required defaultValue={typedIn('message')('message')} className="field-input" />
									<button type="submit" disabled={busy} className="btn-secondary">
										إرسال الرسالة
									</button>
								</Form>
							</Panel>

							<Panel title="بيانات التواصل" id="contact">
								<dl className="mt-2 space-y-1 text-sm">
									<div>
										<dt className="inline text-stone-600">{c.idLabel}: </dt>
										<dd className="inline" dir="ltr">
											{c.nationalId}
										</dd>
									</div>
									<div>
										<dt className="inline text-stone-600">الجوال: </dt>
										<dd className="inline" dir="ltr">
											{c.mobile}
										</dd>
									</div>
									{c.email ? (
										<div>
											<dt className="inline text-stone-600">البريد: </dt>
											<dd className="inline" dir="ltr">
												{c.email}
											</dd>
										</div>
									) : null}
								</dl>
							</Panel>

							<details className="rounded-xl border border-red-200 bg-white p-4" open={actionData?.form === 'delete'}>
								<summary className="flex min-h-11 cursor-pointer items-center font-bold text-red-800">حذف الطلب</summary>
								<Form method="post" className="mt-2 space-y-3">
									<input type="hidden" name="intent" value="delete" />
									<p className="text-sm">يختفي الطلب من القوائم والاستعلام، ويبقى محفوظاً ليستعيده مدير النظام.</p>
									<label htmlFor="reason" className="block font-semibold">
										سبب الحذف
									</label>
									<ErrorList errors={errorsFor('delete').reason} />
									<textarea id="reason" name="reason" rows={2} maxLength={500} required defaultValue={typedIn('delete')('reason')} className="field-input" />
									<ErrorList errors={errorsFor('delete').confirm} />
									<div className="flex items-start gap-3">
										<input id="confirm" name="confirm" type="checkbox" required className="mt-1 size-5 shrink-0 accent-red-700" />
										<label htmlFor="confirm">أؤكد حذف هذا الطلب</label>
									</div>
									<button type="submit" disabled={busy} className="btn min-h-11 bg-red-700 px-4 text-white hover:bg-red-800">
										حذف الطلب
									</button>
								</Form>
							</details>
						</>
					) : null}
				</aside>
			</div>
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
