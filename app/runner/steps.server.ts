// Runs one step of a programme's form for whoever fills it in: an applicant on a private link (a
// family, an institution from its account, staff entering a paper application) or staff
// correcting a sent case. A handler takes what was posted and the case, and returns an outcome;
// it knows nothing of requests or responses. The route reads the request, calls `runStep`, and
// turns the outcome into a redirect, a flash or a page (docs/architecture.md#running-a-step).
import { parseWithZod } from '@conform-to/zod/v4'
import type { SubmissionResult } from '@conform-to/react'
import type { Database } from '#app/db/client.server.ts'
import {
	CaseLockedError,
	DuplicateApplicantError,
	editRows,
	InvalidAnswersError,
	removeAttachment,
	RowGoneError,
	saveSection,
	TooManyRowsError,
	applyRowEdit,
	type CaseRow,
	type DuplicateCheck,
	type IdChecksumOverride,
	type RowEdit,
} from '#app/cases/case-store.server.ts'
import { correctSection } from '#app/cases/status-changes.server.ts'
import { canEditSection, nextOpenStep, type SavedState } from '#app/cases/journey.ts'
import { collectionOf, fieldsBesideCollection, uploadInputId, type ApplicationDef, type GroupDef, type SectionDef } from '#app/forms/definition.ts'
import { besideListSchema, isPasswordHash, rowSchema, sectionSchema, type SectionAnswers } from '#app/forms/schema.ts'
import { getCaseFileStorage } from '#app/storage/file-storage.server.ts'
import { slotOfPage } from '#app/cases/document-pages.ts'
import { findPage, movePage, PageLockedError, removePage, scheduleDocuments } from '#app/cases/document-pages.server.ts'
import { isUuid } from '#app/utils/uuid.ts'
import { requiredFile, tooFewRows, tooFewToRemove, tooManyRows } from '#app/text/messages.ts'
import { commonPasswordErrors, sealPasswords, secretFields } from './answers.server.ts'
import { savedPasswords, withoutPasswords } from './corrections.ts'
import { accountNameErrors } from './institution.server.ts'
import { verificationOn } from '#app/verify/case-verification.server.ts'

/**
 * Whom an applicant's new national ID's open case is told to (docs/security.md#verified-mobile):
 * only the holder of that case's mobile, or the institution's account that owns the case. With
 * codes on, that is this case's mobile once proven and unchanged; with codes off, the mobile as
 * typed (the lookup shows as much to whoever types both).
 */
function applicantDuplicates(row: CaseRow) {
	return (columns: { mobile?: string }): DuplicateCheck => {
		// An institution's own account is told, as when it starts one (startAccountCase).
		if (row.accountId !== null) return { kind: 'any' }
		const mobile = columns.mobile ?? row.mobile
		if (!verificationOn()) return { kind: 'mobile', mobile }
		return row.mobileVerifiedAt && mobile === row.mobile ? { kind: 'mobile', mobile } : { kind: 'none' }
	}
}

/** A step being run: the case, its programme, what is saved, and the step's section (with the file slots offered). */
export interface StepRun {
	db: Database
	definition: ApplicationDef
	row: CaseRow
	state: SavedState
	section: SectionDef
}

/**
 * Who fills the step in. An applicant's answers are checked as the step is saved and the journey
 * goes on; a staff member's change to a sent case is a correction, kept in the case's history with
 * each field before and after (app/cases/status-changes.server.ts `correctSection`).
 */
export type Caller = { kind: 'applicant'; override: IdChecksumOverride | null | 'no-note' } | { kind: 'staff'; user: { id: number } }

/** The form a reply belongs to on the page: the step's own fields, a list's row form, or «حفظ ومتابعة» under a list. */
export type StepForm = 'section' | 'row' | 'next'

export type StepOutcome =
	/** Saved: go on to `next` (a step key or the check page). `changed` is false when a correction changed nothing. */
	| { kind: 'saved'; next: string; changed: boolean }
	/** Not saved: the errors and the values typed, for the form to be drawn again. */
	| { kind: 'invalid'; form: StepForm; result: SubmissionResult<string[]>; status: 400 | 409 }
	| { kind: 'row'; done: 'added' | 'updated' | 'deleted' }
	/** Nothing changed, and why (a row deleted in another tab, a file staff did not reopen). */
	| { kind: 'refused'; message: string; at: 'rows' | 'files' }
	| { kind: 'file-removed'; slot: string | undefined }
	/** A document's page removed, or moved one place (app/cases/document-pages.server.ts). */
	| { kind: 'page-changed'; slot: string | undefined; done: 'removed' | 'moved' }

export const DUPLICATE_APPLICANT = 'المستفيد مسجل مسبقاً'
export const OVERRIDE_NOTE_MISSING = 'الرجاء كتابة سبب قبول رقم الهوية'
const ROW_GONE = (collection: GroupDef) => `لم يُحفظ التعديل: حُذف هذا ${collection.itemLabel} من القائمة.`
const FILE_LOCKED = 'لا يمكن حذف هذا المرفق: لم تطلب المؤسسة تعديله.'

const invalid = (form: StepForm, result: SubmissionResult<string[]>, status: 400 | 409 = 400): StepOutcome => ({ kind: 'invalid', form, result, status })

/** Runs what was posted on a step (its `intent`: a row added, changed or deleted, a file deleted, or the step saved). */
export async function runStep(run: StepRun, formData: FormData, caller: Caller): Promise<StepOutcome> {
	const { section } = run
	const intent = formData.get('intent')
	const collection = collectionOf(section)
	if (collection) {
		const edited = rowEditOf(collection, formData, run.row.idChecksumOverride)
		if (edited) return 'kind' in edited ? edited : editRow(run, collection, edited.edit, edited.reply, caller)
		return saveBesideList(run, collection, formData, caller)
	}
	if (caller.kind === 'staff') return correct(run, formData, caller.user)
	if (section.files && intent === 'delete-file') return deleteFile(run, String(formData.get('fileId') ?? ''))
	if (section.files && (intent === 'delete-page' || intent === 'move-page')) return changePage(run, String(formData.get('pageId') ?? ''), intent === 'delete-page' ? 'remove' : formData.get('to') === 'later' ? 'later' : 'earlier')
	const missing = missingFiles(run)
	if (!canEditSection(run.row, section.key)) {
		// Only some of this step's files were asked for: its answers stay as they are.
		if (missing) return invalid('section', { status: 'error', error: missing })
		return saved(run, run.state.answers)
	}
	const checked = await checkAnswers(run.db, run.definition, section, formData, {
		allowIdChecksumFailure: run.row.idChecksumOverride,
		passwordSet: Object.values(run.state.answers[section.key] ?? {}).some(isPasswordHash),
		override: caller.override,
	})
	if (!checked.ok) return checked.outcome
	const override = caller.override === 'no-note' ? undefined : (caller.override ?? undefined)
	let stored
	try {
		stored = await saveSection(run.db, run.definition, run.row, section.key, await sealPasswords(section, checked.values, run.state.answers[section.key]), override, applicantDuplicates(run.row))
	} catch (error) {
		if (!(error instanceof DuplicateApplicantError)) throw error
		return invalid('section', checked.reply({ formErrors: [DUPLICATE_APPLICANT] }), 409)
	}
	// Keyed by the slot's file input, so the error summary links each message to its upload control.
	if (missing) return invalid('section', checked.reply({ fieldErrors: missing }))
	return saved(run, { ...run.state.answers, [section.key]: stored })
}

/**
 * A step's answers as typed, checked as every caller's are before they are stored: the schema
 * (a failing national ID accepted by staff with a reason), a common or leaked new password, and a
 * registration's user name or e-mail already taken. The reply never sends a password back.
 */
export async function checkAnswers(
	db: Database,
	definition: ApplicationDef,
	section: SectionDef,
	formData: FormData,
	options: { allowIdChecksumFailure: boolean; passwordSet?: boolean; override: IdChecksumOverride | null | 'no-note' },
): Promise<{ ok: true; values: SectionAnswers; reply: (errors: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }) => SubmissionResult<string[]> } | { ok: false; outcome: StepOutcome }> {
	const submission = parseWithZod(formData, {
		schema: sectionSchema(section, { allowIdChecksumFailure: options.allowIdChecksumFailure || options.override !== null, passwordSet: options.passwordSet }),
	})
	const hideFields = secretFields(section)
	const reply = (errors: { formErrors?: string[]; fieldErrors?: Record<string, string[]> } = {}) => submission.reply({ hideFields, ...errors })
	if (options.override === 'no-note') return { ok: false, outcome: invalid('section', reply({ fieldErrors: { overrideNote: [OVERRIDE_NOTE_MISSING] } })) }
	if (submission.status !== 'success') return { ok: false, outcome: invalid('section', reply()) }
	const common = commonPasswordErrors(section, submission.value)
	if (common) return { ok: false, outcome: invalid('section', reply({ fieldErrors: common })) }
	const taken = await accountNameErrors(db, definition, section.key, submission.value)
	if (taken) return { ok: false, outcome: invalid('section', reply({ fieldErrors: taken }), 409) }
	return { ok: true, values: submission.value, reply }
}

/** Saved: on to the next step the applicant may change (from the answers as they are now: a later step may depend on them). */
function saved(run: StepRun, answers: SavedState['answers'], changed = true): Extract<StepOutcome, { kind: 'saved' }> {
	return { kind: 'saved', next: nextOpenStep(run.definition, run.row, run.section.key, answers, run.state.consent), changed }
}

/** The required file slots of the step still empty, keyed by each slot's file input; or null. */
function missingFiles({ section, state }: StepRun): Record<string, string[]> | null {
	const missing = (section.files ?? []).filter((slot) => slot.required && !(state.fileCounts[slot.slot] ?? 0))
	return missing.length ? Object.fromEntries(missing.map((slot) => [uploadInputId(slot.slot), [requiredFile(slot.label)]])) : null
}

async function deleteFile(run: StepRun, fileId: string): Promise<StepOutcome> {
	let removed
	try {
		removed = await removeAttachment(run.db, run.definition, run.row, fileId)
	} catch (error) {
		if (!(error instanceof CaseLockedError)) throw error
		return { kind: 'refused', message: FILE_LOCKED, at: 'files' }
	}
	if (removed) await getCaseFileStorage().remove(removed.storageKey)
	return { kind: 'file-removed', slot: removed?.slot }
}

/** A document's page removed (its bytes too) or moved one place; its document is made again after the answer. */
async function changePage(run: StepRun, pageId: string, change: 'remove' | 'earlier' | 'later'): Promise<StepOutcome> {
	const { db, definition, row } = run
	if (!isUuid(pageId)) return { kind: 'page-changed', slot: undefined, done: change === 'remove' ? 'removed' : 'moved' }
	let slot: string | undefined
	try {
		if (change === 'remove') {
			const removed = await removePage(db, definition, row.id, pageId)
			if (removed) await Promise.all(removed.keys.map((key) => getCaseFileStorage().remove(key)))
			slot = removed?.slot
		} else {
			const page = await findPage(db, row.id, pageId)
			if (page && (await movePage(db, definition, row.id, pageId, change))) slot = slotOfPage(page.slot)
		}
	} catch (error) {
		if (!(error instanceof PageLockedError)) throw error
		return { kind: 'refused', message: FILE_LOCKED, at: 'files' }
	}
	if (slot) void scheduleDocuments(db, definition, row.id, [slot])
	return { kind: 'page-changed', slot, done: change === 'remove' ? 'removed' : 'moved' }
}

// Lists: one handler for applicants and staff

/** The row edit posted (add-row, change-row, delete-row), an invalid row form, or null for another intent. */
function rowEditOf(collection: GroupDef, formData: FormData, allowIdChecksumFailure: boolean) {
	const intent = formData.get('intent')
	const key = String(formData.get('rowKey') ?? '')
	if (intent === 'delete-row') return { edit: { remove: key } as RowEdit, reply: null }
	if (intent !== 'add-row' && intent !== 'change-row') return null
	const submission = parseWithZod(formData, { schema: rowSchema(collection.fields, { allowIdChecksumFailure }) })
	if (submission.status !== 'success') return invalid('row', submission.reply())
	return { edit: (intent === 'add-row' ? { add: submission.value, max: collection.max } : { change: key, values: submission.value }) as RowEdit, reply: submission.reply }
}

async function editRow(run: StepRun, collection: GroupDef, edit: RowEdit, reply: ((options: { formErrors: string[] }) => SubmissionResult<string[]>) | null, caller: Caller): Promise<StepOutcome> {
	const { db, definition, row, section } = run
	let issues: readonly { path: PropertyKey[]; message: string }[] = []
	try {
		if (caller.kind === 'applicant') await editRows(db, definition, row, section.key, edit)
		else {
			// Staff: the list changed from what is saved at the moment of writing, under the case's lock, as a correction.
			const result = await correctSection(db, definition, row, section.key, (saved: SectionAnswers | undefined) => ({ ...saved, [collection.name]: applyTo(saved, collection, edit) }), caller.user)
			if (!result.ok) issues = result.issues
		}
	} catch (error) {
		if (error instanceof TooManyRowsError && reply) return invalid('row', reply({ formErrors: [tooManyRows(collection)] }))
		if (error instanceof RowGoneError) return { kind: 'refused', message: ROW_GONE(collection), at: 'rows' }
		if (!(error instanceof InvalidAnswersError)) throw error
		issues = error.issues
	}
	if (issues.length) {
		// A sent case's list keeps its minimum (two referrers, one family member): the row cannot go.
		const tooFew = issues.some((issue) => issue.path[0] === collection.name && issue.path.length === 1)
		return { kind: 'refused', message: tooFew ? tooFewToRemove(collection) : issues[0]!.message, at: 'rows' }
	}
	return { kind: 'row', done: 'add' in edit ? 'added' : 'change' in edit ? 'updated' : 'deleted' }
}

function applyTo(saved: SectionAnswers | undefined, collection: GroupDef, edit: RowEdit) {
	return applyRowEdit(((saved?.[collection.name] ?? []) as Record<string, unknown>[]).slice(), edit)
}

/**
 * «حفظ ومتابعة» under a list: the fields beside it (a budget's notes) are saved first, so nothing
 * typed is lost when the list is still short; then the list must hold its minimum.
 */
async function saveBesideList(run: StepRun, collection: GroupDef, formData: FormData, caller: Caller): Promise<StepOutcome> {
	const { db, definition, row, section, state } = run
	let answers = state.answers
	let changed = false
	const beside = fieldsBesideCollection(section)
	if (beside.length) {
		const submission = parseWithZod(formData, { schema: besideListSchema(section, { allowIdChecksumFailure: row.idChecksumOverride }) })
		if (submission.status !== 'success') return invalid('section', submission.reply())
		if (caller.kind === 'applicant') {
			const rows = (state.answers[section.key]?.[collection.name] ?? []) as unknown[]
			answers = { ...answers, [section.key]: await saveSection(db, definition, row, section.key, { ...submission.value, [collection.name]: rows }, undefined, applicantDuplicates(row)) }
			changed = true
		} else {
			const cleared = Object.fromEntries(beside.map((field) => [field.name, undefined]))
			const result = await correctSection(db, definition, row, section.key, (saved: SectionAnswers | undefined) => ({ ...saved, ...cleared, ...submission.value }), caller.user)
			if (!result.ok) return invalid('section', submission.reply({ formErrors: result.issues.map((issue) => issue.message) }))
			changed = result.changes.length > 0
		}
	}
	const rows = (answers[section.key]?.[collection.name] ?? []) as unknown[]
	if (caller.kind === 'applicant' && rows.length < collection.min) return invalid('next', { status: 'error', error: { '': [tooFewRows(collection)] } })
	return saved(run, answers, changed)
}

/** A staff correction of a step's fields. A registration's password is not corrected here: it lives in the institution's account. */
async function correct(run: StepRun, formData: FormData, user: { id: number }): Promise<StepOutcome> {
	const { db, definition, row, section } = run
	const submission = parseWithZod(formData, { schema: sectionSchema(withoutPasswords(section), { allowIdChecksumFailure: row.idChecksumOverride }) })
	if (submission.status !== 'success') return invalid('section', submission.reply())
	const result = await correctSection(db, definition, row, section.key, (saved: SectionAnswers | undefined) => ({ ...submission.value, ...savedPasswords(section, saved) }), user)
	if (!result.ok) return invalid('section', submission.reply({ formErrors: result.issues.map((issue) => issue.message) }))
	return saved(run, run.state.answers, result.changes.length > 0)
}
