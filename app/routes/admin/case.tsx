import { data, Form, Link, useNavigation, type ShouldRevalidateFunctionArgs } from 'react-router'
import { z } from 'zod'
import { parseWithZod } from '@conform-to/zod/v4'
import type { Route } from './+types/case'
import { getDb } from '#app/db/database.server.ts'
import { requireRole } from '#app/auth/user-context.server.ts'
import { addApplicantMessage, addInternalNote, aidLedger, assignCases, CaseChangeError, caseHistory, caseOfficers, changeStatus, restoreCase, softDeleteCase } from '#app/cases/status-changes.server.ts'
import { findCaseByReference, listAttachments, loadSavedState } from '#app/cases/case-store.server.ts'
import { askedSections, isOffered, offeredSlots } from '#app/forms/conditions.ts'
import { asksConsent, consentTitle, describeConsent } from '#app/privacy/consent-rules.ts'
import { caseFlags, flagLabel } from '#app/cases/flags.server.ts'
import { describeEvent } from '#app/cases/history.ts'
import { notifyStatusChange, notifyVisitScheduled } from '#app/notify/case-notices.server.ts'
import { listCaseMessages, resendMessage } from '#app/notify/outbox.server.ts'
import { messageView } from '#app/notify/message-view.ts'
import { describeStudy, latestStudy, studyKindOf } from '#app/cases/studies.server.ts'
import { receiptInstalment, VISIT_PHOTO_SLOT } from '#app/cases/staff-files.ts'
import { listStaffFiles } from '#app/cases/staff-files.server.ts'
import { cancelVisit, plannedVisits, scheduleVisit } from '#app/cases/visits.server.ts'
import { aidKindLabel, aidKinds } from '#app/cases/aid.ts'
import { staffStatusName, Status, statusInfo } from '#app/cases/case-statuses.ts'
import { normaliseReference } from '#app/cases/tokens.server.ts'
import { allowedTargets, type CaseKind } from '#app/cases/workflow.ts'
import { waitedFor } from '#app/cases/waited.ts'
import { areaRoles, type UserRole, hasRole } from '#app/db/roles.ts'
import { describeSection } from '#app/forms/describe.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { identifierLabel } from '#app/forms/definition.ts'
import { maxCharacters } from '#app/text/messages.ts'
import { formatClock, formatWeekday, formatDate, formatDateTime, formatFileSize, formatMoney, formatSaudiMobile, todayInRiyadh } from '#app/text/format.ts'
import { flashContext, notices, redirectWithFlash } from '#app/http/flash.server.ts'
import { FlashNotice, PageTitle } from '#app/components/forms.tsx'
import { noteAudit, noteRefusal, audited } from '#app/audit/audit-trail.server.ts'
import type { AdminHandle } from './layout.tsx'
import { AidLedger, Answers, Files, Panel, StudyPanel, type ActionErrors } from './+case-parts.tsx'
import { CaseActions } from './+case-actions.tsx'
import { CaseMessages } from './+case-messages.tsx'
import { DecisionPanel } from './+case-decision.tsx'
import { decide, decisionsOf, FourEyesError, instalmentsOf, type Decision } from '#app/aid/decisions.server.ts'
import { ApprovalRefused, decisionFormSchema, proposalFormSchema } from '#app/aid/approval.ts'
import { describeProposal, openProposals, proposeAid } from '#app/aid/proposals.server.ts'
import { describeDecision, describeInstalment } from '#app/aid/describe.ts'
import { aidHolderRoles } from '#app/aid/monthly-aid.ts'
import { fundLabel, listFunds } from '#app/aid/funds.server.ts'
import { listReasons } from '#app/cases/reasons.server.ts'

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
		write: { byIntent: { decide: 'case.decide', status: 'case.status', assign: 'case.assign', note: 'case.note', message: 'case.message', propose: 'case.propose', delete: 'case.delete', restore: 'case.restore', visit: 'case.visit', 'cancel-visit': 'case.visit', resend: 'case.resend' } },
	}),
]

async function openCase(reference: string | undefined, user: { roles: readonly UserRole[] }) {
	const db = await getDb()
	const normalised = normaliseReference(reference ?? '')
	const row = normalised ? await findCaseByReference(db, normalised) : undefined
	const definition = row ? findDefinition(row.type) : undefined
	// Drafts are the applicant's until sent; a deleted case is for an admin to restore.
	if (!row || !definition || !row.submittedAt || (row.deletedAt && !hasRole(user, 'admin'))) throw data('الطلب غير موجود', { status: 404 })
	return { db, row, definition }
}

export async function loader({ params, context }: Route.LoaderArgs) {
	const user = requireRole(context, areaRoles.caseReading)
	const { db, row, definition } = await openCase(params.reference, user)
	// The committee decides on a studied case (docs/product.md#the-decision).
	const [proposal] = await openProposals(db, [row.id])
	// Or on a proposal of more aid (app/aid/proposals.server.ts).
	const decides = hasRole(user, ...areaRoles.decisions) && (row.status === Status.Studied || proposal?.purpose === 'additional') && !row.deletedAt && !row.purgedAt
	const [state, files, staffFiles, history, flags, ledger, officers, study, visits, decisions, instalments, funds, rejectReasons] = await Promise.all([
		loadSavedState(db, row.id),
		listAttachments(db, row.id),
		listStaffFiles(db, row.id),
		caseHistory(db, row.id),
		caseFlags(db, definition, row),
		aidLedger(db, row.nationalId),
		caseOfficers(db),
		latestStudy(db, row.id),
		plannedVisits(db, row.id),
		decisionsOf(db, row.id),
		instalmentsOf(db, [row.id]),
		decides ? listFunds(db) : [],
		decides ? listReasons(db, 'decision-reject') : [],
	])
	const base = `/admin/cases/${row.reference}`
	// Every message sent about the case, with what became of it (docs/product.md#messages).
	const messages = (await listCaseMessages(db, row.id)).map(messageView)
	return {
		reference: row.reference,
		list: definition.kind === 'association' ? { to: '/admin/associations', label: 'طلبات الجمعيات والمؤسسات' } : { to: '/admin/cases', label: 'طلبات الأفراد' },
		notice: context.get(flashContext),
		isAdmin: hasRole(user, 'admin'),
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
		submitted: formatDate(row.submittedAt!),
		waited: waitedFor(row.statusChangedAt),
		paperIntake: row.paperIntake,
		// «الموافقة على البيانات الصحية والمالية: أُعطيت في …»; a form without health or bank data has no consent step.
		consent: asksConsent(definition) ? { title: consentTitle(definition), answer: describeConsent(row) } : null,
		idChecksumOverride: row.idChecksumOverride,
		deleted: row.deletedAt ? { at: formatDateTime(row.deletedAt), reason: row.deletedReason ?? '' } : null,
		assignedTo: row.assignedTo,
		// The social study (docs/product.md#the-social-study): «تمت الدراسة» follows it.
		study: describeStudy(study),
		// An institution's registration is reviewed, not studied for aid.
		studies: !definition.createsAccount,
		studyHref: row.deletedAt || row.purgedAt || definition.createsAccount ? null : `${base}/study`,
		studyTitle: studyKindOf(row.type) === 'visit' ? 'الدراسة الاجتماعية' : 'الدراسة المكتبية',
		visitPhotos: staffFiles.filter((file) => file.slot === VISIT_PHOTO_SLOT).map((file) => ({ id: file.id, name: file.originalName, href: `${base}/files/${file.id}` })),
		// Home visits, for the programmes where the researcher visits.
		visits:
			studyKindOf(row.type) === 'visit' && !row.deletedAt && !row.purgedAt
				? visits.map((visit) => ({ id: visit.id, when: `${formatWeekday(visit.visitOn)} ${formatDate(visit.visitOn)} الساعة ${formatClock(visit.visitAt)}`, visitor: visit.visitorName ?? '' }))
				: null,
		me: user.id,
		// The case officers' forms (status, visits, assignment, notes, messages, deletion); the committee and finance read.
		works: hasRole(user, ...areaRoles.cases),
		decisions: decisions.map(describeDecision),
		// Finance and the committee hold, stop and resume an approved aid (app/routes/admin/case-aid.tsx).
		aidHref: instalments.length && hasRole(user, ...aidHolderRoles) ? `${base}/aid` : null,
		// Each delivery's receipt, when one was kept (app/cases/staff-files.ts).
		instalments: instalments.map((item) => {
			const receipt = staffFiles.find((file) => receiptInstalment(file.slot) === item.instalment.id)
			return { ...describeInstalment(item), receiptHref: receipt ? `${base}/files/${receipt.id}` : null }
		}),
		decide: decides
			? {
					funds: funds.map((fund) => ({ id: fund.id, label: fundLabel(fund) })),
					reasons: rejectReasons.map((reason) => ({ id: reason.id, label: reason.label })),
					// The officer's proposal, if any, else the study's.
					proposed: proposal
						? { aidKind: proposal.aidKind, amount: String(proposal.amount), months: proposal.months ? String(proposal.months) : '', fund: proposal.fundId ? String(proposal.fundId) : '' }
						: { aidKind: study?.aidKind ?? '', amount: study?.aidAmount === null || study?.aidAmount === undefined ? '' : String(study.aidAmount), months: study?.aidMonths ? String(study.aidMonths) : '', fund: '' },
					zakatEligible: study?.zakatEligible ?? false,
					recommendedByMe: study?.recommendation === 'support' && study.authorId === user.id,
					proposedByMe: proposal?.proposedBy === user.id,
					approvedFirstByMe: proposal?.state === 'awaiting_second' && proposal.firstApproverId === user.id,
				}
			: null,
		// Money waiting for the committee, and whether the officer may propose aid (no money by the officer's hand).
		proposal: proposal ? describeProposal(proposal) : null,
		proposes: hasRole(user, ...areaRoles.cases) && !proposal && !row.deletedAt && !row.purgedAt && (row.status === Status.Studied || row.status === Status.SupportProvided),
		// A visit is planned while the case waits for its study.
		canPlanVisit: row.status === Status.New || row.status === Status.Incomplete,
		officers,
		targets: row.deletedAt || !hasRole(user, ...areaRoles.cases) ? [] : allowedTargets(definition.kind, row.status, user.roles).map((status) => ({ id: status, name: staffStatusName(status) })),
		reopenChoices: {
			// Without consent, health and bank data are not asked for again (docs/product.md#privacy-and-consent).
			sections: definition.sections.filter((section) => section.fields.length > 0 && isOffered(section, state.consent)).map((section) => ({ key: section.key, title: section.title })),
			slots: definition.sections.flatMap((section) => offeredSlots(section, state.consent)).map((slot) => ({ slot: slot.slot, label: slot.label })),
		},
		aidKinds,
		today: todayInRiyadh(),
		flags: flags.map((flag) => ({ ...flag, label: flagLabel(flag) })),
		ledger: ledger.map((entry) => ({
			...entry,
			here: entry.reference === row.reference,
			givenOn: formatDate(entry.givenOn),
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
							pages: file.pages,
							size: formatFileSize(file.size),
							date: formatDate(file.createdAt),
							href: `${base}/files/${file.id}`,
						})),
				})),
			}
		}),
		messages,
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
		}),
	z.object({ intent: z.literal('assign'), officer: z.string().regex(/^(none|\d+)$/, 'الرجاء اختيار الموظف') }),
	z.object({ intent: z.literal('note'), note: text('الرجاء كتابة الملاحظة') }),
	z.object({ intent: z.literal('message'), message: text('الرجاء كتابة الرسالة') }),
	proposalFormSchema,
	z.object({
		intent: z.literal('visit'),
		visitOn: z.string({ error: 'الرجاء اختيار يوم الزيارة' }),
		visitAt: z.string({ error: 'الرجاء كتابة ساعة الزيارة' }),
		visitor: z.coerce.number({ error: 'الرجاء اختيار من يزور الأسرة' }).int(),
	}),
	z.object({ intent: z.literal('cancel-visit'), visitId: z.coerce.number().int() }),
	z.object({ intent: z.literal('delete'), reason: text('الرجاء كتابة سبب الحذف', 500), confirm: z.literal('on', { error: 'الرجاء تأكيد الحذف' }) }),
	z.object({ intent: z.literal('restore') }),
	z.object({ intent: z.literal('resend'), messageId: z.uuid({ error: 'الرسالة غير موجودة' }) }),
	decisionFormSchema,
])

/** The form a refusal belongs to: the status form of its target, the decision's own form, or the intent's. */
function formOf(typed: Record<string, unknown>): string {
	const intent = String(typed.intent ?? '')
	if (intent === 'status') return `status-${String(typed.to ?? '')}`
	if (intent === 'decide') return `decide-${String(typed.outcome ?? '')}`
	return intent
}


/** A status form whose page no longer offers it (the case moved meanwhile): its refusal shows above the others. */
const STALE_STATUS_FORM = 'status-stale'

/** What a colleague's change did to the case, and what this member of staff may do with it now. */
function staleStatusMessage(kind: CaseKind, now: number, roles: readonly UserRole[]): string {
	const allowed = allowedTargets(kind, now, roles).map((status) => `«${staffStatusName(status)}»`)
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
	requireRole(context, areaRoles.caseReading)
	const form = await request.formData()
	// The committee decides; every other form is the case officers'. Asked before the case is looked up: the same 403 whether it exists or not.
	const user = requireRole(context, form.get('intent') === 'decide' ? areaRoles.decisions : areaRoles.cases)
	const { db, row, definition } = await openCase(params.reference, user)
	const base = `/admin/cases/${row.reference}`
	const submission = parseWithZod(form, { schema: actionSchema })
	const typed = submission.payload
	if (submission.status !== 'success') return refused(formOf(typed), submission.error ?? { '': ['الطلب غير صالح'] }, 400, typed)
	const value = submission.value
	if (row.deletedAt && value.intent !== 'restore') return refused(value.intent, { '': ['الطلب محذوف؛ استعده أولاً'] }, 409)
	// Retention destroyed the applicant's details: there is nobody to message, and the minimal record stays as it is.
	if (row.purgedAt && (value.intent === 'status' || value.intent === 'propose' || value.intent === 'message' || value.intent === 'decide' || value.intent === 'resend')) {
		return refused(
			formOf(typed),
			{ '': ['أُتلفت بيانات هذا الطلب وفق مدة الاحتفاظ، فلا يمكن تغيير حالته أو تسجيل دعم عليه أو مراسلة مقدمه'] },
			409,
			typed,
		)
	}
	try {
		switch (value.intent) {
			case 'decide': {
				const decision = await decisionOf(value)
				if (typeof decision === 'string') return refused(formOf(typed), { reason: [decision] }, 400, typed)
				noteAudit(context, { data: { outcome: value.outcome, from: row.status } })
				const decided = await decide(db, row.id, decision, user)
				if (decided.awaitingSecond) {
					noteAudit(context, { data: { outcome: value.outcome, from: row.status, awaitingSecond: true } })
					return redirectWithFlash(`${base}#decision`, { tone: 'success', message: 'سُجّل اعتمادك الأول، والطلب بانتظار اعتماد ثانٍ من عضو آخر في لجنة الصرف: لا يُصرف شيء قبله.' })
				}
				if (decided.message) await notifyStatusChange(db, decided.row, { to: decided.to, message: decided.message, messageOnly: decided.messageOnly }, user)
				return redirectWithFlash(`${base}#decision`, { tone: 'success', message: `تم تسجيل القرار: «${staffStatusName(decided.to)}»` })
			}
			case 'status': {
				if (value.from !== undefined && value.from !== row.status) return refused(STALE_STATUS_FORM, { '': [staleStatusMessage(definition.kind, row.status, user.roles)] }, 409, typed)
				const known = (items: string[], allowed: string[]) => items.filter((item) => allowed.includes(item))
				const reopened =
					value.to === Status.Incomplete
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
				const { row: changed } = await changeStatus(db, row.id, { to: value.to, note: value.note, message: value.message, reopened }, user)
				await notifyStatusChange(db, changed, { to: value.to, message: value.message }, user)
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
				await notifyStatusChange(db, row, { to: row.status, message: value.message, messageOnly: true }, user)
				return redirectWithFlash(base, { tone: 'success', message: 'تم إرسال الرسالة بنجاح' })
			case 'propose':
				// Money goes to the committee's queue, never straight to the ledger (app/aid/proposals.server.ts).
				noteAudit(context, { data: { amount: value.amount, type: value.aidKind, from: row.status } })
				await proposeAid(db, row.id, { aidKind: value.aidKind, amount: value.amount, note: value.note ?? '' }, user)
				return redirectWithFlash(`${base}#decision`, { tone: 'success', message: 'أُرسل اقتراح الدعم إلى لجنة الصرف، ولا يُصرف شيء قبل اعتمادها' })
			case 'visit': {
				const planned = await scheduleVisit(db, row.id, { visitOn: value.visitOn, visitAt: value.visitAt, visitorId: value.visitor }, user)
				await notifyVisitScheduled(db, planned.row.id, value, user)
				return redirectWithFlash(`${base}#visits`, { tone: 'success', message: 'تم تحديد موعد الزيارة' })
			}
			case 'cancel-visit': {
				const cancelled = await cancelVisit(db, row.id, value.visitId, user)
				if (!cancelled) return refused('cancel-visit', { '': ['لم يعد هذا الموعد قائماً'] }, 409)
				await notifyStatusChange(db, cancelled.row, { to: cancelled.row.status, message: cancelled.message, messageOnly: true }, user)
				return redirectWithFlash(`${base}#visits`, { tone: 'success', message: 'تم إلغاء موعد الزيارة' })
			}
			case 'delete':
				await softDeleteCase(db, row.id, value.reason, user)
				return redirectWithFlash(definition.kind === 'association' ? '/admin/associations' : '/admin/cases', notices.deleted)
			case 'resend': {
				// Only a message of this case, and one that could not be sent.
				const message = (await listCaseMessages(db, row.id)).find((candidate) => candidate.id === value.messageId)
				if (!message) return refused('resend', { '': ['الرسالة غير موجودة في هذا الطلب'] }, 404)
				if (message.status !== 'failed') return refused('resend', { '': [message.status === 'sent' ? 'أُرسلت هذه الرسالة من قبل' : 'هذه الرسالة قيد الإرسال'] }, 409)
				noteAudit(context, { data: { message: message.id, event: message.event, channel: message.channel } })
				const copy = await resendMessage(db, message.id, user)
				return redirectWithFlash(`${base}#sent-messages`, copy?.status === 'sent' ? { tone: 'success', message: 'أُعيد إرسال الرسالة' } : { tone: 'error', message: 'تعذّر إرسال الرسالة مرة أخرى، والسبب في قائمة «الرسائل» أدناه.' })
			}
			case 'restore':
				if (!hasRole(user, 'admin')) throw data('ليست لديك صلاحية استعادة الطلبات', { status: 403 })
				await restoreCase(db, row.id, user)
				return redirectWithFlash(base, { tone: 'success', message: 'تمت استعادة الطلب' })
		}
	} catch (error) {
		if (!(error instanceof CaseChangeError)) throw error
		noteRefusal(context, error)
		// Four eyes: refused whatever roles the user holds, and recorded as a refused access (docs/security.md#audit-trail).
		if (error instanceof FourEyesError) {
			noteAudit(context, { data: { refused: 'four-eyes' } })
			return refused(formOf(typed), { '': [error.message] }, 403, typed)
		}
		if (error instanceof ApprovalRefused) return refused(formOf(typed), error.issues, 400, typed)
		return refused(formOf(typed), { '': [error.message] }, 409, typed)
	}

	/** The decision as the committee's store takes it; a reason that is no longer on the list is said so. */
	async function decisionOf(value: z.infer<typeof decisionFormSchema>): Promise<Decision | string> {
		const note = value.note ?? ''
		if (value.outcome === 'approve') return { outcome: 'approve', aidKind: value.aidKind, amount: value.amount, months: value.months ?? null, fundId: value.fund, note }
		if (value.outcome === 'return') return { outcome: 'return', note }
		const reason = (await listReasons(db, 'decision-reject')).find((candidate) => candidate.id === value.reason)
		return reason ? { outcome: 'reject', reason: reason.label, note } : 'الرجاء اختيار سبب الرفض من القائمة'
	}
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
