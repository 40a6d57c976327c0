// The public-page cache (docs/decisions/008-public-page-cache.md). A page that anyone without a
// session would get the same way — a listed route, no script to hydrate, status 200, no cookie set —
// is rendered once, compressed once with brotli and gzip, and kept with a strong ETag until content
// changes (app/cache/content-version.server.ts) or its time runs out. server.mjs answers a hit
// before Express and React Router see the request; a conditional request gets 304.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import type { MiddlewareFunction } from 'react-router'
import { getEnv } from '#app/utils/env.server.ts'
import { securityHeaders } from '#app/utils/security-headers.ts'
import { contentGeneration, isWatchingContent, onContentChange } from './content-version.server.ts'

/** Set by app/entry.server.tsx on a page the cache may keep; never sent to a client. */
export const CACHEABLE_HEADER = 'x-ataa-cacheable'
/** hit, miss (rendered and kept) or absent: for people and tests reading the headers. */
export const CACHE_STATUS_HEADER = 'x-ataa-cache'
/** Browsers keep the page but ask each time (a 304 costs a few bytes); the page varies with the session. */
const CACHE_CONTROL = 'public, max-age=0, must-revalidate'
const VARY = 'Accept-Encoding, Cookie'
/** Bounds: query strings are the visitor's to choose, so the cache must not grow with them. */
const MAX_PAGES = 1000
const MAX_BYTES = 48 * 1024 * 1024
/** Pages change with the day (an announcement's dates): none is kept past midnight in Riyadh, or 10 minutes. */
const MAX_AGE_MS = 10 * 60 * 1000
const RIYADH_OFFSET_MS = 3 * 60 * 60 * 1000
const DAY_MS = 24 * 60 * 60 * 1000

const brotli = promisify(zlib.brotliCompress)
const gzip = promisify(zlib.gzip)

type Encoding = 'br' | 'gzip' | 'identity'

interface CachedPage {
	generation: number
	expiresAt: number
	etag: string
	bytes: number
	bodies: Record<Encoding, Buffer>
	headers: Record<Encoding, Record<string, string>>
	notModified: Record<string, string>
}

const pages = new Map<string, CachedPage>()
let storedBytes = 0
onContentChange(() => clearPageCache())

export function clearPageCache(): void {
	pages.clear()
	storedBytes = 0
}

export function pageCacheSize(): { pages: number; bytes: number } {
	return { pages: pages.size, bytes: storedBytes }
}

function enabled(): boolean {
	return getEnv().HTML_CACHE === 'on' && isWatchingContent()
}

/** True when the request carries none of our cookies: a session, an institution's, a flash message. */
export function isAnonymous(cookieHeader: string | null | undefined): boolean {
	return !cookieHeader || !/(?:^|;)\s*(?:__Host-)?ataa_/.test(cookieHeader)
}

/** The cache's key: the path and query as the client sent them. */
function keyOf(url: string): string {
	return url
}

/** The encoding to send: brotli, then gzip, when the client accepts it (a q=0 refuses). */
export function negotiateEncoding(header: string | undefined): Encoding {
	if (!header) return 'identity'
	let best: Encoding = 'identity'
	for (const part of header.split(',')) {
		const [name = '', ...params] = part.trim().toLowerCase().split(';')
		const refused = params.some((param) => /^\s*q\s*=\s*0(?:\.0*)?\s*$/.test(param))
		if (refused) continue
		if (name === 'br') return 'br'
		if (name === 'gzip' || (name === '*' && best === 'identity')) best = 'gzip'
	}
	return best
}

function matchesEtag(header: string | undefined, etag: string): boolean {
	if (!header) return false
	if (header.trim() === '*') return true
	return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
}

function expiryFrom(now: number): number {
	const nextRiyadhMidnight = Math.floor((now + RIYADH_OFFSET_MS) / DAY_MS + 1) * DAY_MS - RIYADH_OFFSET_MS
	return Math.min(now + MAX_AGE_MS, nextRiyadhMidnight)
}

function livePage(key: string): CachedPage | undefined {
	const page = pages.get(key)
	if (!page) return undefined
	if (page.generation !== contentGeneration() || page.expiresAt <= Date.now()) {
		pages.delete(key)
		storedBytes -= page.bytes
		return undefined
	}
	return page
}

/**
 * Answers a request from the cache when it can (server.mjs calls this first); false means the
 * request goes on to the app. Only GET and HEAD without our cookies are answered.
 */
export function serveCachedPage(req: IncomingMessage, res: ServerResponse): boolean {
	if ((req.method !== 'GET' && req.method !== 'HEAD') || !req.url || !isAnonymous(req.headers.cookie)) return false
	if (!enabled()) return false
	const page = livePage(keyOf(req.url))
	if (!page) return false
	if (matchesEtag(req.headers['if-none-match'], page.etag)) {
		res.writeHead(304, page.notModified)
		res.end()
		return true
	}
	const encoding = negotiateEncoding(req.headers['accept-encoding'])
	res.writeHead(200, page.headers[encoding])
	res.end(req.method === 'HEAD' ? undefined : page.bodies[encoding])
	return true
}

function store(key: string, page: CachedPage): void {
	const previous = pages.get(key)
	if (previous) {
		pages.delete(key)
		storedBytes -= previous.bytes
	}
	pages.set(key, page)
	storedBytes += page.bytes
	// Oldest first: Map keeps insertion order.
	for (const [oldKey, old] of pages) {
		if (pages.size <= MAX_PAGES && storedBytes <= MAX_BYTES) break
		pages.delete(oldKey)
		storedBytes -= old.bytes
	}
}

async function pageFrom(response: Response, path: string, generation: number): Promise<CachedPage> {
	const identity = Buffer.from(await response.arrayBuffer())
	const [br, gz] = await Promise.all([
		brotli(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
		gzip(identity, { level: 9 }),
	])
	const etag = `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`
	const common: Record<string, string> = {}
	response.headers.forEach((value, name) => {
		if (name !== 'content-length' && name !== 'content-encoding' && name !== CACHEABLE_HEADER) common[name] = value
	})
	Object.assign(common, { 'cache-control': CACHE_CONTROL, vary: VARY, etag, [CACHE_STATUS_HEADER]: 'hit' })
	const bodies = { br, gzip: gz, identity }
	// A hit is answered before Express adds these; the first answer goes through Express.
	const security = securityHeaders(path)
	const withBody = (encoding: Encoding) => ({
		...security,
		...common,
		...(encoding === 'identity' ? {} : { 'content-encoding': encoding }),
		'content-length': String(bodies[encoding].length),
	})
	return {
		generation,
		expiresAt: expiryFrom(Date.now()),
		etag,
		bytes: br.length + gz.length + identity.length,
		bodies,
		headers: { br: withBody('br'), gzip: withBody('gzip'), identity: withBody('identity') },
		notModified: { ...security, etag, 'cache-control': CACHE_CONTROL, vary: VARY, [CACHE_STATUS_HEADER]: 'hit' },
	}
}

/**
 * Root middleware: keeps a page app/entry.server.tsx marked as cacheable, and answers this first
 * request from what it kept (compressed already, so Express's compression leaves it alone).
 */
export const pageCacheMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
	const generation = contentGeneration()
	const response = await next()
	if (!response.headers.has(CACHEABLE_HEADER)) return response
	response.headers.delete(CACHEABLE_HEADER)
	if (request.method !== 'GET' || response.status !== 200 || response.headers.has('set-cookie') || !isAnonymous(request.headers.get('cookie')) || !enabled()) {
		return response
	}
	const url = new URL(request.url)
	const page = await pageFrom(response, url.pathname, generation)
	// Content changed while this page was drawn: it may show the old, so it is sent but not kept.
	if (page.generation === contentGeneration()) store(keyOf(url.pathname + url.search), page)
	const encoding = negotiateEncoding(request.headers.get('accept-encoding') ?? undefined)
	const headers = new Headers(page.headers[encoding])
	// Express adds these to what the app answers.
	for (const name of Object.keys(securityHeaders(url.pathname))) headers.delete(name)
	headers.set(CACHE_STATUS_HEADER, 'miss')
	return new Response(new Uint8Array(page.bodies[encoding]), { status: 200, headers })
}
