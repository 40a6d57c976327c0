// The HTTP side of an application for the routes under /apply: the case store (app/cases/) knows
// nothing of requests or responses.
import { data } from 'react-router'
import { getDb } from '#app/db/database.server.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { completedSections } from '#app/forms/journey.ts'
import { getUser } from '#app/auth/session.server.ts'
import { areaRoles } from '#app/db/roles.ts'
import { findApplicationByToken, type CaseRow, type IdChecksumOverride } from '#app/cases/case-store.server.ts'
import { addressCheck, limitOrThrow, publicLimits, type LimitCheck } from '#app/http/ip-limit.server.ts'
import type { RateLimitRule } from '#app/http/rate-limit.server.ts'
import { applications, countOf } from '#app/text/arabic-count.ts'
import { hashResumeToken } from '#app/cases/tokens.server.ts'
import { hashPassword } from '#app/utils/password.server.ts'
import { passwordRefusal } from '#app/utils/common-passwords.server.ts'
import type { ApplicationDef, SectionDef } from '#app/forms/definition.ts'
import type { Database } from '#app/db/client.server.ts'
import { createInstitutionAccount, isAccountNameTaken, registrationAnswers } from '#app/accounts/institution-accounts.server.ts'
import { isPasswordHash, type SectionAnswers } from '#app/forms/schema.ts'

/**
 * The application behind a private link. Anyone without a valid token gets the same 404 as for a
 * page that does not exist: a wrong link says nothing about which links exist.
 */
export async function loadApplication(token: string | undefined) {
	const db = await getDb()
	const found = token ? await findApplicationByToken(db, token) : undefined
	const definition = found ? findDefinition(found.row.type) : undefined
	if (!found || !definition || found.row.deletedAt) throw data(null, { status: 404 })
	const { row, state } = found
	return { db, row, definition, state, completed: completedSections(definition, state) }
}

/**
 * The signed-in staff member who handles cases (admin or case officer), or null: only they may
 * enter paper applications, accept a failing national ID, or skip the visitors' limits.
 */
export async function getCaseStaff(request: Request) {
	const user = await getUser(request)
	return user && (areaRoles.cases as readonly string[]).includes(user.role) ? user : null
}

export const OVERRIDE_NOTE_MISSING = 'الرجاء كتابة سبب قبول رقم الهوية'

/**
 * A signed-in staff member filling in a form for a family may accept a national ID that fails the
 * checksum, with a reason. Returns the override, null when none was asked for, or 'no-note'.
 */
export async function readIdChecksumOverride(request: Request, formData: FormData): Promise<IdChecksumOverride | null | 'no-note'> {
	if (formData.get('overrideIdChecksum') !== 'on') return null
	const staff = await getCaseStaff(request)
	if (!staff) return null
	const note = String(formData.get('overrideNote') ?? '')
		.trim()
		.slice(0, 500)
	return note ? { actorId: staff.id, note } : 'no-note'
}

/**
 * The limits on a visitor's posts: the address's ceiling (`rule`) and, under a private link
 * (/apply/r/<token>/…), the link's own limit, counted by the token's hash (the token is never
 * stored). Staff entering paper applications all day from the foundation's one address skip them.
 */
export async function limitVisitor(request: Request, rule: (typeof publicLimits)[keyof typeof publicLimits]): Promise<void> {
	if (await getCaseStaff(request)) return
	const token = /^\/apply\/r\/([^/]+)/.exec(new URL(request.url).pathname)?.[1]
	await limitOrThrow([
		addressCheck(request, rule),
		...(token ? [{ rule: publicLimits.savePerLink, key: hashResumeToken(token), reason: 'محاولات حفظ كثيرة جداً على رابط هذا الطلب.' }] : []),
	])
}

/**
 * The limits on new drafts per applicant (publicLimits): its national ID or licence number and its
 * e-mail, as typed on the first step. Checked before a draft is made and counted once it is: a
 * refused or mistyped post never uses up a family's allowance.
 */
export function newDraftChecks(definition: ApplicationDef, values: SectionAnswers): LimitCheck[] {
	const first = definition.sections[0]!
	const label = (name: string | undefined, fallback: string) => first.fields.find((field) => field.name === name)?.label ?? fallback
	const value = (name: string | undefined) => (name ? String(values[name] ?? '').trim().toLowerCase() : '')
	const reason = (subject: string, rule: RateLimitRule) => `بلغ ${subject} الحد المسموح به من الطلبات الجديدة: ${countOf(rule.limit, applications)} في اليوم.`
	const { nationalId, email } = definition.applicant
	return [
		{ rule: publicLimits.startPerId, key: value(nationalId), reason: reason(`${label(nationalId, 'رقم الهوية')} هذا`, publicLimits.startPerId) },
		{ rule: publicLimits.startPerEmail, key: value(email), reason: reason('هذا البريد الإلكتروني', publicLimits.startPerEmail) },
	]
}

/**
 * A section's answers as they are stored: a new password becomes its hash (app/utils/password.server.ts),
 * and one left blank keeps the hash already saved. A password is never stored or logged as typed.
 */
export async function sealPasswords(section: SectionDef, values: SectionAnswers, saved: SectionAnswers | undefined): Promise<SectionAnswers> {
	const passwords = section.fields.filter((field) => field.kind === 'newPassword')
	if (!passwords.length) return values
	const sealed = { ...values }
	for (const field of passwords) {
		const typed = values[field.name]
		if (typeof typed === 'string' && typed && !isPasswordHash(typed)) sealed[field.name] = await hashPassword(typed)
		else if (isPasswordHash(saved?.[field.name])) sealed[field.name] = saved![field.name]
		else delete sealed[field.name]
	}
	return sealed
}

/** A new password typed into a section that is common or leaked: refused here, as the list stays on the server. */
export function commonPasswordErrors(section: SectionDef, values: SectionAnswers): Record<string, string[]> | null {
	// The account's own words: every short text answered on the step (its user name and e-mail).
	const accountWords = section.fields.filter((field) => field.kind === 'text').map((field) => values[field.name] as string | undefined)
	const errors = section.fields.flatMap((field) => {
		const typed = values[field.name]
		if (field.kind !== 'newPassword' || typeof typed !== 'string' || isPasswordHash(typed)) return []
		const refusal = passwordRefusal(typed, accountWords)
		return refusal ? [[field.name, [refusal]] as [string, string[]]] : []
	})
	return errors.length ? Object.fromEntries(errors) : null
}

export const ACCOUNT_NAME_TAKEN = {
	userName: 'اسم المستخدم هذا لحساب مؤسسة أخرى. اختر اسماً غيره.',
	email: 'هذا البريد الإلكتروني لحساب مؤسسة أخرى. استخدم بريداً غيره، أو ادخل إلى حسابها من «دخول المؤسسات».',
} as const

/**
 * A registration's user name or e-mail already belongs to an institution account: the errors to
 * show on those fields, or null. Checked when the step is saved; opening the account checks again
 * when the case is sent (check.tsx).
 */
export async function accountNameErrors(db: Database, definition: ApplicationDef, sectionKey: string, values: SectionAnswers): Promise<Record<string, string[]> | null> {
	const account = definition.createsAccount
	if (!account || account.section !== sectionKey) return null
	const taken = await isAccountNameTaken(db, { userName: String(values[account.userName] ?? ''), email: String(values[account.email] ?? '') })
	if (!taken.userName && !taken.email) return null
	return {
		...(taken.userName ? { [account.userName]: [ACCOUNT_NAME_TAKEN.userName] } : {}),
		...(taken.email ? { [account.email]: [ACCOUNT_NAME_TAKEN.email] } : {}),
	}
}

/** The institution account a sent registration opens, from its saved answers. */
export async function openAccountFor(db: Database, definition: ApplicationDef, row: CaseRow, answers: Readonly<Record<string, SectionAnswers | undefined>>): Promise<void> {
	const account = definition.createsAccount
	if (!account) return
	const all = Object.assign({}, ...Object.values(answers)) as SectionAnswers
	const user = answers[account.section] ?? {}
	await createInstitutionAccount(db, {
		registrationCaseId: row.id,
		name: String(all[account.name] ?? row.applicantName),
		userName: String(user[account.userName] ?? ''),
		email: String(user[account.email] ?? ''),
		mobile: String(user[account.mobile] ?? ''),
		passwordHash: String(user[account.password] ?? ''),
	})
}

/**
 * What a step of a request started from an institution's account starts filled in with: its
 * registration's answers (`ApplicationDef.prefill`), until the step is first saved.
 */
export async function prefillFor(db: Database, definition: ApplicationDef, row: CaseRow, sectionKey: string, saved: SectionAnswers | undefined): Promise<SectionAnswers | null> {
	if (saved || row.accountId === null) return null
	return accountPrefill(db, definition, row.accountId, sectionKey)
}

/** A step's answers from the account's registration (`ApplicationDef.prefill`), or null: also the first step before the case exists. */
export async function accountPrefill(db: Database, definition: ApplicationDef, accountId: number, sectionKey: string): Promise<SectionAnswers | null> {
	const mapping = definition.prefill?.[sectionKey]
	if (!mapping) return null
	const registration = await registrationAnswers(db, accountId)
	const values = Object.fromEntries(Object.entries(mapping).flatMap(([field, source]) => (registration[source] === undefined ? [] : [[field, registration[source]]])))
	return Object.keys(values).length ? values : null
}

/** A section's password inputs, never sent back in a refused form's reply (Conform's `hideFields`). */
export function secretFields(section: SectionDef): string[] {
	return section.fields.flatMap((field) => (field.kind === 'newPassword' ? [field.name, `${field.name}Confirm`] : []))
}
