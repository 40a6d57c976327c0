import { describe, expect, test } from 'vitest'
import { commonPasswords } from '../../scripts/common-passwords.mjs'
import { commonPasswordCount, hasContextWord, isCommonPassword, passwordRefusal } from '#app/utils/common-passwords.server.ts'

describe('common and leaked passwords', () => {
	test('the shipped list is the 10,000 most common of the package it comes from', () => {
		expect(commonPasswordCount()).toBe(10_000)
		for (const password of commonPasswords().filter((_, index) => index % 97 === 0)) expect(isCommonPassword(password), password).toBe(true)
	})

	test.each([
		['123qweasdzxc', 'on the list'],
		['QWERTY123456', 'on the list, in capitals'],
		['Password2024!', 'a listed word with digits and a sign after it'],
		['!!Sunshine1234', 'and before it'],
		['qwertyqwerty', 'a listed word twice'],
		['abcabcabcabc', 'three letters over and over'],
		['111111111111', 'one digit over and over'],
	])('%s is refused (%s)', (password) => {
		expect(isCommonPassword(password)).toBe(true)
	})

	test.each(['correct horse battery staple', 'شاي الصباح على سطح بيت جدتي', 'Riyadh-Rain-Tuesday-42', 'tabouleh-and-kabsa'])('a passphrase of its own is accepted: %s', (password) => {
		expect(isCommonPassword(password)).toBe(false)
	})

	test('a password built on the site’s name or the account’s own words is refused; others are not', () => {
		expect(hasContextWord('Ataa-Staff-2026!')).toBe(true)
		expect(hasContextWord('مؤسسة عطاء الخيرية ١٤٤٧')).toBe(true)
		expect(hasContextWord('khalid.s-likes-tea', ['khalid.s@example.org'])).toBe(true)
		expect(hasContextWord('my-own-long-phrase', ['khalid.s@example.org', undefined])).toBe(false)
		// Words under four letters are too common to refuse on.
		expect(hasContextWord('ali-has-a-long-phrase', ['ali@example.org'])).toBe(false)
		expect(passwordRefusal('Ataa-Staff-2026!')).toBe('كلمة المرور تحتوي على اسم الموقع أو اسم المستخدم أو بريدك الإلكتروني، فيسهل تخمينها. اختر عبارة لا تحتويها.')
		expect(passwordRefusal('qwerty123456')).toContain('شائعة أو مسرّبة')
		expect(passwordRefusal('tea at the rooftop at dusk')).toBeNull()
	})
})
