import type { IncomingMessage } from 'node:http'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Whether a request may change anything: safe methods always; any other only from our own origin
 * (or one configured in APP_ORIGIN). Browsers send Origin on every cross-site POST, so a forged form
 * from another site is refused here even before SameSite cookies come into play. A request with no
 * Origin and no Sec-Fetch-Site header is not from a browser and carries no visitor's cookies.
 */
export function isSameOriginRequest(request: Request, extraOrigins: readonly string[] = []): boolean {
	if (SAFE_METHODS.has(request.method.toUpperCase())) return true
	const origin = request.headers.get('Origin')
	if (origin === null) {
		const site = request.headers.get('Sec-Fetch-Site')
		return site === null || site === 'same-origin' || site === 'none'
	}
	return origin === new URL(request.url).origin || extraOrigins.includes(origin)
}

/** The visitor's address as our server saw it (set by server.mjs, which overwrites any sent value). */
export function clientIp(request: Request): string {
	return request.headers.get('x-ataa-client-ip') ?? 'unknown'
}

/**
 * The visitor's address for a request answered before Express (a page-cache hit), as Express's
 * `req.ip` gives it to the app (server.mjs): with TRUST_PROXY, the address the one proxy in front
 * saw (the last in X-Forwarded-For); without, the connection's.
 */
export function addressOf(req: Pick<IncomingMessage, 'headers' | 'socket'>, trustProxy: boolean): string {
	const forwarded = trustProxy ? req.headers['x-forwarded-for'] : undefined
	const last = (Array.isArray(forwarded) ? forwarded.join(',') : forwarded)?.split(',').at(-1)?.trim()
	return last || req.socket.remoteAddress || 'unknown'
}
