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
import { addressOf, clientIp } from '#app/utils/origin.server.ts'
import { securityHeaders } from '#app/utils/security-headers.ts'
import { contentGeneration, isWatchingContent, onContentChange } from './content-version.server.ts'

/** Set by app/entry.server.tsx on a page the cache may keep; never sent to a client. */
export const CACHEABLE_HEADER = 'x-ataa-cacheable'
/**
 * Set by a page whose visits are counted (a news item: app/content/views.server.ts) to the tag the
 * count goes by; never sent to a client. The page is kept all the same, and each visit, a hit
 * included, is handed to the listener (onPageView).
 */
export const VIEW_HEADER = 'x-ataa-view'
/** hit, miss (rendered and kept) or absent: for people and tests reading the headers. */
export const CACHE_STATUS_HEADER = 'x-ataa-cache'
/** Browsers keep the page but ask each time (a 304 costs a few bytes); the page varies with the session. */
const CACHE_CONTROL = 'public, max-age=0, must-revalidate'
const VARY = 'Accept-Encoding, Cookie'
/** Bounds: query strings are the visitor's to choose, so the cache must not grow with them. */
const MAX_PAGES = 1000
const MAX_BYTES = 48 * 1024 * 1024
/**
 * The query parameters public pages read (a page of a list, a news search and month, where to go
 * after signing in). A URL with any other is answered but not kept: a made-up query string must
 * not cost a compression or push a real page out.
 */
const KEPT_PARAMETERS = new Set(['page', 'q', 'month', 'redirectTo'])
/** Kept pages are compressed at once at these levels: close to the best, at a few milliseconds a page. */
const BROTLI_QUALITY = 9
const GZIP_LEVEL = 9
/** Pages change with the day (an announcement's dates): none is kept past midnight in Riyadh, or 10 minutes. */
const MAX_AGE_MS = 10 * 60 * 1000
const RIYADH_OFFSET_MS = 3 * 60 * 60 * 1000
const DAY_MS = 24 * 60 * 60 * 1000

const brotli = promisify(zlib.brotliCompress)
const gzip = promisify(zlib.gzip)

type Encoding = 'br' | 'gzip' | 'identity'
const encodings: readonly Encoding[] = ['br', 'gzip', 'identity']

interface CachedPage {
	generation: number
	/** The view tag of a page whose visits are counted (VIEW_HEADER). */
	view: string | null
	expiresAt: number
	/** The page's validator; each encoding's ETag adds its own suffix (a strong ETag names one representation). */
	tag: string
	bytes: number
	bodies: Record<Encoding, Buffer>
	headers: Record<Encoding, Record<string, string>>
	notModified: Record<Encoding, Record<string, string>>
}

const pages = new Map<string, CachedPage>()
let storedBytes = 0
type ViewListener = (tag: string, address: string, userAgent: string) => void
let viewListener: ViewListener | undefined

/** Who hears of each visit to a page that counts its visits (start-up: app/bootstrap.server.ts). */
export function onPageView(listener: ViewListener | undefined): void {
	viewListener = listener
}
onContentChange('page-cache', () => clearPageCache())

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

/**
 * The cache's key for a path and query: the path as the router resolves it (dot segments gone), and
 * the query's kept parameters in a fixed order; null when the query has any other parameter.
 */
export function cacheKey(pathAndQuery: string): string | null {
	let url: URL
	try {
		url = new URL(pathAndQuery, 'http://cache.invalid')
	} catch {
		return null
	}
	if (url.origin !== 'http://cache.invalid') return null
	if (!url.search) return url.pathname
	const parameters = [...url.searchParams]
	if (parameters.some(([name]) => !KEPT_PARAMETERS.has(name))) return null
	parameters.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
	return `${url.pathname}?${new URLSearchParams(parameters)}`
}

/** The weight the client gives each coding (RFC 9110, section 12.5.3); `*` stands for any not named. */
export function negotiateEncoding(header: string | undefined): Encoding {
	if (!header) return 'identity'
	const weights = new Map<string, number>()
	for (const part of header.split(',')) {
		const [name = '', ...params] = part.trim().toLowerCase().split(';')
		const q = params.map((param) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean)
		weights.set(name.trim(), q === undefined ? 1 : Number(q) || 0)
	}
	const weight = (name: string) => weights.get(name) ?? weights.get('*') ?? 0
	const br = weight('br')
	const gzip = weight('gzip')
	if (br > 0 && br >= gzip) return 'br'
	if (gzip > 0) return 'gzip'
	return 'identity'
}

function etagOf(tag: string, encoding: Encoding): string {
	return encoding === 'identity' ? `"${tag}"` : `"${tag}-${encoding}"`
}

/** Whether If-None-Match names this page in any of its encodings (weak comparison, RFC 9110, section 13.1.2). */
function matchesEtag(header: string | undefined, tag: string): boolean {
	if (!header) return false
	if (header.trim() === '*') return true
	return header.split(',').some((value) => /^"([^"-]*)(?:-(?:br|gzip))?"$/.exec(value.trim().replace(/^W\//, ''))?.[1] === tag)
}

function expiryFrom(now: number): number {
	const nextRiyadhMidnight = Math.floor((now + RIYADH_OFFSET_MS) / DAY_MS + 1) * DAY_MS - RIYADH_OFFSET_MS
	return Math.min(now + MAX_AGE_MS, nextRiyadhMidnight)
}

function livePage(key: string): CachedPage | undefined {
	const page = pages.get(key)
	if (!page) return undefined
	pages.delete(key)
	if (page.generation !== contentGeneration() || page.expiresAt <= Date.now()) {
		storedBytes -= page.bytes
		return undefined
	}
	// Most recently used last: eviction takes the first.
	pages.set(key, page)
	return page
}

/**
 * Answers a request from the cache when it can (server.mjs calls this first); false means the
 * request goes on to the app. Only GET and HEAD without our cookies are answered.
 */
export function serveCachedPage(req: IncomingMessage, res: ServerResponse): boolean {
	if ((req.method !== 'GET' && req.method !== 'HEAD') || !req.url || !isAnonymous(req.headers.cookie)) return false
	if (!enabled()) return false
	const key = cacheKey(req.url)
	const page = key === null ? undefined : livePage(key)
	if (!page) return false
	if (page.view && req.method === 'GET') viewListener?.(page.view, addressOf(req, getEnv().TRUST_PROXY), req.headers['user-agent'] ?? '')
	const encoding = negotiateEncoding(req.headers['accept-encoding'])
	if (matchesEtag(req.headers['if-none-match'], page.tag)) {
		res.writeHead(304, page.notModified[encoding])
		res.end()
		return true
	}
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
	// Least recently used first: Map keeps insertion order, and a hit moves its page last.
	for (const [oldKey, old] of pages) {
		if (pages.size <= MAX_PAGES && storedBytes <= MAX_BYTES) break
		pages.delete(oldKey)
		storedBytes -= old.bytes
	}
}

async function pageFrom(response: Response, path: string, key: string, generation: number, drawnAt: number, view: string | null): Promise<CachedPage> {
	const identity = Buffer.from(await response.arrayBuffer())
	const [br, gz] = await Promise.all([
		brotli(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
		gzip(identity, { level: GZIP_LEVEL }),
	])
	const tag = createHash('sha256').update(identity).digest('base64url').slice(0, 27).replace(/-/g, '_')
	const common: Record<string, string> = {}
	response.headers.forEach((value, name) => {
		if (name !== 'content-length' && name !== 'content-encoding' && name !== CACHEABLE_HEADER) common[name] = value
	})
	Object.assign(common, { 'cache-control': CACHE_CONTROL, vary: VARY, [CACHE_STATUS_HEADER]: 'hit' })
	const bodies = { br, gzip: gz, identity }
	// A hit is answered before Express adds these; the first answer goes through Express.
	const security = securityHeaders(path)
	const headers = {} as CachedPage['headers']
	const notModified = {} as CachedPage['notModified']
	for (const encoding of encodings) {
		const etag = etagOf(tag, encoding)
		headers[encoding] = {
			...security,
			...common,
			etag,
			...(encoding === 'identity' ? {} : { 'content-encoding': encoding }),
			'content-length': String(bodies[encoding].length),
		}
		notModified[encoding] = { ...security, etag, 'cache-control': CACHE_CONTROL, vary: VARY, [CACHE_STATUS_HEADER]: 'hit' }
	}
	const headerBytes = JSON.stringify(headers).length + JSON.stringify(notModified).length
	return {
		generation,
		view,
		expiresAt: expiryFrom(drawnAt),
		tag,
		bytes: br.length + gz.length + identity.length + headerBytes + key.length,
		bodies,
		headers,
		notModified,
	}
}

/**
 * Root middleware: keeps a page app/entry.server.tsx marked as cacheable, and answers this first
 * request from what it kept (compressed already, so Express's compression leaves it alone).
 */
export const pageCacheMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
	const generation = contentGeneration()
	const drawnAt = Date.now()
	const response = await next()
	const marked = response.headers.has(CACHEABLE_HEADER)
	response.headers.delete(CACHEABLE_HEADER)
	const view = response.headers.get(VIEW_HEADER)
	response.headers.delete(VIEW_HEADER)
	if (view && request.method === 'GET') viewListener?.(view, clientIp(request), request.headers.get('user-agent') ?? '')
	const url = new URL(request.url)
	const key = cacheKey(url.pathname + url.search)
	const keep = marked && key !== null && request.method === 'GET' && response.status === 200 && !response.headers.has('set-cookie') && isAnonymous(request.headers.get('cookie')) && enabled()
	if (!keep) {
		// A page that differs by session, or that no one may keep, is kept by no browser or proxy either;
		// nor is its data for in-page navigation (React Router's «.data» answers, the same loaders' data),
		// nor anything answered to a session (docs/security.md#headers): none of it is on a shared computer's disk.
		const type = response.headers.get('content-type') ?? ''
		const pageOrData = type.startsWith('text/html') || type.startsWith('text/x-script') || url.pathname.endsWith('.data')
		if (!response.headers.has('cache-control') && (pageOrData || !isAnonymous(request.headers.get('cookie')))) {
			response.headers.set('cache-control', 'private, no-store')
		}
		return response
	}
	const page = await pageFrom(response, url.pathname, key, generation, drawnAt, view)
	// Content changed while this page was drawn: it may show the old, so it is sent but not kept.
	if (page.generation === contentGeneration()) store(key, page)
	const encoding = negotiateEncoding(request.headers.get('accept-encoding') ?? undefined)
	const headers = new Headers(page.headers[encoding])
	// Express adds these to what the app answers.
	for (const name of Object.keys(securityHeaders(url.pathname))) headers.delete(name)
	headers.set(CACHE_STATUS_HEADER, 'miss')
	return new Response(new Uint8Array(page.bodies[encoding]), { status: 200, headers })
}
