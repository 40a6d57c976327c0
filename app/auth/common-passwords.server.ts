import list from './common-passwords.txt?raw'

// The 10,000 most common passwords of leaked-password corpora (scripts/common-passwords.mjs writes
// the file). Only the server reads it: a page never carries the list.
let common: Set<string> | undefined
const commonSet = () => (common ??= new Set(list.split('\n').filter((line) => line && !line.startsWith('#'))))

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

/** How many entries the list holds (for the tests and docs/security.md). */
export const commonPasswordCount = () => commonSet().size
