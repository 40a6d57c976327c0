import { describe, expect, test } from 'vitest'
import { generatePassword, hashPassword, needsRehash, verifyPassword } from '#app/utils/password.server.ts'
import { isCommonPassword } from '#app/utils/common-passwords.server.ts'

describe('passwords', () => {
	test('a hash verifies its password and nothing else, and never contains it', async () => {
		const hash = await hashPassword('Kareem-Pass-1')
		expect(hash).toMatch(/^scrypt\$32768\$8\$3\$[\w-]+\$[\w-]+$/)
		expect(hash).not.toContain('Kareem-Pass-1')
		expect(await verifyPassword('Kareem-Pass-1', hash)).toBe(true)
		expect(await verifyPassword('kareem-pass-1', hash)).toBe(false)
		expect(await verifyPassword('', hash)).toBe(false)
	})

	test('the same password hashes differently each time (salted)', async () => {
		expect(await hashPassword('Same-Pass-1')).not.toBe(await hashPassword('Same-Pass-1'))
	})

	test('a malformed or foreign stored value never verifies', async () => {
		expect(await verifyPassword('x', 'plain-text')).toBe(false)
		expect(await verifyPassword('x', 'bcrypt$2b$10$abc')).toBe(false)
	})

	test('generated passwords are long, not common, and differ', () => {
		const passwords = Array.from({ length: 50 }, generatePassword)
		for (const password of passwords) {
			expect(password).toMatch(/^[A-Za-z2-9]{5}(-[A-Za-z2-9]{5}){4}$/)
			expect(isCommonPassword(password)).toBe(false)
		}
		expect(new Set(passwords).size).toBe(50)
	})

	test('a hash made with weaker settings than today’s is marked to be made again; a current one is not', async () => {
		expect(needsRehash('scrypt$32768$8$1$c2FsdA$a2V5')).toBe(true)
		expect(needsRehash('scrypt$16384$8$3$c2FsdA$a2V5')).toBe(true)
		expect(needsRehash(await hashPassword('Current-Pass-2026'))).toBe(false)
	})
})
