import { describe, expect, test } from 'vitest'
import { generatePassword, hashPassword, verifyPassword } from './password.server.ts'

describe('passwords', () => {
	test('a hash verifies its password and nothing else, and never contains it', async () => {
		const hash = await hashPassword('Kareem-Pass-1')
		expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/)
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

	test('generated passwords meet the staff password rules and differ', () => {
		const passwords = Array.from({ length: 50 }, generatePassword)
		for (const password of passwords) {
			expect(password).toMatch(/^[A-Za-z2-9]{5}(-[A-Za-z2-9]{5}){3}$/)
			expect(password).toMatch(/[A-Z]/)
			expect(password).toMatch(/[a-z]/)
			expect(password).toMatch(/\d/)
		}
		expect(new Set(passwords).size).toBe(50)
	})
})
