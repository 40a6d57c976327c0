/** The one response our own pages frame: a case file's preview on the staff case view. */
const framedByUs = /^\/admin\/cases\/[^/]+\/files\/[^/]+$/

/**
 * Headers every response carries, whoever answers it: server.mjs for the app, the page cache for a
 * kept page. The Content-Security-Policy is the page's own (app/entry.server.tsx).
 */
export function securityHeaders(path: string): Record<string, string> {
	return {
		'X-Content-Type-Options': 'nosniff',
		'Referrer-Policy': 'strict-origin-when-cross-origin',
		'X-Frame-Options': framedByUs.test(path) ? 'SAMEORIGIN' : 'DENY',
		'Cross-Origin-Opener-Policy': 'same-origin',
		'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
	}
}
