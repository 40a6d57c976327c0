import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { eq } from 'drizzle-orm'
import type { DatabaseHandle } from '#app/db/client.server.ts'
import { users } from '#app/db/schema.ts'
import { verifyPassword } from '#app/utils/password.server.ts'
import { createTestDatabase } from '#tests/db.ts'
import { countOtherActiveAdmins, createUser, DuplicateEmailError, listUsers, updateUser } from '#app/domain/staff-users.server.ts'

let handle: DatabaseHandle
beforeAll(async () => {
	handle = await createTestDatabase()
})
afterAll(() => handle.close())

const base = { name: 'خالد القحطاني', mobile: '+966501112233', roles: ['content_editor'] as const, password: 'Secret-Pass-1' }

describe('users', () => {
	test('a new user is stored with a lower-case e-mail and a hash, never the password', async () => {
		const user = await createUser(handle.db, { ...base, email: 'Khalid@Example.org' })
		expect(user.email).toBe('khalid@example.org')
		expect(user).not.toHaveProperty('passwordHash')
		const [row] = await handle.db.select().from(users).where(eq(users.id, user.id))
		expect(row!.passwordHash).not.toContain('Secret-Pass-1')
		expect(await verifyPassword('Secret-Pass-1', row!.passwordHash)).toBe(true)
		expect(await verifyPassword('secret-pass-1', row!.passwordHash)).toBe(false)
	})

	test('a second user with the same e-mail in another letter case is refused', async () => {
		await expect(createUser(handle.db, { ...base, email: 'KHALID@example.org' })).rejects.toBeInstanceOf(DuplicateEmailError)
	})

	test('updating keeps the password unless a new one is given', async () => {
		const user = await createUser(handle.db, { ...base, email: 'noura@example.org' })
		await updateUser(handle.db, user.id, { name: 'نورة', email: 'noura@example.org', mobile: '', roles: ['admin'], active: true })
		let [row] = await handle.db.select().from(users).where(eq(users.id, user.id))
		expect(row!.roles).toEqual(['admin'])
		expect(await verifyPassword('Secret-Pass-1', row!.passwordHash)).toBe(true)
		await updateUser(handle.db, user.id, { name: 'نورة', email: 'noura@example.org', mobile: '', roles: ['admin'], active: true, password: 'New-Pass-22' })
		;[row] = await handle.db.select().from(users).where(eq(users.id, user.id))
		expect(await verifyPassword('New-Pass-22', row!.passwordHash)).toBe(true)
		await expect(
			updateUser(handle.db, user.id, { name: 'نورة', email: 'khalid@example.org', mobile: '', roles: ['admin'], active: true }),
		).rejects.toBeInstanceOf(DuplicateEmailError)
	})

	test('lists page through users in order and counts other active admins', async () => {
		const { total, rows } = await listUsers(handle.db, { offset: 0, limit: 1 })
		expect(total).toBe(2)
		expect(rows).toHaveLength(1)
		expect(rows[0]!.email).toBe('khalid@example.org')
		const noura = (await listUsers(handle.db, { offset: 1, limit: 5 })).rows[0]!
		expect(await countOtherActiveAdmins(handle.db, noura.id)).toBe(0)
	})
})
