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
