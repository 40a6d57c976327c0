import { createHash, randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Writable } from 'node:stream'
import { renderToPipeableStream, renderToString } from 'react-dom/server'
import { ServerRouter, isRouteErrorResponse, type EntryContext } from 'react-router'
import { NonceContext } from '#app/utils/nonce.tsx'
import { getEnv } from '#app/utils/env.server.ts'
import { isSameOriginRequest } from '#app/utils/origin.server.ts'
import { frameSources } from '#app/domain/embeds.ts'
import { CACHEABLE_HEADER, isAnonymous } from '#app/cache/page-cache.server.ts'
import { cacheableRouteIds } from '#app/cache/cacheable-routes.ts'
import type { RouteHandle } from '#app/root.tsx'
import { inlineScripts } from '#app/components/inline-scripts.ts'
import { InlineCssContext } from '#app/utils/inline-css.tsx'
import { describeError, logger, requestIdOf } from '#app/utils/log.server.ts'
import publicStylesUrl from './public.css?url'

// The server calls these two: migrations, seed and first admin before it listens; close on SIGTERM.
export { prepare, shutdown } from '#app/bootstrap.server.ts'
export { getEnv } from '#app/utils/env.server.ts'
export { FALLBACK_POLICY, securityHeaders } from '#app/utils/security-headers.ts'
export { ALLOWED_METHODS, BODY_TOO_LARGE, METHOD_NOT_ALLOWED_PAGE, NOT_A_FORM, bodyTooLargePage } from '#app/utils/request-guards.ts'
export { bodyLimit } from '#app/http/body-limits.server.ts'
export { serveCachedPage } from '#app/cache/page-cache.server.ts'
export { startDraining } from '#app/utils/draining.server.ts'
// server.mjs logs every request through these, with the app's logger (docs/operations.md#logs).
export { createRequestLogger, describeError, logger, takeRoute } from '#app/utils/log.server.ts'
// Bundled with the app, so that it and the routes share one React Router: its production build (vite.config.ts).
export { createRequestHandler } from '@react-router/express'

/**
 * server.mjs asks this before React Router sees a request, so a forged cross-site POST gets our 403
 * (the root middleware applies the same rule under the dev server).
 */
export function allowOrigin(method: string, url: string, headers: Record<string, string | string[] | undefined>): boolean {
	// A page's GET is always allowed: no Request is built for it (each costs a few microseconds).
	if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return true
	const request = new Request(url, { method: 'POST', headers: toHeaders(headers) })
	return isSameOriginRequest(request, getEnv().APP_ORIGIN)
}

function toHeaders(source: Record<string, string | string[] | undefined>): Headers {
	const headers = new Headers()
	for (const name of ['origin', 'sec-fetch-site']) {
		const value = source[name]
		if (typeof value === 'string') headers.set(name, value)
	}
	return headers
}

export const streamTimeout = 5_000

/** The public pages' few inline scripts, allowed by their hashes (app/components/inline-scripts.ts). */
const scriptHashes = inlineScripts.map((script) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`).join(' ')

/**
 * The built stylesheet, written into pages that ship no script, and its hash for the policy; read
 * once, from the client build beside this server build. None under the dev server.
 */
const inlineStyle = (() => {
	if (process.env.NODE_ENV !== 'production' || !publicStylesUrl.startsWith('/assets/')) return undefined
	// build/client beside build/server: looked for upwards, as the bundler may put this module in a
	// chunk of its own (build/server/assets/…) once the server build is split.
	for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
		try {
			const css = readFileSync(path.join(dir, 'client', publicStylesUrl), 'utf8')
			return { css, hash: `'sha256-${createHash('sha256').update(css).digest('base64')}'` }
		} catch {
			if (path.dirname(dir) === dir) return undefined
		}
	}
})()

/**
 * A page kept by the page cache is sent to many: it has no nonce, and runs only our script files and
 * the inline scripts allowed by hash. Other pages add a nonce of their own (React Router's scripts).
 */
function contentSecurityPolicy(nonce: string | undefined, styleHash: string | undefined): string {
	return [
		"default-src 'self'",
		`script-src 'self' ${scriptHashes}${nonce ? ` 'nonce-${nonce}'` : ''}`,
		styleHash ? `style-src 'self' ${styleHash}` : "style-src 'self'",
		"img-src 'self' data:",
		"font-src 'self'",
		"connect-src 'self'",
		// 'self': the staff case view previews an applicant's PDF in a frame.
		`frame-src 'self' ${frameSources.join(' ')}`,
		"object-src 'none'",
		"base-uri 'none'",
		"form-action 'self'",
		"frame-ancestors 'none'",
	].join('; ')
}

export default function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, routerContext: EntryContext) {
	if (request.method.toUpperCase() === 'HEAD') {
		return new Response(null, { status: responseStatusCode, headers: responseHeaders })
	}
	const cacheable = mayBeCached(request, responseStatusCode, routerContext)
	const hydrating = hydrates(routerContext)
	const nonce = cacheable ? undefined : randomBytes(16).toString('base64')
	if (cacheable) responseHeaders.set(CACHEABLE_HEADER, '1')
	const style = hydrating || !firstVisitPage(request) ? undefined : inlineStyle
	// Vite's dev server injects inline scripts of its own; the policy applies to the built app.
	if (process.env.NODE_ENV === 'production') {
		responseHeaders.set('Content-Security-Policy', contentSecurityPolicy(nonce, style?.hash))
	}
	const page = (
		<NonceContext.Provider value={nonce}>
			<InlineCssContext.Provider value={style?.css}>
				<ServerRouter context={routerContext} url={request.url} nonce={nonce} />
			</InlineCssContext.Provider>
		</NonceContext.Provider>
	)
	responseHeaders.set('Content-Type', 'text/html; charset=utf-8')

	// A page without script has nothing that waits (its data is loaded, nothing suspends: React Router's
	// data for hydration is drawn only by <Scripts>): drawn into one string at once, without React's
	// stream and its chunks, about a third less CPU (docs/performance.md#a-dynamic-page).
	if (!hydrating) {
		let html: string
		try {
			html = `<!DOCTYPE html>${renderToString(page)}`
		} catch (error) {
			logger.error({ reqId: requestIdOf(request), error: describeError(error) }, 'rendering the page failed')
			throw error
		}
		// As bytes: a string body would be checked for lone surrogates character by character (toUSVString, 5% of a page).
		return new Response(Buffer.from(html), { headers: responseHeaders, status: responseStatusCode })
	}

	return new Promise<Response>((resolve, reject) => {
		// Pages are small and carry no deferred data: render all before sending, for every client.
		const { pipe, abort } = renderToPipeableStream(page, {
			nonce,
			onAllReady() {
				// The whole page is ready: gathered into one buffer and sent as one body, rather than
				// through a chain of streams chunk by chunk.
				const chunks: Buffer[] = []
				const sink = new Writable({
					write(chunk: Buffer, _encoding, done) {
						chunks.push(chunk)
						done()
					},
					final(done) {
						resolve(new Response(Buffer.concat(chunks), { headers: responseHeaders, status: responseStatusCode }))
						done()
					},
				})
				pipe(sink)
			},
			onShellError: reject,
			onError(error: unknown) {
				responseStatusCode = 500
				logger.error({ reqId: requestIdOf(request), error: describeError(error) }, 'rendering the page failed')
			},
		})
		setTimeout(abort, streamTimeout + 1000).unref()
	})
}

/**
 * Whether the stylesheet is written into the page: on the public pages a visitor may open once, so
 * the first paint waits for no second request. Staff (signed in), an institution's area and an
 * applicant's private link are visited again and again: their pages link it, and the browser keeps
 * it for a year (/assets), 57 KB less to draw, compress and send with every page.
 */
function firstVisitPage(request: Request): boolean {
	if (!isAnonymous(request.headers.get('cookie'))) return false
	return !/^\/(?:admin(?:\/|$)|apply\/r\/|account(?:\/(?!login)|$))/.test(new URL(request.url).pathname)
}

/**
 * Whether this page may be kept and sent to every visitor without a session: a GET without our
 * cookies, answered 200 by a listed route (app/cache/cacheable-routes.ts) that ships no script.
 */
function mayBeCached(request: Request, status: number, routerContext: EntryContext): boolean {
	if (process.env.NODE_ENV !== 'production' || request.method !== 'GET' || status !== 200) return false
	if (!isAnonymous(request.headers.get('cookie'))) return false
	const matches = routerContext.staticHandlerContext.matches
	const leaf = matches.at(-1)
	if (!leaf || !cacheableRouteIds.has(leaf.route.id)) return false
	return !hydrates(routerContext)
}

/** Whether the page ships React Router's scripts (a route asked to hydrate; app/root.tsx draws them). */
function hydrates(routerContext: EntryContext): boolean {
	return routerContext.staticHandlerContext.matches.some((match) => (routerContext.routeModules[match.route.id]?.handle as RouteHandle | undefined)?.hydrate)
}

/**
 * Errors thrown while answering a request. A failed query's message lists its parameters (national
 * IDs, mobiles, amounts): log what failed and why, never the values. Aborted requests are not errors,
 * nor are a client's mistakes (docs/security.md#errors).
 */
export function handleError(error: unknown, { request, pattern }: { request: Request; pattern?: string }) {
	if (request.signal.aborted) return
	// The route's pattern, not the address: an address may hold a private link's token or a query.
	const fields = { reqId: requestIdOf(request), method: request.method, route: pattern ?? new URL(request.url).pathname }
	// React Router's own answer to what the client asked (no such page, a POST where no action is): the
	// client's doing, logged as such with its status; only what failed on our side is an error.
	if (isRouteErrorResponse(error) && error.status < 500) logger.info({ ...fields, status: error.status, error: describeError(error) }, 'client error')
	else logger.error({ ...fields, error: describeError(error) }, 'request error')
}
