// A local SMTP server for tests (smtp-server on 127.0.0.1, a port of its own, no TLS, no sign-in) that
// keeps every message it receives, read as a mail program shows it: the subject's encoded words
// decoded, and each part's text (plain and HTML) out of its quoted-printable or base64. Plain Node, no
// test runner's imports: Vitest and Playwright can both use it. Point the app at it with SMTP_URL=fake.url.
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export interface FakeMail {
	/** The envelope's recipients (RCPT TO), as the server was given them. */
	to: string[]
	/** The envelope's sender (MAIL FROM). */
	from: string
	/** The Subject header, decoded. */
	subject: string
	/** The text/plain part, decoded ('' without one). */
	text: string
	/** The text/html part, decoded ('' without one). */
	html: string
	/** Every header of the message (the top level), names in lower case, folded lines joined, encoded words decoded. */
	headers: Record<string, string>
	/** The message as received. */
	raw: string
	at: Date
}

export interface FakeSmtpServer {
	/** smtp://127.0.0.1:PORT */
	url: string
	/** The messages received, oldest first. */
	messages: FakeMail[]
	/** The first message, received or to come, that matches; rejects after timeoutMs (10 s). */
	waitForMail(match: (mail: FakeMail) => boolean, timeoutMs?: number): Promise<FakeMail>
	close(): Promise<void>
}

export async function startFakeSmtp(): Promise<FakeSmtpServer> {
	const messages: FakeMail[] = []
	const waiters = new Set<{ match: (mail: FakeMail) => boolean; resolve: (mail: FakeMail) => void }>()
	const server = new SMTPServer({
		authOptional: true,
		disabledCommands: ['STARTTLS', 'AUTH'],
		logger: false,
		onData(stream, session, callback) {
			const chunks: Buffer[] = []
			stream.on('data', (chunk: Buffer) => chunks.push(chunk))
			stream.on('end', () => {
				const raw = Buffer.concat(chunks).toString('latin1')
				const mail = readMail(raw, {
					to: session.envelope.rcptTo.map((recipient) => recipient.address),
					from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
				})
				messages.push(mail)
				for (const waiter of waiters) {
					if (waiter.match(mail)) {
						waiters.delete(waiter)
						waiter.resolve(mail)
					}
				}
				callback()
			})
		},
	})
	await new Promise<void>((resolve, reject) => {
		server.server.once('error', reject)
		server.listen(0, '127.0.0.1', () => resolve())
	})
	const port = (server.server.address() as AddressInfo).port
	return {
		url: `smtp://127.0.0.1:${port}`,
		messages,
		waitForMail(match, timeoutMs = 10_000) {
			const found = messages.find(match)
			if (found) return Promise.resolve(found)
			return new Promise((resolve, reject) => {
				const waiter = {
					match,
					resolve: (mail: FakeMail) => {
						clearTimeout(timer)
						resolve(mail)
					},
				}
				const timer = setTimeout(() => {
					waiters.delete(waiter)
					reject(new Error(`fake SMTP: no matching e-mail within ${timeoutMs} ms (${messages.length} received: ${messages.map((mail) => `${mail.to.join(',')} «${mail.subject}»`).join('; ')})`))
				}, timeoutMs)
				waiters.add(waiter)
			})
		},
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	}
}

interface Part {
	headers: Record<string, string>
	body: string
}

/** Headers and body of a message or a MIME part (`raw` in latin1: one character a byte). */
function splitPart(raw: string): Part {
	const end = raw.search(/\r?\n\r?\n/)
	const head = end < 0 ? raw : raw.slice(0, end)
	const body = end < 0 ? '' : raw.slice(end).replace(/^\r?\n\r?\n/, '')
	const headers: Record<string, string> = {}
	for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
		const colon = line.indexOf(':')
		if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
	}
	return { headers, body }
}

/** A header parameter: boundary="…", charset=utf-8. */
function parameter(header: string | undefined, name: string): string | undefined {
	const match = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i').exec(header ?? '')
	return match ? (match[1] ?? match[2]) : undefined
}

function quotedPrintableBytes(text: string): Buffer {
	const bytes = text.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
	return Buffer.from(bytes, 'latin1')
}

function decodeBody(part: Part): string {
	const encoding = (part.headers['content-transfer-encoding'] ?? '7bit').toLowerCase()
	const bytes = encoding === 'quoted-printable' ? quotedPrintableBytes(part.body) : encoding === 'base64' ? Buffer.from(part.body.replace(/\s+/g, ''), 'base64') : Buffer.from(part.body, 'latin1')
	const charset = (parameter(part.headers['content-type'], 'charset') ?? 'utf-8').toLowerCase()
	return bytes.toString(charset === 'utf-8' || charset === 'utf8' ? 'utf8' : 'latin1')
}

/** RFC 2047 encoded words (=?utf-8?B?…?= and =?utf-8?Q?…?=), those side by side joined before decoding. */
export function decodeEncodedWords(value: string): string {
	const word = /=\?([^?]+)\?([bBqQ])\?([^?]*)\?=/g
	const joined = value.replace(/(\?=)\s+(=\?)/g, '$1$2')
	return joined.replace(/(?:=\?[^?]+\?[bBqQ]\?[^?]*\?=)+/g, (run) => {
		const bytes = [...run.matchAll(word)].map(([, , encoding, data]) => (encoding!.toLowerCase() === 'b' ? Buffer.from(data!, 'base64') : quotedPrintableBytes(data!.replace(/_/g, ' '))))
		return Buffer.concat(bytes).toString('utf8')
	})
}

/** The leaves of a MIME tree: each part that is not multipart. */
function leaves(part: Part): Part[] {
	const type = (part.headers['content-type'] ?? 'text/plain').toLowerCase()
	if (!type.startsWith('multipart/')) return [part]
	const boundary = parameter(part.headers['content-type'], 'boundary')
	if (!boundary) return []
	const sections = part.body.split(`--${boundary}`)
	// The preamble before the first boundary and the epilogue after the closing one («--boundary--») are no parts.
	return sections
		.slice(1)
		.filter((section) => !section.startsWith('--'))
		.flatMap((section) => leaves(splitPart(section.replace(/^\r?\n/, ''))))
}

function readMail(raw: string, envelope: { to: string[]; from: string }): FakeMail {
	const top = splitPart(raw)
	const parts = leaves(top)
	const ofType = (type: string) => parts.find((part) => (part.headers['content-type'] ?? 'text/plain').toLowerCase().startsWith(type))
	const text = ofType('text/plain')
	const html = ofType('text/html')
	const headers = Object.fromEntries(Object.entries(top.headers).map(([name, value]) => [name, decodeEncodedWords(value)]))
	return {
		...envelope,
		subject: headers.subject ?? '',
		text: text ? decodeBody(text) : '',
		html: html ? decodeBody(html) : '',
		headers,
		raw,
		at: new Date(),
	}
}
