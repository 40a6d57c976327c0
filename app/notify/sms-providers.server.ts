// The Saudi SMS providers' drivers (docs/deployment.md#sms) and the choice among all drivers from the environment.
// Each posts one message, in UTF-8, to the number in the form 9665XXXXXXXX, and reads the provider's own answer
// into an SmsResult. tests/fakes/sms-providers.ts answers as each does; the tests drive these drivers against it.
import { EnvError, type Env } from '#app/utils/env.server.ts'
import { logger } from '#app/utils/log.server.ts'
import {
	type GatewayAnswer,
	type GatewayFailure,
	httpSms,
	internationalMobile,
	logSms,
	maskMobile,
	postToGateway,
	retryableStatus,
	type SmsDriver,
	smsDriver,
	type SmsProviderName,
	statusFailure,
} from './sms.server.ts'

const DEFAULT_TIMEOUT_MS = 10_000

type Read = { ok: true; ref?: string } | GatewayFailure

const isSuccess = (status: number) => status >= 200 && status < 300
const baseUrl = (url: string) => url.replace(/\/+$/, '')

/** The answer's JSON object, or undefined for anything else (an HTML error page, plain text). */
function jsonObject(body: string): Record<string, unknown> | undefined {
	try {
		const value: unknown = JSON.parse(body)
		return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
	} catch {
		return undefined
	}
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '')
const joined = (...parts: string[]) => parts.filter(Boolean).join(': ')

export interface UnifonicSmsOptions {
	appSid: string
	/** The sender name registered with Unifonic; without it Unifonic uses the account's default sender. */
	sender?: string
	/** The API's base, https://el.cloud.unifonic.com; a test's fake otherwise. */
	url?: string
	timeoutMs?: number
}

/**
 * Unifonic's REST API: POST {base}/rest/SMS/messages, form-encoded AppSid, SenderID, Recipient, Body. It answers
 * JSON `{ success, message, errorCode, data: { MessageID, Status, … } }`; a refusal is `success: false` with an
 * errorCode such as ER-02 (invalid number) or ER-08 (sender not registered), documented with HTTP 200 or 4xx alike.
 * Its answer to a wrong AppSid is not documented: an HTTP 401 or 403 is read as refused credentials.
 */
export function unifonicSms({ appSid, sender, url = 'https://el.cloud.unifonic.com', timeoutMs = DEFAULT_TIMEOUT_MS }: UnifonicSmsOptions): SmsDriver {
	const endpoint = `${baseUrl(url)}/rest/SMS/messages`
	return smsDriver('unifonic', (to, message) => {
		// URLSearchParams percent-encodes the text as UTF-8; Unifonic sends Arabic as UCS-2 by itself.
		const form = new URLSearchParams({ AppSid: appSid, ...(sender ? { SenderID: sender } : {}), Recipient: internationalMobile(to), Body: message, responseType: 'JSON' })
		return postToGateway(
			{
				provider: 'unifonic',
				to,
				text: message,
				url: endpoint,
				urlName: 'UNIFONIC_URL',
				headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
				body: form.toString(),
				timeoutMs,
				secrets: [appSid],
			},
			readUnifonic,
		)
	})
}

function readUnifonic({ status, body }: GatewayAnswer): Read {
	const json = jsonObject(body)
	const data = json?.data && typeof json.data === 'object' ? (json.data as Record<string, unknown>) : {}
	const detail = joined(text(json?.errorCode), text(json?.message))
	if (isSuccess(status) && (json?.success === true || json?.success === 'true')) {
		// Accepted for sending, unless the message itself is already marked refused.
		const state = text(data.Status)
		if (/^(rejected|failed)$/i.test(state)) return { ok: false, reason: `message ${state.toLowerCase()}`, retry: false }
		return { ok: true, ref: text(data.MessageID) || undefined }
	}
	if (status === 401 || status === 403 || retryableStatus(status)) return statusFailure(status, detail)
	if (detail) return { ok: false, reason: detail, retry: false }
	return isSuccess(status) ? { ok: false, reason: `unreadable answer (HTTP ${status})`, retry: false } : statusFailure(status)
}

export interface TaqnyatSmsOptions {
	/** The bearer token of the account's application. */
	token: string
	/** The sender name registered with Taqnyat (required by its API). */
	sender: string
	/** The API's base, https://api.taqnyat.sa; a test's fake otherwise. */
	url?: string
	timeoutMs?: number
}

/**
 * Taqnyat's API: POST {base}/v1/messages with `Authorization: Bearer token` and JSON `{ recipients: [...], body,
 * sender }`. It answers 201 `{ statusCode, messageId, accepted, rejected, … }`; an error is `{ statusCode, message }`
 * with the HTTP status (401 for a wrong token, 400 for a refused request). A number listed as rejected and none
 * accepted is a refusal, whatever the status.
 */
export function taqnyatSms({ token, sender, url = 'https://api.taqnyat.sa', timeoutMs = DEFAULT_TIMEOUT_MS }: TaqnyatSmsOptions): SmsDriver {
	const endpoint = `${baseUrl(url)}/v1/messages`
	return smsDriver('taqnyat', (to, message) =>
		postToGateway(
			{
				provider: 'taqnyat',
				to,
				text: message,
				url: endpoint,
				urlName: 'TAQNYAT_URL',
				headers: { 'Content-Type': 'application/json; charset=utf-8', Accept: 'application/json', Authorization: `Bearer ${token}` },
				body: JSON.stringify({ recipients: [internationalMobile(to)], body: message, sender }),
				timeoutMs,
				secrets: [token],
			},
			readTaqnyat,
		),
	)
}

function readTaqnyat({ status, body }: GatewayAnswer): Read {
	const json = jsonObject(body)
	// The body repeats the status; where they differ, the body's is the provider's word.
	const code = typeof json?.statusCode === 'number' && !isSuccess(json.statusCode) ? json.statusCode : status
	const detail = text(json?.message)
	if (isSuccess(code) && json?.messageId !== undefined && json.messageId !== null) {
		const accepted = text(json.accepted)
		const rejected = text(json.rejected)
		if (/\d/.test(rejected) && !/\d/.test(accepted)) return { ok: false, reason: joined('the number was rejected', detail), retry: false }
		return { ok: true, ref: text(json.messageId) || undefined }
	}
	if (isSuccess(code)) return { ok: false, reason: `unreadable answer (HTTP ${status})`, retry: false }
	return statusFailure(code, detail)
}

export interface MsegatSmsOptions {
	userName: string
	apiKey: string
	/** The sender name registered with Msegat (required by its API). */
	sender: string
	/** The API's base, https://www.msegat.com; a test's fake otherwise. */
	url?: string
	timeoutMs?: number
}

/** Msegat's answer codes that mean the account's user name or API key was refused. */
const MSEGAT_LOGIN_CODES = new Set(['M0002', '1020'])
const MSEGAT_MESSAGES: Record<string, string> = {
	M0001: 'Variables missing',
	M0002: 'Invalid login info',
	'1010': 'Variables missing',
	'1020': 'Invalid login info',
	'1050': 'MSG body is empty',
	'1060': 'Balance is not enough',
	'1061': 'MSG duplicated',
	'1110': 'Sender name is missing or incorrect',
	'1120': 'Mobile numbers are not correct',
	'1140': 'MSG length is too long',
}

/**
 * Msegat's API: POST {base}/gw/sendsms.php with JSON `{ userName, numbers, userSender, apiKey, msg, msgEncoding }`.
 * It answers HTTP 200 `{ code, message }` whatever became of the message: code "1" or "M0000" is sent, any
 * other code a refusal (M0002 and 1020 are refused credentials). It gives no message id unless a bulk id is asked
 * for, which is not.
 */
export function msegatSms({ userName, apiKey, sender, url = 'https://www.msegat.com', timeoutMs = DEFAULT_TIMEOUT_MS }: MsegatSmsOptions): SmsDriver {
	const endpoint = `${baseUrl(url)}/gw/sendsms.php`
	return smsDriver('msegat', (to, message) =>
		postToGateway(
			{
				provider: 'msegat',
				to,
				text: message,
				url: endpoint,
				urlName: 'MSEGAT_URL',
				headers: { 'Content-Type': 'application/json; charset=utf-8', Accept: 'application/json' },
				// msgEncoding says the text is UTF-8 (Arabic included); Msegat encodes it for the air.
				body: JSON.stringify({ userName, numbers: internationalMobile(to), userSender: sender, apiKey, msg: message, msgEncoding: 'UTF8' }),
				timeoutMs,
				secrets: [apiKey, userName],
			},
			readMsegat,
		),
	)
}

function readMsegat({ status, body }: GatewayAnswer): Read {
	const json = jsonObject(body)
	// Some of Msegat's answers are the bare code as text.
	const bare = body.trim()
	const code = json ? text(json.code) : /^[A-Z]?\d{1,5}$/.test(bare) ? bare : ''
	const detail = text(json?.message) || MSEGAT_MESSAGES[code] || ''
	if (!isSuccess(status)) return statusFailure(status, joined(code, detail))
	if (code === '1' || code === 'M0000') return { ok: true }
	if (MSEGAT_LOGIN_CODES.has(code)) return { ok: false, reason: `credentials refused (${joined(code, detail)})`, retry: false }
	if (code) return { ok: false, reason: joined(code, detail || 'refused'), retry: false }
	return { ok: false, reason: `unreadable answer (HTTP ${status})`, retry: false }
}

/** The provider SMS_PROVIDER names; unset, the generic gateway when SMS_URL is set, else the log. */
export function smsProviderName(env: Pick<Env, 'SMS_PROVIDER' | 'SMS_URL'>): SmsProviderName {
	return env.SMS_PROVIDER ?? (env.SMS_URL ? 'http' : 'log')
}

/** Each provider's settings, with what each is for in the fix a start prints. */
const REQUIRED: Record<SmsProviderName, { name: keyof Env; set: (env: Env) => boolean }[]> = {
	log: [],
	http: [{ name: 'SMS_URL', set: (env) => Boolean(env.SMS_URL) }],
	unifonic: [
		{ name: 'UNIFONIC_APP_SID', set: (env) => Boolean(env.UNIFONIC_APP_SID) },
		{ name: 'SMS_SENDER', set: (env) => Boolean(env.SMS_SENDER) },
	],
	taqnyat: [
		{ name: 'TAQNYAT_TOKEN', set: (env) => Boolean(env.TAQNYAT_TOKEN) },
		{ name: 'SMS_SENDER', set: (env) => Boolean(env.SMS_SENDER) },
	],
	msegat: [
		{ name: 'MSEGAT_USERNAME', set: (env) => Boolean(env.MSEGAT_USERNAME) },
		{ name: 'MSEGAT_API_KEY', set: (env) => Boolean(env.MSEGAT_API_KEY) },
		{ name: 'SMS_SENDER', set: (env) => Boolean(env.SMS_SENDER) },
	],
}

function missingSettings(env: Env, provider: SmsProviderName): string | undefined {
	const needed = REQUIRED[provider]
	const missing = needed.filter((setting) => !setting.set(env)).map((setting) => setting.name)
	if (!missing.length) return undefined
	const names = needed.map((setting) => setting.name).join(' and ')
	const sender = needed.some((setting) => setting.name === 'SMS_SENDER') ? ' (SMS_SENDER: the sender name registered with the provider)' : ''
	return `SMS_PROVIDER=${provider} needs ${names}${sender}; not set: ${missing.join(', ')} (docs/deployment.md#sms)`
}

/**
 * A one-line English fix when SMS cannot work as configured: the chosen provider lacks a setting, or a production
 * install would verify applicants' mobiles with codes that only reach the log. Undefined when all is well.
 */
export function smsConfigProblem(env: Env): string | undefined {
	const provider = smsProviderName(env)
	const missing = missingSettings(env, provider)
	if (missing) return missing
	if (provider === 'log' && env.NODE_ENV === 'production' && env.APPLICANT_VERIFICATION === 'on') {
		return "applicants' mobiles are verified by SMS: set SMS_PROVIDER and its keys (docs/deployment.md#sms), or APPLICANT_VERIFICATION=off (docs/security.md#verified-mobile explains the risk)"
	}
	return undefined
}

/** Start-up's check: in production a problem stops the start (as an unset APP_ORIGIN does); otherwise it is a warning. */
export function checkSmsConfig(env: Env, warn: (line: string) => void): void {
	const problem = smsConfigProblem(env)
	if (!problem) return
	if (env.NODE_ENV === 'production') throw new EnvError(problem)
	warn(`SMS: ${problem}`)
}

/** The driver the environment chooses (SMS_PROVIDER, docs/deployment.md#sms). A provider lacking its settings sends nothing and says so. */
export function createSmsDriver(env: Env, { timeoutMs = DEFAULT_TIMEOUT_MS }: { timeoutMs?: number } = {}): SmsDriver {
	const provider = smsProviderName(env)
	const problem = missingSettings(env, provider)
	if (problem) {
		return smsDriver(provider, async (to) => {
			logger.error(`[notify] SMS to ${maskMobile(to)} not sent: ${problem}`)
			return { ok: false, provider, reason: `${provider} is not configured`, retry: false }
		})
	}
	const sender = env.SMS_SENDER ?? ''
	switch (provider) {
		case 'log':
			return logSms
		case 'http':
			return httpSms({ url: env.SMS_URL ?? '', token: env.SMS_TOKEN, sender: env.SMS_SENDER, timeoutMs })
		case 'unifonic':
			return unifonicSms({ appSid: env.UNIFONIC_APP_SID ?? '', sender, url: env.UNIFONIC_URL, timeoutMs })
		case 'taqnyat':
			return taqnyatSms({ token: env.TAQNYAT_TOKEN ?? '', sender, url: env.TAQNYAT_URL, timeoutMs })
		case 'msegat':
			return msegatSms({ userName: env.MSEGAT_USERNAME ?? '', apiKey: env.MSEGAT_API_KEY ?? '', sender, url: env.MSEGAT_URL, timeoutMs })
	}
}
