import { and, asc, count, eq, isNull, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { isUniqueViolation } from '#app/db/errors.ts'
import { users, type UserRole } from '#app/db/schema.ts'
import { userRoles } from '#app/db/roles.ts'
import { hashPassword } from '#app/utils/password.server.ts'

export type User = typeof users.$inferSelect
/** A user as every screen may see them: no password hash, no authenticator key. */
export type PublicUser = Omit<User, 'passwordHash' | 'totpSecret' | 'totpLastStep'> & { twoStep: boolean }


export const normaliseEmail = (email: string) => email.trim().toLowerCase()

/** Every column but the password hash. */
export const publicColumns = {
	id: users.id,
	name: users.name,
	email: users.email,
	mobile: users.mobile,
	roles: users.roles,
	active: users.active,
	lastSignInAt: users.lastSignInAt,
	deletedAt: users.deletedAt,
	mustChangePassword: users.mustChangePassword,
	/** Signs in with an authenticator app's code after the password. */
	twoStep: sql<boolean>`${users.totpSecret} is not null`.as('two_step'),
	createdAt: users.createdAt,
	updatedAt: users.updatedAt,
}

/** Users deleted from the users screen are kept (the audit trail and case history name them) but found by nothing else. */
const notDeleted = isNull(users.deletedAt)

export async function findUserByEmail(db: Database, email: string): Promise<User | undefined> {
	const [user] = await db
		.select()
		.from(users)
		.where(and(eq(users.email, normaliseEmail(email)), notDeleted))
	return user
}

export async function getUser(db: Database, id: number): Promise<PublicUser | undefined> {
	const [user] = await db
		.select(publicColumns)
		.from(users)
		.where(and(eq(users.id, id), notDeleted))
	return user
}

/** Staff who can sign in: active and not deleted (the demo's committee and finance staff are neither). */
export async function countActiveUsers(db: Database): Promise<number> {
	const [row] = await db
		.select({ value: count() })
		.from(users)
		.where(and(notDeleted, eq(users.active, true)))
	return row?.value ?? 0
}

export async function countUsers(db: Database): Promise<number> {
	const [row] = await db.select({ value: count() }).from(users).where(notDeleted)
	return row?.value ?? 0
}

export async function listUsers(db: Database, options: { offset: number; limit: number }) {
	const [total, rows] = await Promise.all([
		countUsers(db),
		db.select(publicColumns).from(users).where(notDeleted).orderBy(asc(users.id)).offset(options.offset).limit(options.limit),
	])
	return { total, rows }
}

/** Deletes a user from the users screen: gone from every list and sign-in, kept for the history that names them. */
export async function softDeleteUser(db: Database, id: number): Promise<void> {
	await db.update(users).set({ deletedAt: sql`now()`, active: false, totpSecret: null, updatedAt: sql`now()` }).where(and(eq(users.id, id), notDeleted))
}

export class DuplicateEmailError extends Error {}

export interface NewUser {
	name: string
	email: string
	mobile: string
	roles: readonly UserRole[]
	password: string
	active?: boolean
	/** The password is someone else's choice, for the first sign-in only (ASVS 6.4.1). */
	temporary?: boolean
}

/** A user's roles as stored: each once, in the list's order, at least one. */
function ownRoles(roles: readonly UserRole[]): UserRole[] {
	const own = userRoles.filter((role) => roles.includes(role))
	if (!own.length) throw new Error('a user holds at least one role')
	return own
}

export async function createUser(db: Database, input: NewUser): Promise<PublicUser> {
	const passwordHash = await hashPassword(input.password)
	try {
		const [user] = await db
			.insert(users)
			.values({
				name: input.name.trim(),
				email: normaliseEmail(input.email),
				mobile: input.mobile,
				roles: ownRoles(input.roles),
				active: input.active ?? true,
				mustChangePassword: input.temporary ?? false,
				passwordHash,
			})
			.returning(publicColumns)
		return user!
	} catch (error) {
		if (isUniqueViolation(error)) throw new DuplicateEmailError(input.email)
		throw error
	}
}

export interface UserChanges {
	name: string
	email: string
	mobile: string
	roles: readonly UserRole[]
	active: boolean
	/** A new password, or undefined to keep the current one. */
	password?: string
}

export async function updateUser(db: Database, id: number, changes: UserChanges): Promise<PublicUser | undefined> {
	const { password, ...rest } = changes
	const values = {
		...rest,
		roles: ownRoles(rest.roles),
		name: rest.name.trim(),
		email: normaliseEmail(rest.email),
		updatedAt: sql`now()`,
		// A password an admin sets for someone else is for their next sign-in only.
		...(password ? { passwordHash: await hashPassword(password), mustChangePassword: true } : {}),
	}
	try {
		const [user] = await db.update(users).set(values).where(eq(users.id, id)).returning(publicColumns)
		return user
	} catch (error) {
		if (isUniqueViolation(error)) throw new DuplicateEmailError(changes.email)
		throw error
	}
}

/** A new password: the user's own choice (`temporary: false`), or one set for them, to be changed at their next sign-in. */
export async function setPassword(db: Database, id: number, password: string, options: { temporary: boolean }): Promise<void> {
	await db
		.update(users)
		.set({ passwordHash: await hashPassword(password), mustChangePassword: options.temporary, updatedAt: sql`now()` })
		.where(eq(users.id, id))
}

export async function setActive(db: Database, id: number, active: boolean): Promise<void> {
	await db.update(users).set({ active, updatedAt: sql`now()` }).where(eq(users.id, id))
}

/** Active admins other than `exceptId`: the last one may not be demoted or deactivated. */
export async function countOtherActiveAdmins(db: Database, exceptId: number): Promise<number> {
	const [row] = await db
		.select({ value: count() })
		.from(users)
		.where(sql`'admin' = any(${users.roles}) and ${users.active} and ${users.deletedAt} is null and ${users.id} <> ${exceptId}`)
	return row?.value ?? 0
}

/** The stored hash, for checking the current password before a change the user makes to their own account. */
export async function passwordHashOf(db: Database, id: number): Promise<string | undefined> {
	const [row] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, id))
	return row?.hash
}
