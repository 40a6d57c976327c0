// Limits on public form posts, for routes: the counts live in the database
// (app/http/rate-limit.server.ts); this turns "limited" into an Arabic answer with Retry-After.
// Each limit sits where the abuse is: the national ID, mobile or e-mail a request is about, or its
// private link. Many families share one address (a carrier's NAT, a charity office), so the
// per-address limits are only ceilings that a crowd of real applicants does not reach
// (docs/security.md#rate-limits).
import { data } from 'react-router'
import type { Database } from '#app/db/client.server.ts'
import { getDb } from '#app/db/database.server.ts'
import { tryAgainAfter } from '#app/text/arabic-count.ts'
import { clientIp } from '#app/utils/origin.server.ts'
import { hit, peek, type RateLimitRule } from '#app/http/rate-limit.server.ts'

const HOUR = 60 * 60
const DAY = 24 * HOUR

export const publicLimits = {
	/** Every first-step post from one address (refused ones too): a ceiling, 300 families an hour stay far below it. */
	start: { bucket: 'apply:start', limit: 1000, windowSeconds: HOUR },
	/** New drafts per national ID (or licence number) a day: counted only when a draft is made. */
	startPerId: { bucket: 'apply:start:id', limit: 5, windowSeconds: DAY },
	/**
	 * New drafts per e-mail a day: each one e-mails its link, so a stranger's inbox cannot be flooded.
	 * High enough for a charity office that gives its own address for the families it helps. No
	 * limit per mobile here, as an office's one phone serves many families: the code a start sends
	 * to the mobile (where codes are on) is bounded by the codes' own limits per mobile
	 * (app/verify/codes.server.ts), and a draft is made even when they refuse the SMS.
	 */
	startPerEmail: { bucket: 'apply:start:email', limit: 30, windowSeconds: DAY },
	/** Every later post (steps, consent, files, sending) from one address: a ceiling. */
	save: { bucket: 'apply:save', limit: 6000, windowSeconds: HOUR },
	/** Posts on one private link: a family fills its form in far fewer. */
	savePerLink: { bucket: 'apply:save:link', limit: 300, windowSeconds: HOUR },
	/** Lookups from one address: a ceiling. */
	lookup: { bucket: 'apply:lookup', limit: 600, windowSeconds: HOUR },
	/** Lookups per national ID (or licence number) and per mobile: guessing the other half needs thousands. */
	lookupPerId: { bucket: 'apply:lookup:id', limit: 10, windowSeconds: HOUR },
	lookupPerMobile: { bucket: 'apply:lookup:mobile', limit: 10, windowSeconds: HOUR },
} satisfies Record<string, RateLimitRule>

export interface IpLimited {
	/** What to tell the person: they tried too often, and when they may try again. */
	message: string
	headers: Record<string, string>
}

/** One limit on one thing a request is about: its rule, the value counted, and what to say when it is reached. */
export interface LimitCheck {
	rule: RateLimitRule
	key: string
	/** Why, in Arabic; «حاول مرة أخرى بعد …» is added. */
	reason: string
}

const limitedAnswer = (reason: string, retryAfter: number): IpLimited => ({
	message: `${reason} ${tryAgainAfter(retryAfter)}`,
	headers: { 'Retry-After': String(retryAfter) },
})

/** Counts one hit on each check (empty keys are skipped); the first one past its limit is the answer, else null. */
export async function countHits(db: Database, checks: readonly LimitCheck[]): Promise<IpLimited | null> {
	const counted = checks.filter((check) => check.key)
	const states = await Promise.all(counted.map((check) => hit(db, check.rule, check.key)))
	const index = states.findIndex((state) => state.limited)
	return index === -1 ? null : limitedAnswer(counted[index]!.reason, states[index]!.retryAfter)
}

/** Whether any check has already reached its limit, without counting (for what is counted only once it is done). */
export async function reachedLimit(db: Database, checks: readonly LimitCheck[]): Promise<IpLimited | null> {
	const counted = checks.filter((check) => check.key)
	const states = await Promise.all(counted.map((check) => peek(db, check.rule, check.key)))
	const index = states.findIndex((state) => state.limited)
	return index === -1 ? null : limitedAnswer(counted[index]!.reason, states[index]!.retryAfter)
}

/** Counts once each check, for what was done (a draft made): nothing is refused here. */
export async function countDone(db: Database, checks: readonly LimitCheck[]): Promise<void> {
	await Promise.all(checks.filter((check) => check.key).map((check) => hit(db, check.rule, check.key)))
}

/** The per-address ceiling of `rule` for this request's address (as server.mjs derived it). */
export const addressCheck = (request: Request, rule: RateLimitRule): LimitCheck => ({
	rule,
	key: clientIp(request),
	reason: 'محاولات كثيرة جداً من عنوان اتصالك بالإنترنت.',
})

/** As countHits, for routes with no form to show the message in: a thrown 429 page that says it. */
export async function limitOrThrow(checks: readonly LimitCheck[]): Promise<void> {
	const limited = await countHits(await getDb(), checks)
	if (limited) throw data(limited.message, { status: 429, headers: limited.headers })
}

/** As countIpHit, for routes with no form to show the message in: a thrown 429 page that says it. */
export async function limitByIp(request: Request, rule: RateLimitRule): Promise<void> {
	await limitOrThrow([addressCheck(request, rule)])
}
