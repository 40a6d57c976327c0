// What a browser has proven with a code (docs/security.md#verified-mobile), in signed HttpOnly
// cookies: the cases it may open (30 days), the lookup it may read (15 minutes), the institution
// whose password it gave and whose code it is asked for (10 minutes). Signed with a key kept in the
// database, so every instance reads them.
import { createCookie, type Cookie } from 'react-router'
import { z } from 'zod'
import { appSecret } from '#app/db/app-secrets.server.ts'
import type { Database } from '#app/db/client.server.ts'
import { getEnv } from '#app/utils/env.server.ts'

export const REMEMBER_DAYS = 30
const LOOKUP_MINUTES = 15
const ACCOUNT_MINUTES = 10
/** A browser remembers this many cases (a mother following her own and her father's). */
const MOST_CASES = 10

async function cookie(db: Database, name: string, maxAge: number): Promise<Cookie> {
	const secure = getEnv().cookieSecure
	// `__Host-` pins it to our host when it can be Secure, as the session cookie.
	return createCookie(secure ? `__Host-${name}` : name, { httpOnly: true, sameSite: 'lax', path: '/', secure, maxAge, secrets: [await appSecret(db, 'verify-cookie')] })
}

const casesValue = z.array(z.tuple([z.string(), z.number()])).catch([])

async function rememberedCases(db: Database, request: Request) {
	const jar = await cookie(db, 'ataa_verified', REMEMBER_DAYS * 24 * 60 * 60)
	return { jar, entries: casesValue.parse(await jar.parse(request.headers.get('Cookie'))) }
}

/**
 * Whether this browser proved the case's mobile within 30 days, and since the mobile was last
 * proven: staff changing the mobile forgets every browser remembered for the old one.
 */
export async function isRemembered(db: Database, request: Request, row: { id: string; mobileVerifiedAt: Date | null }, now = Date.now()): Promise<boolean> {
	if (!row.mobileVerifiedAt) return false
	const { entries } = await rememberedCases(db, request)
	const since = Math.floor(row.mobileVerifiedAt.getTime() / 1000)
	return entries.some(([caseId, at]) => caseId === row.id && at >= since && (at + REMEMBER_DAYS * 86_400) * 1000 > now)
}

/** The Set-Cookie that remembers this browser for `caseId` from now. */
export async function rememberCase(db: Database, request: Request, caseId: string, now = Date.now()): Promise<string> {
	const { jar, entries } = await rememberedCases(db, request)
	const at = Math.floor(now / 1000)
	const kept = entries.filter(([id, issued]) => id !== caseId && (issued + REMEMBER_DAYS * 86_400) * 1000 > now)
	return jar.serialize([...kept.slice(-(MOST_CASES - 1)), [caseId, at]])
}

const proofValue = z.object({ subject: z.string(), until: z.number() }).nullable().catch(null)

/** The lookup this browser proved with a code, for a quarter of an hour (its «send me my link» and «open» after). */
export async function provenLookup(db: Database, request: Request, subject: string, now = Date.now()): Promise<boolean> {
	const jar = await cookie(db, 'ataa_lookup', LOOKUP_MINUTES * 60)
	const proof = proofValue.parse(await jar.parse(request.headers.get('Cookie')))
	return Boolean(proof && proof.subject === subject && proof.until > now)
}

export async function proveLookup(db: Database, subject: string, now = Date.now()): Promise<string> {
	return (await cookie(db, 'ataa_lookup', LOOKUP_MINUTES * 60)).serialize({ subject, until: now + LOOKUP_MINUTES * 60_000 })
}

/** The institution whose password this browser gave and who is asked for its code. */
export async function pendingAccount(db: Database, request: Request, now = Date.now()): Promise<number | null> {
	const jar = await cookie(db, 'ataa_account_code', ACCOUNT_MINUTES * 60)
	const proof = proofValue.parse(await jar.parse(request.headers.get('Cookie')))
	return proof && proof.until > now && /^\d+$/.test(proof.subject) ? Number(proof.subject) : null
}

export async function setPendingAccount(db: Database, accountId: number | null, now = Date.now()): Promise<string> {
	const jar = await cookie(db, 'ataa_account_code', ACCOUNT_MINUTES * 60)
	return accountId === null ? jar.serialize(null, { maxAge: 0 }) : jar.serialize({ subject: String(accountId), until: now + ACCOUNT_MINUTES * 60_000 })
}
