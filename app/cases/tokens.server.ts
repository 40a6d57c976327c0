import { publicOrigin } from '#app/utils/env.server.ts'
import { createHash, randomBytes, randomInt } from 'node:crypto'

/** No I, O, Q, Z, 0 or 1: a reference read over the phone cannot be misheard (alphagov). */
export const REFERENCE_ALPHABET = 'ABCDEFGHJKLMNPRSTUVWXY23456789'

/** A short public reference such as «K7M2-PX4R». */
export function newReference(): string {
	const pick = () => REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)]
	return `${Array.from({ length: 4 }, pick).join('')}-${Array.from({ length: 4 }, pick).join('')}`
}

/** Accepts a reference as typed (lower case, spaces, no dash) and gives the stored form, or null. */
export function normaliseReference(input: string): string | null {
	const compact = input.toUpperCase().replace(/[\s-]/g, '')
	if (compact.length !== 8 || [...compact].some((c) => !REFERENCE_ALPHABET.includes(c))) return null
	return `${compact.slice(0, 4)}-${compact.slice(4)}`
}

/**
 * The first characters of a reference as typed («bhcg», «BHCG-7K»), in its stored form, or null:
 * from 3 characters (fewer match too many cases to be a search) to 7 (8 is the whole reference).
 */
export function referencePrefix(input: string): string | null {
	const compact = input.toUpperCase().replace(/[\s-]/g, '')
	if (compact.length < 3 || compact.length > 7 || [...compact].some((c) => !REFERENCE_ALPHABET.includes(c))) return null
	return compact.length > 4 ? `${compact.slice(0, 4)}-${compact.slice(4)}` : compact
}

/** The applicant's private resume token (256 random bits); only its hash is stored. */
export function newResumeToken(): string {
	return randomBytes(32).toString('base64url')
}

export function hashResumeToken(token: string): string {
	return createHash('sha256').update(token).digest('hex')
}

export function isWellFormedToken(token: string): boolean {
	return /^[A-Za-z0-9_-]{43}$/.test(token)
}

/** The applicant's private link on this site's public origin, for a token (shown once, or sent by e-mail or SMS). */
export const privateLink = (token: string) => `${publicOrigin()}/apply/r/${token}`
