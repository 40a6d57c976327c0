import { getEnv } from '#app/utils/env.server.ts'
import { logger } from '#app/utils/log.server.ts'
import { type MailPart, sendMail, smtpMail } from './mail.server.ts'
import { inquiryMail, newSubmissionMail, resumeLinkMail, statusUpdateMail, statusUpdateSms } from './messages.ts'
import { httpSms, logSms, type SmsDriver } from './sms.server.ts'

// Messages to applicants and to the foundation. A notifier is an optional mail part plus an SMS driver; without them
// the log says what was not sent, never the private link, the text or a full address or number.

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

export interface StatusUpdateMessage {
	/** The applicant's e-mail; may be '' (no e-mail then). */
	email?: string
	/** The stored form +9665XXXXXXXX; '' sends no SMS. */
	mobile: string
	reference: string
	formTitle: string
	statusName: string
	/** What happens next, as told to applicants. */
	next: string
	/** The staff member's message to the applicant. */
	applicantMessage?: string
	/** The applicant's private link. */
	link?: string
	/** Staff wrote to the applicant without changing the status: say so, not «your status changed». */
	messageOnly?: boolean
}

export interface NewSubmissionMessage {
	/** The foundation's address: NOTIFY_EMAIL, else the foundation info e-mail. */
	to: string
	reference: string
	formTitle: string
	applicantName: string
	/** https://…/admin/cases/REF */
	adminLink: string
}

export interface Notifier {
	/** Whether e-mail can be sent at all: pages offer or promise e-mail only when it can. */
	readonly emails: boolean
	/** Sends the applicant their private link; resolves false when it could not be sent. */
	sendResumeLink(message: ResumeLinkMessage): Promise<boolean>
	/** Forwards a contact-form message to the foundation (it is stored either way). */
	sendInquiry(message: InquiryMessage): Promise<boolean>
	/** Tells the applicant of a new status by e-mail and SMS, each when possible; says which were delivered. */
	sendStatusUpdate(message: StatusUpdateMessage): Promise<{ email: boolean; sms: boolean }>
	/** Tells the foundation of a new application. */
	sendNewSubmission(message: NewSubmissionMessage): Promise<boolean>
}

const maskEmail = (email: string) => email.replace(/^(.).*@/, '$1…@')

const noMail = (what: string) => {
	logger.info(`[notify] no mail transport configured: ${what}`)
	return false
}

export function createNotifier({ mail, sms }: { mail?: MailPart; sms: SmsDriver }): Notifier {
	const text = async (to: string, body: string) => {
		try {
			return await sms.send(to, body)
		} catch (error) {
			// The drivers here never throw; another one must not fail a staff member's status change either.
			logger.error(`[notify] SMS driver ${sms.name} failed: ${(error as Error).message}`)
			return false
		}
	}
	return {
		emails: Boolean(mail),
		sendResumeLink: (message) =>
			mail
				? sendMail(mail, message.reference, message.to, resumeLinkMail(message))
				: Promise.resolve(noMail(`the link of ${message.reference} was not e-mailed to ${maskEmail(message.to)}`)),
		sendInquiry: (message) =>
			mail
				? sendMail(mail, 'a contact message', message.to, inquiryMail(message))
				: Promise.resolve(noMail('a contact message was stored but not e-mailed')),
		async sendStatusUpdate(message) {
			const to = message.email
			const [email, sent] = await Promise.all([
				!to
					? false
					: mail
						? sendMail(mail, `the status of ${message.reference}`, to, statusUpdateMail(message))
						: noMail(`the status of ${message.reference} was not e-mailed to ${maskEmail(to)}`),
				message.mobile ? text(message.mobile, statusUpdateSms(message)) : false,
			])
			return { email, sms: sent }
		},
		sendNewSubmission: (message) =>
			mail
				? sendMail(mail, `the new application ${message.reference}`, message.to, newSubmissionMail(message))
				: Promise.resolve(noMail(`the foundation was not e-mailed about the new application ${message.reference}`)),
	}
}

/** No e-mail, SMS only to the log. */
export const logNotifier: Notifier = createNotifier({ sms: logSms })

let current: Notifier | undefined

/** E-mail when SMTP_URL is set; SMS through the gateway at SMS_URL when set, otherwise to the log. */
export function getNotifier(): Notifier {
	if (!current) {
		const env = getEnv()
		const mail = env.SMTP_URL ? smtpMail(env.SMTP_URL, env.MAIL_FROM) : undefined
		const sms = env.SMS_URL ? httpSms({ url: env.SMS_URL, token: env.SMS_TOKEN, sender: env.SMS_SENDER }) : logSms
		current = createNotifier({ mail, sms })
	}
	return current
}

/** Tests and the mail set-up swap the driver. */
export function setNotifier(notifier: Notifier): void {
	current = notifier
}
