import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest'
import { handleError } from '#app/entry.server.tsx'
import { createLogger, createRequestLogger, describeError, logger, requestIdFrom, routeMiddleware, ROUTE_HEADER, scrub, takeRoute } from './log.server.ts'

afterEach(() => vi.restoreAllMocks())

/** A logger writing to an array: each entry one line as pino wrote it. */
function capture(options: { level?: string; format?: string } = {}) {
	const lines: string[] = []
	const log = createLogger({ ...options, destination: { write: (line: string) => lines.push(line) } })
	return { log, lines, objects: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) }
}

const token = 'kQ3x_9-abcDEFghiJKLmnoPQRstuVWXyz0123456789'

test('national IDs and iqamas keep their last 4 digits, IBANs and mobiles are masked, whatever the text', () => {
	expect(scrub('ID 1012345678 and iqama 2098765432.')).toBe('ID ••••••5678 and iqama ••••••5432.')
	expect(scrub('IBAN SA0380000000608010167519')).toBe(`IBAN SA${'•'.repeat(18)}7519`)
	expect(scrub('IBAN SA03 8000 0000 6080 1016 7519 typed with spaces')).toBe(`IBAN SA${'•'.repeat(18)}7519 typed with spaces`)
	expect(scrub('mobile 0551234567, +966551234567, 966551234567')).toBe(`mobile ${'•'.repeat(7)}567, ${'•'.repeat(10)}567, ${'•'.repeat(9)}567`)
	// Inside a JSON line, beside Arabic text.
	expect(scrub('{"msg":"الهوية:1012345678"}')).toBe('{"msg":"الهوية:••••••5678"}')
})

test('numbers that are not personal are left alone: times, ids, hashes, longer numbers', () => {
	for (const text of ['"time":"2026-01-05T10:11:12.345Z"', 'reqId 1b4e28ba-2fa1-11d2-883f-0016d3cca427', 'sha a1012345678b', '12345678901234', 'status 200 in 1.2 ms', 'reference K7M2-PX4R']) {
		expect(scrub(text)).toBe(text)
	}
})

test('a private link becomes its route pattern, in any path under it, and the pattern stays as it is', () => {
	expect(scrub(`GET /apply/r/${token}`)).toBe('GET /apply/r/:token')
	expect(scrub(`"url":"https://ataa.org.sa/apply/r/${token}/files/42?x=1"`)).toBe('"url":"https://ataa.org.sa/apply/r/:token/files/42?x=1"')
	expect(scrub(`/apply/r/${token}/bank.data`)).toBe('/apply/r/:token/bank.data')
	expect(scrub('/apply/r/:token/:step')).toBe('/apply/r/:token/:step')
	// URL-encoded in a query: a sign-in's redirectTo, React Router's route discovery.
	expect(scrub(`/__manifest?paths=%2Fapply%2Fr%2F${token}%2Fbank%2C%2Fapply%2Fr%2F${token}&version=1`)).toBe('/__manifest?paths=%2Fapply%2Fr%2F:token%2Fbank%2C%2Fapply%2Fr%2F:token&version=1')
	expect(scrub(`/login?redirectTo=%2fapply%2fr%2f${token}`)).toBe('/login?redirectTo=%2fapply%2fr%2f:token')
})

test('a failed query’s parameters are taken out of any line, whoever logged its message', () => {
	const message = 'Failed query: update cases set note = $1 where id = $2\nparams: call "me", 0559998877,42'
	const { log, objects } = capture()
	log.error(`[notify] status update failed: ${message}`)
	log.error({ detail: message, stack: `Error: ${message}\n    at update (app/cases/case-store.server.ts:1:1)` }, 'failed')
	const [first, second] = objects()
	expect(first!.msg).toBe('[notify] status update failed: Failed query: update cases set note = $1 where id = $2')
	expect(second!.detail).toBe('Failed query: update cases set note = $1 where id = $2')
	expect(second!.stack).toBe('Error: Failed query: update cases set note = $1 where id = $2\n    at update (app/cases/case-store.server.ts:1:1)')
})

test('JSON lines: level by name, ISO time, LOG_LEVEL honoured, and every line scrubbed', () => {
	const { log, objects } = capture({ level: 'warn', format: 'json' })
	log.info('not written at warn')
	log.warn({ reqId: 'abc12345' }, `applicant 1012345678 at /apply/r/${token}`)
	const [line, ...rest] = objects()
	expect(rest).toEqual([])
	expect(line).toMatchObject({ level: 'warn', reqId: 'abc12345', msg: 'applicant ••••••5678 at /apply/r/:token' })
	expect(String(line!.time)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
})

test('password-, token-, cookie- and header-like fields are redacted, at the top and one level down', () => {
	const { log, lines } = capture()
	log.info({ password: 'Hunter2-Hunter2', user: { newPassword: 'Sesame-Open-99', email: 'a@b.c' }, token, headers: { cookie: '__Host-ataa_session=s3cr3t' }, secret: 'JBSWY3DPEHPK3PXP' }, 'sign-in')
	const text = lines.join('')
	for (const secret of ['Hunter2-Hunter2', 'Sesame-Open-99', token, 's3cr3t', 'JBSWY3DPEHPK3PXP']) expect(text).not.toContain(secret)
	expect(JSON.parse(text)).toMatchObject({ password: '[redacted]', user: { newPassword: '[redacted]', email: 'a@b.c' }, headers: '[redacted]' })
})

test('an error logged as err keeps its message and stack, without a failed query’s parameters', () => {
	const { log, objects } = capture()
	const error = new Error('Failed query: select * from cases where mobile = $1\nparams: 0559998877,secret-note')
	log.error({ err: error }, 'query failed')
	const [line] = objects()
	const err = line!.err as { message: string; stack: string; type: string }
	expect(err.type).toBe('Error')
	expect(err.message).toBe('Failed query: select * from cases where mobile = $1')
	expect(err.stack).toContain('at ')
	expect(JSON.stringify(line)).not.toContain('secret-note')
	expect(describeError(error)).toBe('Failed query: select * from cases where mobile = $1')
})

test('pretty lines for a person: the level, the message, the fields, still scrubbed', () => {
	const { log, lines } = capture({ format: 'pretty' })
	log.info({ reqId: 'abc12345' }, 'hello 1012345678')
	expect(lines).toHaveLength(1)
	expect(lines[0]).toContain('INFO')
	expect(lines[0]).toContain('hello ••••••5678')
	expect(lines[0]).toContain('reqId: "abc12345"')
	expect(() => JSON.parse(lines[0]!)).toThrow()
})

test('a request id is kept from the caller only when it is a plain token of 8 to 64 characters', () => {
	expect(requestIdFrom('edge-7f3a9c21.lb')).toBe('edge-7f3a9c21.lb')
	for (const bad of [undefined, 'short', 'x'.repeat(65), 'has space in it', 'new\nline-injected', ['a1b2c3d4e5', 'f6g7h8i9j0']]) {
		expect(requestIdFrom(bad)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
	}
})

test('the route middleware names the matched pattern on the answer, and leaves an immutable answer alone', async () => {
	const args = { pattern: '/apply/r/:token/:step' } as Parameters<typeof routeMiddleware>[0]
	const answer = (await routeMiddleware(args, async () => new Response('ok'))) as Response
	expect(answer.headers.get(ROUTE_HEADER)).toBe('/apply/r/:token/:step')
	const redirect = (await routeMiddleware(args, async () => Response.redirect('http://localhost/login', 302))) as Response
	expect(redirect.status).toBe(302)
	expect(redirect.headers.has(ROUTE_HEADER)).toBe(false)
})

let server: Server
let origin: string
const requestLog = capture()

beforeAll(async () => {
	const logRequest = createRequestLogger(requestLog.log)
	// As server.mjs: the logger first, the route taken off as the headers go out.
	server = createServer((req, res) => {
		logRequest(req, res)
		const url = new URL(req.url!, 'http://localhost')
		if (url.pathname.startsWith('/apply/r/')) res.setHeader(ROUTE_HEADER, '/apply/r/:token/:step')
		const writeHead = res.writeHead.bind(res)
		res.writeHead = ((...args: Parameters<typeof res.writeHead>) => {
			takeRoute(res)
			return writeHead(...args)
		}) as typeof res.writeHead
		res.writeHead(url.pathname === '/boom' ? 500 : 200, { 'Content-Type': 'text/plain', 'Set-Cookie': '__Host-ataa_session=s3cr3t' })
		res.end(`seen id ${req.headers['x-request-id']}`)
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

test('one line per request: id (sent back and handed to the app), method, route, status, duration; no query, headers or cookies', async () => {
	const response = await fetch(`${origin}/apply/r/${token}/bank?national=1012345678`, { headers: { Cookie: '__Host-ataa_session=c00kie', 'X-Request-Id': 'proxy-req-0001' } })
	expect(response.headers.get('x-request-id')).toBe('proxy-req-0001')
	expect(response.headers.has(ROUTE_HEADER)).toBe(false)
	expect(await response.text()).toBe('seen id proxy-req-0001')
	const minted = await fetch(`${origin}/about`, { headers: { 'X-Request-Id': 'bad id' } })
	const mintedId = minted.headers.get('x-request-id')!
	expect(mintedId).not.toBe('bad id')
	await fetch(`${origin}/boom`)
	await vi.waitFor(() => expect(requestLog.lines).toHaveLength(3))
	const [first, second, third] = requestLog.objects()
	expect(first).toMatchObject({ level: 'info', reqId: 'proxy-req-0001', method: 'GET', route: '/apply/r/:token/:step', status: 200, msg: 'request' })
	expect(first!.ms).toBeTypeOf('number')
	expect(Object.keys(first!).sort()).toEqual(['hostname', 'level', 'method', 'ms', 'msg', 'pid', 'reqId', 'route', 'status', 'time'])
	// Answered without the router: the path, without its query.
	expect(second).toMatchObject({ reqId: mintedId, route: '/about', status: 200 })
	expect(third).toMatchObject({ level: 'error', route: '/boom', status: 500, msg: 'request failed' })
	const text = requestLog.lines.join('')
	for (const secret of [token, '1012345678', 'c00kie', 's3cr3t', 'national=']) expect(text).not.toContain(secret)
})

test('handleError logs the error with the request id and the route pattern, not for aborted requests', () => {
	const error = vi.spyOn(logger, 'error').mockImplementation(() => {})
	const request = new Request(`http://localhost/apply/r/${token}/bank`, { method: 'POST', headers: { 'X-Request-Id': 'req-abcdef12' } })
	handleError(new Error('the database went away'), { request, pattern: '/apply/r/:token/:step' })
	expect(error).toHaveBeenCalledTimes(1)
	const [fields, message] = error.mock.calls[0] as unknown as [Record<string, unknown>, string]
	expect(message).toBe('request error')
	expect(fields).toMatchObject({ reqId: 'req-abcdef12', method: 'POST', route: '/apply/r/:token/:step' })
	expect(fields.error).toContain('the database went away')
	const controller = new AbortController()
	controller.abort()
	handleError(new Error('aborted'), { request: new Request('http://localhost/', { signal: controller.signal }), pattern: '/' })
	expect(error).toHaveBeenCalledTimes(1)
})

test("a route's error answer is logged as its status, and any other thrown value readably, never «[object Object]»", async () => {
	const { UNSAFE_ErrorResponseImpl: ErrorResponse } = await import('react-router')
	// What React Router hands handleError for an OPTIONS request to a page without an action.
	expect(describeError(new ErrorResponse(405, 'Method Not Allowed', null))).toBe('405 Method Not Allowed')
	expect(describeError({ reason: 'odd' })).toBe('{"reason":"odd"}')
})
