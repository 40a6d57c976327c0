import { describe, expect, test } from 'vitest'
import { addressOf, isSameOriginRequest } from './origin.server.ts'

const post = (headers: Record<string, string>) =>
	new Request('http://localhost:3000/logout', { method: 'POST', headers })

describe('isSameOriginRequest', () => {
	test('reading is always allowed', () => {
		expect(isSameOriginRequest(new Request('http://localhost:3000/', { headers: { Origin: 'https://evil.example' } }))).toBe(true)
	})

	test('a POST from our own origin is allowed', () => {
		expect(isSameOriginRequest(post({ Origin: 'http://localhost:3000' }))).toBe(true)
	})

	test('a POST from another origin, port or scheme is refused', () => {
		expect(isSameOriginRequest(post({ Origin: 'https://evil.example' }))).toBe(false)
		expect(isSameOriginRequest(post({ Origin: 'http://localhost:3001' }))).toBe(false)
		expect(isSameOriginRequest(post({ Origin: 'https://localhost:3000' }))).toBe(false)
		expect(isSameOriginRequest(post({ Origin: 'null' }))).toBe(false)
	})

	test('a configured public origin is allowed', () => {
		expect(isSameOriginRequest(post({ Origin: 'https://ataa.org.sa' }), ['https://ataa.org.sa'])).toBe(true)
	})

	test('without Origin, a browser saying cross-site is refused; a non-browser client is not', () => {
		expect(isSameOriginRequest(post({ 'Sec-Fetch-Site': 'cross-site' }))).toBe(false)
		expect(isSameOriginRequest(post({ 'Sec-Fetch-Site': 'same-site' }))).toBe(false)
		expect(isSameOriginRequest(post({ 'Sec-Fetch-Site': 'same-origin' }))).toBe(true)
		expect(isSameOriginRequest(post({}))).toBe(true)
	})
})

test('a cache hit takes the address Express would: the proxy’s last X-Forwarded-For entry when trusted, else the connection’s', () => {
	const req = (forwarded?: string | string[]) => ({ headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded }, socket: { remoteAddress: '10.0.0.5' } }) as unknown as Parameters<typeof addressOf>[0]
	expect(addressOf(req('203.0.113.9'), true)).toBe('203.0.113.9')
	// Whatever a client wrote before the proxy's own entry is not believed.
	expect(addressOf(req('1.2.3.4, 203.0.113.9'), true)).toBe('203.0.113.9')
	expect(addressOf(req(['1.2.3.4', '198.51.100.7 ']), true)).toBe('198.51.100.7')
	expect(addressOf(req(), true)).toBe('10.0.0.5')
	expect(addressOf(req('203.0.113.9'), false)).toBe('10.0.0.5')
})
