import nodemailer, { type SendMailOptions } from 'nodemailer'
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

/** E-mail through the SMTP server in `url` (smtp:// or smtps://, credentials in the URL). */
export function smtpMail(url: string, from: string): MailPart {
	return { transport: nodemailer.createTransport(url), from }
}

/**
 * Sends one message; resolves false instead of throwing. A mail failure never fails what the visitor or staff member
 * did: the link is on screen, the message and the case are stored.
 */
export async function sendMail(mail: MailPart, what: string, to: string, content: MailContent): Promise<boolean> {
	try {
		await mail.transport.sendMail({ from: mail.from, textEncoding: 'quoted-printable', to, ...content })
		return true
	} catch (error) {
		logger.error(`[notify] e-mail for ${what} failed: ${(error as Error).message}`)
		return false
	}
}
