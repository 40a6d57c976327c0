import { getEnv } from '#app/utils/env.server.ts'
import { mailNotifier } from './mail.server.ts'

// Messages to applicants and to the foundation. The log driver is the default (it never writes a private link to the
// log); an e-mail driver is used when SMTP is configured, an SMS driver can be added the same way.

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
	/** Sends the applicant their private link; resolves false when it could not be sent. */
	sendResumeLink(message: ResumeLinkMessage): Promise<boolean>
	/** Forwards a contact-form message to the foundation (it is stored either way). */
	sendInquiry(message: InquiryMessage): Promise<boolean>
}

export const logNotifier: Notifier = {
	emails: false,
	async sendResumeLink(message) {
		console.log(`[notify] no mail transport configured: the link of ${message.reference} was not e-mailed to ${message.to.replace(/^(.).*@/, '$1…@')}`)
		return false
	},
	async sendInquiry() {
		console.log('[notify] no mail transport configured: a contact message was stored but not e-mailed')
		return false
	},
}

let current: Notifier | undefined

/** E-mail when SMTP_URL is set, otherwise the log driver. */
export function getNotifier(): Notifier {
	if (!current) {
		const env = getEnv()
		current = env.SMTP_URL ? mailNotifier(env.SMTP_URL, env.MAIL_FROM) : logNotifier
	}
	return current
}

/** Tests and the mail set-up swap the driver. */
export function setNotifier(notifier: Notifier): void {
	current = notifier
}
