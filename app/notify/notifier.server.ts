import { getEnv } from '#app/utils/env.server.ts'
import { logger } from '#app/utils/log.server.ts'
import { type MailPart, sendMail, smtpMail } from './mail.server.ts'
import { inquiryMail, resumeLinkMail } from './messages.ts'
import type { SmsDriver } from './sms.server.ts'
import { createSmsDriver } from './sms-providers.server.ts'

// The drivers messages go out through: the mail part (SMTP_URL) and the SMS driver (SMS_PROVIDER).
// What is said to applicants about their case, and to the foundation of a new application, is kept
// and retried by the outbox (app/notify/outbox.server.ts); the two e-mails here are not kept: the
// private link is a secret, and a contact message is stored as the inquiry itself. Without a mail
// part the log says what was not sent, never the link or a full address.

export interface ResumeLinkMessage {
	to: string
	reference: string
	formTitle: string
	link: string
}

export interface InquiryMessage {
	/** The foundation's own address (foundation info). */
	to: string
	name: string
	email: string
	mobile: string
	subject: string
	message: string
}

export interface Notifier {
	/** Whether e-mail can be sent at all: pages offer or promise e-mail only when it can. */
	readonly emails: boolean
	/** The mail transport, when there is one: the outbox sends its e-mails through it too. */
	readonly mail?: MailPart
	/** Sends the applicant their private link; resolves false when it could not be sent. */
	sendResumeLink(message: ResumeLinkMessage): Promise<boolean>
	/** Forwards a contact-form message to the foundation (it is stored either way). */
	sendInquiry(message: InquiryMessage): Promise<boolean>
}

const maskEmail = (email: string) => email.replace(/^(.).*@/, '$1…@')

const noMail = (what: string) => {
	logger.info(`[notify] no mail transport configured: ${what}`)
	return false
}

export function createNotifier({ mail }: { mail?: MailPart }): Notifier {
	return {
		emails: Boolean(mail),
		...(mail ? { mail } : {}),
		sendResumeLink: (message) =>
			mail
				? sendMail(mail, message.reference, message.to, resumeLinkMail(message))
				: Promise.resolve(noMail(`the link of ${message.reference} was not e-mailed to ${maskEmail(message.to)}`)),
		sendInquiry: (message) =>
			mail
				? sendMail(mail, 'a contact message', message.to, inquiryMail(message))
				: Promise.resolve(noMail('a contact message was stored but not e-mailed')),
	}
}

/** No e-mail. */
export const logNotifier: Notifier = createNotifier({})

let current: Notifier | undefined

/** E-mail when SMTP_URL is set. */
export function getNotifier(): Notifier {
	if (!current) {
		const env = getEnv()
		current = createNotifier({ mail: env.SMTP_URL ? smtpMail(env.SMTP_URL, env.MAIL_FROM) : undefined })
	}
	return current
}

/** Tests and the mail set-up swap the driver. */
export function setNotifier(notifier: Notifier): void {
	current = notifier
}

/**
 * What sending an SMS needs of a driver: its answer says whether to try again (app/notify/sms.server.ts).
 * Its name, when it has one: `log` sends nothing (a verification code is then written to the log).
 */
export type SmsSender = Pick<SmsDriver, 'deliver'> & { readonly name?: SmsDriver['name'] }

let sms: SmsSender | undefined

/** The SMS driver the environment names (SMS_PROVIDER; the log when none), made once. */
export function getSmsDriver(): SmsSender {
	sms ??= createSmsDriver(getEnv())
	return sms
}

/** Tests put a fake driver in its place; undefined goes back to the environment's. */
export function setSmsDriver(driver: SmsSender | undefined): void {
	sms = driver
}
