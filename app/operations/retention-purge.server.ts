import { appSecret } from '#app/db/app-secrets.server.ts'
import { createHmac, randomBytes } from 'node:crypto'
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lt, notLike, sql, type SQL } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { aidInstalments, aidProposals, attachments, caseAid, caseDecisions, caseEvents, caseMessages, cases, caseSections, caseStudies, payeeAccounts, retentionRegister, zakatRecipients } from '#app/db/schema.ts'
import { recordAudit } from '#app/audit/audit-trail.server.ts'
import { Status } from '#app/cases/case-statuses.ts'
import { RECEIPT_SLOT_PREFIX } from '#app/cases/staff-files.ts'
import type { FileStorage } from '#app/storage/file-storage.server.ts'
import { todayInRiyadh } from '#app/text/format.ts'

// Retention (docs/operations.md#retention): a case closed for good (support provided, or archived)
// keeps its applicant's data RETENTION_MONTHS months after its last status change; then its files,
// its sections' answers and the personal columns are destroyed, leaving the minimal record
// (reference, programme, dates, outcome, aid given), a row in the retention register and an entry in
// the audit trail. «Support stopped» (5) is not closed for good: staff may take such a case up again.

/** The statuses retention destroys: closed, with nothing left to decide (a rejected case among them). */
export const RETAINED_STATUSES = [Status.SupportProvided, Status.Closed, Status.Rejected] as const

/** What a purged case's applicant name becomes: every screen shows it where the name was. */
export const PURGED_NAME = 'بيانات مُتلفة'

/** A purged case's national ID column starts with this, followed by the ID's keyed fingerprint. */
export const PURGED_ID_PREFIX = 'purged:'

/** The actor the audit trail names for retention's entries. */
export const RETENTION_ACTOR = 'النظام (مدة الاحتفاظ)'

export type RunBy = 'timer' | 'command'

// Keys of a history event's data that never hold what the applicant wrote: status numbers, section
// and slot keys, aid kinds and dates, the officer a case was assigned to. Everything else (a file's
// name, a correction's before and after) is dropped when the case is purged.
const KEPT_EVENT_STRINGS = new Set(['section', 'slot', 'kind', 'givenOn', 'officerName'])

export function scrubEventData(data: unknown): Record<string, unknown> {
	if (!data || typeof data !== 'object') return {}
	return Object.fromEntries(
		Object.entries(data as Record<string, unknown>).filter(([key, value]) => {
			if (typeof value === 'number' || typeof value === 'boolean') return true
			if (key === 'reopened') return true
			return typeof value === 'string' && KEPT_EVENT_STRINGS.has(key)
		}),
	)
}

// The key the fingerprints are made with lives in the database (app_secrets), so every instance, a
// restore and the subject access screen compute the same fingerprint for the same ID.
const fingerprintSecret = (db: Database) => appSecret(db, 'retention-national-id')

/**
 * What a purged case keeps in place of the national ID: a keyed hash. It cannot be turned back into
 * the number, but the subject access screen, given the number, finds the person's minimal records.
 */
export async function purgedNationalId(db: Database, nationalId: string): Promise<string> {
	return fingerprintWith(await fingerprintSecret(db), nationalId)
}

const fingerprintWith = (secret: string, nationalId: string) => PURGED_ID_PREFIX + createHmac('sha256', secret).update(nationalId).digest('hex')

export const isPurgedNationalId = (value: string) => value.startsWith(PURGED_ID_PREFIX)

interface Options {
	/** RETENTION_MONTHS. */
	months: number
	now?: Date
}

/** Sent (or paper) cases closed for good more than `months` months ago and not purged yet; deleted ones too. */
function dueWhere({ months, now = new Date() }: Options): SQL {
	return and(
		inArray(cases.status, [...RETAINED_STATUSES]),
		isNull(cases.purgedAt),
		isNotNull(cases.submittedAt),
		lt(cases.statusChangedAt, sql`${now.toISOString()}::timestamptz - make_interval(months => ${months}::int)`),
		// A monthly aid still being paid (or held, to be resumed) needs its account: the case waits for its last instalment.
		sql`not exists (select 1 from ${aidInstalments} where ${aidInstalments.caseId} = ${cases.id} and ${aidInstalments.status} in ('approved', 'in_batch', 'suspended'))`,
	)!
}

export interface DueCase {
	id: string
	reference: string
	type: string
	status: number
	statusChangedAt: Date
}

export async function dueCases(db: Database, options: Options & { limit?: number }): Promise<DueCase[]> {
	return db
		.select({ id: cases.id, reference: cases.reference, type: cases.type, status: cases.status, statusChangedAt: cases.statusChangedAt })
		.from(cases)
		.where(dueWhere(options))
		.orderBy(asc(cases.statusChangedAt))
		.limit(options.limit ?? 100_000)
}

export async function countDue(db: Database, options: Options): Promise<number> {
	const [row] = await db.select({ value: count() }).from(cases).where(dueWhere(options))
	return row?.value ?? 0
}

/**
 * The money tables are append-only (docs/decisions/018-append-only-ledger.md): their triggers let
 * retention alone, and only inside `work`, blank a row's free text (what staff wrote about the
 * family) and delete a row written more than 10 years ago. The transaction's setting
 * `ataa.retention_purge` says so; it is turned off again once `work` is done.
 */
export async function asRetentionPurge<T>(tx: Database, work: () => Promise<T>): Promise<T> {
	await tx.execute(sql`select set_config('ataa.retention_purge', 'on', true)`)
	const done = await work()
	// (A failure ends the transaction: the setting, local to it, goes with it.)
	await tx.execute(sql`select set_config('ataa.retention_purge', 'off', true)`)
	return done
}

export interface Purged {
	reference: string
	type: string
	outcome: number
	sections: string[]
	files: number
	bytes: number
	/** Stored files whose removal failed after the commit: orphans (docs/operations.md#retention). */
	orphans: string[]
}

/**
 * Destroys one case's data in one transaction, or does nothing (null) when the case is no longer due
 * or another instance holds it (FOR UPDATE SKIP LOCKED: two servers on one PostgreSQL never purge the
 * same case twice). The stored files are removed only after the commit: a crash in between leaves
 * files no row points to, never a row without its file.
 */
export async function purgeCase(db: Database, storage: FileStorage, caseId: string, options: Options & { runBy: RunBy }): Promise<Purged | null> {
	const now = options.now ?? new Date()
	// Read before the transaction: on PGlite a query outside it would wait for it to end.
	const secret = await fingerprintSecret(db)
	const done = await db.transaction(async (tx) => {
		const [row] = await tx
			.select()
			.from(cases)
			.where(and(eq(cases.id, caseId), dueWhere({ ...options, now })))
			.for('update', { skipLocked: true })
		if (!row) return null
		// Every file goes but a delivery's receipt: it proves aid in kind was handed over, and stays with the financial record.
		const files = await tx
			.delete(attachments)
			.where(and(eq(attachments.caseId, caseId), notLike(attachments.slot, `${RECEIPT_SLOT_PREFIX}%`)))
			.returning({ key: attachments.storageKey, size: attachments.size })
		const sections = await tx.delete(caseSections).where(eq(caseSections.caseId, caseId)).returning({ section: caseSections.section })
		// The study describes the family and its home: it goes with the answers (the aid given stays, in case_aid).
		await tx.delete(caseStudies).where(eq(caseStudies.caseId, caseId))
		// The messages sent about it hold the name, the mobile or e-mail and what staff wrote.
		await tx.delete(caseMessages).where(eq(caseMessages.caseId, caseId))
		// The accounts given after the approval are bank data too (app/cases/payee-accounts.server.ts).
		await tx.delete(payeeAccounts).where(eq(payeeAccounts.caseId, caseId))
		const events = await tx.select({ id: caseEvents.id, data: caseEvents.data, note: caseEvents.note }).from(caseEvents).where(eq(caseEvents.caseId, caseId))
		for (const event of events) {
			await tx
				.update(caseEvents)
				.set({ note: '', data: scrubEventData(event.data) })
				.where(eq(caseEvents.id, event.id))
		}
		await asRetentionPurge(tx, () => tx.update(caseAid).set({ note: '' }).where(eq(caseAid.caseId, caseId)))
		// The financial record stays (docs/decisions/014-decisions-funds-and-budgets.md, kept 10 years at
		// least): the decision, its instalments, their payments and batches. What a member wrote about
		// the family goes; the amounts, funds, days and bank references carry no one's personal data.
		await tx.update(caseDecisions).set({ note: '' }).where(eq(caseDecisions.caseId, caseId))
		await tx.update(aidProposals).set({ note: '', firstNote: '' }).where(eq(aidProposals.caseId, caseId))
		// Zakat paid to the family: the zakat register names its beneficiary for the 10 years of the
		// financial record (docs/decisions/014-decisions-funds-and-budgets.md): the name and national ID
		// are kept for it alone, until 10 years after the last zakat paid; the category stays on the decision.
		await tx.execute(sql`
			insert into ${zakatRecipients} (case_id, applicant_name, national_id, kept_until)
			select ${caseId}::uuid, ${row.applicantName}, ${row.nationalId}, (max(e.value_date) + interval '10 years')::date
			from ledger_entries e join funds f on f.id = e.fund_id and f.zakat
			where e.case_id = ${caseId}::uuid and e.phase = 'posted'
			having count(*) > 0
			on conflict (case_id) do nothing`)
		await tx
			.update(cases)
			.set({
				applicantName: PURGED_NAME,
				nationalId: row.nationalId ? fingerprintWith(secret, row.nationalId) : '',
				mobile: '',
				email: '',
				// The applicant's private link opens nothing any more: no token hashes to this.
				resumeTokenHash: `purged:${randomBytes(16).toString('hex')}`,
				reopened: null,
				purgedAt: now,
			})
			.where(eq(cases.id, caseId))
		const destroyed = {
			reference: row.reference,
			type: row.type,
			outcome: row.status,
			sections: sections.map((section) => section.section).sort(),
			files: files.length,
			bytes: files.reduce((sum, file) => sum + file.size, 0),
		}
		await tx.insert(retentionRegister).values({
			caseId,
			caseReference: row.reference,
			caseType: row.type,
			outcome: row.status,
			closedAt: row.statusChangedAt,
			purgedAt: now,
			sections: destroyed.sections,
			files: destroyed.files,
			bytes: destroyed.bytes,
			runBy: options.runBy,
		})
		await recordAudit(tx, {
			actorName: RETENTION_ACTOR,
			action: 'retention.purge',
			caseReference: row.reference,
			data: { sections: destroyed.sections.length, files: destroyed.files, bytes: destroyed.bytes, by: options.runBy },
		})
		return { ...destroyed, keys: files.map((file) => file.key) }
	})
	if (!done) return null
	const orphans: string[] = []
	for (const key of done.keys) {
		try {
			await storage.remove(key)
		} catch {
			orphans.push(key)
		}
	}
	const { keys: _keys, ...purged } = done
	return { ...purged, orphans }
}

export interface RetentionReport {
	months: number
	dryRun: boolean
	/** Dry run: what is due. Otherwise: what was purged. */
	cases: (DueCase | Purged)[]
	purged: Purged[]
	due: DueCase[]
}

/** Purges every case due now, one transaction each; `dryRun` only lists them. */
export async function runRetention(db: Database, storage: FileStorage, options: Options & { runBy: RunBy; dryRun?: boolean }): Promise<RetentionReport> {
	const now = options.now ?? new Date()
	const due = await dueCases(db, { months: options.months, now })
	const purged: Purged[] = []
	if (!options.dryRun) {
		// A zakat beneficiary's name and ID go once the financial record's 10 years have passed.
		await db.delete(zakatRecipients).where(lt(zakatRecipients.keptUntil, todayInRiyadh(now)))
		for (const item of due) {
			const result = await purgeCase(db, storage, item.id, { ...options, now })
			if (result) purged.push(result)
		}
	}
	return { months: options.months, dryRun: Boolean(options.dryRun), cases: options.dryRun ? due : purged, purged, due }
}

/** The report as the command and the server's log print it (English, for an operator). */
export function describeRetention(report: RetentionReport): string {
	if (report.dryRun) {
		if (!report.due.length) return `Retention (${report.months} months): no case is due. Nothing would be destroyed.`
		return [`Retention (${report.months} months): ${report.due.length} case(s) would be purged (dry run, nothing destroyed):`, ...report.due.map((item) => `  ${item.reference}  ${item.type}  status ${item.status}  closed ${item.statusChangedAt.toISOString().slice(0, 10)}`)].join('\n')
	}
	if (!report.purged.length) return `Retention (${report.months} months): no case was due. Nothing destroyed.`
	const files = report.purged.reduce((sum, item) => sum + item.files, 0)
	const bytes = report.purged.reduce((sum, item) => sum + item.bytes, 0)
	const orphans = report.purged.flatMap((item) => item.orphans)
	return [
		`Retention (${report.months} months): purged ${report.purged.length} case(s), ${files} file(s), ${bytes} bytes:`,
		...report.purged.map((item) => `  ${item.reference}  ${item.type}  status ${item.outcome}  sections ${item.sections.length}  files ${item.files}  bytes ${item.bytes}`),
		...(orphans.length ? [`  ${orphans.length} stored file(s) could not be removed (orphans, see docs/operations.md#retention): ${orphans.join(', ')}`] : []),
	].join('\n')
}

export interface RegisterRow {
	id: number
	caseReference: string
	caseType: string
	outcome: number
	closedAt: Date
	purgedAt: Date
	sections: string[]
	files: number
	bytes: number
	runBy: string
}

export async function countRegister(db: Database): Promise<number> {
	const [row] = await db.select({ value: count() }).from(retentionRegister)
	return row?.value ?? 0
}

/** The register, newest first. */
export async function listRegister(db: Database, page: { offset: number; limit: number }): Promise<RegisterRow[]> {
	return db
		.select({
			id: retentionRegister.id,
			caseReference: retentionRegister.caseReference,
			caseType: retentionRegister.caseType,
			outcome: retentionRegister.outcome,
			closedAt: retentionRegister.closedAt,
			purgedAt: retentionRegister.purgedAt,
			sections: retentionRegister.sections,
			files: retentionRegister.files,
			bytes: retentionRegister.bytes,
			runBy: retentionRegister.runBy,
		})
		.from(retentionRegister)
		.orderBy(desc(retentionRegister.purgedAt), desc(retentionRegister.id))
		.offset(page.offset)
		.limit(page.limit)
}

/** When retention last destroyed something (a run that found nothing due leaves no row). */
export async function lastPurgeAt(db: Database): Promise<Date | null> {
	const [row] = await db.select({ at: sql<Date | null>`max(${retentionRegister.purgedAt})`.mapWith((value: string | null) => (value ? new Date(value) : null)) }).from(retentionRegister)
	return row?.at ?? null
}
