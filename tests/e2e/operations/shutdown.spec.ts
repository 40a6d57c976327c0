// Graceful shutdown (server.mjs, stop()): on SIGTERM the server stops accepting connections, says
// 503 on /readyz over those already open while /healthz still answers, lets the requests under way
// finish (an upload half sent), then closes the database, releases DATA_DIR/ataa.lock and exits 0.
// Past SHUTDOWN_GRACE_SECONDS it exits 1 without them, and the next start takes over. No browser.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { startAppServer, type AppServer } from '../../../scripts/lib/bench-app.ts'
import { stopService } from '../../../scripts/lib/bench-processes.ts'
import { preparedInstance } from '../../../scripts/lib/prepared-instance.ts'
import { basicValues, caseByToken, randomNationalId, storedAttachments } from '../../../scripts/lib/crash-loop.ts'
import { openDatabase } from '#app/db/client.server.ts'
import { lockDataDir } from '#app/utils/data-dir-lock.server.ts'
import { pdfOfSize } from '#tests/fixtures/pdf.ts'

const root = process.cwd()

interface Answer {
	status: number
	headers: http.IncomingHttpHeaders
	body: string
}

/** A new application's private link token (POST /apply/needy-families/new, as a browser without JavaScript). */
async function startApplication(origin: string): Promise<string> {
	const response = await fetch(`${origin}/apply/needy-families/new`, {
		method: 'POST',
		body: new URLSearchParams({ website: '', ...(basicValues(randomNationalId(), '0551234567') as Record<string, string>) }),
		headers: { Origin: origin },
		redirect: 'manual',
	})
	expect(response.status).toBe(302)
	return new URL(response.headers.get('location')!, origin).pathname.split('/').at(-1)!
}

/**
 * The files being written to DATA_DIR/uploads/tmp, by name: the upload streams what it receives
 * there (app/storage/upload-stream.server.ts), and so does other work for a moment (a document made
 * of pages at start-up), which is why a new name, not a count, says the upload has begun.
 */
function receivingFiles(dataDir: string): string[] {
	const dir = path.join(dataDir, 'uploads', 'tmp')
	if (!fs.existsSync(dir)) return []
	return fs.readdirSync(dir).filter((name) => {
		try {
			return fs.statSync(path.join(dir, name)).size > 0
		} catch {
			// Gone between the listing and the look: another piece of work's file, done.
			return false
		}
	})
}

/**
 * An upload to the identity slot, its body sent in two halves: `finish` sends the second one.
 * It returns once the server is writing the file (a busy server may take its time to get there).
 */
async function halfSentUpload(server: AppServer, dataDir: string, token: string, pdf: Uint8Array<ArrayBuffer>) {
	const form = new FormData()
	form.append('slot', 'identity')
	form.append('file', new File([pdf], 'identity.pdf', { type: 'application/pdf' }))
	const encoded = new Request('http://localhost/', { method: 'POST', body: form })
	const body = Buffer.from(await encoded.arrayBuffer())
	const { port } = new URL(server.origin)
	const request = http.request({
		host: '127.0.0.1',
		port,
		method: 'POST',
		path: `/apply/r/${token}/files/upload`,
		agent: false,
		headers: { Origin: server.origin, Accept: 'application/json', 'Content-Type': encoded.headers.get('content-type')!, 'Content-Length': body.length },
	})
	const answer = new Promise<Answer>((resolve, reject) => {
		request.once('error', reject)
		request.once('response', (response) => {
			let text = ''
			response.setEncoding('utf8')
			response.on('data', (chunk: string) => (text += chunk))
			response.once('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text }))
			response.once('error', reject)
		})
	})
	const half = Math.floor(body.length / 2)
	const before = new Set(receivingFiles(dataDir))
	request.write(body.subarray(0, half))
	// The server has the request once its handler is writing the file to disk, not when the bytes left:
	// a new file still there a poll later (the half-sent upload's stays; another's is gone in a moment).
	let earlier = new Set<string>()
	await expect
		.poll(
			() => {
				const now = receivingFiles(dataDir).filter((name) => !before.has(name))
				const lasting = now.some((name) => earlier.has(name))
				earlier = new Set(now)
				return lasting
			},
			{ timeout: 60_000 },
		)
		.toBe(true)
	return { answer, finish: () => request.end(body.subarray(half)) }
}

/**
 * A GET on a connection opened now, its request line and headers sent but for the blank line that
 * ends them: the connection is busy (not idle) when SIGTERM arrives. `finish` sends the blank line.
 */
async function heldGet(server: AppServer, pathname: string) {
	const { port } = new URL(server.origin)
	const socket = net.connect(Number(port), '127.0.0.1')
	await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject))
	const received: Buffer[] = []
	socket.on('data', (chunk: Buffer) => received.push(chunk))
	const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()))
	// One whole request first, and in the same write the second one's request line and headers but for
	// their blank line. The server reads both at once: by the time the first answer arrives, it has begun
	// the second request, so SIGTERM finds the connection busy, never idle (close() would end an idle one),
	// however slowly a busy server gets to its sockets.
	socket.write(`GET ${pathname} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\nGET ${pathname} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`)
	await expect.poll(() => wholeAnswer(Buffer.concat(received).toString('utf8')), { timeout: 60_000 }).toBe(true)
	received.length = 0
	return {
		async finish(): Promise<Answer> {
			socket.write('\r\n')
			// Every answer while stopping says Connection: close: the server ends the connection after it.
			await ended
			const raw = Buffer.concat(received).toString('utf8')
			const [head = '', ...rest] = raw.split('\r\n\r\n')
			const lines = head.split('\r\n')
			const headers: http.IncomingHttpHeaders = {}
			for (const line of lines.slice(1)) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim()
			let body = rest.join('\r\n\r\n')
			if (headers['transfer-encoding'] === 'chunked') body = dechunk(body)
			return { status: Number(lines[0]!.split(' ')[1]), headers, body }
		},
	}
}

/** Whether `raw` holds a whole answer, sent with a Content-Length or in chunks. */
function wholeAnswer(raw: string): boolean {
	const end = raw.indexOf('\r\n\r\n')
	if (end < 0) return false
	const length = /\r\ncontent-length: *(\d+)/i.exec(raw.slice(0, end))
	return length ? Buffer.byteLength(raw.slice(end + 4)) >= Number(length[1]) : raw.endsWith('\r\n0\r\n\r\n')
}

function dechunk(text: string): string {
	let body = ''
	for (let rest = text; ; ) {
		const end = rest.indexOf('\r\n')
		const size = parseInt(rest.slice(0, end), 16)
		if (!size) return body
		body += rest.slice(end + 2, end + 2 + size)
		rest = rest.slice(end + 2 + size + 2)
	}
}

/** Whether a new TCP connection to the server is refused (ECONNREFUSED) rather than accepted. */
function connectionRefused(server: AppServer): Promise<boolean> {
	const { port } = new URL(server.origin)
	return new Promise((resolve, reject) => {
		const socket = net.connect(Number(port), '127.0.0.1')
		socket.once('connect', () => {
			socket.destroy()
			resolve(false)
		})
		// A connection the closing listener had queued may be reset rather than refused: not refused yet, ask again.
		socket.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNREFUSED' ? resolve(true) : error.code === 'ECONNRESET' ? resolve(false) : reject(error)))
	})
}

test('SIGTERM lets the upload under way finish, says 503 on /readyz meanwhile, then exits 0 and frees the data directory (PGlite)', async () => {
	// Preparing the instance (when this test asks first) and three starts take minutes on a busy machine.
	test.setTimeout(300_000)
	const { dataDir } = await preparedInstance('pglite', 'ataa-shutdown-')
	const env = { FILE_ENCRYPTION_KEY: randomBytes(32).toString('hex') }
	let server: AppServer | undefined
	try {
		// A bound far beyond what this step needs, even on a busy machine: the last step tests the bound.
		server = await startAppServer({ root, dataDir, databaseUrl: undefined, settle: false, env: { ...env, SHUTDOWN_GRACE_SECONDS: '60' } })
		const running = server

		await test.step('/healthz and /readyz answer in a word, and nothing more', async () => {
			for (const [pathname, word] of [
				['/healthz', 'ok'],
				['/readyz', 'ready'],
			] as const) {
				const response = await fetch(running.origin + pathname)
				expect(response.status).toBe(200)
				expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8')
				expect(response.headers.get('cache-control')).toBe('no-store')
				expect(response.headers.get('set-cookie')).toBeNull()
				expect(await response.text()).toBe(word)
			}
		})

		const token = await startApplication(running.origin)
		const pdf = pdfOfSize(400_000)
		await test.step('SIGTERM with an upload half sent: the upload completes, /readyz says 503, /healthz 200, new connections are refused', async () => {
			const upload = await halfSentUpload(running, dataDir, token, pdf)
			const readyz = await heldGet(running, '/readyz')
			const healthz = await heldGet(running, '/healthz')
			expect(fs.existsSync(path.join(dataDir, 'ataa.lock'))).toBe(true)
			running.service.child.kill('SIGTERM')
			await expect.poll(() => connectionRefused(running), { timeout: 20_000 }).toBe(true)

			const ready = await readyz.finish()
			expect(ready.status).toBe(503)
			expect(ready.headers['content-type']).toBe('text/plain; charset=utf-8')
			expect(ready.body).toBe('draining')
			const health = await healthz.finish()
			expect(health.status).toBe(200)
			expect(health.body).toBe('ok')
			// Still up: the upload has half its body to come.
			expect(running.service.exit).toBeUndefined()

			upload.finish()
			const answer = await upload.answer
			expect(answer.status).toBe(200)
			expect(JSON.parse(answer.body)).toEqual({ ok: true, error: null })
			expect(await running.service.exited).toEqual({ code: 0, signal: null })
			expect(fs.existsSync(path.join(dataDir, 'ataa.lock'))).toBe(false)
		})

		await test.step('the upload finished during the drain is stored: its row, with the bytes sent', async () => {
			const release = lockDataDir(dataDir, 'shutdown test')
			const handle = await openDatabase({ dataDir: path.join(dataDir, 'pgdata') })
			try {
				const row = await caseByToken(handle, token)
				// The identity's one page, the PDF sent made again (docs/security.md#uploads: its padding goes, its page stays); its document is made from it after the answer.
				const files = (await storedAttachments(handle, row!.id)).filter((file) => file.slot === 'page:identity')
				expect(files.map((file) => file.slot)).toEqual(['page:identity'])
				expect(files[0]!.size).toBeGreaterThan(0)
				expect(files[0]!.size).toBeLessThan(pdf.length)
				expect(files[0]!.sha256).toMatch(/^[0-9a-f]{64}$/)
			} finally {
				await handle.close()
				release()
			}
		})

		await test.step('past SHUTDOWN_GRACE_SECONDS the server stops without the request still under way (exit 1); the next start takes over', async () => {
			server = await startAppServer({ root, dataDir, databaseUrl: undefined, settle: false, env: { ...env, SHUTDOWN_GRACE_SECONDS: '1' } })
			const impatient = server
			// Half an upload, never finished: the client has gone quiet.
			const stalled = await halfSentUpload(impatient, dataDir, token, pdf)
			stalled.answer.catch(() => {})
			impatient.service.child.kill('SIGTERM')
			// Exit 1 is the bound's: a drain that ended by itself exits 0, and this one could not end.
			expect(await impatient.service.exited).toEqual({ code: 1, signal: null })
			expect(impatient.service.log.some((line) => line.includes('SHUTDOWN_GRACE_SECONDS'))).toBe(true)

			server = await startAppServer({ root, dataDir, databaseUrl: undefined, settle: false, env })
			expect((await fetch(`${server.origin}/readyz`)).status).toBe(200)
			await stopService(server.service)
			expect(server.service.exit).toEqual({ code: 0, signal: null })
		})
	} catch (error) {
		// What the server said, for whoever reads the failure.
		if (server) console.log(`The server's last lines:\n  ${server.service.log.slice(-30).join('\n  ')}`)
		throw error
	} finally {
		if (server) await stopService(server.service, 'SIGKILL')
		fs.rmSync(dataDir, { recursive: true, force: true })
	}
})
