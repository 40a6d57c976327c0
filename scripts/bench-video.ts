// Memory benchmark for video uploads: a 500 MB video sent through the admin's «إضافة فيديو» form
// must raise the server's resident memory by less than 50 MB (docs/product.md#photo-and-video-galleries):
// the upload is streamed to disk, never held whole. The body is generated as it is sent (an MP4
// header, then zeros), so the client holds none of it either. A 5 MB upload in the same run is the
// reference the big one is compared with.
//   npm run bench:video -- [--mb 500] [--reference-mb 5]
// Only ever talks to this machine; the server and its data directory are removed at the end.
import { Secret, TOTP } from 'otpauth'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { buildIfNeeded } from './build-if-needed.mjs'
import { freePort } from './lib/free-port.ts'
import { positiveInt } from './lib/bench-options.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const MB = 1_000_000
// The first start draws and encodes the demo content before it answers.
const HEALTH_TIMEOUT_MS = 240_000
const staff = { email: 'bench@video.test', password: 'Bench-Video-Pass-1' }
const GOAL_MB = 50

/** The server's resident memory in MB, from /proc (VmRSS is in kB). */
function rssMb(pid: number): number {
	const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+)\s+kB/m)
	return line ? Number(line[1]) / 1000 : NaN
}

async function waitForHealth(origin: string): Promise<void> {
	const deadline = Date.now() + HEALTH_TIMEOUT_MS
	while (Date.now() < deadline) {
		if (
			await fetch(`${origin}/healthz`).then(
				(response) => response.ok,
				() => false,
			)
		)
			return
		await new Promise((resolve) => setTimeout(resolve, 500))
	}
	throw new Error('The server did not answer /healthz in time.')
}

/** Signs the bench's staff member in; returns the session cookie. */
async function signIn(origin: string): Promise<string> {
	const response = await fetch(`${origin}/login`, {
		method: 'POST',
		redirect: 'manual',
		headers: { Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({ email: staff.email, password: staff.password, redirectTo: '/admin' }),
	})
	const cookies = response.headers
		.getSetCookie()
		.map((cookie) => cookie.split(';')[0])
		.join('; ')
	if (response.status !== 302 && response.status !== 303 && response.status !== 204) throw new Error(`Sign-in failed: ${response.status}`)
	const next = response.headers.get('Location') ?? ''
	return next.startsWith('/login/two-step/setup') ? setUpTwoStep(origin, next, cookies) : cookies
}

/** An admin's first sign-in sets up two-step sign-in (docs/security.md): done here as the page asks, with the key it shows. */
async function setUpTwoStep(origin: string, path: string, pending: string): Promise<string> {
	const page = await (await fetch(`${origin}${path}`, { headers: { Cookie: pending } })).text()
	const secret = /data-testid="two-step-secret">([^<]+)</.exec(page)?.[1]?.replace(/\s/g, '')
	if (!secret) throw new Error('The two-step set-up page showed no key.')
	const response = await fetch(`${origin}${path}`, {
		method: 'POST',
		redirect: 'manual',
		headers: { Origin: origin, Cookie: pending, 'Content-Type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({ secret, code: new TOTP({ secret: Secret.fromBase32(secret) }).generate(), redirectTo: '/admin' }),
	})
	if (response.status !== 200) throw new Error(`Two-step set-up failed: ${response.status}`)
	return response.headers
		.getSetCookie()
		.map((cookie) => cookie.split(';')[0])
		.join('; ')
}

/** The smallest header file-type reads as MP4: an `ftyp` box of brand isom. */
function mp4Header(): Buffer {
	const box = Buffer.alloc(32)
	box.writeUInt32BE(32, 0)
	box.write('ftypisom', 4, 'latin1')
	box.writeUInt32BE(512, 12)
	box.write('isomiso2avc1mp41', 16, 'latin1')
	return box
}

/** The multipart body of the add-video form, generated chunk by chunk: `bytes` of video in all. */
function videoForm(boundary: string, bytes: number): { length: number; body: () => AsyncGenerator<Buffer> } {
	const head = Buffer.from(
		[
			`--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nفيديو القياس ${bytes / MB} ميغابايت`,
			`--${boundary}\r\nContent-Disposition: form-data; name="date"\r\n\r\n2026-01-01`,
			`--${boundary}\r\nContent-Disposition: form-data; name="file-upload"; filename="bench.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
		].join('\r\n'),
	)
	const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
	const chunk = Buffer.alloc(256 * 1024)
	return {
		length: head.length + bytes + tail.length,
		body: async function* () {
			yield head
			const header = mp4Header()
			yield header
			for (let left = bytes - header.length; left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left)
			yield tail
		},
	}
}

/** Posts the form and samples the server's RSS every 50 ms meanwhile; returns the status and the peak. */
async function upload(origin: string, cookie: string, pid: number, bytes: number): Promise<{ status: number; peak: number; seconds: number }> {
	const boundary = `----bench${Date.now()}`
	const form = videoForm(boundary, bytes)
	let peak = rssMb(pid)
	const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50)
	const started = performance.now()
	try {
		const status = await new Promise<number>((resolve, reject) => {
			const request = http.request(`${origin}/admin/content/videos/new`, {
				method: 'POST',
				headers: { Origin: origin, Cookie: cookie, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(form.length) },
			})
			request.once('response', (response) => {
				response.resume()
				response.once('end', () => resolve(response.statusCode ?? 0))
			})
			request.once('error', reject)
			Readable.from(form.body()).pipe(request)
		})
		return { status, peak, seconds: (performance.now() - started) / 1000 }
	} finally {
		clearInterval(sampler)
	}
}

async function settle(pid: number): Promise<number> {
	await new Promise((resolve) => setTimeout(resolve, 1500))
	return rssMb(pid)
}

async function main(): Promise<boolean> {
	const { values } = parseArgs({ options: { mb: { type: 'string' }, 'reference-mb': { type: 'string' } } })
	const bigMb = positiveInt('--mb', values.mb, 500)
	const referenceMb = positiveInt('--reference-mb', values['reference-mb'], 5)
	buildIfNeeded()
	const port = await freePort()
	const origin = `http://127.0.0.1:${port}`
	const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'ataa-bench-video-'))
	const env: NodeJS.ProcessEnv = {
		...process.env,
		PORT: String(port),
		DATA_DIR: dataDir,
		DEMO_CASES: '0',
		ADMIN_EMAIL: staff.email,
		ADMIN_PASSWORD: staff.password,
		VIDEO_MAX_MB: String(bigMb + 10),
		COOKIE_SECURE: 'false',
	}
	// The embedded database, always: an inherited DATABASE_URL must not point the bench at someone's data.
	delete env.DATABASE_URL
	const server = spawn(process.execPath, ['server.mjs'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] })
	const exited = new Promise((resolve) => server.once('exit', resolve))
	try {
		console.log(`Starting the production server on ${origin}…`)
		await waitForHealth(origin)
		const cookie = await signIn(origin)
		const pid = server.pid!
		// A first small upload warms the route up, so the reference measures the upload, not the first load of its code.
		await upload(origin, cookie, pid, MB)
		const results = []
		for (const mb of [referenceMb, bigMb]) {
			const before = await settle(pid)
			const { status, peak, seconds } = await upload(origin, cookie, pid, mb * MB)
			const after = await settle(pid)
			results.push({ mb, status, before, peak, after, rise: peak - before, seconds })
			console.log(
				`  ${String(mb).padStart(4)} MB upload: status ${status}, RSS before ${before.toFixed(1)} MB, peak ${peak.toFixed(1)} MB (rise ${(peak - before).toFixed(1)} MB), after ${after.toFixed(1)} MB, ${seconds.toFixed(1)} s (${(mb / seconds).toFixed(0)} MB/s)`,
			)
		}
		const [reference, big] = results as [(typeof results)[number], (typeof results)[number]]
		const ratio = big.rise / Math.max(reference.rise, 0.1)
		console.log(`Peak RSS rise for ${bigMb} MB: ${big.rise.toFixed(1)} MB (goal < ${GOAL_MB} MB); ${referenceMb} MB: ${reference.rise.toFixed(1)} MB; ratio ${ratio.toFixed(2)}×`)
		const stored = results.every((result) => result.status === 302 || result.status === 303)
		if (!stored) console.error('  ✖ an upload was not accepted (expected a redirect to the list)')
		return stored && big.rise < GOAL_MB
	} finally {
		server.kill('SIGTERM')
		await exited
		await fsp.rm(dataDir, { recursive: true, force: true })
	}
}

main().then(
	(ok) => process.exit(ok ? 0 : 1),
	(error: unknown) => {
		console.error(error instanceof Error ? error.message : error)
		process.exit(1)
	},
)
