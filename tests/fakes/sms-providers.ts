// Local stand-ins for the SMS providers (app/notify/sms-providers.server.ts): each listens on 127.0.0.1, checks a
// request as the real API does (path, method, credentials, required fields, the registered sender) and answers in
// the provider's own shapes and codes. Plain Node, no test runner's imports: Vitest and Playwright both use it.
// Where a provider's documentation does not show an answer (Unifonic's to a wrong AppSid, Taqnyat's wording of a
// refused request), the fake gives a plausible one, said so beside it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type FakeSmsKind = 'unifonic' | 'taqnyat' | 'msegat' | 'http'

/** What the fake accepts; unset ones take the defaults below. */
export interface FakeSmsCredentials {
	/** Unifonic's AppSid. */
	appSid?: string
	/** Taqnyat's bearer token, or the generic gateway's (SMS_TOKEN). */
	token?: string
	/** Msegat's user name and API key. */
	userName?: string
	apiKey?: string
	/** The sender name registered with the provider. */
	sender?: string
}

export interface FakeSmsMessage {
	/** The number as the provider received it: 9665XXXXXXXX. */
	to: string
	text: string
	sender?: string
	at: Date
}

export interface FakeSmsProvider {
	kind: FakeSmsKind
	/** http://127.0.0.1:PORT */
	url: string
	/** The environment that points the app at this fake: SMS_PROVIDER, the key(s), the *_URL, SMS_SENDER. */
	env: Record<string, string>
	/** The messages accepted, oldest first. */
	messages: FakeSmsMessage[]
	/** Requests received on the sending path, accepted or not. */
	readonly requests: number
	/** The next `count` messages are refused with the provider's own error for a refused message. */
	refuseNext(count?: number): void
	/** The next `count` requests get no answer at all (until close). */
	stallNext(count?: number): void
	/** The next `count` requests get HTTP 500. */
	failNext(count?: number): void
	/** The first message, received or to come, that matches; rejects after timeoutMs (5 s). */
	waitForMessage(match: (message: FakeSmsMessage) => boolean, timeoutMs?: number): Promise<FakeSmsMessage>
	close(): Promise<void>
}

const DEFAULTS: Required<FakeSmsCredentials> = {
	appSid: 'fake-unifonic-app-sid',
	token: 'fake-sms-token',
	userName: 'ataa-fake',
	apiKey: 'fake-msegat-api-key',
	sender: 'ATAA',
}

/** The path each fake serves, as the app's adapters post to it. */
const PATHS: Record<FakeSmsKind, string> = {
	unifonic: '/rest/SMS/messages',
	taqnyat: '/v1/messages',
	msegat: '/gw/sendsms.php',
	http: '/sms',
}

type Mode = 'refuse' | 'stall' | 'fail'

interface Request {
	method: string
	path: string
	headers: IncomingMessage['headers']
	body: string
}

/** What a handler decides: an answer, or an accepted message and its answer. */
type Outcome = { status: number; json: unknown; accepted?: Omit<FakeSmsMessage, 'at'>[] }

// International form without + or 00, as every provider here wants it.
const international = /^[1-9]\d{8,14}$/

export async function startFakeSmsProvider(kind: FakeSmsKind, options: { credentials?: FakeSmsCredentials } = {}): Promise<FakeSmsProvider> {
	const credentials = { ...DEFAULTS, ...options.credentials }
	const messages: FakeSmsMessage[] = []
	const queue: Mode[] = []
	const waiters = new Set<{ match: (message: FakeSmsMessage) => boolean; resolve: (message: FakeSmsMessage) => void }>()
	let requests = 0
	let sequence = 0
	const handle = HANDLERS[kind]

	const server = createServer((incoming, response) => {
		const chunks: Buffer[] = []
		let size = 0
		incoming.on('data', (chunk: Buffer) => {
			size += chunk.length
			if (size <= 1_000_000) chunks.push(chunk)
		})
		incoming.on('end', () => {
			const path = new URL(incoming.url ?? '/', 'http://fake').pathname
			// Decoded from the whole body's bytes: a character split between chunks stays whole.
			const request: Request = { method: incoming.method ?? 'GET', path, headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') }
			if (path === PATHS[kind]) requests++
			const mode = path === PATHS[kind] && (queue[0] === 'stall' || queue[0] === 'fail') ? queue.shift() : undefined
			if (mode === 'stall') return
			if (mode === 'fail') return void response.writeHead(500, { 'Content-Type': 'text/plain' }).end('Internal Server Error')
			const outcome = handle(request, credentials, () => (queue[0] === 'refuse' ? Boolean(queue.shift()) : false), ++sequence)
			for (const accepted of outcome.accepted ?? []) {
				const message = { ...accepted, at: new Date() }
				messages.push(message)
				for (const waiter of waiters) {
					if (waiter.match(message)) {
						waiters.delete(waiter)
						waiter.resolve(message)
					}
				}
			}
			answer(response, outcome)
		})
	})
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject)
		server.listen(0, '127.0.0.1', () => resolve())
	})
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
	const enqueue = (mode: Mode) => (count = 1) => {
		for (let i = 0; i < count; i++) queue.push(mode)
	}

	return {
		kind,
		url,
		env: environment(kind, url, credentials),
		messages,
		get requests() {
			return requests
		},
		refuseNext: enqueue('refuse'),
		stallNext: enqueue('stall'),
		failNext: enqueue('fail'),
		waitForMessage(match, timeoutMs = 5000) {
			const found = messages.find(match)
			if (found) return Promise.resolve(found)
			return new Promise((resolve, reject) => {
				const waiter = {
					match,
					resolve: (message: FakeSmsMessage) => {
						clearTimeout(timer)
						resolve(message)
					},
				}
				const timer = setTimeout(() => {
					waiters.delete(waiter)
					reject(new Error(`fake ${kind}: no matching SMS within ${timeoutMs} ms (${messages.length} received)`))
				}, timeoutMs)
				waiters.add(waiter)
			})
		},
		async close() {
			// Stalled requests are held open: closing their connections ends them.
			server.closeAllConnections()
			await new Promise<void>((resolve) => server.close(() => resolve()))
		},
	}
}

function environment(kind: FakeSmsKind, url: string, credentials: Required<FakeSmsCredentials>): Record<string, string> {
	const sender = { SMS_SENDER: credentials.sender }
	switch (kind) {
		case 'unifonic':
			return { SMS_PROVIDER: 'unifonic', UNIFONIC_APP_SID: credentials.appSid, UNIFONIC_URL: url, ...sender }
		case 'taqnyat':
			return { SMS_PROVIDER: 'taqnyat', TAQNYAT_TOKEN: credentials.token, TAQNYAT_URL: url, ...sender }
		case 'msegat':
			return { SMS_PROVIDER: 'msegat', MSEGAT_USERNAME: credentials.userName, MSEGAT_API_KEY: credentials.apiKey, MSEGAT_URL: url, ...sender }
		case 'http':
			return { SMS_PROVIDER: 'http', SMS_URL: `${url}${PATHS.http}`, SMS_TOKEN: credentials.token, ...sender }
	}
}

function answer(response: ServerResponse, { status, json }: Outcome): void {
	response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(json))
}

function parseJson(body: string): Record<string, unknown> | undefined {
	try {
		const value: unknown = JSON.parse(body)
		return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
	} catch {
		return undefined
	}
}

const str = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '')
const isJson = (request: Request) => /^application\/json\b/i.test(request.headers['content-type'] ?? '')
const isForm = (request: Request) => /^application\/x-www-form-urlencoded\b/i.test(request.headers['content-type'] ?? '')

type Handler = (request: Request, credentials: Required<FakeSmsCredentials>, refuse: () => boolean, sequence: number) => Outcome

const HANDLERS: Record<FakeSmsKind, Handler> = {
	// Unifonic answers JSON { success, message, errorCode, data }. Its refusals' codes (ER-02 invalid number, ER-06
	// empty body, ER-07 filtered, ER-08 sender) are documented; their HTTP status is not, so 200 here. Its answer to a
	// wrong AppSid is not documented either: 401 here.
	unifonic(request, credentials, refuse, sequence) {
		const refused = (errorCode: string, message: string): Outcome => ({ status: 200, json: { success: false, message, errorCode, data: {} } })
		if (request.path !== PATHS.unifonic) return { status: 404, json: { success: false, message: 'Not Found', data: {} } }
		if (request.method !== 'POST') return { status: 405, json: { success: false, message: 'Method Not Allowed', data: {} } }
		const params = isForm(request) ? Object.fromEntries(new URLSearchParams(request.body)) : isJson(request) ? parseJson(request.body) : undefined
		if (!params) return { status: 415, json: { success: false, message: 'Unsupported Media Type', data: {} } }
		if (str(params.AppSid) !== credentials.appSid) return { status: 401, json: { success: false, message: 'Authentication failed: invalid AppSid', data: {} } }
		const recipient = str(params.Recipient)
		if (!international.test(recipient)) return refused('ER-02', 'Invalid destination number')
		const body = str(params.Body)
		if (!body.trim()) return refused('ER-06', 'Invalid or empty message body')
		const sender = str(params.SenderID) || undefined
		if (sender !== undefined && sender !== credentials.sender) return refused('ER-08', 'Invalid Sender ID')
		if (refuse()) return refused('ER-07', 'Message filtered')
		const MessageID = 42_000_000_000_000 + sequence
		return {
			status: 200,
			json: { success: true, message: '', errorCode: 'ER-00', data: { MessageID, CorrelationID: '', Status: 'Sent', NumberOfUnits: 1, Cost: 0, Balance: 0, Recipient: recipient, TimeCreated: new Date().toISOString(), CurrencyCode: 'SAR' } },
			accepted: [{ to: recipient, text: body, sender }],
		}
	},

	// Taqnyat answers 201 { statusCode, messageId, cost, currency, totalCount, msgLength, accepted, rejected } and
	// 401 { statusCode, message: 'invalid credentials information' }. A refused message: its number listed under
	// rejected, none accepted. The wording of a 400 is not documented.
	taqnyat(request, credentials, refuse, sequence) {
		const error = (statusCode: number, message: string): Outcome => ({ status: statusCode, json: { statusCode, message } })
		if (request.path !== PATHS.taqnyat) return error(404, 'Not Found')
		if (request.method !== 'POST') return error(405, 'Method Not Allowed')
		if (request.headers.authorization !== `Bearer ${credentials.token}`) return error(401, 'invalid credentials information')
		const params = isJson(request) ? parseJson(request.body) : undefined
		if (!params) return error(400, 'the request body must be JSON')
		const recipients = Array.isArray(params.recipients) ? params.recipients.map(str) : []
		const body = str(params.body)
		const sender = str(params.sender)
		if (!recipients.length || !body.trim() || !sender) return error(400, 'recipients, body and sender are required')
		if (sender !== credentials.sender) return error(400, 'the sender name is not active on this account')
		const valid = recipients.filter((recipient) => international.test(recipient))
		const invalid = recipients.filter((recipient) => !international.test(recipient))
		const list = (numbers: string[]) => `[${numbers.map((number) => `${number},`).join('')}]`
		const result = (accepted: string[], rejected: string[]): Outcome => ({
			status: 201,
			json: { statusCode: 201, messageId: 5_452_899_970 + sequence, cost: accepted.length * 0.026, currency: 'SAR', totalCount: accepted.length, msgLength: 1, accepted: list(accepted), rejected: list(rejected) },
			accepted: accepted.map((to) => ({ to, text: body, sender })),
		})
		if (refuse()) return result([], recipients)
		return result(valid, invalid)
	},

	// Msegat answers HTTP 200 { code, message } whatever became of the message: "1" sent, M0002 a wrong user name or
	// key, 1110 a sender not registered, 1120 a wrong number, M0001 a missing field (its published codes).
	msegat(request, credentials, refuse) {
		const reply = (code: string, message: string, accepted?: Outcome['accepted']): Outcome => ({ status: 200, json: { code, message }, accepted })
		if (request.path !== PATHS.msegat) return { status: 404, json: { code: '404', message: 'Not Found' } }
		if (request.method !== 'POST') return reply('M0034', 'Please use POST method')
		const params = isJson(request) ? parseJson(request.body) : isForm(request) ? Object.fromEntries(new URLSearchParams(request.body)) : undefined
		const field = (name: string) => str(params?.[name])
		if (!params || !field('userName') || !field('apiKey') || !field('numbers') || !field('userSender') || !field('msg')) return reply('M0001', 'Variables missing')
		if (field('userName') !== credentials.userName || field('apiKey') !== credentials.apiKey) return reply('M0002', 'Invalid login info')
		if (field('userSender') !== credentials.sender) return reply('1110', 'Sender name is missing or incorrect')
		const encoding = field('msgEncoding')
		if (encoding && encoding !== 'UTF8' && encoding !== 'UCS2') return reply('M0001', 'Variables missing')
		const numbers = field('numbers').split(',').map((number) => number.trim())
		if (!numbers.every((number) => international.test(number))) return reply('1120', 'Mobile numbers are not correct')
		if (refuse()) return reply('1120', 'Mobile numbers are not correct')
		return reply('1', 'Success', numbers.map((to) => ({ to, text: field('msg'), sender: field('userSender') })))
	},

	// The generic gateway (SMS_URL): JSON { to, text, sender? } with a bearer token; any 2xx is success.
	http(request, credentials, refuse) {
		if (request.path !== PATHS.http) return { status: 404, json: { error: 'not found' } }
		if (request.method !== 'POST') return { status: 405, json: { error: 'method not allowed' } }
		if (request.headers.authorization !== `Bearer ${credentials.token}`) return { status: 401, json: { error: 'unauthorized' } }
		const params = isJson(request) ? parseJson(request.body) : undefined
		const to = str(params?.to)
		const text = str(params?.text)
		if (!international.test(to) || !text.trim()) return { status: 400, json: { error: 'to and text are required' } }
		if (refuse()) return { status: 400, json: { error: 'refused' } }
		const sender = str(params?.sender) || undefined
		return { status: 202, json: { status: 'queued' }, accepted: [{ to, text, sender }] }
	},
}
