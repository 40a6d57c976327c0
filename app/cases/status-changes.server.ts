import { and, arrayOverlaps, asc, desc, eq, gte, inArray, isNotNull, isNull, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { caseAid, caseDecisions, caseEvents, caseSections, cases, caseStudies, users, type Reopened } from '#app/db/schema.ts'
import { areaRoles } from '#app/db/roles.ts'
import type { PublicUser } from '#app/domain/staff-users.server.ts'
import type { ApplicationDef } from '#app/forms/definition.ts'
import { describeSection } from '#app/forms/describe.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { sectionSchema, type SectionAnswers } from '#app/forms/schema.ts'
import { applicantColumns, unprovenIfMobileChanged, type CaseRow } from './case-store.server.ts'
import { quotedStatus, Status, type CaseStatus } from './case-statuses.ts'
import { transitionRefusal, type CaseKind } from './workflow.ts'
import { CaseChangeError, inOpenPeriods } from './refusals.ts'
import { noteIbanChange, payeeField } from './payee-accounts.server.ts'

// The case officer's changes to a case (status, assignment, bulk changes, notes and messages,
// corrections, deletion) and its history. Every change is one transaction with its history rows.
// No money: the officer proposes aid (app/aid/proposals.server.ts) and the committee decides it
// (app/aid/decisions.server.ts); the aid ledger is written only by a recorded payment or delivery.

export { CaseChangeError }

export const STUDY_MISSING = `لا يُنقل الطلب إلى ${quotedStatus(Status.Studied)} قبل تسجيل الدراسة وتوصيتها.`
export const RESTUDY_MISSING = `أعادت لجنة الصرف الطلب لدراسة أكثر: سجّل دراسة جديدة قبل نقله إلى ${quotedStatus(Status.Studied)}.`

export interface StatusChange {
	to: number
	/** Internal note: why (every change has one). */
	note: string
	/** Said to the applicant on their private link, in the lookup and in the notification. */
	message?: string
	/** With «incomplete»: what the applicant may change. */
	reopened?: Reopened
}

function kindOf(row: Pick<CaseRow, 'type'>): CaseKind {
	return findDefinition(row.type)?.kind ?? 'individual'
}

/**
 * Moves a case to another status, as the workflow table allows for this staff member, with its
 * note, its message to the applicant and what is reopened: all or nothing.
 * The case row is locked, so two officers deciding at once cannot both move it from the same status.
 */
export async function changeStatus(db: Database, caseId: string, change: StatusChange, actor: Pick<PublicUser, 'id' | 'roles'>): Promise<{ row: CaseRow; from: number }> {
	const note = change.note.trim()
	if (!note) throw new CaseChangeError('الرجاء كتابة ملاحظة تغيير الحالة')
	return inOpenPeriods(db).transaction(async (tx) => {
		const [locked] = await tx.select().from(cases).where(eq(cases.id, caseId)).for('update')
		if (!locked || locked.deletedAt) throw new CaseChangeError('الطلب غير موجود أو محذوف')
		if (!locked.submittedAt) throw new CaseChangeError('لم يُرسل هذا الطلب بعد')
		const refusal = transitionRefusal(kindOf(locked), locked.status, change.to, actor.roles)
		if (refusal) throw new CaseChangeError(refusal)
		const message = change.message?.trim() ?? ''
		if (change.to === Status.Incomplete) {
			if (!change.reopened || change.reopened.sections.length + change.reopened.slots.length === 0) throw new CaseChangeError('الرجاء اختيار ما يحتاج إلى استكمال: قسم أو مرفق على الأقل')
			if (!message) throw new CaseChangeError('الرجاء كتابة رسالة للمتقدم توضح المطلوب')
		}
		// «تمت الدراسة» follows a study with its recommendation (docs/product.md#the-social-study); cases studied before keep their status.
		// An institution's registration is reviewed, not studied for aid: it needs none.
		if (change.to === Status.Studied && locked.status !== Status.Studied && !findDefinition(locked.type)?.createsAccount) {
			const [study] = await tx.select({ at: caseStudies.createdAt }).from(caseStudies).where(eq(caseStudies.caseId, caseId)).orderBy(desc(caseStudies.createdAt)).limit(1)
			if (!study) throw new CaseChangeError(STUDY_MISSING)
			// Sent back by the committee for more study (app/aid/decisions.server.ts): a new study first.
			const [returned] = await tx
				.select({ at: caseDecisions.createdAt })
				.from(caseDecisions)
				.where(and(eq(caseDecisions.caseId, caseId), eq(caseDecisions.outcome, 'return'), gte(caseDecisions.createdAt, study.at)))
				.limit(1)
			if (returned) throw new CaseChangeError(RESTUDY_MISSING)
		}
		const [row] = await tx
			.update(cases)
			.set({
				status: change.to,
				statusChangedAt: sql`now()`,
				updatedAt: sql`now()`,
				reopened: change.to === Status.Incomplete ? change.reopened! : null,
			})
			.where(eq(cases.id, caseId))
			.returning()
		await tx.insert(caseEvents).values({
			caseId,
			actorId: actor.id,
			kind: 'status_changed',
			note,
			data: {
				from: locked.status,
				to: change.to,
				...(change.to === Status.Incomplete ? { reopened: change.reopened } : {}),
			},
		})
		if (message)
			await tx.insert(caseEvents).values({
				caseId,
				actorId: actor.id,
				kind: 'applicant_message',
				note: message,
			})
		return { row: row!, from: locked.status }
	})
}

/** Statuses a bulk change may set: the others need per-case details (what to fix, what was given). */
export const BULK_STATUSES: readonly CaseStatus[] = [Status.Studied, Status.SupportStopped, Status.Closed]

export interface BulkResult {
	changed: CaseRow[]
	refused: { reference: string; reason: string }[]
}

/** One status and one note for many cases; each case is changed (and recorded) on its own. */
export async function bulkChangeStatus(db: Database, references: readonly string[], to: number, note: string, actor: Pick<PublicUser, 'id' | 'roles'>): Promise<BulkResult> {
	const result: BulkResult = { changed: [], refused: [] }
	if (!BULK_STATUSES.includes(to as CaseStatus)) throw new CaseChangeError('هذه الحالة تحتاج إلى تفاصيل لكل طلب؛ غيّرها من صفحة الطلب')
	const rows = await caseIdsByReference(db, references)
	for (const reference of references) {
		const found = rows.find((row) => row.reference === reference)
		if (!found) {
			result.refused.push({ reference, reason: 'الطلب غير موجود' })
			continue
		}
		try {
			result.changed.push((await changeStatus(db, found.id, { to, note }, actor)).row)
		} catch (error) {
			if (!(error instanceof CaseChangeError)) throw error
			result.refused.push({ reference, reason: error.message })
		}
	}
	return result
}

export function caseIdsByReference(db: Database, references: readonly string[]): Promise<{ id: string; reference: string }[]> {
	if (!references.length) return Promise.resolve([])
	return db
		.select({ id: cases.id, reference: cases.reference })
		.from(cases)
		.where(inArray(cases.reference, [...references]))
}

/** Active staff who may hold cases (admin and case officers), by name. */
export function caseOfficers(db: Database): Promise<{ id: number; name: string }[]> {
	return db
		.select({ id: users.id, name: users.name })
		.from(users)
		.where(and(eq(users.active, true), arrayOverlaps(users.roles, [...areaRoles.cases])))
		.orderBy(asc(users.name))
}

/** Gives cases to an officer (or to no one); each case records it. Returns how many changed. */
export async function assignCases(db: Database, caseIds: readonly string[], officerId: number | null, actor: Pick<PublicUser, 'id'>): Promise<number> {
	let officerName: string | null = null
	if (officerId !== null) {
		const officer = (await caseOfficers(db)).find((candidate) => candidate.id === officerId)
		if (!officer) throw new CaseChangeError('الموظف المختار لا يستطيع استلام الطلبات')
		officerName = officer.name
	}
	if (!caseIds.length) return 0
	return db.transaction(async (tx) => {
		const changed = await tx
			.update(cases)
			.set({ assignedTo: officerId, updatedAt: sql`now()` })
			.where(and(inArray(cases.id, [...caseIds]), isNull(cases.deletedAt), officerId === null ? isNotNull(cases.assignedTo) : sql`${cases.assignedTo} is distinct from ${officerId}`))
			.returning({ id: cases.id })
		if (changed.length) {
			await tx.insert(caseEvents).values(
				changed.map((row) => ({
					caseId: row.id,
					actorId: actor.id,
					kind: 'assigned' as const,
					data: { officerId, officerName },
				})),
			)
		}
		return changed.length
	})
}

export async function addInternalNote(db: Database, caseId: string, note: string, actor: Pick<PublicUser, 'id'>): Promise<void> {
	await db.insert(caseEvents).values({ caseId, actorId: actor.id, kind: 'internal_note', note })
}

export async function addApplicantMessage(db: Database, caseId: string, message: string, actor: Pick<PublicUser, 'id'>): Promise<void> {
	await db.insert(caseEvents).values({
		caseId,
		actorId: actor.id,
		kind: 'applicant_message',
		note: message,
	})
}

export async function softDeleteCase(db: Database, caseId: string, reason: string, actor: Pick<PublicUser, 'id'>): Promise<void> {
	await db.transaction(async (tx) => {
		const [row] = await tx
			.update(cases)
			.set({
				deletedAt: sql`now()`,
				deletedBy: actor.id,
				deletedReason: reason,
				updatedAt: sql`now()`,
			})
			.where(and(eq(cases.id, caseId), isNull(cases.deletedAt)))
			.returning({ id: cases.id })
		if (row) await tx.insert(caseEvents).values({ caseId, actorId: actor.id, kind: 'deleted', note: reason })
	})
}

export async function restoreCase(db: Database, caseId: string, actor: Pick<PublicUser, 'id'>): Promise<void> {
	await db.transaction(async (tx) => {
		const [row] = await tx
			.update(cases)
			.set({
				deletedAt: null,
				deletedBy: null,
				deletedReason: null,
				updatedAt: sql`now()`,
			})
			.where(and(eq(cases.id, caseId), isNotNull(cases.deletedAt)))
			.returning({ id: cases.id })
		if (row) await tx.insert(caseEvents).values({ caseId, actorId: actor.id, kind: 'restored' })
	})
}

export interface Correction {
	label: string
	before: string
	after: string
}

/** What a correction changed, field by field, in words (a repeatable list counts as one field). */
export function corrections(definition: ApplicationDef, sectionKey: string, before: SectionAnswers | undefined, after: SectionAnswers): Correction[] {
	const section = definition.sections.find((candidate) => candidate.key === sectionKey)!
	const old = describeSection(section, before)
	const now = describeSection(section, after)
	const words = (item: (typeof old)[number]) =>
		item.kind === 'line'
			? item.line.value
			: item.group.rows
					.map((row) =>
						row
							.map((line) => line.value)
							.filter(Boolean)
							.join('، '),
					)
					.join(' | ')
	return now.flatMap((item, index) => {
		const label = item.kind === 'line' ? item.line.label : item.group.label
		const was = words(old[index]!)
		const is = words(item)
		return was === is ? [] : [{ label, before: was, after: is }]
	})
}

/**
 * Staff correct a section of a case (any status) through the same form applicants use; the
 * history keeps each changed field before and after. Returns the corrections (none: nothing saved).
 */
export async function correctSection(
	db: Database,
	definition: ApplicationDef,
	row: CaseRow,
	sectionKey: string,
	/** The section's new answers, or how to make them from what is saved (a list's row added or removed). */
	input: unknown | ((saved: SectionAnswers | undefined) => unknown),
	actor: Pick<PublicUser, 'id'>,
): Promise<{ ok: true; changes: Correction[] } | { ok: false; issues: { path: PropertyKey[]; message: string }[] }> {
	const section = definition.sections.find((candidate) => candidate.key === sectionKey)
	if (!section) throw new CaseChangeError('قسم غير معروف')
	const schema = sectionSchema(section, {
		allowIdChecksumFailure: row.idChecksumOverride,
	})
	// The case row is locked while the answers are read, changed and written: two officers
	// correcting at once cannot overwrite each other's change.
	return db.transaction(async (tx) => {
		await tx.select({ id: cases.id }).from(cases).where(eq(cases.id, row.id)).for('update')
		const [current] = await tx
			.select({ answers: caseSections.answers })
			.from(caseSections)
			.where(and(eq(caseSections.caseId, row.id), eq(caseSections.section, sectionKey)))
		const saved = current?.answers as SectionAnswers | undefined
		const parsed = schema.safeParse(typeof input === 'function' ? (input as (saved: SectionAnswers | undefined) => unknown)(saved) : input)
		if (!parsed.success) return { ok: false as const, issues: parsed.error.issues }
		const answers = parsed.data as SectionAnswers
		const changes = corrections(definition, sectionKey, saved, answers)
		if (!changes.length) return { ok: true as const, changes }
		await tx
			.insert(caseSections)
			.values({ caseId: row.id, section: sectionKey, answers })
			.onConflictDoUpdate({
				target: [caseSections.caseId, caseSections.section],
				set: { answers, updatedAt: sql`now()` },
			})
		const columns = applicantColumns(definition, sectionKey, answers)
		await tx
			.update(cases)
			.set({ ...columns, ...unprovenIfMobileChanged(columns), updatedAt: sql`now()` })
			.where(eq(cases.id, row.id))
		await tx.insert(caseEvents).values({
			caseId: row.id,
			actorId: actor.id,
			kind: 'answers_corrected',
			data: { section: sectionKey, changes },
		})
		// An IBAN corrected after the approval waits for finance to confirm it (app/cases/payee-accounts.server.ts).
		const payee = payeeField(definition)
		const iban = payee?.section === sectionKey ? answers[payee.name] : undefined
		if (typeof iban === 'string' && iban !== (saved?.[payee!.name] ?? '')) await noteIbanChange(tx, row.id, iban, actor.id)
		// An applicant who lost their number: staff checked who they are and typed the new one; the
		// applicant proves it with a code when they next open their case.
		if (columns.mobile !== undefined && columns.mobile !== row.mobile) {
			await tx.insert(caseEvents).values({ caseId: row.id, actorId: actor.id, kind: 'mobile_changed', note: 'تغيّر رقم الجوال، ويؤكده المستفيد برمز يصله عليه عند فتح طلبه.' })
		}
		return { ok: true as const, changes }
	})
}

export async function recordPrint(db: Database, caseId: string, actor: Pick<PublicUser, 'id'>): Promise<void> {
	await db.insert(caseEvents).values({ caseId, actorId: actor.id, kind: 'printed' })
}

export interface HistoryEntry {
	id: number
	at: Date
	kind: (typeof caseEvents.$inferSelect)['kind']
	note: string
	data: Record<string, unknown>
	actorName: string | null
}

export async function caseHistory(db: Database, caseId: string): Promise<HistoryEntry[]> {
	const rows = await db
		.select({
			id: caseEvents.id,
			at: caseEvents.at,
			kind: caseEvents.kind,
			note: caseEvents.note,
			data: caseEvents.data,
			actorName: users.name,
		})
		.from(caseEvents)
		.leftJoin(users, eq(users.id, caseEvents.actorId))
		.where(eq(caseEvents.caseId, caseId))
		.orderBy(desc(caseEvents.at), desc(caseEvents.id))
	return rows.map((row) => ({
		...row,
		data: (row.data ?? {}) as Record<string, unknown>,
	}))
}

export interface AidEntry {
	reference: string
	type: string
	amount: number
	kind: string
	givenOn: string
	note: string
}

/** Every aid given to this national ID, on any programme's case: double aid shows before deciding. */
export async function aidLedger(db: Database, nationalId: string): Promise<AidEntry[]> {
	if (!nationalId) return []
	const rows = await db
		.select({
			reference: cases.reference,
			type: cases.type,
			amount: caseAid.amount,
			kind: caseAid.kind,
			givenOn: caseAid.givenOn,
			note: caseAid.note,
		})
		.from(caseAid)
		.innerJoin(cases, eq(cases.id, caseAid.caseId))
		.where(and(eq(cases.nationalId, nationalId), isNull(cases.deletedAt)))
		.orderBy(desc(caseAid.givenOn), desc(caseAid.id))
	return rows.map((row) => ({ ...row, amount: Number(row.amount) }))
}
