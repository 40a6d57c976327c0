import type { IncomingMessage, ServerResponse } from 'node:http'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest'
import type { DatabaseHandle } from '#app/db/client.server.ts'
import { cacheKey, CACHEABLE_HEADER, clearPageCache, isAnonymous, negotiateEncoding, pageCacheMiddleware, pageCacheSize, serveCachedPage } from './page-cache.server.ts'
import { stopWatchingContent, watchContent } from './content-version.server.ts'

// The cache as server.mjs and React Router's middleware use it, with a stand-in for the database's
// change notices (app/cache/content-version.db.test.ts proves the real ones).

let notify: (payload: string | null) => void = () => {}
beforeAll(async () => {
	const handle = {
		listen: async (_channel: string, onMessage: typeof notify) => ((notify = onMessage), async () => {}),
		db: { select: () => ({ from: async () => [{ version: 1 }] }) },
	} as unknown as DatabaseHandle
	await watchContent(handle)
})
afterAll(() => stopWatchingContent())
beforeEach(() => clearPageCache())

const html = `<!DOCTYPE html><html lang="ar" dir="rtl"><body>${'<p>مؤسسة عطاء الخيرية</p>'.repeat(200)}</body></html>`

/** Runs a request through the middleware as React Router would, with a page the entry marked or not. */
async function render(url: string, options: { cacheable?: boolean; cookie?: string; status?: number; setCookie?: string; body?: string } = {}) {
	const headers = new Headers({ 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "script-src 'self'" })
	if (options.cacheable !== false) headers.set(CACHEABLE_HEADER, '1')
	if (options.setCookie) headers.set('set-cookie', options.setCookie)
	const request = new Request(`http://localhost${url}`, { headers: { 'accept-encoding': 'gzip, br', ...(options.cookie ? { cookie: options.cookie } : {}) } })
	const next = async () => new Response(options.body ?? html, { status: options.status ?? 200, headers })
	return (await pageCacheMiddleware({ request } as never, next as never)) as Response
}

/** What server.mjs's fast path answers, or null when the request goes on to the app. */
function fromCache(url: string, headers: Record<string, string> = {}, method = 'GET') {
	const sent: { status?: number; headers?: Record<string, string>; body?: Buffer } = {}
	const req = { method, url, headers } as unknown as IncomingMessage
	const res = {
		writeHead(status: number, head: Record<string, string>) {
			sent.status = status
			sent.headers = head
		},
		end(body?: Buffer) {
			sent.body = body
		},
	} as unknown as ServerResponse
	return serveCachedPage(req, res) ? sent : null
}

test('a marked page is kept: the next request is answered before the app, compressed as asked, with its ETag', async () => {
	const first = await render('/about')
	expect(first.headers.get('x-ataa-cache')).toBe('miss')
	expect(first.headers.has(CACHEABLE_HEADER)).toBe(false)
	expect(first.headers.get('content-encoding')).toBe('br')
	expect(brotliDecompressSync(Buffer.from(await first.arrayBuffer())).toString()).toBe(html)

	const br = fromCache('/about', { 'accept-encoding': 'gzip, deflate, br' })!
	expect(br.status).toBe(200)
	expect(br.headers!['content-encoding']).toBe('br')
	expect(br.headers!['x-ataa-cache']).toBe('hit')
	expect(br.headers!['X-Frame-Options']).toBe('DENY')
	expect(br.headers!['content-security-policy']).toBe("script-src 'self'")
	expect(brotliDecompressSync(br.body!).toString()).toBe(html)
	expect(br.body!.length).toBeLessThan(html.length / 10)

	const gzip = fromCache('/about', { 'accept-encoding': 'gzip' })!
	expect(gunzipSync(gzip.body!).toString()).toBe(html)
	const plain = fromCache('/about')!
	expect(plain.headers!['content-encoding']).toBeUndefined()
	expect(plain.body!.toString()).toBe(html)
	expect(plain.headers!['content-length']).toBe(String(Buffer.byteLength(html)))

	// One validator per representation; any of them names the page.
	const etag = br.headers!.etag!
	expect(new Set([etag, gzip.headers!.etag, plain.headers!.etag]).size).toBe(3)
	expect(fromCache('/about', { 'if-none-match': etag })).toMatchObject({ status: 304, body: undefined })
	expect(fromCache('/about', { 'if-none-match': `W/${plain.headers!.etag}`, 'accept-encoding': 'gzip' })).toMatchObject({ status: 304, headers: { etag: gzip.headers!.etag } })
	expect(fromCache('/about', { 'if-none-match': '"another"' })?.status).toBe(200)
	expect(fromCache('/about', {}, 'HEAD')).toMatchObject({ status: 200, body: undefined })
	// Another query is another page; the same page reached by another spelling is the same.
	expect(fromCache('/about?page=2')).toBeNull()
	expect(fromCache('/news/../about')?.status).toBe(200)
})

test('a query string of parameters no page reads is answered but never kept, nor kept by browsers', async () => {
	const response = await render('/about?utm_source=x')
	expect(response.headers.get('x-ataa-cache')).toBeNull()
	expect(response.headers.get('cache-control')).toBe('private, no-store')
	expect(fromCache('/about?utm_source=x')).toBeNull()
	expect(pageCacheSize().pages).toBe(0)
	expect(cacheKey('/news?q=%D8%B2%D9%83%D8%A7%D8%A9&page=2')).toBe(cacheKey('/news?page=2&q=%D8%B2%D9%83%D8%A7%D8%A9'))
	expect(cacheKey('/a/./b/../c')).toBe('/a/c')
	expect(cacheKey('/login?redirectTo=%2Fadmin')).toBe('/login?redirectTo=%2Fadmin')
	expect(cacheKey('//evil.example/')).toBeNull()
})

test('nothing personal is kept or answered from the cache', async () => {
	await render('/about')
	// Our cookies (a session, an institution, a flash message) always go to the app.
	for (const cookie of ['ataa_session=abc', '__Host-ataa_session=abc', 'theme=dark; ataa_flash=x', '__Host-ataa_account=y']) {
		expect(fromCache('/about', { cookie })).toBeNull()
	}
	expect(fromCache('/about', { cookie: 'theme=dark' })?.status).toBe(200)
	expect(fromCache('/about', {}, 'POST')).toBeNull()

	clearPageCache()
	// Unmarked, signed in, an error status, a cookie being set: sent, never kept.
	await render('/a', { cacheable: false })
	await render('/b', { cookie: 'ataa_session=abc' })
	await render('/c', { status: 404 })
	const withCookie = await render('/d', { setCookie: 'x=1' })
	expect(withCookie.headers.has(CACHEABLE_HEADER)).toBe(false)
	for (const path of ['/a', '/b', '/c', '/d']) expect(fromCache(path)).toBeNull()
	expect(pageCacheSize().pages).toBe(0)
})

test('a change of content empties the cache; a page drawn across a change is sent but not kept', async () => {
	await render('/about')
	expect(fromCache('/about')).not.toBeNull()
	notify('42')
	expect(fromCache('/about')).toBeNull()

	const headers = new Headers({ 'content-type': 'text/html', [CACHEABLE_HEADER]: '1' })
	const request = new Request('http://localhost/about')
	const response = (await pageCacheMiddleware({ request } as never, (async () => {
		notify('43')
		return new Response(html, { headers })
	}) as never)) as Response
	expect(await response.text()).toBe(html)
	expect(fromCache('/about')).toBeNull()
	// A lost connection to the database may have missed notices: the same.
	await render('/about')
	notify(null)
	expect(fromCache('/about')).toBeNull()
})

test('the cache stays bounded whatever searches visitors make, the pages read most kept', async () => {
	await render('/')
	for (let index = 0; index < 1010; index++) {
		await render(`/news?q=${index}`, { body: `<p>${index}</p>` })
		if (index % 100 === 0) expect(fromCache('/')?.status).toBe(200)
	}
	expect(pageCacheSize().pages).toBe(1000)
	expect(fromCache('/news?q=0')).toBeNull()
	expect(fromCache('/news?q=1009')?.status).toBe(200)
	expect(fromCache('/')?.status).toBe(200)
})

test('an encoding is chosen as the client asks, a refusal (q=0) honoured', () => {
	expect(negotiateEncoding(undefined)).toBe('identity')
	expect(negotiateEncoding('gzip, deflate, br, zstd')).toBe('br')
	expect(negotiateEncoding('gzip')).toBe('gzip')
	expect(negotiateEncoding('br;q=0, gzip')).toBe('gzip')
	expect(negotiateEncoding('br;q=0.1, gzip')).toBe('gzip')
	expect(negotiateEncoding('gzip;q=0')).toBe('identity')
	expect(negotiateEncoding('gzip;q=0, *')).toBe('br')
	expect(negotiateEncoding('br;q=0, gzip;q=0, *')).toBe('identity')
	expect(negotiateEncoding('*')).toBe('br')
	expect(negotiateEncoding('identity')).toBe('identity')
})

test('a request is anonymous without any of our cookies', () => {
	expect(isAnonymous(undefined)).toBe(true)
	expect(isAnonymous('_ga=1; theme=dark')).toBe(true)
	expect(isAnonymous('my_ataa_pref=1')).toBe(true)
	expect(isAnonymous('ataa_session=x')).toBe(false)
	expect(isAnonymous('a=1; __Host-ataa_account=x')).toBe(false)
})
