import list from '#app/utils/common-passwords.ts'
import { passwordHasContext, passwordTooCommon } from '#app/text/messages.ts'

// The 10,000 most common passwords of leaked-password corpora (scripts/common-passwords.mjs writes
// the file). Only the server reads it: a page never carries the list.
let common: Set<string> | undefined
const commonSet = () => (common ??= new Set(list.split('\n').filter(Boolean)))

/** A short piece said again and again: «abcabcabcabc», «passwordpassword». */
const repeatedUnit = (value: string) => /^(.{1,8}?)\1+$/u.exec(value)?.[1]

/**
 * Whether a password is one an attacker tries first: on the list as it is, or once dressed up with
 * digits or signs at either end («Password2024!»), or one short piece repeated («qwertyqwerty»).
 */
export function isCommonPassword(password: string): boolean {
	const set = commonSet()
	const lower = password.normalize('NFKC').toLowerCase()
	const core = lower.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '')
	const unit = repeatedUnit(lower)
	return set.has(lower) || (core.length >= 4 && set.has(core)) || (unit !== undefined && (unit.length <= 3 || set.has(unit)))
}

/** Words of this site an attacker tries with a password: its name, in both scripts. */
const siteWords = ['ataa', 'عطاء']

/**
 * Whether a password is built on a word of this site or of the account (the e-mail's name before
 * the @, a user name): «Ataa-2026-staff», «khalid.s-pass-1» for khalid.s@…. Words under 4 letters
 * are not looked for.
 */
export function hasContextWord(password: string, accountWords: readonly (string | undefined)[] = []): boolean {
	const lower = password.normalize('NFKC').toLowerCase()
	const words = [...siteWords, ...accountWords.map((word) => word?.split('@')[0]?.toLowerCase())].filter((word): word is string => Boolean(word && word.length >= 4))
	return words.some((word) => lower.includes(word))
}

/** The server's refusal of a new password, or null: on the list of common ones, or built on the site's or the account's own words. */
export function passwordRefusal(password: string, accountWords: readonly (string | undefined)[] = []): string | null {
	if (isCommonPassword(password)) return passwordTooCommon
	if (hasContextWord(password, accountWords)) return passwordHasContext
	return null
}

/** How many entries the list holds (for the tests and docs/security.md). */
export const commonPasswordCount = () => commonSet().size
