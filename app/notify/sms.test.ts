import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest'
import { httpSms, logSms, maskMobile, smsDriver } from './sms.server.ts'
import { logger } from '#app/utils/log.server.ts'

interface Received {
	method?: string
	url?: string
	headers: IncomingHttpHeaders
	body: string
}

const received: Received[] = []
/** How the gateway answers the next request; the default accepts it. */
let answer: (response: ServerResponse) => void = (response) => response.writeHead(202).end('{"status":"queued"}')
let server: Server
let base: string

beforeAll(async () => {
	server = createServer((request, response) => {
		let body = ''
		request.setEncoding('utf8')
		request.on('data', (chunk: string) => (body += chunk))
		request.on('end', () => {
			received.push({ method: request.method, url: request.url, headers: request.headers, body })
			answer(response)
		})
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
	server.closeAllConnections()
	await new Promise<void>((resolve) => server.close(() => resolve()))
})
afterEach(() => {
	received.length = 0
	answer = (response) => response.writeHead(202).end('{"status":"queued"}')
	vi.restoreAllMocks()
})

const mobile = '+966551234567'
const text = 'مؤسسة عطاء الخيرية: تغيرت حالة طلبك رقم K7M2-PX4R إلى «تمت الدراسة». رابط طلبك: http://localhost:3000/apply/r/secret-token'

/** Everything written to a logger method, as one string. */
const written = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.map((args) => args.join(' ')).join('\n')

test('numbers are masked to the last three digits', () => {
	expect(maskMobile('+966551234567')).toBe('+9665•••••567')
	expect(maskMobile('0551234567')).toBe('•••••••567')
})

test('the HTTP gateway gets the number without the plus, the text, the sender and the bearer token, as JSON', async () => {
	const sms = httpSms({ url: `${base}/api/sms?account=7`, token: 'tok-123', sender: 'ATAA' })
	expect(sms.name).toBe('http')
	expect(await sms.send(mobile, text)).toBe(true)
	expect(received).toHaveLength(1)
	const request = received[0]!
	expect(request.method).toBe('POST')
	expect(request.url).toBe('/api/sms?account=7')
	expect(request.headers['content-type']).toBe('application/json; charset=utf-8')
	expect(request.headers.authorization).toBe('Bearer tok-123')
	expect(JSON.parse(request.body)).toEqual({ to: '966551234567', text, sender: 'ATAA' })
})

test('without a token or sender there is no Authorization header and no sender field', async () => {
	answer = (response) => response.writeHead(200).end()
	expect(await httpSms({ url: base }).send(mobile, 'نص')).toBe(true)
	expect(received[0]!.headers.authorization).toBeUndefined()
	expect(JSON.parse(received[0]!.body)).toEqual({ to: '966551234567', text: 'نص' })
})

test('a gateway error is false and one log line with the status, without the text or the number', async () => {
	const error = vi.spyOn(logger, 'error').mockImplementation(() => {})
	answer = (response) => response.writeHead(500).end('internal error')
	expect(await httpSms({ url: base, token: 'tok-123' }).send(mobile, text)).toBe(false)
	expect(error).toHaveBeenCalledTimes(1)
	const line = written(error)
	expect(line).toContain('500')
	expect(line).not.toContain('551234567')
	expect(line).not.toContain('secret-token')
	expect(line).not.toContain('tok-123')
})

test('a gateway that never answers is given up on after the timeout', async () => {
	const error = vi.spyOn(logger, 'error').mockImplementation(() => {})
	answer = () => {}
	const started = performance.now()
	expect(await httpSms({ url: base, timeoutMs: 200 }).send(mobile, text)).toBe(false)
	expect(performance.now() - started).toBeLessThan(2000)
	expect(received).toHaveLength(1)
	expect(written(error)).toMatch(/no answer within 200 ms/)
})

test('an unreachable gateway is false, not an exception', async () => {
	const error = vi.spyOn(logger, 'error').mockImplementation(() => {})
	// A port that was just free: nothing listens on it.
	const closed = createServer()
	await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
	const port = (closed.address() as AddressInfo).port
	await new Promise<void>((resolve) => closed.close(() => resolve()))
	expect(await httpSms({ url: `http://127.0.0.1:${port}/sms` }).send(mobile, text)).toBe(false)
	expect(written(error)).toMatch(/ECONNREFUSED/)
	expect(written(error)).not.toContain('551234567')
})

test('the log driver sends nothing and logs neither the text nor the full number', async () => {
	const log = vi.spyOn(logger, 'info').mockImplementation(() => {})
	expect(logSms.name).toBe('log')
	expect(await logSms.send(mobile, text)).toBe(false)
	expect(log).toHaveBeenCalledTimes(1)
	const line = written(log)
	expect(line).toContain('+9665•••••567')
	expect(line).toContain(`${text.length} characters`)
	expect(line).not.toContain('551234567')
	expect(line).not.toContain('secret-token')
	expect(line).not.toContain('تمت الدراسة')
})

test('every driver sends the text without direction marks: each is a paid character (issue 37, §2.7)', async () => {
	const sent: string[] = []
	const driver = smsDriver('http', async (_to, text) => (sent.push(text), { ok: true, provider: 'http' }))
	await driver.send('+966500000001', '\u200Fصُرف لطلبك \u200E1,500.00 ر.س.\u200F \u2066K7M2\u2069 \u202Bنص\u202C\u061C')
	expect(sent).toEqual(['صُرف لطلبك 1,500.00 ر.س. K7M2 نص'])
})
