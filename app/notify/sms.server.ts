// Text messages to applicants. The log driver is the default: it says what was not sent without writing the text
// (it holds private links) or the full number to the log. The HTTP driver posts to a generic gateway.
import { logger } from '#app/utils/log.server.ts'

export interface SmsDriver {
	readonly name: 'log' | 'http'
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

export const logSms: SmsDriver = {
	name: 'log',
	async send(to, text) {
		logger.info(`[notify] no SMS gateway configured: an SMS of ${text.length} characters to ${maskMobile(to)} was not sent`)
		return false
	},
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
	return {
		name: 'http',
		async send(to, text) {
			const headers: Record<string, string> = { 'Content-Type': 'application/json; charset=utf-8' }
			if (token) headers.Authorization = `Bearer ${token}`
			const body = JSON.stringify({ to: internationalMobile(to), text, ...(sender ? { sender } : {}) })
			try {
				// A gateway never redirects a message elsewhere: a redirect is refused rather than followed.
				const response = await fetch(url, { method: 'POST', headers, body, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) })
				// Release the connection; the gateway's answer is not needed beyond its status.
				await response.body?.cancel().catch(() => {})
				if (response.ok) return true
				logger.error(`[notify] SMS to ${maskMobile(to)} failed: the gateway answered HTTP ${response.status}`)
				return false
			} catch (error) {
				logger.error(`[notify] SMS to ${maskMobile(to)} failed: ${describeError(error, url, timeoutMs)}`)
				return false
			}
		},
	}
}

// Only the kind of failure: the URL may carry credentials and the request holds the text.
function describeError(error: unknown, url: string, timeoutMs: number): string {
	if (!(error instanceof Error)) return 'unknown error'
	if (error.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`
	const code = (error.cause as { code?: unknown } | undefined)?.code
	if (typeof code === 'string') return code
	return error.message.replaceAll(url, 'SMS_URL')
}
