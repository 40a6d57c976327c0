import type { SendMailOptions, Transporter } from 'nodemailer'
import { loadNodemailer } from '#app/utils/lazy-modules.server.ts'
import type { MailContent } from './messages.ts'
import { logger } from '#app/utils/log.server.ts'

/** What the notifier needs of a mail transport: nodemailer's, or a stand-in in tests. */
export interface MailTransportLike {
	sendMail(mail: SendMailOptions): Promise<unknown>
}

export interface MailPart {
	transport: MailTransportLike
	/** The From header, e.g. MAIL_FROM. */
	from: string
}

/**
 * E-mail through the SMTP server in `url` (smtp:// or smtps://, credentials in the URL). A server that
 * does not answer is given up on within about 40 s, not nodemailer's ten minutes: a staff member's
 * action waits for the first try of its messages (app/notify/outbox.server.ts).
 */
export function smtpMail(url: string, from: string): MailPart {
	// nodemailer is loaded with the first message (app/utils/lazy-modules.server.ts), its transport made once.
	let transport: Promise<Transporter> | undefined
	const open = async () => (await loadNodemailer()).createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 })
	return {
		transport: {
			sendMail: async (mail) => {
				transport ??= open()
				return (await transport).sendMail(mail)
			},
		},
		from,
	}
}

/**
 * What became of one e-mail. `reason` is the SMTP reply or the network error's code, never the
 * credentials or the text; `retry` is false for a permanent refusal (an SMTP 5xx reply: an unknown
 * address, a refused sender), true for a transient one (4xx) or no answer.
 */
export type MailResult = { ok: true; provider: 'smtp'; ref?: string } | { ok: false; provider: 'smtp'; reason: string; retry: boolean }

interface SmtpError {
	code?: string
	responseCode?: number
	response?: string
	message?: string
}

/** Codes of failures that trying again cannot mend: the message or its envelope is wrong. */
const PERMANENT_CODES = new Set(['EENVELOPE', 'EMESSAGE'])

function failure(error: unknown): MailResult {
	const { code, responseCode, response, message } = (error ?? {}) as SmtpError
	if (typeof responseCode === 'number') {
		const reply = (response ?? '').replace(/\s+/g, ' ').trim().slice(0, 200)
		return { ok: false, provider: 'smtp', reason: `SMTP ${responseCode}${reply ? `: ${reply}` : ''}`, retry: responseCode < 500 }
	}
	const reason = code ? `${code}${message ? `: ${message.slice(0, 200)}` : ''}` : (message ?? 'unknown error').slice(0, 200)
	return { ok: false, provider: 'smtp', reason, retry: !(code && PERMANENT_CODES.has(code)) }
}

/** Sends one message and says what became of it; never throws. */
export async function deliverMail(mail: MailPart, to: string, content: MailContent): Promise<MailResult> {
	try {
		const info = (await mail.transport.sendMail({ from: mail.from, textEncoding: 'quoted-printable', to, ...content })) as { messageId?: unknown } | undefined
		const ref = typeof info?.messageId === 'string' ? info.messageId.slice(0, 200) : undefined
		return { ok: true, provider: 'smtp', ...(ref ? { ref } : {}) }
	} catch (error) {
		return failure(error)
	}
}

/**
 * Sends one message that is not kept (the resume link, a contact message); resolves false instead of
 * throwing. A mail failure never fails what the visitor or staff member did: the link is on screen,
 * the message and the case are stored.
 */
export async function sendMail(mail: MailPart, what: string, to: string, content: MailContent): Promise<boolean> {
	const result = await deliverMail(mail, to, content)
	if (!result.ok) logger.error(`[notify] e-mail for ${what} failed: ${result.reason}`)
	return result.ok
}
