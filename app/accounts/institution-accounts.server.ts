// Registered institutions' own accounts (docs/product.md#roles): separate from staff in everything —
// their table, their sessions, their cookie — so an institution's sign-in never opens /admin and a
// staff session never opens /account. An account sees only its own cases: the registration it came
// from and the association-support requests it started.
import { hashPassword, needsRehash } from '#app/utils/password.server.ts'
import { createHash, randomBytes } from 'node:crypto'
import { and, desc, eq, gt, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm'
import { redirect } from 'react-router'
import type { Database } from '#app/db/client.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { isUniqueViolation } from '#app/db/errors.ts'
import { caseEvents, cases, institutionAccounts, institutionSessions } from '#app/db/schema.ts'
import { readCookie, serializeCookie } from '#app/utils/cookies.server.ts'
import { safeRedirect } from '#app/auth/session.server.ts'
import { checkSignIn, passwordAgainProblem, signInLimits } from '#app/auth/sign-in.server.ts'
import { loadSavedState, startCase, type CaseRow } from '#app/cases/case-store.server.ts'
import { hashResumeToken, newResumeToken, normaliseReference } from '#app/cases/tokens.server.ts'
import { normaliseEmail } from '#app/domain/staff-users.server.ts'
import type { ApplicationDef } from '#app/forms/definition.ts'
import { INSTITUTION_USER_NAME } from '#app/forms/definitions/institution-registration.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { normaliseSaudiMobile } from '#app/text/format.ts'
import type { RateLimitRule } from '#app/http/rate-limit.server.ts'

export type InstitutionAccountRow = typeof institutionAccounts.$inferSelect
export type InstitutionAccount = Omit<InstitutionAccountRow, 'passwordHash'>

/** Every column but the password hash. */
const accountColumns = {
	id: institutionAccounts.id,
	name: institutionAccounts.name,
	userName: institutionAccounts.userName,
	email: institutionAccounts.email,
	mobile: institutionAccounts.mobile,
	registrationCaseId: institutionAccounts.registrationCaseId,
	active: institutionAccounts.active,
	createdAt: institutionAccounts.createdAt,
	lastSignInAt: institutionAccounts.lastSignInAt,
	signInCode: institutionAccounts.signInCode,
}

// ---------------------------------------------------------------------------------------------
// Accounts

/**
 * Whether a sign-in name is already some account's user name or e-mail, whatever the letter case.
 * Both columns are searched, so one typed name can never lead to two accounts.
 */
const nameInUse = (name: string): SQL => or(sql`lower(${institutionAccounts.userName}) = lower(${name})`, sql`lower(${institutionAccounts.email}) = lower(${name})`)!

/** The user name or the e-mail (or both) already belongs to an account. */
export class AccountTakenError extends Error {
	constructor(readonly taken: { userName: boolean; email: boolean }) {
		super(`institution account name taken: ${[taken.userName && 'user name', taken.email && 'e-mail'].filter(Boolean).join(', ')}`)
	}
}

export interface NewInstitutionAccount {
	/** The «institution registration» case the account comes from. */
	registrationCaseId: string | null
	/** The institution's name. */
	name: string
	userName: string
	email: string
	/** A Saudi mobile in any usual spelling; stored as +9665XXXXXXXX. */
	mobile: string
	/** From app/utils/password.server.ts `hashPassword`: the password itself never reaches this module. */
	passwordHash: string
}

/** For the registration form: whether the user name or the e-mail is already used (any letter case). */
export async function isAccountNameTaken(db: Database, input: { userName: string; email: string }): Promise<{ userName: boolean; email: boolean }> {
	const userName = input.userName.trim()
	const email = normaliseEmail(input.email)
	const [row] = await db
		.select({
			userName: sql<boolean>`coalesce(bool_or(${nameInUse(userName)}), false)`,
			email: sql<boolean>`coalesce(bool_or(${nameInUse(email)}), false)`,
		})
		.from(institutionAccounts)
		.where(or(nameInUse(userName), nameInUse(email)))
	return { userName: Boolean(row?.userName), email: Boolean(row?.email) }
}

/**
 * Creates an institution's account. Throws AccountTakenError when its user name or e-mail is
 * already some account's user name or e-mail, whatever the letter case.
 */
export async function createInstitutionAccount(db: Database, input: NewInstitutionAccount): Promise<{ id: number }> {
	const userName = input.userName.trim()
	const email = normaliseEmail(input.email)
	const mobile = normaliseSaudiMobile(input.mobile)
	if (!userName || !email || !input.passwordHash) throw new RangeError('an institution account needs a user name, an e-mail and a password')
	if (!INSTITUTION_USER_NAME.test(userName)) throw new RangeError('an institution user name is 3 to 40 English letters, digits, dots, dashes or underscores')
	if (!mobile) throw new RangeError('an institution account needs a Saudi mobile number')
	try {
		return await db.transaction(async (tx) => {
			// The unique indexes hold each column; this lock also keeps a user name from becoming
			// another account's e-mail between the check and the insert.
			await tx.execute(sql`select pg_advisory_xact_lock(hashtext('institution_accounts:names'))`)
			const taken = await isAccountNameTaken(tx, { userName, email })
			if (taken.userName || taken.email) throw new AccountTakenError(taken)
			const [row] = await tx
				.insert(institutionAccounts)
				.values({ name: input.name.trim(), userName, email, mobile, passwordHash: input.passwordHash, registrationCaseId: input.registrationCaseId })
				.returning({ id: institutionAccounts.id })
			return row!
		})
	} catch (error) {
		if (isUniqueViolation(error)) throw new AccountTakenError(await isAccountNameTaken(db, { userName, email }))
		throw error
	}
}

/** Whether the case is the institution's own: made under its account, or the registration that made the account. */
export async function institutionOwnsCase(db: Database, accountId: number, row: Pick<CaseRow, 'id' | 'accountId'>): Promise<boolean> {
	if (row.accountId === accountId) return true
	const [owner] = await db.select({ id: institutionAccounts.id }).from(institutionAccounts).where(and(eq(institutionAccounts.id, accountId), eq(institutionAccounts.registrationCaseId, row.id)))
	return Boolean(owner)
}

export async function findInstitutionAccount(db: Database, id: number): Promise<InstitutionAccount | undefined> {
	const [row] = await db.select(accountColumns).from(institutionAccounts).where(eq(institutionAccounts.id, id))
	return row
}

/** Deactivating an account ends its sessions at once; it can no longer sign in. */
export async function setInstitutionAccountActive(db: Database, id: number, active: boolean): Promise<void> {
	await db.update(institutionAccounts).set({ active }).where(eq(institutionAccounts.id, id))
	if (!active) await deleteAccountSessions(db, id)
}

// ---------------------------------------------------------------------------------------------
// Sign-in

/**
 * The staff sign-in's limits (app/auth/sign-in.server.ts): 5 failures per typed name in 15
 * minutes, counted apart from staff e-mails; the 300 per IP address are shared with the staff
 * sign-in, so one address cannot guess twice as often by using both pages.
 */
export const accountSignInLimits = {
	name: { ...signInLimits.email, bucket: 'account-sign-in:name' },
	ip: signInLimits.ip,
} satisfies Record<string, RateLimitRule>

export type AccountSignInResult = { ok: true; account: InstitutionAccount } | { ok: false; reason: 'invalid' } | { ok: false; reason: 'limited'; retryAfter: number }

/** Signs an institution in by its user name or its e-mail, as staff sign in (same checks, same limits). */
export async function attemptAccountSignIn(db: Database, input: { name: string; password: string; ip: string }): Promise<AccountSignInResult> {
	const name = input.name.trim()
	const result = await checkSignIn(db, accountSignInLimits, { name: name.toLowerCase(), password: input.password, ip: input.ip }, async () => {
		if (!name) return undefined
		const [row] = await db.select().from(institutionAccounts).where(nameInUse(name)).orderBy(institutionAccounts.id).limit(1)
		return row
	})
	if (!result.ok) return result
	const rehashed = needsRehash(result.account.passwordHash) ? { passwordHash: await hashPassword(input.password) } : {}
	const [account] = await db
		.update(institutionAccounts)
		.set({ lastSignInAt: sql`now()`, ...rehashed })
		.where(eq(institutionAccounts.id, result.account.id))
		.returning(accountColumns)
	return { ok: true, account: account! }
}

/**
 * The account's sign-in code turned on, or off once its password is typed again: a session alone (a
 * computer left signed in) does not lower the account's guard (docs/security.md#sessions). Wrong
 * passwords count against the sign-in limit of its user name. The refusal's words, or null once done.
 */
export async function setAccountSignInCode(db: Database, account: InstitutionAccount, on: boolean, password: string): Promise<string | null> {
	if (!on) {
		if (!password) return 'الرجاء كتابة كلمة المرور الحالية'
		const [row] = await db.select({ passwordHash: institutionAccounts.passwordHash }).from(institutionAccounts).where(eq(institutionAccounts.id, account.id))
		const problem = await passwordAgainProblem(db, accountSignInLimits.name, account.userName.toLowerCase(), password, row?.passwordHash)
		if (problem) return problem
	}
	await db.update(institutionAccounts).set({ signInCode: on }).where(eq(institutionAccounts.id, account.id))
	return null
}

// ---------------------------------------------------------------------------------------------
// Sessions: as staff sessions (docs/decisions/003), in their own table and their own cookie.

/** `__Host-` pins the cookie to our host and path when it can be Secure (as the staff cookie). */
export function accountCookieName(): string {
	return getEnv().cookieSecure ? '__Host-ataa_account' : 'ataa_account'
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

export async function createAccountSession(db: Database, accountId: number): Promise<{ token: string; expiresAt: Date }> {
	const token = randomBytes(32).toString('base64url')
	const expiresAt = new Date(Date.now() + getEnv().SESSION_DAYS * 24 * 60 * 60 * 1000)
	await db.insert(institutionSessions).values({ id: hashToken(token), accountId, expiresAt })
	// This account's own expired sessions go now; start-up's purge takes the rest.
	await db.delete(institutionSessions).where(and(eq(institutionSessions.accountId, accountId), lt(institutionSessions.expiresAt, sql`now()`)))
	return { token, expiresAt }
}

export function accountSessionCookie(token: string, expiresAt: Date): string {
	return serializeCookie(accountCookieName(), token, { secure: getEnv().cookieSecure, maxAge: (expiresAt.getTime() - Date.now()) / 1000 })
}

export function clearedAccountSessionCookie(): string {
	return serializeCookie(accountCookieName(), '', { secure: getEnv().cookieSecure, maxAge: 0 })
}

export function getAccountSessionToken(request: Request): string | undefined {
	return readCookie(request, accountCookieName()) || undefined
}

export async function deleteAccountSession(db: Database, token: string): Promise<void> {
	await db.delete(institutionSessions).where(eq(institutionSessions.id, hashToken(token)))
}

export async function deleteAccountSessions(db: Database, accountId: number): Promise<void> {
	await db.delete(institutionSessions).where(eq(institutionSessions.accountId, accountId))
}

export async function purgeExpiredAccountSessions(db: Database): Promise<void> {
	await db.delete(institutionSessions).where(lt(institutionSessions.expiresAt, sql`now()`))
}

/** The signed-in, active institution of this request, or null. A staff session is not one. */
export async function getInstitution(request: Request): Promise<InstitutionAccount | null> {
	const token = getAccountSessionToken(request)
	if (!token) return null
	const db = await getDb()
	const [row] = await db
		.select(accountColumns)
		.from(institutionSessions)
		.innerJoin(institutionAccounts, eq(institutionAccounts.id, institutionSessions.accountId))
		.where(and(eq(institutionSessions.id, hashToken(token)), gt(institutionSessions.expiresAt, sql`now()`), eq(institutionAccounts.active, true)))
	return row ?? null
}

/** Where an institution may be sent after signing in: a path of its own area, else /account. */
export function accountRedirect(to: FormDataEntryValue | string | null | undefined): string {
	const path = safeRedirect(to, '/account')
	return /^\/account(?:[/?#]|$)/.test(path) && !path.startsWith('/account/login') ? path : '/account'
}

/** The signed-in institution, or a thrown redirect to /account/login that brings it back here. */
export async function requireInstitution(request: Request): Promise<InstitutionAccount> {
	const account = await getInstitution(request)
	if (account) return account
	const url = new URL(request.url)
	const redirectTo = accountRedirect(url.pathname + url.search)
	throw redirect(`/account/login?${new URLSearchParams({ redirectTo })}`)
}

// ---------------------------------------------------------------------------------------------
// The account's cases

/** The account's cases: its registration, and every case it started itself. */
const ownedBy = (db: Database, accountId: number): SQL =>
	or(eq(cases.accountId, accountId), inArray(cases.id, db.select({ id: institutionAccounts.registrationCaseId }).from(institutionAccounts).where(eq(institutionAccounts.id, accountId))))!

export interface AccountCase {
	id: string
	reference: string
	type: string
	status: number
	submittedAt: Date | null
	createdAt: Date
}

/** The account's registration and its own requests, newest first; never a deleted case. */
export async function accountCases(db: Database, accountId: number): Promise<AccountCase[]> {
	return db
		.select({ id: cases.id, reference: cases.reference, type: cases.type, status: cases.status, submittedAt: cases.submittedAt, createdAt: cases.createdAt })
		.from(cases)
		.where(and(isNull(cases.deletedAt), ownedBy(db, accountId)))
		.orderBy(desc(cases.createdAt), desc(cases.id))
}

/**
 * Starts a new application of `definition` for the account, with its private link (the case's
 * resume token). With the first section's answers, the case is started as every application is
 * (app/cases/case-store.server.ts `startCase`: validated, one open case per programme): the first
 * step of /apply/association-support/new saved by a signed-in institution. Without them it is an
 * empty draft named after the institution (the tests' quick draft; /account no longer makes one).
 */
export async function startAccountCase(db: Database, accountId: number, definition: ApplicationDef, firstAnswers?: unknown): Promise<{ row: CaseRow; token: string }> {
	const account = await findInstitutionAccount(db, accountId)
	if (!account?.active) throw new Error(`institution account ${accountId} is missing or inactive`)
	return startCase(db, definition, firstAnswers, { account: { id: account.id, name: account.name, mobile: account.mobile, email: account.email } })
}

/**
 * Opens one of the account's own cases: gives it a new private link and returns its token, or null
 * when the reference is not this account's (another institution's case, a deleted one, none at
 * all — the caller answers each with the same 404). Only the hash of a link is kept, so the link is
 * new each time and the one before stops working.
 */
export async function openAccountCase(db: Database, accountId: number, reference: string): Promise<string | null> {
	const normalised = normaliseReference(reference)
	if (!normalised) return null
	const token = newResumeToken()
	const [row] = await db
		.update(cases)
		.set({ resumeTokenHash: hashResumeToken(token) })
		.where(and(eq(cases.reference, normalised), isNull(cases.deletedAt), ownedBy(db, accountId)))
		.returning({ id: cases.id })
	return row ? token : null
}

/**
 * Deletes one of the account's own drafts, never sent (so never its registration, which was): the
 * case leaves the account's list and its private link stops working. True when it did; any other
 * reference — sent, another account's, already deleted — changes nothing.
 */
export async function deleteAccountDraft(db: Database, accountId: number, reference: string): Promise<boolean> {
	const normalised = normaliseReference(reference)
	if (!normalised) return false
	return db.transaction(async (tx) => {
		const [row] = await tx
			.update(cases)
			.set({ deletedAt: sql`now()`, deletedReason: draftDeletedNote, updatedAt: sql`now()` })
			.where(and(eq(cases.reference, normalised), eq(cases.accountId, accountId), isNull(cases.submittedAt), isNull(cases.deletedAt)))
			.returning({ id: cases.id })
		if (!row) return false
		await tx.insert(caseEvents).values({ caseId: row.id, kind: 'deleted', note: draftDeletedNote, data: { account: accountId } })
		return true
	})
}

const draftDeletedNote = 'حذفته المؤسسة من حسابها قبل إرساله'

/**
 * The answers an institution gave when it registered, all sections together (by field name): what
 * a new request started from its account is filled in with (`ApplicationDef.prefill`).
 */
export async function registrationAnswers(db: Database, accountId: number): Promise<Record<string, unknown>> {
	const [account] = await db.select({ caseId: institutionAccounts.registrationCaseId }).from(institutionAccounts).where(eq(institutionAccounts.id, accountId))
	if (!account?.caseId) return {}
	const { answers } = await loadSavedState(db, account.caseId)
	return Object.assign({}, ...Object.values(answers)) as Record<string, unknown>
}
