// A form's body is read at most its route's limit, as it streams (docs/security.md#input): a body past
// it is answered 413 in Arabic, whether its Content-Length announced it or it came chunked, and the
// server stops reading it: its memory does not grow. Raw sockets, through the real server.
import fs from 'node:fs'
import net from 'node:net'
import { expect, test } from '@playwright/test'

test.describe.configure({ mode: 'default' })

/** app/http/body-limits.server.ts: an ordinary form. */
const FORM_MAX_BYTES = 256 * 1024
/** What a stranger offers: the outside assessment's 256 MB. */
const OFFERED = 256 * 1024 * 1024

/** The process listening on `port` (this machine's server), found through /proc. */
function serverPid(port: number): number {
	const inodes = new Set<string>()
	for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
		for (const line of fs.readFileSync(table, 'utf8').split('\n').slice(1)) {
			const columns = line.trim().split(/\s+/)
			// local address, state 0A (LISTEN), inode
			if (columns.length > 9 && parseInt(columns[1]!.split(':').pop()!, 16) === port && columns[3] === '0A') inodes.add(columns[9]!)
		}
	}
	for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
		let fds: string[]
		try {
			fds = fs.readdirSync(`/proc/${pid}/fd`)
		} catch {
			continue
		}
		for (const fd of fds) {
			const link = (() => {
				try {
					return fs.readlinkSync(`/proc/${pid}/fd/${fd}`)
				} catch {
					return ''
				}
			})()
			const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1]
			if (inode && inodes.has(inode)) return Number(pid)
		}
	}
	throw new Error(`no process listens on port ${port}`)
}

/** The server's resident memory, in bytes. */
const rss = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024

interface Answer {
	status: number
	head: string
	body: string
	/** Body bytes written before the answer came (or the connection ended). */
	sent: number
}

/**
 * POSTs a urlencoded body of `offered` bytes to `path` over a raw socket, its size in Content-Length
 * or chunked, a chunk at a time, and stops as soon as an answer comes.
 */
async function send(origin: string, path: string, encoding: 'length' | 'chunked', offered: number, headers: string[] = []): Promise<Answer> {
	const { hostname, port } = new URL(origin)
	const socket = net.connect(Number(port), hostname === 'localhost' ? '127.0.0.1' : hostname)
	await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject))
	let received = Buffer.alloc(0)
	let sent = 0
	let sentWhenAnswered: number | undefined
	socket.on('data', (chunk: Buffer) => {
		sentWhenAnswered ??= sent
		received = Buffer.concat([received, chunk])
	})
	// Writes refused once the server ends the connection: what was answered before is what counts.
	socket.on('error', () => {})
	const closed = new Promise((resolve) => socket.once('close', resolve))
	socket.write(
		[
			`POST ${path} HTTP/1.1`,
			`Host: ${new URL(origin).host}`,
			`Origin: ${origin}`,
			'Content-Type: application/x-www-form-urlencoded',
			encoding === 'length' ? `Content-Length: ${offered}` : 'Transfer-Encoding: chunked',
			...headers,
			'',
			'',
		].join('\r\n'),
	)
	const piece = Buffer.alloc(64 * 1024, 'a')
	piece.write('name=')
	const framed = encoding === 'length' ? piece : Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
	while (sent < offered && sentWhenAnswered === undefined && !socket.destroyed) {
		sent += piece.length
		if (!socket.write(framed)) await new Promise((resolve) => socket.once('drain', resolve).once('close', resolve).once('data', resolve))
	}
	if (encoding === 'chunked' && !socket.destroyed) socket.write('0\r\n\r\n')
	// The whole answer: the server ends the connection after it, or it is complete by its Content-Length.
	await Promise.race([closed, new Promise<void>((resolve) => {
		const check = () => {
			const text = received.toString('utf8')
			const split = text.indexOf('\r\n\r\n')
			const length = /content-length: (\d+)/i.exec(text.slice(0, split))?.[1]
			if (split >= 0 && length && received.length >= Buffer.byteLength(text.slice(0, split)) + 4 + Number(length)) resolve()
		}
		socket.on('data', check)
		check()
	})])
	socket.destroy()
	const text = received.toString('utf8')
	const split = text.indexOf('\r\n\r\n')
	return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), head: text.slice(0, split), body: text.slice(split + 4), sent: sentWhenAnswered ?? sent }
}

test('a form past its limit, announced or chunked, is answered 413 in Arabic without being read, and the server does not grow', async ({ baseURL }) => {
	const origin = new URL(baseURL!).origin
	const pid = serverPid(Number(new URL(origin).port))
	const before = rss(pid)
	for (const encoding of ['length', 'chunked'] as const) {
		const answer = await send(origin, '/apply/status', encoding, OFFERED)
		expect(answer.status, encoding).toBe(413)
		expect(answer.head, encoding).toMatch(/content-type: text\/html; charset=utf-8/i)
		expect(answer.body, encoding).toContain('ما أرسلته أكبر مما تقبله هذه الصفحة')
		expect(answer.body, encoding).toContain('href="/apply/status"')
		// The limit, and what the sockets' buffers held when the server stopped reading: far from all of it.
		expect(answer.sent, encoding).toBeLessThan(FORM_MAX_BYTES + 16 * 1024 * 1024)
	}
	// A page's script sends its form to `<path>.data`: the message comes as text, for its error boundary.
	const data = await send(origin, '/apply/status.data', 'chunked', OFFERED)
	expect(data.status).toBe(413)
	expect(data.head).toMatch(/content-type: text\/plain; charset=utf-8/i)
	expect(data.body).toContain('ما أرسلته أكبر مما تقبله هذه الصفحة')
	// Other tests share this server (an upload streams to disk): a little growth is theirs; a body read
	// whole would be hundreds of megabytes (the assessment saw 1.8 GB for 256 MB).
	expect(rss(pid) - before).toBeLessThan(96 * 1024 * 1024)
})

test('a form within its limit still reaches its page', async ({ baseURL }) => {
	const origin = new URL(baseURL!).origin
	for (const encoding of ['length', 'chunked'] as const) {
		// Its whole answer, whatever its framing: the server ends the connection after it.
		const answer = await send(origin, '/apply/status', encoding, FORM_MAX_BYTES - 64 * 1024, ['Connection: close'])
		// The lookup's own answer to a form without its fields, not the limit's.
		expect(answer.status, encoding).not.toBe(413)
		expect(answer.status, encoding).toBeLessThan(500)
		expect(answer.body, encoding).not.toContain('ما أرسلته أكبر مما تقبله هذه الصفحة')
	}
})
