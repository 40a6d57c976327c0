import helmet from 'helmet'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { getEnv } from './env.server.ts'

// The security headers of every response (docs/security.md#headers), from helmet, the maintained
// Express middleware: its set is taken once, as a plain map, so that a page the page cache answers
// before Express (app/cache/page-cache.server.ts) carries exactly the same headers.

/** The one response our own pages frame: a case file's preview on the staff case view. */
const framedByUs = /^\/admin\/cases\/[^/]+\/files\/[^/]+$/

/**
 * For anything that does not set its own policy (a page sets one with its nonce in app/entry.server.tsx,
 * a stored file a sandbox in app/storage/download.server.ts): nothing may run, load, frame or be framed.
 * server.mjs adds it as the headers are written, only when the answer has none: React Router's
 * adapter appends a route's headers, and two policies would both apply.
 */
export const FALLBACK_POLICY = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

const ONE_YEAR = 365 * 24 * 60 * 60

function helmetHeaders(hsts: boolean): Record<string, string> {
	const headers: Record<string, string> = {}
	const response = {
		setHeader: (name: string, value: string) => void (headers[name] = value),
		removeHeader: (name: string) => void delete headers[name],
	}
	helmet({
		// Each page's policy carries its own nonce or hashes (app/entry.server.tsx); the fallback is below.
		contentSecurityPolicy: false,
		// Only our own preview frames a case file: set per path below.
		xFrameOptions: false,
		referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
		// Over HTTPS only (COOKIE_SECURE, on in production): a year, as browsers' preload lists ask.
		strictTransportSecurity: hsts ? { maxAge: ONE_YEAR, includeSubDomains: true } : false,
	})({} as IncomingMessage, response as unknown as ServerResponse, () => {})
	return headers
}

let cached: { hsts: boolean; headers: Record<string, string> } | undefined

/**
 * Headers every response carries, whoever answers it: server.mjs for the app, the page cache for a
 * kept page. A route's own Content-Security-Policy or X-Frame-Options replaces these.
 */
export function securityHeaders(path: string): Record<string, string> {
	const hsts = getEnv().cookieSecure
	if (cached?.hsts !== hsts) cached = { hsts, headers: helmetHeaders(hsts) }
	return {
		...cached.headers,
		'X-Frame-Options': framedByUs.test(path) ? 'SAMEORIGIN' : 'DENY',
		'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
	}
}
