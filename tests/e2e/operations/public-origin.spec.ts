// Links we e-mail are built on the configured public origin (APP_ORIGIN), never on the Host or
// X-Forwarded-Host a request names (docs/security.md#public-origin). The production server with an
// SMTP catcher of the test's own, behind a "proxy" (TRUST_PROXY=true, so X-Forwarded-Host is read
// by Express): every request forges both headers, and the e-mails received are read. No browser.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import type { AddressInfo } from 'node:net'
import { expect, request as requests, test } from '@playwright/test'
import { SMTPServer } from 'smtp-server'
import { startAppServer } from '../../../scripts/lib/bench-app.ts'
import { stopService } from '../../../scripts/lib/bench-processes.ts'
import { preparedInstance } from '../../../scripts/lib/prepared-instance.ts'
import { submitCaseAsStaff } from '../case-fixtures.ts'

const root = process.cwd()

interface Mail {
	to: string[]
	text: string
}

/** An SMTP server on loopback that keeps every message, decoded as a reader sees it. */
async function startMailCatcher() {
	const received: Mail[] = []
	const server = new SMTPServer({
		authOptional: true,
		disabledCommands: ['STARTTLS'],
		logger: false,
		onData(stream, session, callback) {
			const chunks: Buffer[] = []
			stream.on('data', (chunk: Buffer) => chunks.push(chunk))
			stream.on('end', () => {
				// Quoted-printable soft breaks and escapes undone (nodemailer's encoding of the text part).
				const raw = Buffer.concat(chunks).toString('latin1')
				const text = Buffer.from(raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8')
				received.push({ to: session.envelope.rcptTo.map((recipient) => recipient.address), text })
				callback()
			})
		},
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const port = (server.server.address() as AddressInfo).port
	return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

/** The one message to `to` received since `since` messages, once it has arrived. */
async function mailTo(received: Mail[], to: string, since: number): Promise<Mail> {
	await expect.poll(() => received.slice(since).filter((mail) => mail.to.includes(to)).length, { timeout: 30_000 }).toBe(1)
	return received.slice(since).find((mail) => mail.to.includes(to))!
}

const forged = { Host: 'evil.example', 'X-Forwarded-Host': 'evil.example' }

test('a forged Host or X-Forwarded-Host never reaches a link we e-mail: the private link and the staff notice use APP_ORIGIN; a name typed as an address is linked by nobody', async () => {
	test.setTimeout(600_000)
	const mail = await startMailCatcher()
	const { dataDir } = await preparedInstance('pglite', 'ataa-public-origin-')
	const server = await startAppServer({
		root,
		dataDir,
		databaseUrl: undefined,
		settle: false,
		env: { SMTP_URL: mail.url, NOTIFY_EMAIL: 'cases@e2e.test', TRUST_PROXY: 'true', COOKIE_SECURE: 'false', FILE_ENCRYPTION_KEY: randomBytes(32).toString('hex') },
	})
	// startAppServer's APP_ORIGIN: the address the applicant really opens.
	const origin = server.origin
	const attacker = await requests.newContext({ baseURL: origin, extraHTTPHeaders: forged })
	try {
		const email = `family-${randomBytes(4).toString('hex')}@e2e.test`
		// A whole application, each request with the forged headers; the first step e-mails the private link.
		// An address typed as the name: the staff's notice shows it, but no mail program may make a link of it.
		const applicant = await submitCaseAsStaff(attacker, { email, name: 'https://phish.example/login عبدالله' })
		const first = await mailTo(mail.received, email, 0)
		expect(first.text).toContain(`${origin}/apply/r/${applicant.token}`)
		expect(first.text).not.toContain('evil.example')
		// Sending it told the foundation, with the case's address in the back office.
		const notice = await mailTo(mail.received, 'cases@e2e.test', 0)
		expect(notice.text).toContain(`${origin}/admin/cases/${applicant.reference}`)
		expect(notice.text).not.toContain('evil.example')
		// Both parts (plain and HTML, as received): the case's address linked, the name typed not.
		expect(notice.text).toContain(`href="${origin}/admin/cases/${applicant.reference}"`)
		expect(notice.text).toContain('https[:]//phish[.]example/login')
		expect(notice.text).not.toContain('phish.example')

		// «أرسل رابط الطلب إلى بريدي» on the lookup: a fresh link, on our origin; the old one stops working, as designed.
		const before = mail.received.length
		const sent = await attacker.post('/apply/status', {
			form: { who: 'person', nationalId: applicant.nationalId, mobile: applicant.mobile, intent: 'send-link', reference: applicant.reference },
		})
		expect(sent.status()).toBe(200)
		const answer = await sent.text()
		expect(answer).toContain(`أرسلنا رابطاً جديداً لطلب ${applicant.reference}`)
		// The lookup shows whose address it is without giving it away: the domain is masked too.
		expect(answer).toContain('f•••@e•••.test')
		expect(answer).not.toContain(email.slice(email.indexOf('@')))
		const resent = await mailTo(mail.received, email, before)
		expect(resent.text).not.toContain('evil.example')
		const link = new RegExp(`${origin.replace(/[.:/]/g, '\\$&')}/apply/r/([A-Za-z0-9_-]{43})`).exec(resent.text)
		expect(link, 'the new private link, on APP_ORIGIN').not.toBeNull()
		const visitor = await requests.newContext({ baseURL: origin })
		try {
			expect((await visitor.get(`/apply/r/${link![1]}`)).status()).toBe(200)
			expect((await visitor.get(`/apply/r/${applicant.token}`)).status()).toBe(404)
		} finally {
			await visitor.dispose()
		}
	} finally {
		await attacker.dispose()
		await stopService(server.service)
		await mail.close()
		fs.rmSync(dataDir, { recursive: true, force: true })
	}
})
