import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { checkSmsConfig, createSmsDriver, msegatSms, smsConfigProblem, taqnyatSms, unifonicSms } from './sms-providers.server.ts'
import { logSms } from './sms.server.ts'
import { EnvError, parseEnv } from '#app/utils/env.server.ts'
import { logger } from '#app/utils/log.server.ts'
import { type FakeSmsProvider, startFakeSmsProvider } from '#tests/fakes/sms-providers.ts'

const mobile = '+966551234567'
// Arabic with the characters a form or JSON encoding could spoil: & = + % « » a new line and an emoji.
const text = 'مؤسسة عطاء الخيرية: تغيرت حالة طلبك رقم K7M2-PX4R إلى «تمت الدراسة» & رمزك 4829 = 100% + 🌙\nرابط طلبك: http://localhost:3000/apply/r/secret-token?a=1&b=2'

/** Everything written to a logger method, as one string. */
const written = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.map((args) => args.join(' ')).join('\n')

type ProviderKind = 'unifonic' | 'taqnyat' | 'msegat'

const expected: Record<
	ProviderKind,
	{ key: string; ref: RegExp | undefined; refused: RegExp; wrongCredentials: RegExp; wrongSender: RegExp; badNumber: RegExp }
> = {
	unifonic: {
		key: 'UNIFONIC_APP_SID',
		ref: /^\d+$/,
		refused: /^ER-07: Message filtered$/,
		wrongCredentials: /^credentials refused \(HTTP 401\)/,
		wrongSender: /^ER-08: Invalid Sender ID$/,
		badNumber: /^ER-02: Invalid destination number$/,
	},
	taqnyat: {
		key: 'TAQNYAT_TOKEN',
		ref: /^\d+$/,
		refused: /^the number was rejected$/,
		wrongCredentials: /^credentials refused \(HTTP 401\): invalid credentials information$/,
		wrongSender: /^HTTP 400: the sender name is not active/,
		badNumber: /^the number was rejected$/,
	},
	msegat: {
		key: 'MSEGAT_API_KEY',
		ref: undefined,
		refused: /^1120: Mobile numbers are not correct$/,
		wrongCredentials: /^credentials refused \(M0002: Invalid login info\)$/,
		wrongSender: /^1110: Sender name is missing or incorrect$/,
		badNumber: /^1120: Mobile numbers are not correct$/,
	},
}

describe.each(['unifonic', 'taqnyat', 'msegat'] as const)('%s', (kind) => {
	const want = expected[kind]
	let fake: FakeSmsProvider
	let error: ReturnType<typeof vi.spyOn>
	/** The driver the app would make from the fake's environment, with changes. */
	const driver = (changes: Record<string, string> = {}, timeoutMs?: number) => createSmsDriver(parseEnv({ ...fake.env, ...changes }), { timeoutMs })

	beforeAll(async () => {
		fake = await startFakeSmsProvider(kind)
	})
	afterAll(() => fake.close())
	beforeEach(() => {
		error = vi.spyOn(logger, 'error').mockImplementation(() => {})
	})
	afterEach(() => {
		fake.messages.length = 0
		vi.restoreAllMocks()
	})

	test('a message is accepted: the number without +, the Arabic text intact and the registered sender arrive; the provider\'s id is kept', async () => {
		const sms = driver()
		expect(sms.name).toBe(kind)
		const result = await sms.deliver(mobile, text)
		expect(result).toEqual({ ok: true, provider: kind, ...(want.ref ? { ref: expect.stringMatching(want.ref) } : {}) })
		expect(fake.messages).toHaveLength(1)
		const [message] = fake.messages
		expect(message).toMatchObject({ to: '966551234567', text, sender: 'ATAA' })
		expect(Buffer.byteLength(message!.text)).toBe(Buffer.byteLength(text))
		expect(await fake.waitForMessage((m) => m.text === text)).toBe(message)
		expect(error).not.toHaveBeenCalled()
	})

	test('send is whether deliver succeeded', async () => {
		expect(await driver().send(mobile, 'نص قصير')).toBe(true)
		fake.refuseNext()
		expect(await driver().send(mobile, 'نص قصير')).toBe(false)
		expect(fake.messages.map((m) => m.text)).toEqual(['نص قصير'])
	})

	test('a refused message is not retried; the reason is the provider\'s code; the log holds the masked number only', async () => {
		fake.refuseNext()
		const result = await driver().deliver(mobile, text)
		expect(result).toEqual({ ok: false, provider: kind, reason: expect.stringMatching(want.refused), retry: false })
		expect(fake.messages).toEqual([])
		const line = written(error)
		expect(line).toContain('+9665•••••567')
		expect(line).not.toContain('551234567')
		expect(line).not.toContain('secret-token')
		expect(line).not.toContain('تمت الدراسة')
		// The next message goes through again.
		expect((await driver().deliver(mobile, text)).ok).toBe(true)
	})

	test('an invalid number is refused, not retried', async () => {
		const result = await driver().deliver('+9661234', text)
		expect(result).toEqual({ ok: false, provider: kind, reason: expect.stringMatching(want.badNumber), retry: false })
		expect(fake.messages).toEqual([])
	})

	test('a sender name the provider has not registered is refused, not retried', async () => {
		const result = await driver({ SMS_SENDER: 'OTHER' }).deliver(mobile, text)
		expect(result).toEqual({ ok: false, provider: kind, reason: expect.stringMatching(want.wrongSender), retry: false })
		expect(fake.messages).toEqual([])
	})

	test('wrong credentials are refused, not retried, and neither reason nor log holds them', async () => {
		const result = await driver({ [want.key]: 'wrong-key-1234' }).deliver(mobile, text)
		expect(result).toEqual({ ok: false, provider: kind, reason: expect.stringMatching(want.wrongCredentials), retry: false })
		expect(fake.messages).toEqual([])
		expect(JSON.stringify(result)).not.toContain('wrong-key-1234')
		expect(written(error)).not.toContain('wrong-key-1234')
	})

	test('a provider that never answers is given up on after the timeout, to be retried', async () => {
		fake.stallNext()
		const before = fake.requests
		const started = performance.now()
		const result = await driver({}, 200).deliver(mobile, text)
		expect(performance.now() - started).toBeLessThan(2000)
		expect(result).toEqual({ ok: false, provider: kind, reason: 'no answer within 200 ms', retry: true })
		expect(fake.requests).toBe(before + 1)
		expect(fake.messages).toEqual([])
	})

	test('HTTP 500 is to be retried', async () => {
		fake.failNext()
		expect(await driver().deliver(mobile, text)).toEqual({ ok: false, provider: kind, reason: 'HTTP 500', retry: true })
		expect(fake.messages).toEqual([])
	})

	test('refusals, stalls and failures are taken in the order asked for', async () => {
		fake.failNext()
		fake.refuseNext(2)
		const results = []
		for (let i = 0; i < 4; i++) results.push(await driver().deliver(mobile, `رسالة ${i}`))
		expect(results.map((result) => (result.ok ? 'ok' : result.retry ? 'retry' : 'refused'))).toEqual(['retry', 'refused', 'refused', 'ok'])
		expect(fake.messages.map((m) => m.text)).toEqual(['رسالة 3'])
	})
})

describe('the generic gateway through createSmsDriver', () => {
	let fake: FakeSmsProvider
	beforeAll(async () => {
		fake = await startFakeSmsProvider('http')
	})
	afterAll(() => fake.close())
	beforeEach(() => {
		vi.spyOn(logger, 'error').mockImplementation(() => {})
	})
	afterEach(() => vi.restoreAllMocks())

	test('SMS_URL alone chooses it; the message, the sender and the token arrive', async () => {
		const { SMS_PROVIDER: _, ...env } = fake.env
		const sms = createSmsDriver(parseEnv(env))
		expect(sms.name).toBe('http')
		expect(await sms.deliver(mobile, text)).toEqual({ ok: true, provider: 'http' })
		expect(fake.messages).toMatchObject([{ to: '966551234567', text, sender: 'ATAA' }])
	})

	test('a wrong token is refused credentials; a refusal is not retried; a 500 is', async () => {
		expect(await createSmsDriver(parseEnv({ ...fake.env, SMS_TOKEN: 'nope' })).deliver(mobile, text)).toEqual({ ok: false, provider: 'http', reason: 'credentials refused (HTTP 401)', retry: false })
		fake.refuseNext()
		expect(await createSmsDriver(parseEnv(fake.env)).deliver(mobile, text)).toEqual({ ok: false, provider: 'http', reason: 'the gateway answered HTTP 400', retry: false })
		fake.failNext()
		expect(await createSmsDriver(parseEnv(fake.env)).deliver(mobile, text)).toEqual({ ok: false, provider: 'http', reason: 'the gateway answered HTTP 500', retry: true })
	})
})

describe('answers the fakes do not give', () => {
	let server: Server
	let base: string
	let reply: (body: string) => { status: number; headers?: Record<string, string>; body: string }
	beforeAll(async () => {
		server = createServer((request, response) => {
			const chunks: Buffer[] = []
			request.on('data', (chunk: Buffer) => chunks.push(chunk))
			request.on('end', () => {
				const { status, headers, body } = reply(Buffer.concat(chunks).toString('utf8'))
				response.writeHead(status, headers).end(body)
			})
		})
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
		base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
	})
	afterAll(async () => {
		server.closeAllConnections()
		await new Promise<void>((resolve) => server.close(() => resolve()))
	})
	beforeEach(() => {
		vi.spyOn(logger, 'error').mockImplementation(() => {})
	})
	afterEach(() => vi.restoreAllMocks())

	test('a reason never holds the credentials, the text or the number, even when the provider echoes them', async () => {
		reply = (body) => ({ status: 400, body: JSON.stringify({ statusCode: 400, message: `bad request ${body} token tok-secret-99 to 966551234567` }) })
		const result = await taqnyatSms({ token: 'tok-secret-99', sender: 'ATAA', url: base }).deliver(mobile, text)
		expect(result.ok).toBe(false)
		const reason = result.ok ? '' : result.reason
		expect(reason).toMatch(/^HTTP 400: bad request/)
		expect(reason.length).toBeLessThanOrEqual(160)
		expect(reason).not.toContain('tok-secret-99')
		expect(reason).not.toContain('551234567')
		expect(reason).not.toContain('secret-token')
		expect(reason).not.toContain('تمت الدراسة')
	})

	test('a redirect is refused, not followed, and not retried', async () => {
		reply = () => ({ status: 302, headers: { Location: 'http://127.0.0.1:9/elsewhere' }, body: '' })
		const result = await unifonicSms({ appSid: 'sid', sender: 'ATAA', url: base }).deliver(mobile, text)
		expect(result).toEqual({ ok: false, provider: 'unifonic', reason: 'the gateway answered with a redirect (check UNIFONIC_URL)', retry: false })
	})

	test('429 is to be retried; an answer that cannot be read is not (the message may have gone)', async () => {
		reply = () => ({ status: 429, body: '{"success":false,"message":"Too many requests"}' })
		expect(await unifonicSms({ appSid: 'sid', url: base }).deliver(mobile, text)).toMatchObject({ ok: false, retry: true, reason: 'HTTP 429: Too many requests' })
		reply = () => ({ status: 200, body: '<html>maintenance</html>' })
		expect(await msegatSms({ userName: 'u', apiKey: 'k', sender: 'ATAA', url: base }).deliver(mobile, text)).toEqual({ ok: false, provider: 'msegat', reason: 'unreadable answer (HTTP 200)', retry: false })
	})

	test('Msegat\'s bare-code answers and M0000 are read; Unifonic\'s success with a rejected message is a refusal', async () => {
		reply = () => ({ status: 200, body: 'M0000' })
		expect(await msegatSms({ userName: 'u', apiKey: 'k', sender: 'ATAA', url: `${base}/` }).deliver(mobile, text)).toEqual({ ok: true, provider: 'msegat' })
		reply = () => ({ status: 200, body: '1060' })
		expect(await msegatSms({ userName: 'u', apiKey: 'k', sender: 'ATAA', url: base }).deliver(mobile, text)).toEqual({ ok: false, provider: 'msegat', reason: '1060: Balance is not enough', retry: false })
		reply = () => ({ status: 200, body: JSON.stringify({ success: true, message: '', errorCode: 'ER-00', data: { MessageID: 7, Status: 'Rejected' } }) })
		expect(await unifonicSms({ appSid: 'sid', url: base }).deliver(mobile, text)).toEqual({ ok: false, provider: 'unifonic', reason: 'message rejected', retry: false })
	})

	test('an unreachable provider is to be retried', async () => {
		const closed = createServer()
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
		const port = (closed.address() as AddressInfo).port
		await new Promise<void>((resolve) => closed.close(() => resolve()))
		expect(await taqnyatSms({ token: 't', sender: 'ATAA', url: `http://127.0.0.1:${port}` }).deliver(mobile, text)).toEqual({ ok: false, provider: 'taqnyat', reason: 'ECONNREFUSED', retry: true })
	})
})

describe('createSmsDriver', () => {
	test('nothing set: the log driver, which sends nothing and says so', async () => {
		const info = vi.spyOn(logger, 'info').mockImplementation(() => {})
		const sms = createSmsDriver(parseEnv({}))
		expect(sms).toBe(logSms)
		expect(await sms.deliver(mobile, text)).toEqual({ ok: false, provider: 'log', reason: 'no SMS provider configured', retry: false })
		expect(await sms.send(mobile, text)).toBe(false)
		expect(written(info)).toContain('+9665•••••567')
		expect(written(info)).not.toContain('secret-token')
		vi.restoreAllMocks()
	})

	test('SMS_PROVIDER chooses; SMS_PROVIDER=log wins over SMS_URL', () => {
		const keys = { SMS_SENDER: 'ATAA', UNIFONIC_APP_SID: 'sid', TAQNYAT_TOKEN: 't', MSEGAT_USERNAME: 'u', MSEGAT_API_KEY: 'k', SMS_URL: 'https://sms.example.org/send' }
		for (const provider of ['unifonic', 'taqnyat', 'msegat', 'http', 'log'] as const) {
			expect(createSmsDriver(parseEnv({ ...keys, SMS_PROVIDER: provider })).name).toBe(provider)
		}
	})

	test('a provider without its settings sends nothing, and says what is missing in the log', async () => {
		const error = vi.spyOn(logger, 'error').mockImplementation(() => {})
		const fetchSpy = vi.spyOn(globalThis, 'fetch')
		const sms = createSmsDriver(parseEnv({ SMS_PROVIDER: 'taqnyat', TAQNYAT_TOKEN: 't' }))
		expect(sms.name).toBe('taqnyat')
		expect(await sms.deliver(mobile, text)).toEqual({ ok: false, provider: 'taqnyat', reason: 'taqnyat is not configured', retry: false })
		expect(fetchSpy).not.toHaveBeenCalled()
		expect(written(error)).toMatch(/not set: SMS_SENDER/)
		expect(written(error)).not.toContain('551234567')
		vi.restoreAllMocks()
	})
})

describe('smsConfigProblem', () => {
	const production = { NODE_ENV: 'production' } as const

	test('none for a demo without SMS, nor for a provider with all its settings', () => {
		expect(smsConfigProblem(parseEnv({}))).toBeUndefined()
		expect(smsConfigProblem(parseEnv({ ...production, SMS_PROVIDER: 'unifonic', UNIFONIC_APP_SID: 'sid', SMS_SENDER: 'ATAA' }))).toBeUndefined()
		expect(smsConfigProblem(parseEnv({ ...production, SMS_PROVIDER: 'taqnyat', TAQNYAT_TOKEN: 't', SMS_SENDER: 'ATAA' }))).toBeUndefined()
		expect(smsConfigProblem(parseEnv({ ...production, SMS_PROVIDER: 'msegat', MSEGAT_USERNAME: 'u', MSEGAT_API_KEY: 'k', SMS_SENDER: 'ATAA' }))).toBeUndefined()
		expect(smsConfigProblem(parseEnv({ ...production, SMS_URL: 'https://sms.example.org/send' }))).toBeUndefined()
	})

	test('a provider lacking a setting: which it needs, which is missing, where it is explained', () => {
		expect(smsConfigProblem(parseEnv({ SMS_PROVIDER: 'unifonic' }))).toBe(
			'SMS_PROVIDER=unifonic needs UNIFONIC_APP_SID and SMS_SENDER (SMS_SENDER: the sender name registered with the provider); not set: UNIFONIC_APP_SID, SMS_SENDER (docs/deployment.md#sms)',
		)
		expect(smsConfigProblem(parseEnv({ SMS_PROVIDER: 'msegat', MSEGAT_USERNAME: 'u', SMS_SENDER: 'ATAA' }))).toMatch(/^SMS_PROVIDER=msegat needs MSEGAT_USERNAME and MSEGAT_API_KEY and SMS_SENDER .*; not set: MSEGAT_API_KEY \(/)
		expect(smsConfigProblem(parseEnv({ SMS_PROVIDER: 'taqnyat', TAQNYAT_TOKEN: 't' }))).toMatch(/not set: SMS_SENDER/)
		expect(smsConfigProblem(parseEnv({ SMS_PROVIDER: 'http' }))).toBe('SMS_PROVIDER=http needs SMS_URL; not set: SMS_URL (docs/deployment.md#sms)')
	})

	test('production with codes only in the log is a problem while applicants\' mobiles are verified, not once verification is off', () => {
		const message =
			"applicants' mobiles are verified by SMS: set SMS_PROVIDER and its keys (docs/deployment.md#sms), or APPLICANT_VERIFICATION=off (docs/security.md#verified-mobile explains the risk)"
		expect(smsConfigProblem(parseEnv(production))).toBe(message)
		expect(smsConfigProblem(parseEnv({ ATAA_ENV: 'production' }))).toBe(message)
		expect(smsConfigProblem(parseEnv({ ...production, SMS_PROVIDER: 'log' }))).toBe(message)
		expect(smsConfigProblem(parseEnv({ ...production, APPLICANT_VERIFICATION: 'off' }))).toBeUndefined()
		expect(smsConfigProblem(parseEnv({ APPLICANT_VERIFICATION: 'on' }))).toBeUndefined()
	})

	test('start-up: in production a problem stops it with the fix; elsewhere it is a warning', () => {
		const warn = vi.fn()
		expect(() => checkSmsConfig(parseEnv(production), warn)).toThrow(EnvError)
		expect(() => checkSmsConfig(parseEnv({ ...production, SMS_PROVIDER: 'unifonic', SMS_SENDER: 'ATAA' }), warn)).toThrow(/^SMS_PROVIDER=unifonic needs UNIFONIC_APP_SID/)
		expect(warn).not.toHaveBeenCalled()
		checkSmsConfig(parseEnv({ ...production, APPLICANT_VERIFICATION: 'off' }), warn)
		checkSmsConfig(parseEnv({}), warn)
		expect(warn).not.toHaveBeenCalled()
		checkSmsConfig(parseEnv({ SMS_PROVIDER: 'msegat' }), warn)
		expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^SMS: SMS_PROVIDER=msegat needs/))
	})
})
