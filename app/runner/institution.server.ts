// The steps' side of institution accounts: a registration's user name and e-mail checked when its
// step is saved, its account opened when it is sent, and a request started from an account filled
// in from its registration.
import { createInstitutionAccount, isAccountNameTaken, registrationAnswers } from '#app/accounts/institution-accounts.server.ts'
import type { CaseRow } from '#app/cases/case-store.server.ts'
import type { Database } from '#app/db/client.server.ts'
import type { ApplicationDef } from '#app/forms/definition.ts'
import type { SectionAnswers } from '#app/forms/schema.ts'

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
