// Text messages to applicants. The log driver is the default: it says what was not sent without writing the text
// (it holds private links) or the full number to the log. The HTTP driver posts to a generic gateway; the Saudi
// providers' drivers are in sms-providers.server.ts, which also chooses one from the environment.
import { logger } from '#app/utils/log.server.ts'
import { stripDirectionMarks } from './sms-segments.ts'

export type SmsProviderName = 'log' | 'http' | 'unifonic' | 'taqnyat' | 'msegat'

/**
 * What became of one message. `reason` is a short English technical reason (the provider's code and message),
 * safe to store and show to staff: never a credential, the text or the full number. `retry` is true only when
 * the same message may well pass later (no answer, a network error, HTTP 5xx or 429), false when the provider
 * refused it (credentials, the number, the sender or the text).
 */
export type SmsResult = { ok: true; provider: string; ref?: string } | { ok: false; provider: string; reason: string; retry: boolean }

export interface SmsDriver {
	readonly name: SmsProviderName
	/** `to` is the stored form +9665XXXXXXXX; resolves with the provider's answer, its message id when it gives one. Never throws. */
	deliver(to: string, text: string): Promise<SmsResult>
	/** `to` is the stored form +9665XXXXXXXX; resolves true only when the gateway accepted the message. Never throws. */
	send(to: string, text: string): Promise<boolean>
}

/** +966512345234 → +9665•••••234: enough to tell messages apart in the log, not enough to identify anyone. */
export function maskMobile(mobile: string): string {
	const prefix = mobile.startsWith('+9665') && mobile.length > 8 ? '+9665' : ''
	const hidden = Math.max(0, mobile.length - prefix.length - 3)
	return prefix + '•'.repeat(hidden) + mobile.slice(prefix.length + hidden)
}

/** +9665XXXXXXXX (or 05XXXXXXXX) → 9665XXXXXXXX, the form gateways expect. */
export function internationalMobile(mobile: string): string {
	const digits = mobile.replace(/\D/g, '')
	return /^05\d{8}$/.test(digits) ? `966${digits.slice(1)}` : digits
}

/** A driver from its `deliver`: `send` is whether the message was accepted. */
export function smsDriver(name: SmsProviderName, deliver: (to: string, text: string) => Promise<SmsResult>): SmsDriver {
	// Every provider sends the text without direction marks: each is a paid character (issue 37, part 2.7).
	const plain = (to: string, text: string) => deliver(to, stripDirectionMarks(text))
	return { name, deliver: plain, send: async (to, text) => (await plain(to, text)).ok }
}

export const logSms: SmsDriver = smsDriver('log', async (to, text) => {
	logger.info(`[notify] no SMS gateway configured: an SMS of ${text.length} characters to ${maskMobile(to)} was not sent`)
	return { ok: false, provider: 'log', reason: 'no SMS provider configured', retry: false }
})

/** One request to a gateway, as an adapter builds it. */
export interface GatewayRequest {
	provider: Exclude<SmsProviderName, 'log'>
	/** The stored form of the number: only its masked form is logged. */
	to: string
	/** The message: kept out of any reason. */
	text: string
	url: string
	/** The environment variable that holds the URL, named in a reason instead of the URL. */
	urlName: string
	headers: Record<string, string>
	body: string
	timeoutMs: number
	/** Credentials and other values no reason may hold. */
	secrets: string[]
}

/** The gateway's answer: its status and up to 64 KB of its body. */
export interface GatewayAnswer {
	status: number
	body: string
}

/** A refusal or failure, before it is cleaned of the text, the number and the credentials. */
export type GatewayFailure = { ok: false; reason: string; retry: boolean }

/** Whether an HTTP status means the same message may pass later. */
export const retryableStatus = (status: number) => status >= 500 || status === 429 || status === 408

/** A failure read from an HTTP status alone, for an answer the adapter cannot read otherwise. */
export function statusFailure(status: number, detail = ''): GatewayFailure {
	const suffix = detail ? `: ${detail}` : ''
	if (status === 401 || status === 403) return { ok: false, reason: `credentials refused (HTTP ${status})${suffix}`, retry: false }
	return { ok: false, reason: `HTTP ${status}${suffix}`, retry: retryableStatus(status) }
}

/**
 * POSTs one message and reads the answer with the adapter's `read`. Never throws: no answer within the time,
 * a network error or a redirect is a failed result; a failure is logged with the masked number only.
 */
export async function postToGateway(request: GatewayRequest, read: (answer: GatewayAnswer) => { ok: true; ref?: string } | GatewayFailure): Promise<SmsResult> {
	const { provider } = request
	let result: { ok: true; ref?: string } | GatewayFailure
	try {
		// A gateway never redirects a message elsewhere: a redirect is refused rather than followed.
		const response = await fetch(request.url, { method: 'POST', headers: request.headers, body: request.body, redirect: 'error', signal: AbortSignal.timeout(request.timeoutMs) })
		const body = await readLimited(response)
		try {
			result = read({ status: response.status, body })
		} catch {
			result = { ok: false, reason: `unreadable answer (HTTP ${response.status})`, retry: retryableStatus(response.status) }
		}
	} catch (error) {
		result = describeError(error, request)
	}
	if (result.ok) return { ok: true, provider, ...(result.ref ? { ref: result.ref.slice(0, 100) } : {}) }
	const reason = cleanReason(result.reason, request)
	logger.error(`[notify] SMS to ${maskMobile(request.to)} through ${provider} failed: ${reason}`)
	return { ok: false, provider, reason, retry: result.retry }
}

const ANSWER_LIMIT = 64 * 1024

// Only the start of the answer is read; the rest is released with the connection.
async function readLimited(response: Response): Promise<string> {
	if (!response.body) return ''
	const reader = response.body.getReader()
	const decoder = new TextDecoder()
	let text = ''
	try {
		while (text.length < ANSWER_LIMIT) {
			const { done, value } = await reader.read()
			if (done) break
			text += decoder.decode(value, { stream: true })
		}
	} finally {
		await reader.cancel().catch(() => {})
	}
	return text.slice(0, ANSWER_LIMIT)
}

// Only the kind of failure: the URL may carry credentials and the request holds the text.
function describeError(error: unknown, request: GatewayRequest): GatewayFailure {
	if (!(error instanceof Error)) return { ok: false, reason: 'unknown error', retry: true }
	if (error.name === 'TimeoutError') return { ok: false, reason: `no answer within ${request.timeoutMs} ms`, retry: true }
	const cause = error.cause as { code?: unknown; message?: unknown } | undefined
	if (cause?.message === 'unexpected redirect') return { ok: false, reason: `the gateway answered with a redirect (check ${request.urlName})`, retry: false }
	if (typeof cause?.code === 'string') return { ok: false, reason: cause.code, retry: true }
	return { ok: false, reason: error.message.replaceAll(request.url, request.urlName), retry: true }
}

const ARABIC_RUN = /[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]+(?:[\s\d.,:;!?«»()-]*[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]+)*/g

/**
 * One short English line: without the text, credentials, the URL or anything like a phone number, however the
 * provider echoed them (as sent, JSON-escaped or URL-encoded; Arabic words and links, in part or whole).
 */
function cleanReason(reason: string, request: GatewayRequest): string {
	let clean = reason
	for (const secret of [request.text, request.url, ...request.secrets]) {
		if (secret.length < 3) continue
		for (const form of new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2)])) {
			clean = clean.replaceAll(form, '…')
		}
	}
	clean = clean
		.replace(/https?:\/\/\S+/g, '…')
		.replace(ARABIC_RUN, '…')
		.replace(/\+?\d{7,}/g, (digits) => '•'.repeat(Math.max(0, digits.length - 3)) + digits.slice(-3))
		.replace(/\s+/g, ' ')
		.trim()
	return clean.length > 160 ? `${clean.slice(0, 159)}…` : clean || 'no reason given'
}

export interface HttpSmsOptions {
	url: string
	token?: string
	sender?: string
	/** How long to wait for the gateway; a slow gateway must not hold up the page that triggered the message. */
	timeoutMs?: number
}

/**
 * A generic HTTP gateway: POST url with JSON `{ to: "9665XXXXXXXX", text, sender? }` and `Authorization: Bearer token`
 * when a token is set. Any 2xx is success.
 */
export function httpSms({ url, token, sender, timeoutMs = 10_000 }: HttpSmsOptions): SmsDriver {
	return smsDriver('http', (to, text) => {
		const headers: Record<string, string> = { 'Content-Type': 'application/json; charset=utf-8' }
		if (token) headers.Authorization = `Bearer ${token}`
		const body = JSON.stringify({ to: internationalMobile(to), text, ...(sender ? { sender } : {}) })
		return postToGateway({ provider: 'http', to, text, url, urlName: 'SMS_URL', headers, body, timeoutMs, secrets: token ? [token] : [] }, ({ status }) =>
			status >= 200 && status < 300 ? { ok: true } : status === 401 || status === 403 ? statusFailure(status) : { ok: false, reason: `the gateway answered HTTP ${status}`, retry: retryableStatus(status) },
		)
	})
}
