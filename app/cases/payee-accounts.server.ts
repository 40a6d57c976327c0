// The account an approved aid is transferred to (docs/product.md#a-bounced-payment): read from the
// applicant's answers, and, once the aid is approved, held until finance confirms an IBAN given after
// the approval (by the family on their link, or by staff correcting the answers), or given anew after
// the bank returned a transfer. `ibanHolds` is the one check the batch code asks. Each IBAN given,
// confirmed or refused by the bank is a row of `payee_accounts`, never changed.
import { and, desc, eq, inArray, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { aidInstalments, caseEvents, cases, caseSections, payeeAccounts } from '#app/db/schema.ts'
import { areaRoles, hasRole, type UserRole } from '#app/db/roles.ts'
import { ibanProblem, normaliseIban } from '#app/domain/validators.ts'
import { applicationDefinitions, findDefinition } from '#app/forms/registry.ts'
import type { ApplicationDef, RowFieldDef } from '#app/forms/definition.ts'
import { bankFieldBefore, ibanBankMismatches } from '#app/forms/bank-account.ts'
import { bankOfChoice } from '#app/domain/saudi-banks.ts'
import { CaseChangeError } from './refusals.ts'
import { isInKind } from './aid.ts'

type Actor = { id: number; roles: readonly UserRole[] }

/** The sections of any programme that ask for an IBAN. */
const ibanSections = [...new Set(applicationDefinitions.flatMap((definition) => definition.sections.filter((section) => section.fields.some((field) => field.kind === 'text' && field.format === 'iban')).map((section) => section.key)))]

/** The transfer account's question of a programme: its first IBAN field. */
export function payeeField(definition: ApplicationDef | undefined): { section: string; name: string; label: string } | undefined {
	for (const section of definition?.sections ?? []) {
		const field = section.fields.find((candidate) => candidate.kind === 'text' && candidate.format === 'iban')
		if (field && field.kind === 'text') return { section: section.key, name: field.name, label: field.label }
	}
	return undefined
}

export interface PayeeAccount {
	iban: string
	/** The bank chosen beside it (app/forms/options.ts `banks`), if the form asks. */
	bank?: string
}


/** The account a case's aid is transferred to: its transfer question's answer (`payeeField`), as the applicant gave it, with the bank chosen beside it. */
/** Case ids as one parameter (an array literal), not one each: 1,000 of them parse much faster so (bench:aid). */
const uuidArray = (ids: readonly string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`

/** Each programme's account question and the bank asked beside it, worked out once a programme (1,000 a batch). */
const accountQuestions = new Map<string, { section: string; name: string; bankField: string | undefined } | null>()
function accountQuestion(type: string) {
	if (!accountQuestions.has(type)) {
		const definition = findDefinition(type)
		const field = payeeField(definition)
		const fields = (definition?.sections.find((section) => section.key === field?.section)?.fields ?? []) as readonly RowFieldDef[]
		accountQuestions.set(type, field ? { section: field.section, name: field.name, bankField: bankFieldBefore(fields, field.name) } : null)
	}
	return accountQuestions.get(type)!
}

export async function transferAccounts(db: Database, caseIds: readonly string[]): Promise<Map<string, PayeeAccount>> {
	const found = new Map<string, PayeeAccount>()
	if (!caseIds.length) return found
	const rows = await db
		// Each case's programme read by its key, case by case: a join read every one of 100,000 cases to
		// find 1,000 (bench:aid: 80 ms against 15).
		.select({ caseId: caseSections.caseId, section: caseSections.section, answers: caseSections.answers, type: sql<string>`(select ${cases.type} from ${cases} where ${cases.id} = ${caseSections.caseId})` })
		.from(caseSections)
		// Only the sections that ask for an account: a batch of 1,000 reads 1,000 answers, not every section (bench:aid).
		.where(and(sql`${caseSections.caseId} = any(${uuidArray(caseIds)})`, inArray(caseSections.section, ibanSections)))
	for (const row of rows) {
		if (found.has(row.caseId)) continue
		const question = accountQuestion(row.type)
		if (!question || question.section !== row.section) continue
		const answers = row.answers as Record<string, unknown>
		const value = answers[question.name]
		const bank = question.bankField ? answers[question.bankField] : undefined
		if (typeof value === 'string' && value.length > 2) found.set(row.caseId, { iban: normaliseIban(value), ...(typeof bank === 'string' && bank ? { bank } : {}) })
	}
	return found
}

/** Each case's IBAN alone, as the holds compare it. */
export const ibansOf = (accounts: ReadonlyMap<string, PayeeAccount>) => new Map([...accounts].map(([caseId, account]) => [caseId, account.iban]))

/** The cases' IBANs alone (`transferAccounts`). */
export async function payeeIbans(db: Database, caseIds: readonly string[]): Promise<Map<string, string>> {
	return ibansOf(await transferAccounts(db, caseIds))
}

export const IBAN_UNCONFIRMED = 'بانتظار تأكيد الآيبان'
export const IBAN_BOUNCED = 'أعاد البنك التحويل: بانتظار آيبان آخر من الأسرة'
export const SAME_IBAN = 'هذا هو الآيبان الذي أعاد البنك التحويل إليه: يلزم آيبان حساب آخر'
export const CHANGER_MAY_NOT_CONFIRM = 'لا يؤكد الآيبان من أدخله: يؤكده مسؤول مالي آخر.'

/** Refused because whoever gave the IBAN confirms it too: a 403, audited as a refusal. */
export class IbanFourEyesError extends CaseChangeError {}

type AccountRow = typeof payeeAccounts.$inferSelect

/** Each case's rows, newest first. */
async function accountsOf(db: Database, caseIds: readonly string[]): Promise<Map<string, AccountRow[]>> {
	const byCase = new Map<string, AccountRow[]>()
	if (!caseIds.length) return byCase
	const rows = await db
		.select()
		.from(payeeAccounts)
		.where(sql`${payeeAccounts.caseId} = any(${uuidArray(caseIds)})`)
		.orderBy(desc(payeeAccounts.id))
	for (const row of rows) (byCase.get(row.caseId) ?? byCase.set(row.caseId, []).get(row.caseId)!).push(row)
	return byCase
}

/** Why a case's account is held, or null: nothing given since the approval, or the current IBAN confirmed. */
function holdOf(rows: readonly AccountRow[] | undefined, current: string): string | null {
	const latest = rows?.[0]
	if (!latest) return null
	if (latest.kind === 'confirmed') return latest.iban === current ? null : IBAN_UNCONFIRMED
	if (latest.kind === 'bounced' && latest.iban === current) return IBAN_BOUNCED
	return IBAN_UNCONFIRMED
}

/**
 * Why each of these cases' transfers may not be batched now, by case: an IBAN given after the
 * approval and not yet confirmed by finance, or the one the bank returned a transfer from. A case
 * that is not held is not in the map. `ibans`: the cases' current accounts (payeeIbans).
 */
export async function ibanHolds(db: Database, ibans: ReadonlyMap<string, string>, caseIds: readonly string[] = [...ibans.keys()]): Promise<Map<string, string>> {
	const accounts = await accountsOf(db, caseIds)
	const held = new Map<string, string>()
	for (const caseId of caseIds) {
		const why = holdOf(accounts.get(caseId), ibans.get(caseId) ?? '')
		if (why) held.set(caseId, why)
	}
	return held
}

/** Whether the case's current account may be paid: nothing changed since the approval, or confirmed by finance. */
export async function ibanConfirmed(db: Database, caseId: string): Promise<boolean> {
	return !(await ibanHolds(db, await payeeIbans(db, [caseId]), [caseId])).has(caseId)
}

/** Whether the case has an approved aid: an IBAN given from then on needs finance's confirmation. */
async function approved(tx: Database, caseId: string): Promise<boolean> {
	const [found] = await tx.select({ id: aidInstalments.id }).from(aidInstalments).where(eq(aidInstalments.caseId, caseId)).limit(1)
	return Boolean(found)
}

/**
 * In the caller's transaction: an IBAN given for a case (`actorId` null: the applicant). After the
 * approval it is held until finance confirms it; before, it is simply the answer the committee reads.
 */
export async function noteIbanChange(tx: Database, caseId: string, iban: string, actorId: number | null): Promise<void> {
	if (!(await approved(tx, caseId))) return
	await tx.insert(payeeAccounts).values({ caseId, kind: 'changed', iban, actorId })
	await tx.insert(caseEvents).values({ caseId, actorId, kind: 'iban_changed', data: { kind: 'changed', iban, by: actorId === null ? 'applicant' : 'staff' } })
}

/**
 * In the caller's transaction: the bank returned a transfer to `iban` (the batch line's, as it was
 * sent: not the answer given since); a different one is needed.
 */
export async function noteIbanBounced(tx: Database, caseId: string, iban: string, reason: string, actor: { id: number }, asks = true): Promise<void> {
	await tx.insert(payeeAccounts).values({ caseId, kind: 'bounced', iban, reason, actorId: actor.id })
	await tx.insert(caseEvents).values([
		{ caseId, actorId: actor.id, kind: 'iban_changed' as const, note: reason, data: { kind: 'bounced', iban } },
		// On the family's link and the lookup, with the form for another IBAN below it while a transfer is owed.
		{ caseId, actorId: actor.id, kind: 'applicant_message' as const, note: bounceNotice(reason, asks) },
	])
}

/**
 * What the family reads of a bounced transfer: another IBAN asked for, or (`asks` false: their aid
 * was stopped and nothing is owed by transfer) that it is not sent again.
 */
export const bounceNotice = (reason: string, asks = true) =>
	`أعاد البنك التحويل الذي صرفناه لك، فلم يصل إلى حسابك. السبب: ${reason.trim().replace(/[.،]+$/, '')}. ${
		asks
			? 'أرسل إلينا رقم آيبان لحساب آخر باسمك من صفحة طلبك، ونحوّل الدعم إليه بعد أن يتأكد منه مسؤول مالي.'
			: 'ولأن صرف دعمك أُوقف قبل ذلك، فلا يُحوَّل هذا المبلغ مرة أخرى، ولا حاجة إلى إرسال آيبان آخر.'
	}`

/**
 * Whether any transfer is still owed to the case: an instalment paid by transfer waiting for a
 * batch, in one, or held with its aid. A bounced account asks the family for another only then.
 */
export async function transferOwed(db: Database, caseId: string): Promise<boolean> {
	const rows = await db
		.select({ aidKind: aidInstalments.aidKind })
		.from(aidInstalments)
		.where(and(eq(aidInstalments.caseId, caseId), inArray(aidInstalments.status, ['approved', 'in_batch', 'suspended'])))
	return rows.some((row) => !isInKind(row.aidKind))
}

/**
 * Finance confirms the case's current IBAN, given after the approval: valid, not the one the bank
 * returned, and not given by the one confirming it (IbanFourEyesError).
 */
export async function confirmIban(db: Database, caseId: string, actor: Actor): Promise<string> {
	if (!hasRole(actor, ...areaRoles.payments)) throw new CaseChangeError('يؤكد الآيبان مسؤول مالي')
	return db.transaction(async (tx) => {
		await tx.select({ id: cases.id }).from(cases).where(eq(cases.id, caseId)).for('update')
		const iban = (await payeeIbans(tx, [caseId])).get(caseId) ?? ''
		const rows = (await accountsOf(tx, [caseId])).get(caseId) ?? []
		if (!holdOf(rows, iban)) throw new CaseChangeError('آيبان هذا الطلب لا ينتظر تأكيداً')
		if (ibanProblem(iban)) throw new CaseChangeError('آيبان هذا الطلب غير صحيح: يصحّحه المتقدم أو الباحث الاجتماعي أولاً')
		if (rows.some((row) => row.kind === 'bounced' && row.iban === iban)) throw new CaseChangeError(SAME_IBAN)
		if (rows.find((row) => row.kind === 'changed' && row.iban === iban)?.actorId === actor.id) throw new IbanFourEyesError(CHANGER_MAY_NOT_CONFIRM)
		await tx.insert(payeeAccounts).values({ caseId, kind: 'confirmed', iban, actorId: actor.id })
		await tx.insert(caseEvents).values({ caseId, actorId: actor.id, kind: 'iban_changed', data: { kind: 'confirmed', iban } })
		return iban
	})
}

/**
 * The family gives a new IBAN on their verified link, after the approval (`actorId`: staff who typed
 * it there for them, who then may not confirm it), with the bank it is at (`bank`, the forms' choice;
 * unsaid: the bank chosen before): written as the answers to the programme's account question and
 * the bank beside it, and held until finance confirms it. Refused: not a valid Saudi IBAN, of
 * another bank than the chosen one (app/forms/bank-account.ts, as the form's own step refuses it),
 * or the very one the bank returned.
 */
export async function giveIban(db: Database, caseId: string, typed: string, actorId: number | null = null, bank?: string): Promise<void> {
	const problem = ibanProblem(typed)
	if (problem) throw new CaseChangeError(problem === 'checksum' ? 'رقم الآيبان غير صحيح، تأكد من كتابته كما في كشف حسابك' : 'الرجاء كتابة الآيبان كاملاً: SA ويتبعه 22 رقماً')
	if (bank !== undefined && !bankOfChoice(bank)) throw new CaseChangeError('الرجاء اختيار البنك')
	const iban = normaliseIban(typed)
	await db.transaction(async (tx) => {
		const [row] = await tx.select().from(cases).where(eq(cases.id, caseId)).for('update')
		const definition = findDefinition(row?.type ?? '')
		const field = payeeField(definition)
		if (!row || row.deletedAt || row.purgedAt || !field || !(await approved(tx, caseId))) throw new CaseChangeError('لا يُطلب آيبان لهذا الطلب')
		const rows = (await accountsOf(tx, [caseId])).get(caseId) ?? []
		if (rows.some((item) => item.kind === 'bounced' && item.iban === iban)) throw new CaseChangeError(SAME_IBAN)
		const [section] = await tx
			.select({ answers: caseSections.answers })
			.from(caseSections)
			.where(and(eq(caseSections.caseId, caseId), eq(caseSections.section, field.section)))
		const fields = definition?.sections.find((candidate) => candidate.key === field.section)?.fields ?? []
		const bankField = bankFieldBefore(fields, field.name)
		const answers = { ...((section?.answers as Record<string, unknown> | undefined) ?? {}), [field.name]: iban, ...(bankField && bank ? { [bankField]: bank } : {}) }
		const mismatch = ibanBankMismatches(fields, answers).find((item) => item.field === field.name)
		if (mismatch) throw new CaseChangeError(mismatch.message)
		await tx
			.insert(caseSections)
			.values({ caseId, section: field.section, answers })
			.onConflictDoUpdate({ target: [caseSections.caseId, caseSections.section], set: { answers, updatedAt: sql`now()` } })
		await noteIbanChange(tx, caseId, iban, actorId)
	})
}

/** What the family's link says of their account: the bank returned a transfer (with why), or the IBAN they gave waits for finance. */
export async function accountNotice(db: Database, caseId: string): Promise<{ bounced: string | null; waiting: boolean } | null> {
	const rows = (await accountsOf(db, [caseId])).get(caseId) ?? []
	const latest = rows[0]
	if (!latest || latest.kind === 'confirmed') return null
	// Their aid stopped, nothing left to transfer: nothing to ask (the bounce's message says so).
	if (latest.kind === 'bounced' && !(await transferOwed(db, caseId))) return null
	const bounce = rows.find((row) => row.kind === 'bounced')
	return latest.kind === 'bounced' ? { bounced: latest.reason, waiting: false } : { bounced: bounce && rows.indexOf(bounce) > 0 ? bounce.reason : null, waiting: true }
}
