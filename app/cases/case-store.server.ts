import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, notLike, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { isUniqueViolation } from '#app/db/errors.ts'
import { attachments, caseEvents, caseSections, cases } from '#app/db/schema.ts'
import { collectionOf, type ApplicationDef } from '#app/forms/definition.ts'
import { canEditSection, canEditSlot, canVisit, CHECK_STEP, completedSections, isEditable, type SavedState } from '#app/cases/journey.ts'
import { askedSections, offeredSlots } from '#app/forms/conditions.ts'
import { journeyConsent } from '#app/privacy/consent-rules.ts'
import { listSchema, sectionSchema, type SectionAnswers } from '#app/forms/schema.ts'
import { randomBytes } from 'node:crypto'
import { hashResumeToken, isWellFormedToken, newReference, newResumeToken } from './tokens.server.ts'
import { OPEN_STATUSES, Status } from '#app/cases/case-statuses.ts'
import { canTransition } from './workflow.ts'
import { isUuid } from '#app/utils/uuid.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { STAFF_SLOT_PREFIX } from './staff-files.ts'
import { caseHoldings, PAGE_SLOT_PREFIX, slotOfPage } from './document-pages.ts'

// The case store: every write is one transaction that also appends to the case's history.

export type CaseRow = typeof cases.$inferSelect
export type AttachmentRow = typeof attachments.$inferSelect

/** This national ID already has an open case of this type (docs/product.md#one-open-application-per-programme). */
export class DuplicateApplicantError extends Error {}
export class InvalidAnswersError extends Error {
	constructor(readonly issues: readonly { path: PropertyKey[]; message: string }[]) {
		super('invalid answers')
	}
}
export class CaseLockedError extends Error {}
export class IncompleteCaseError extends Error {}

function validate(definition: ApplicationDef, sectionKey: string, values: unknown, allowIdChecksumFailure = false): SectionAnswers {
	const section = definition.sections.find((s) => s.key === sectionKey)
	if (!section) throw new Error(`${definition.type} has no section ${sectionKey}`)
	const result = sectionSchema(section, {
		partial: collectionOf(section) !== undefined,
		allowIdChecksumFailure,
	}).safeParse(values)
	if (!result.success) throw new InvalidAnswersError(result.error.issues)
	return result.data as SectionAnswers
}

/**
 * The case's identity columns held by one section's answers: the applicant fields of the
 * definition (`applicant`) that are fields of this section. A person's are all in the first
 * section; an institution's name and permit number may come after its user's details.
 */
export function applicantColumns(definition: ApplicationDef, sectionKey: string, answers: SectionAnswers) {
	const section = definition.sections.find((candidate) => candidate.key === sectionKey)
	const own = (key: string | undefined): key is string => key !== undefined && section?.fields.some((field) => field.name === key) === true
	const text = (key: string) => (typeof answers[key] === 'string' ? (answers[key] as string) : '')
	const { applicant } = definition
	const columns: {
		applicantName?: string
		nationalId?: string
		mobile?: string
		email?: string
		city?: string
		household?: number
	} = {}
	if (own(applicant.name)) columns.applicantName = text(applicant.name)
	if (own(applicant.nationalId)) columns.nationalId = text(applicant.nationalId)
	if (own(applicant.mobile)) columns.mobile = text(applicant.mobile)
	if (own(applicant.email)) columns.email = text(applicant.email)
	if (own(applicant.city)) columns.city = text(applicant.city).trim()
	if (own(applicant.household)) columns.household = 1 + (Array.isArray(answers[applicant.household]) ? (answers[applicant.household] as unknown[]).length : 0)
	return columns
}

/**
 * Who may learn that a national ID already has an open case (docs/security.md#verified-mobile):
 * `any` (staff, an institution's own account), `mobile` only whoever holds that case's mobile (an
 * applicant, once their mobile is proven or, with codes off, as typed: the lookup tells them as
 * much), `none` (a draft whose mobile is not proven yet: asked again once it is).
 */
export type DuplicateCheck = { kind: 'any' } | { kind: 'mobile'; mobile: string } | { kind: 'none' }

async function hasOpenCase(db: Database, type: string, nationalId: string, exceptId?: string, mobile?: string): Promise<boolean> {
	const rows = await db
		.select({ id: cases.id })
		.from(cases)
		.where(
			and(
				eq(cases.type, type),
				eq(cases.nationalId, nationalId),
				isNotNull(cases.submittedAt),
				isNull(cases.deletedAt),
				inArray(cases.status, [...OPEN_STATUSES]),
				exceptId ? sql`${cases.id} <> ${exceptId}` : undefined,
				mobile === undefined ? undefined : eq(cases.mobile, mobile),
			),
		)
		.limit(1)
	return rows.length > 0
}

function isDuplicate(db: Database, type: string, nationalId: string, check: DuplicateCheck, exceptId?: string): Promise<boolean> {
	if (check.kind === 'none' || !nationalId) return Promise.resolve(false)
	return hasOpenCase(db, type, nationalId, exceptId, check.kind === 'mobile' ? check.mobile : undefined)
}

/**
 * A draft whose mobile was just proven, for a national ID that already has an open case with that
 * same mobile: its owner is told, and the draft goes (docs/product.md#one-open-application-per-programme).
 * True when it went.
 */
export async function withdrawDuplicateDraft(db: Database, row: Pick<CaseRow, 'id' | 'type' | 'nationalId' | 'mobile' | 'submittedAt'>): Promise<boolean> {
	if (row.submittedAt || !(await hasOpenCase(db, row.type, row.nationalId, row.id, row.mobile))) return false
	const reason = 'مسودة مكررة: للمستفيد طلب مفتوح في البرنامج نفسه.'
	await db.transaction(async (tx) => {
		const [gone] = await tx
			.update(cases)
			.set({ deletedAt: sql`now()`, deletedReason: reason, updatedAt: sql`now()` })
			.where(and(eq(cases.id, row.id), isNull(cases.deletedAt)))
			.returning({ id: cases.id })
		if (gone) await tx.insert(caseEvents).values({ caseId: row.id, kind: 'deleted', note: reason })
	})
	return true
}

/** A staff member accepts a national ID that fails the checksum, saying why (kept as an internal note). */
export interface IdChecksumOverride {
	actorId: number
	note: string
}

export interface StartOptions {
	/** Staff accepted a national ID that fails the checksum, with a reason. */
	override?: IdChecksumOverride
	/** Staff fill the form for a walk-in or phone applicant: the case is marked as paper intake. */
	paperIntake?: { actorId: number }
	/** An institution signed in to its account starts its own request: the case belongs to the account. */
	account?: { id: number; name: string; mobile: string; email: string }
	/** Whom an open case of the same national ID is told to: `any` unless given; `same-mobile` is the mobile typed. */
	duplicates?: 'any' | 'same-mobile' | 'none'
}

const overrideNote = (note: string) => `قبول رقم الهوية رغم عدم اجتياز التحقق: ${note}`

/**
 * Starts an application from its first section's answers: creates the case with a new reference
 * and resume token, stores the section and records the event — all or nothing. Every way a case
 * begins comes here: a visitor's first step, staff paper intake, and an institution's own request
 * (tied to its account, which also names an empty draft started without answers).
 */
export async function startCase(db: Database, definition: ApplicationDef, input: unknown, options: StartOptions = {}): Promise<{ row: CaseRow; token: string }> {
	const { override, paperIntake, account, duplicates = 'any' } = options
	const firstKey = definition.sections[0]!.key
	if (input === undefined && !account) throw new Error('a case starts from its first answers, or empty from an institution account')
	const answers = input === undefined ? undefined : validate(definition, firstKey, input, override !== undefined)
	const columns = {
		applicantName: account?.name ?? '',
		nationalId: '',
		mobile: account?.mobile ?? '',
		email: account?.email ?? '',
		...(answers ? applicantColumns(definition, firstKey, answers) : {}),
	}
	const check: DuplicateCheck = duplicates === 'same-mobile' ? { kind: 'mobile', mobile: columns.mobile } : { kind: duplicates }
	if (await isDuplicate(db, definition.type, columns.nationalId, check)) throw new DuplicateApplicantError()
	const token = newResumeToken()
	for (let attempt = 0; ; attempt++) {
		try {
			const row = await db.transaction(async (tx) => {
				const [row] = await tx
					.insert(cases)
					.values({
						type: definition.type,
						reference: newReference(),
						resumeTokenHash: hashResumeToken(token),
						idChecksumOverride: override !== undefined,
						paperIntake: paperIntake !== undefined,
						createdBy: paperIntake?.actorId,
						accountId: account?.id,
						// Staff met the family: their mobile is as good as proven (docs/security.md#verified-mobile).
						...(paperIntake ? { mobileVerifiedAt: sql`now()`, mobileVerifiedHow: 'in-person' as const } : {}),
						...columns,
					})
					.returning()
				if (answers) await tx.insert(caseSections).values({ caseId: row!.id, section: firstKey, answers })
				await tx.insert(caseEvents).values({
					caseId: row!.id,
					kind: 'created',
					actorId: paperIntake?.actorId ?? override?.actorId,
					data: { ...(answers ? { section: firstKey } : {}), paper: paperIntake !== undefined, ...(account ? { account: account.id } : {}) },
				})
				if (paperIntake) await tx.insert(caseEvents).values({ caseId: row!.id, kind: 'mobile_verified', actorId: paperIntake.actorId, data: { how: 'in-person' } })
				if (override) {
					await tx.insert(caseEvents).values({
						caseId: row!.id,
						kind: 'internal_note',
						actorId: override.actorId,
						note: overrideNote(override.note),
					})
				}
				return row!
			})
			return { row, token }
		} catch (error) {
			// A reference already taken (1 in ~10^11 per pair): draw another.
			if (!isUniqueViolation(error) || attempt >= 3) throw error
		}
	}
}

export async function findCaseByToken(db: Database, token: string): Promise<CaseRow | undefined> {
	if (!isWellFormedToken(token)) return undefined
	const [row] = await db
		.select()
		.from(cases)
		.where(eq(cases.resumeTokenHash, hashResumeToken(token)))
	return row
}

export async function findCaseByReference(db: Database, reference: string): Promise<CaseRow | undefined> {
	const [row] = await db.select().from(cases).where(eq(cases.reference, reference))
	return row
}

// A case's saved answers and file counts, read with the case in the same statement: every step of
// an application reads them, and each statement is a round trip (on PGlite, time on the event loop).
// The correlated references are spelled out: drizzle writes a single table's columns unqualified,
// and inside the subquery "id" would be the inner table's.
const savedAnswers = sql<Record<string, SectionAnswers> | null>`(select jsonb_object_agg(saved.section, saved.answers) from ${caseSections} as saved where saved.case_id = ${cases}.id)`
// A document's pages count for its slot (page:identity for identity): its PDF is made a moment later.
const fileCounts = sql<Record<string, number> | null>`(select jsonb_object_agg(counted.slot, counted.n) from (select regexp_replace(file.slot, ${`^${PAGE_SLOT_PREFIX}`}, '') as slot, count(*)::int as n from ${attachments} as file where file.case_id = ${cases}.id and file.deleted_at is null and file.slot not like ${`${STAFF_SLOT_PREFIX}%`} group by 1) as counted)`

function savedStateOf(
	found: { answers: Record<string, SectionAnswers> | null; fileCounts: Record<string, number> | null; idChecksumOverride: boolean },
	row: Pick<CaseRow, 'consent' | 'submittedAt'>,
): SavedState {
	return { answers: found.answers ?? {}, fileCounts: found.fileCounts ?? {}, idChecksumOverride: found.idChecksumOverride, consent: journeyConsent(row) }
}

/** The case behind a private link with what has been saved in it, in one statement; undefined for an unknown token. */
export async function findApplicationByToken(db: Database, token: string): Promise<{ row: CaseRow; state: SavedState } | undefined> {
	if (!isWellFormedToken(token)) return undefined
	const [found] = await db.select({ row: cases, answers: savedAnswers, fileCounts }).from(cases).where(eq(cases.resumeTokenHash, hashResumeToken(token)))
	return found && { row: found.row, state: savedStateOf({ ...found, idChecksumOverride: found.row.idChecksumOverride }, found.row) }
}

export async function loadSavedState(db: Database, caseId: string): Promise<SavedState> {
	const [found] = await db
		.select({ answers: savedAnswers, fileCounts, idChecksumOverride: cases.idChecksumOverride, consent: cases.consent, submittedAt: cases.submittedAt })
		.from(cases)
		.where(eq(cases.id, caseId))
	return savedStateOf(found ?? { answers: null, fileCounts: null, idChecksumOverride: false }, found ?? { consent: null, submittedAt: null })
}

type NewCaseEvent = typeof caseEvents.$inferInsert

/**
 * One statement that stores a section's answers, touches the case (with `columns`) and appends
 * `events` to its history: its parts are CTEs, and a single statement is atomic by itself. Each
 * statement is a round trip, and on PGlite every one is time on the event loop.
 */
/**
 * A new mobile is not proven: the columns that forget it was (and every browser remembered for the
 * old one), when `columns` changes the mobile; none otherwise.
 */
export function unprovenIfMobileChanged(columns: { mobile?: string }) {
	if (columns.mobile === undefined) return {}
	return {
		mobileVerifiedAt: sql`case when ${cases.mobile} = ${columns.mobile} then ${cases.mobileVerifiedAt} else null end`,
		mobileVerifiedHow: sql`case when ${cases.mobile} = ${columns.mobile} then ${cases.mobileVerifiedHow} else null end`,
	}
}

function sectionWrite(db: Database, caseId: string, sectionKey: string, answers: SectionAnswers, columns: Partial<typeof cases.$inferInsert>, events: NewCaseEvent[]) {
	const saved = db
		.insert(caseSections)
		.values({ caseId, section: sectionKey, answers })
		.onConflictDoUpdate({ target: [caseSections.caseId, caseSections.section], set: { answers, updatedAt: sql`now()` } })
	const touched = db
		.update(cases)
		.set({ ...columns, ...unprovenIfMobileChanged(columns), updatedAt: sql`now()` })
		.where(eq(cases.id, caseId))
	return sql`with saved as (${saved.getSQL()}), touched as (${touched.getSQL()}) ${db.insert(caseEvents).values(events).getSQL()}`
}

/** Saves one section (validated again here: the store never holds answers its definition rejects). */
export async function saveSection(
	db: Database,
	definition: ApplicationDef,
	row: CaseRow,
	sectionKey: string,
	input: unknown,
	override?: IdChecksumOverride,
	/** Whom a new national ID's open case is told to (DuplicateCheck): any unless given. */
	duplicates: (columns: { mobile?: string }) => DuplicateCheck = () => ({ kind: 'any' }),
): Promise<SectionAnswers> {
	if (!canEditSection(row, sectionKey)) throw new CaseLockedError()
	const allowIdChecksumFailure = row.idChecksumOverride || override !== undefined
	const answers = validate(definition, sectionKey, input, allowIdChecksumFailure)
	const columns = applicantColumns(definition, sectionKey, answers)
	if (columns.nationalId !== undefined && columns.nationalId !== row.nationalId && (await isDuplicate(db, definition.type, columns.nationalId, duplicates(columns), row.id))) {
		throw new DuplicateApplicantError()
	}
	const events: NewCaseEvent[] = [
		{ caseId: row.id, kind: 'section_saved', actorId: override?.actorId, data: { section: sectionKey } },
		...(override ? [{ caseId: row.id, kind: 'internal_note' as const, actorId: override.actorId, note: overrideNote(override.note) }] : []),
	]
	await db.execute(sectionWrite(db, row.id, sectionKey, answers, { ...columns, ...(override ? { idChecksumOverride: true } : {}) }, events))
	return answers
}

/**
 * The applicant's files, not the ones staff keep (app/cases/staff-files.ts) nor the pages a document
 * is made of (app/cases/document-pages.ts): what every applicant page, limit and count reads.
 */
const applicantFile = and(notLike(attachments.slot, `${STAFF_SLOT_PREFIX}%`), notLike(attachments.slot, `${PAGE_SLOT_PREFIX}%`))

/** The case's files the applicant sent (staff's own are in staff-files.server.ts). */
export async function listAttachments(db: Database, caseId: string): Promise<AttachmentRow[]> {
	return db
		.select()
		.from(attachments)
		.where(and(eq(attachments.caseId, caseId), isNull(attachments.deletedAt), applicantFile))
		.orderBy(asc(attachments.createdAt))
}

/** One of the case's files: the applicant's only, unless `staffFiles` (a staff member opening any file of the case). */
export async function findAttachment(db: Database, caseId: string, id: string, options: { staffFiles?: boolean } = {}): Promise<AttachmentRow | undefined> {
	if (!isUuid(id)) return undefined
	const [row] = await db
		.select()
		.from(attachments)
		.where(and(eq(attachments.caseId, caseId), eq(attachments.id, id), isNull(attachments.deletedAt), options.staffFiles ? undefined : applicantFile))
	return row
}

export interface NewAttachment {
	slot: string
	originalName: string
	contentType: string
	size: number
	sha256: string
	storageKey: string
}

/** How many files a case holds (SLOT_MAX_FILES, CASE_MAX_FILES, CASE_MAX_MB): anyone may upload, no one may fill the disk. */
export interface AttachmentLimits {
	/** Files in a slot that takes several. */
	perSlot: number
	/** Files in the whole case. */
	perCase: number
	/** Bytes of the whole case's files. */
	caseBytes: number
	/** Pages of one document (DOCUMENT_MAX_PAGES; app/cases/document-pages.server.ts keeps it). */
	documentPages: number
}

export const attachmentLimits = (): AttachmentLimits => {
	const env = getEnv()
	return { perSlot: env.SLOT_MAX_FILES, perCase: env.CASE_MAX_FILES, caseBytes: env.caseMaxBytes, documentPages: env.DOCUMENT_MAX_PAGES }
}

/** An upload the case has no room for: the slot or the case is full; nothing was changed. */
export class AttachmentLimitError extends Error {
	constructor(
		readonly limit: 'slot-full' | 'case-full' | 'case-too-large',
		readonly limits: AttachmentLimits,
	) {
		super(`attachment limit: ${limit}`)
	}
}

/**
 * Adds a file to its slot. A slot that takes one file holds one: the new file replaces the old,
 * whose stored bytes the caller removes (`replaced`). A slot that takes several, and the case, hold
 * at most `limits`; past them AttachmentLimitError, and nothing changes.
 */
export async function addAttachment(db: Database, definition: ApplicationDef, row: CaseRow, file: NewAttachment, limits: AttachmentLimits = attachmentLimits()): Promise<AttachmentRow & { replaced: AttachmentRow[] }> {
	if (!canEditSlot(row, definition, file.slot)) throw new CaseLockedError()
	const multiple = definition.sections.some((section) => section.files?.some((slot) => slot.slot === file.slot && slot.multiple))
	return db.transaction(async (tx) => {
		// Checked again under the lock: staff may have changed the case while the file was uploading;
		// the lock also keeps two uploads at once from both passing the limits below.
		const [locked] = await tx.select().from(cases).where(eq(cases.id, row.id)).for('update')
		if (!locked || !canEditSlot(locked, definition, file.slot)) throw new CaseLockedError()
		// Every file the case holds counts, the pages of its documents and the documents made of them too.
		const held = await tx
			.select()
			.from(attachments)
			.where(and(eq(attachments.caseId, row.id), isNull(attachments.deletedAt), notLike(attachments.slot, `${STAFF_SLOT_PREFIX}%`)))
		const live = held.filter((kept) => !slotOfPage(kept.slot))
		const replaced = multiple ? [] : live.filter((kept) => kept.slot === file.slot)
		const remaining = live.filter((kept) => !replaced.includes(kept))
		if (multiple && remaining.filter((kept) => kept.slot === file.slot).length >= limits.perSlot) throw new AttachmentLimitError('slot-full', limits)
		const after = caseHoldings([...held.filter((kept) => !replaced.includes(kept)), file])
		if (after.files > limits.perCase) throw new AttachmentLimitError('case-full', limits)
		if (after.bytes > limits.caseBytes) throw new AttachmentLimitError('case-too-large', limits)
		for (const old of replaced) {
			await tx.update(attachments).set({ deletedAt: sql`now()` }).where(eq(attachments.id, old.id))
			await tx.insert(caseEvents).values({ caseId: row.id, kind: 'file_removed', data: { slot: old.slot, name: old.originalName } })
		}
		const [attachment] = await tx
			.insert(attachments)
			.values({ caseId: row.id, ...file })
			.returning()
		await tx.insert(caseEvents).values({
			caseId: row.id,
			kind: 'file_added',
			data: { slot: file.slot, name: file.originalName },
		})
		return { ...attachment!, replaced }
	})
}

/** Removes a file from the application (before submitting); the row stays for the history. */
export async function removeAttachment(db: Database, definition: ApplicationDef, row: CaseRow, attachmentId: string): Promise<AttachmentRow | undefined> {
	if (!isEditable(row)) throw new CaseLockedError()
	const file = await findAttachment(db, row.id, attachmentId)
	if (!file) return undefined
	if (!canEditSlot(row, definition, file.slot)) throw new CaseLockedError()
	return db.transaction(async (tx) => {
		const [removed] = await tx
			.update(attachments)
			.set({ deletedAt: sql`now()` })
			.where(and(eq(attachments.id, file.id), eq(attachments.caseId, row.id), isNull(attachments.deletedAt)))
			.returning()
		if (removed) {
			await tx.insert(caseEvents).values({
				caseId: row.id,
				kind: 'file_removed',
				data: { slot: removed.slot, name: removed.originalName },
			})
		}
		return removed
	})
}

/** A case sent back as incomplete, sent again without any of the asked-for changes. */
export class NothingChangedError extends Error {}

/**
 * Sends the application: every section complete; a case sent back as incomplete becomes new again,
 * but only once the applicant changed something staff asked about. The case row is locked, so a
 * double tap sends once and an officer's change in between is not overwritten. `alongside` runs in
 * the same transaction once the case is marked sent (a registration opens its account there): if
 * it throws, nothing is sent.
 */
export async function submitCase(db: Database, definition: ApplicationDef, row: CaseRow, alongside?: (tx: Database, sent: CaseRow) => Promise<void>): Promise<CaseRow> {
	if (!isEditable(row)) throw new CaseLockedError()
	const state = await loadSavedState(db, row.id)
	const completed = completedSections(definition, state)
	const asked = askedSections(definition, state.answers, state.consent)
	// Every step complete, the consent step (when the form has one) answered.
	if (!canVisit(definition, CHECK_STEP, completed, state.answers, state.consent)) throw new IncompleteCaseError()
	// A section no longer asked (an earlier answer changed, or consent not given) is not sent: its
	// answers and files go, as do the files of a health or bank slot offered only with consent.
	const notAsked = definition.sections.filter((section) => !asked.includes(section))
	const slotsNotOffered = asked.flatMap((section) => (section.files ?? []).filter((slot) => !offeredSlots(section, state.consent).includes(slot)).map((slot) => slot.slot))
	return db.transaction(async (tx) => {
		if (notAsked.length) await tx.delete(caseSections).where(and(eq(caseSections.caseId, row.id), inArray(caseSections.section, notAsked.map((section) => section.key))))
		const slots = [...notAsked.flatMap((section) => (section.files ?? []).map((slot) => slot.slot)), ...slotsNotOffered]
		if (slots.length) await tx.update(attachments).set({ deletedAt: sql`now()` }).where(and(eq(attachments.caseId, row.id), inArray(attachments.slot, slots), isNull(attachments.deletedAt)))
		const [locked] = await tx.select().from(cases).where(eq(cases.id, row.id)).for('update')
		if (!locked || !isEditable(locked)) throw new CaseLockedError()
		const resubmitted = locked.submittedAt !== null
		// Sending an incomplete case again is a status change too, and the workflow table allows it.
		if (resubmitted && !canTransition(definition.kind, locked.status, Status.New, 'applicant')) throw new CaseLockedError()
		if (resubmitted && locked.reopened) {
			const [changed] = await tx
				.select({ id: caseEvents.id })
				.from(caseEvents)
				.where(
					and(eq(caseEvents.caseId, row.id), inArray(caseEvents.kind, ['section_saved', 'file_added', 'file_removed']), sql`${caseEvents.at} >= ${locked.statusChangedAt.toISOString()}::timestamptz`),
				)
				.limit(1)
			if (!changed) throw new NothingChangedError()
		}
		const [updated] = await tx
			.update(cases)
			.set({
				submittedAt: sql`coalesce(${cases.submittedAt}, now())`,
				status: Status.New,
				statusChangedAt: sql`now()`,
				reopened: null,
				updatedAt: sql`now()`,
			})
			.where(eq(cases.id, row.id))
			.returning()
		await tx.insert(caseEvents).values({
			caseId: row.id,
			kind: 'submitted',
			data: {
				resubmitted,
				...(resubmitted ? { from: locked.status, to: Status.New } : {}),
			},
		})
		if (alongside) await alongside(tx, updated!)
		return updated!
	})
}

/** The newest message staff wrote to the applicant (never an internal note). */
/**
 * Staff's latest message to the applicant that still applies: one written since the case last
 * changed status (with that change or after it). A request to complete the case says nothing
 * once the case is closed or sent again (docs/product.md#case-statuses).
 */
export async function latestApplicantMessage(db: Database, caseId: string): Promise<{ note: string; at: Date } | undefined> {
	const [event] = await db
		.select({ note: caseEvents.note, at: caseEvents.at })
		.from(caseEvents)
		.innerJoin(cases, eq(cases.id, caseEvents.caseId))
		.where(and(eq(caseEvents.caseId, caseId), eq(caseEvents.kind, 'applicant_message'), gte(caseEvents.at, cases.statusChangedAt)))
		.orderBy(desc(caseEvents.at), desc(caseEvents.id))
		.limit(1)
	return event
}

/** Cases an applicant can see in the lookup: their national ID and mobile together. */
/**
 * The cases of one applicant: a person's by national ID and mobile; an association's or
 * institution's (`types`: the programmes of that kind) by licence or permit number and its
 * representative's mobile.
 */
export async function lookupCases(db: Database, nationalId: string, mobile: string, types?: readonly string[]): Promise<CaseRow[]> {
	return db
		.select()
		.from(cases)
		.where(and(eq(cases.nationalId, nationalId), eq(cases.mobile, mobile), isNull(cases.deletedAt), types ? inArray(cases.type, [...types]) : undefined))
		.orderBy(desc(cases.createdAt))
}

/**
 * Gives the case a new private link, but only once `deliver` confirms the new link reached the
 * applicant: a failed e-mail must not lock them out of the link they already have. `record`
 * writes what else the delivery leaves in the history, in the same transaction as the new link
 * (or alone when nothing was delivered).
 */
export async function rotateResumeToken(
	db: Database,
	row: CaseRow,
	deliver: (token: string) => Promise<boolean>,
	record?: (tx: Database) => Promise<void>,
	/** Where the new link went: e-mailed, or opened on the browser that proved the mobile in the lookup. */
	to: 'email' | 'browser' = 'email',
): Promise<boolean> {
	const token = newResumeToken()
	const delivered = await deliver(token)
	if (!delivered && !record) return false
	await db.transaction(async (tx) => {
		if (delivered) {
			await tx
				.update(cases)
				.set({ resumeTokenHash: hashResumeToken(token), updatedAt: sql`now()` })
				.where(eq(cases.id, row.id))
			await tx.insert(caseEvents).values({ caseId: row.id, kind: 'link_sent', data: { to } })
		}
		await record?.(tx)
	})
	return delivered
}

type Row = Record<string, unknown> & { _key?: string }

/**
 * Adds or removes one row of a collection (family members) in one transaction that holds the
 * case's row lock, so two requests at once (two tabs, a double tap) cannot overwrite each other.
 */
async function changeRows(db: Database, definition: ApplicationDef, row: CaseRow, sectionKey: string, change: (rows: Row[]) => Row[]): Promise<Row[]> {
	if (!canEditSection(row, sectionKey)) throw new CaseLockedError()
	const section = definition.sections.find((s) => s.key === sectionKey)
	const collection = section && collectionOf(section)
	if (!collection) throw new Error(`${sectionKey} is not a collection`)
	return db.transaction(async (tx) => {
		const [locked] = await tx.select().from(cases).where(eq(cases.id, row.id)).for('update')
		if (!locked || !canEditSection(locked, sectionKey)) throw new CaseLockedError()
		// Read once the lock is held, in a statement of its own: a statement that waited for the lock
		// still sees the answers as they were when it began (PostgreSQL's read committed).
		const [current] = await tx
			.select({ answers: caseSections.answers })
			.from(caseSections)
			.where(and(eq(caseSections.caseId, row.id), eq(caseSections.section, sectionKey)))
		const saved = (current?.answers ?? {}) as SectionAnswers
		const rows = change(((saved[collection.name] ?? []) as Row[]).slice())
		// Only the list is checked here: the fields beside it are saved (and checked) by their own form.
		const result = listSchema(section, { partial: true, allowIdChecksumFailure: locked.idChecksumOverride }).safeParse({ [collection.name]: rows })
		if (!result.success) throw new InvalidAnswersError(result.error.issues)
		const answers = {
			...saved,
			[collection.name]: (result.data as SectionAnswers)[collection.name],
		}
		// A list may be what a case column counts (the household's size): promoted as a save does.
		await tx.execute(sectionWrite(tx, row.id, sectionKey, answers, applicantColumns(definition, sectionKey, answers), [{ caseId: row.id, kind: 'section_saved', data: { section: sectionKey } }]))
		return answers[collection.name] as Row[]
	})
}

export class TooManyRowsError extends Error {}

/** The row to change is no longer there (deleted in another tab). */
export class RowGoneError extends Error {}

/** One change to a list (family members, referrers, projects, budget lines): a row added, changed or removed. */
export type RowEdit = { add: Row; max: number } | { change: string; values: Row } | { remove: string }

/**
 * The list with one edit made: a new row under a new key (refused past `max`), a row's new values
 * under its key and in its place (refused when the row is gone), or a row removed (removing one
 * already gone changes nothing). The same for an applicant's list and a staff correction.
 */
export function applyRowEdit(rows: Row[], edit: RowEdit): Row[] {
	if ('add' in edit) {
		if (rows.length >= edit.max) throw new TooManyRowsError()
		return [...rows, { ...edit.add, _key: randomBytes(8).toString('hex') }]
	}
	if ('change' in edit) {
		if (!rows.some((candidate) => candidate._key === edit.change)) throw new RowGoneError()
		return rows.map((candidate) => (candidate._key === edit.change ? { ...edit.values, _key: edit.change } : candidate))
	}
	return rows.filter((candidate) => candidate._key !== edit.remove)
}

/** An applicant's edit of one row of a list (values already checked by the row schema). */
export function editRows(db: Database, definition: ApplicationDef, row: CaseRow, sectionKey: string, edit: RowEdit): Promise<Row[]> {
	return changeRows(db, definition, row, sectionKey, (rows) => applyRowEdit(rows, edit))
}
