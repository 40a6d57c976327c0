import { randomBytes, randomInt, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

// scrypt from node:crypto: memory-hard, no native add-on to build (docs/decisions/003). N=2^15, r=8,
// p=3 is one of the settings OWASP gives as equal to N=2^17, p=1, with a quarter of the memory
// (32 MB a hash): sign-ins are few, and small machines run this (docs/security.md#passwords).
export const PARAMS = { N: 2 ** 15, r: 8, p: 3 } as const
const KEY_LENGTH = 32

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
	const options: ScryptOptions = { ...params, maxmem: 128 * params.N * params.r * 2 }
	return new Promise((resolve, reject) => {
		scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) =>
			error ? reject(error) : resolve(key),
		)
	})
}

/** Returns `scrypt$N$r$p$salt$hash` (base64url parts). */
export async function hashPassword(password: string): Promise<string> {
	const salt = randomBytes(16)
	const key = await derive(password, salt, PARAMS)
	return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$')
}

/** Whether a stored hash was made with weaker settings than today's: it is made again at the next sign-in. */
export function needsRehash(stored: string): boolean {
	const [, n, r, p] = stored.split('$')
	return Number(n) < PARAMS.N || Number(r) < PARAMS.r || Number(p) < PARAMS.p
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
	const [scheme, n, r, p, salt, hash] = stored.split('$')
	if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false
	const expected = Buffer.from(hash, 'base64url')
	const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) })
	return actual.length === expected.length && timingSafeEqual(actual, expected)
}

/** A hash of nothing, verified when the e-mail is unknown so both failures take the same time. */
let dummyHash: Promise<string> | undefined
export function getDummyHash(): Promise<string> {
	dummyHash ??= hashPassword(randomBytes(16).toString('hex'))
	return dummyHash
}

/** A readable random password for first start and operator resets: 25 characters of 55, about 144 bits. */
export function generatePassword(): string {
	const alphabet = 'ABCDEFGHJKLMNPRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789'
	const chars = Array.from({ length: 25 }, () => alphabet[randomInt(alphabet.length)]).join('')
	return chars.match(/.{5}/g)!.join('-')
}
