// Per-address limits on public form posts, for routes: the count lives in the database
// (app/utils/rate-limit.server.ts); this turns "limited" into an Arabic answer with Retry-After.
import { data } from 'react-router'
import { getDb } from '#app/db/database.server.ts'
import { tryAgainAfter } from '#app/utils/arabic-count.ts'
import { clientIp } from '#app/utils/origin.server.ts'
import { hit, type RateLimitRule } from '#app/utils/rate-limit.server.ts'

/** Public form posts per IP address: generous for a family on a shared mobile network, not for a bot. */
export const publicLimits = {
	start: { bucket: 'apply:start', limit: 20, windowSeconds: 60 * 60 },
	save: { bucket: 'apply:save', limit: 300, windowSeconds: 10 * 60 },
	lookup: { bucket: 'apply:lookup', limit: 10, windowSeconds: 10 * 60 },
} satisfies Record<string, RateLimitRule>

export interface IpLimited {
	/** What to tell the person: they tried too often, and when they may try again. */
	message: string
	headers: Record<string, string>
}

/** Counts this request; when the address has passed the limit, says so in Arabic (else null). */
export async function countIpHit(request: Request, rule: RateLimitRule): Promise<IpLimited | null> {
	const state = await hit(await getDb(), rule, clientIp(request))
	if (!state.limited) return null
	return {
		message: `محاولات كثيرة من جهازك. ${tryAgainAfter(state.retryAfter)}`,
		headers: { 'Retry-After': String(state.retryAfter) },
	}
}

/** As countIpHit, for routes with no form to show the message in: a thrown 429 page that says it. */
export async function limitByIp(request: Request, rule: RateLimitRule): Promise<void> {
	const limited = await countIpHit(request, rule)
	if (limited) throw data(limited.message, { status: 429, headers: limited.headers })
}
