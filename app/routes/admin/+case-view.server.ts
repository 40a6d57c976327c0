// The case view's data (app/routes/admin/case.tsx): one case, as staff work it: every answer and
// file, the signs of a second application, the aid already given, the history, and the decisions
// the workflow allows (docs/product.md#the-case-view).
import { data } from 'react-router'
import { getDb } from '#app/db/database.server.ts'
import type { PublicUser } from '#app/domain/staff-users.server.ts'
import { aidLedger, caseHistory, caseOfficers } from '#app/cases/status-changes.server.ts'
import { findCaseByReference, listAttachments, loadSavedState, type CaseRow } from '#app/cases/case-store.server.ts'
import { askedSections, isOffered, offeredSlots } from '#app/forms/conditions.ts'
import { asksConsent, consentTitle, describeConsent } from '#app/privacy/consent-rules.ts'
import { caseFlags, flagLabel } from '#app/cases/flags.server.ts'
import { describeEvent } from '#app/cases/history.ts'
import { listCaseMessages } from '#app/notify/outbox.server.ts'
import { messageView } from '#app/notify/message-view.ts'
import { describeStudy, latestStudy, studyKindOf } from '#app/cases/studies.server.ts'
import { receiptInstalment, VISIT_PHOTO_SLOT } from '#app/cases/staff-files.ts'
import { listStaffFiles } from '#app/cases/staff-files.server.ts'
import { plannedVisits } from '#app/cases/visits.server.ts'
import { aidKindLabel, aidKinds } from '#app/cases/aid.ts'
import { staffStatusName, Status, statusInfo } from '#app/cases/case-statuses.ts'
import { normaliseReference } from '#app/cases/tokens.server.ts'
import { allowedTargets } from '#app/cases/workflow.ts'
import { waitedFor } from '#app/cases/waited.ts'
import { areaRoles, type UserRole, hasRole } from '#app/db/roles.ts'
import type { Database } from '#app/db/client.server.ts'
import { describeSection } from '#app/forms/describe.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { identifierLabel, type ApplicationDef } from '#app/forms/definition.ts'
import { formatClock, formatWeekday, formatDate, formatDateTime, formatFileSize, formatMoney, formatSaudiMobile, todayInRiyadh } from '#app/text/format.ts'
import type { Flash } from '#app/http/flash.server.ts'
import { decisionsOf, instalmentsOf } from '#app/aid/decisions.server.ts'
import { describeProposal, openProposals } from '#app/aid/proposals.server.ts'
import { describeDecision, describeInstalment } from '#app/aid/describe.ts'
import { aidHolderRoles } from '#app/aid/monthly-aid.ts'
import { listFunds } from '#app/aid/funds.server.ts'
import { withBalances } from '#app/aid/receipts.server.ts'
import { listReasons } from '#app/cases/reasons.server.ts'

/** The case of the address, if this member of staff may open it: else a 404, the same whether it exists or not. */
export async function openCase(reference: string | undefined, user: { roles: readonly UserRole[] }) {
	const db = await getDb()
	const normalised = normaliseReference(reference ?? '')
	const row = normalised ? await findCaseByReference(db, normalised) : undefined
	const definition = row ? findDefinition(row.type) : undefined
	// Drafts are the applicant's until sent; a deleted case is for an admin to restore.
	if (!row || !definition || !row.submittedAt || (row.deletedAt && !hasRole(user, 'admin'))) throw data('الطلب غير موجود', { status: 404 })
	return { db, row, definition }
}

/** Everything the case view shows, as it shows it. */
export async function caseView(db: Database, row: CaseRow, definition: ApplicationDef, user: PublicUser, notice: Flash | null) {
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
		notice,
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
			// A transfer paid has its disbursement voucher, for those who pay (app/routes/admin/payment-vouchers.ts).
			const paid = item.instalment.status === 'paid' && item.instalment.batchId !== null && hasRole(user, ...areaRoles.payments)
			return { ...describeInstalment(item), receiptHref: receipt ? `${base}/files/${receipt.id}` : null, voucherHref: paid ? `/admin/payments/${item.instalment.batchId}/vouchers/${item.instalment.id}` : null }
		}),
		decide: decides
			? {
					funds: await withBalances(db, funds),
					reasons: rejectReasons.map((reason) => ({ id: reason.id, label: reason.label })),
					// The officer's proposal, if any, else the study's.
					proposed: proposal
						? { aidKind: proposal.aidKind, amount: String(proposal.amount), months: proposal.months ? String(proposal.months) : '', fund: proposal.fundId ? String(proposal.fundId) : '' }
						: { aidKind: study?.aidKind ?? '', amount: study?.aidAmount === null || study?.aidAmount === undefined ? '' : String(study.aidAmount), months: study?.aidMonths ? String(study.aidMonths) : '', fund: '' },
					zakatCategory: study?.zakatCategory ?? null,
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
