// Ataa's HTTP server: Express 5 serving the React Router build. NODE_ENV is set before anything
// loads React, so React runs its production build (docs/decisions/001-stack.md). What the operator
// set it to is kept as ATAA_ENV: it decides the app's own defaults (app/utils/env.server.ts), e.g.
// demo cases and an encryption key of its own outside production.
process.env.ATAA_ENV ??= process.env.NODE_ENV || 'development'
process.env.NODE_ENV = 'production'

const path = await import('node:path')
const fs = await import('node:fs')
const http = await import('node:http')
const zlib = await import('node:zlib')
const { fileURLToPath } = await import('node:url')
const { default: express } = await import('express')
const { default: compression } = await import('compression')
const { default: onHeaders } = await import('on-headers')
const { default: getRawBody } = await import('raw-body')
const { PassThrough } = await import('node:stream')

const root = path.dirname(fileURLToPath(import.meta.url))
const build = await import(path.join(root, 'build/server/index.js'))
/**
 * @type {{
 *   prepare: (log?: (line: string) => void) => Promise<unknown>,
 *   shutdown: () => Promise<void>,
 *   getEnv: () => { PORT: number, TRUST_PROXY: boolean, SHUTDOWN_GRACE_SECONDS: number },
 *   allowOrigin: (method: string, url: string, headers: import('node:http').IncomingHttpHeaders) => boolean,
 *   securityHeaders: (path: string) => Record<string, string>,
 *   ALLOWED_METHODS: readonly string[],
 *   METHOD_NOT_ALLOWED_PAGE: string,
 *   NOT_A_FORM: string,
 *   BODY_TOO_LARGE: string,
 *   bodyTooLargePage: (back: string) => string,
 *   bodyLimit: (path: string, contentType: string | undefined) => number | undefined,
 *   FALLBACK_POLICY: string,
 *   startDraining: () => void,
 *   serveCachedPage: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => boolean,
 *   createRequestHandler: typeof import('@react-router/express').createRequestHandler,
 *   logger: import('pino').Logger,
 *   createRequestLogger: () => (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void,
 *   takeRoute: (res: import('node:http').ServerResponse) => void,
 * }}
 */
const lifecycle = build.entry.module

try {
	await lifecycle.prepare()
} catch (error) {
	// The log is written synchronously: the line is out before the process exits.
	if (error instanceof Error && error.name === 'EnvError') lifecycle.logger.fatal(`${error.message}\nAtaa did not start.`)
	else lifecycle.logger.fatal({ err: error }, 'Ataa did not start.')
	process.exit(1)
}

const { PORT: port, TRUST_PROXY: trustProxy } = lifecycle.getEnv()
const app = express()
app.disable('x-powered-by')
// TRUST_PROXY: the one proxy in front (nginx, a load balancer) is believed about the client's address;
// what a client wrote into X-Forwarded-For before it is not.
app.set('trust proxy', trustProxy ? 1 : false)

app.use((req, res, next) => {
	// The app reads the client's address from this header; whatever a client sent under it is replaced.
	req.headers['x-ataa-client-ip'] = req.ip ?? 'unknown'
	res.set(lifecycle.securityHeaders(req.path))
	next()
})
// GET, HEAD and POST are all a page or a form sends; anything else (OPTIONS, TRACE, PUT…) gets an
// Arabic 405 here, before React Router, which cannot even make a request of TRACE (docs/security.md#errors).
app.use((req, res, next) => {
	if (lifecycle.ALLOWED_METHODS.includes(req.method)) return next()
	res
		.status(405)
		.set({ Allow: lifecycle.ALLOWED_METHODS.join(', '), 'Cache-Control': 'no-store' })
		.type('text/html; charset=utf-8')
		.send(lifecycle.METHOD_NOT_ALLOWED_PAGE)
})
app.use((req, res, next) => {
	if (lifecycle.allowOrigin(req.method, `${req.protocol}://${req.get('host')}${req.originalUrl}`, req.headers)) return next()
	res.status(403).type('text/plain; charset=utf-8').send('طلب مرفوض: مصدر الطلب غير موثوق')
})
// Pages kept by the page cache are compressed once, at their best; the rest are compressed as they
// are sent, at fast levels (brotli 3, gzip 3): on a 100 KB page brotli 3 takes 0.9 ms for 18.8 KB,
// brotli 4 1.5 ms for 17.8 KB (docs/performance.md#a-dynamic-page).
app.use(compression({ level: 3, brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 3 } } }))
// The build's own files, listed once: a page's request goes on to the app without a look on disk
// (a stat per request, 3% of a page's CPU). Hashed file names are cached for a year and never revalidated.
const clientDir = path.join(root, 'build/client')
const clientFiles = new Set(
	fs
		.readdirSync(clientDir, { recursive: true, encoding: 'utf8' })
		.filter((file) => fs.statSync(path.join(clientDir, file)).isFile())
		.map((file) => `/${file.split(path.sep).join('/')}`),
)
const assets = express.static(path.join(clientDir, 'assets'), { immutable: true, maxAge: '1y', fallthrough: false })
const otherFiles = express.static(clientDir, { maxAge: '1h', fallthrough: false })
app.use((req, res, next) => {
	if ((req.method !== 'GET' && req.method !== 'HEAD') || !clientFiles.has(req.path)) return next()
	if (req.path.startsWith('/assets/')) {
		req.url = req.url.slice('/assets'.length)
		return assets(req, res, next)
	}
	otherFiles(req, res, next)
})
const handleRequest = lifecycle.createRequestHandler({ build, mode: 'production' })
// A form's body is read here, before React Router, at most its route's limit (app/http/body-limits.server.ts):
// counted as it arrives, announced by Content-Length or chunked, and past the limit answered 413
// without reading on (docs/security.md#input). The upload endpoints stream their files themselves.
app.use(async (req, res, next) => {
	const limit = req.method === 'POST' ? lifecycle.bodyLimit(req.path, req.get('content-type')) : undefined
	if (limit === undefined) return handleRequest(req, res, next)
	/** @param {number} status @param {string} text */
	const refuse = (status, text) => {
		res.status(status).set('Cache-Control', 'no-store')
		res.once('finish', () => lingerThenClose(req))
		// A form sent by a page's script is shown its Arabic message by the route's error boundary (app/components/error-message.tsx).
		if (req.path.endsWith('.data') || status !== 413) res.type('text/plain; charset=utf-8').send(text)
		else res.type('text/html; charset=utf-8').send(lifecycle.bodyTooLargePage(req.path))
	}
	// Compressed bodies are not inflated: no page sends one.
	if ((req.get('content-encoding') ?? 'identity').toLowerCase() !== 'identity') return refuse(415, lifecycle.NOT_A_FORM)
	/** @type {Buffer} */
	let body
	try {
		body = await getRawBody(req, { limit, length: req.get('content-length') })
	} catch (error) {
		const type = /** @type {{ type?: string }} */ (error).type
		// The client went away: nobody to answer.
		if (type === 'request.aborted') return
		if (type === 'entity.too.large') return refuse(413, lifecycle.BODY_TOO_LARGE)
		// A body shorter or longer than its Content-Length, or a broken chunked encoding.
		return refuse(400, 'لم نستطع قراءة هذا الطلب. ارجع إلى الصفحة السابقة وحاول مرة أخرى.')
	}
	handleRequest(withBody(req, body), res, next)
})

/**
 * Ends the connection of a request whose body was refused unread, unless the rest arrives soon. A
 * socket closed with bytes still coming is reset, and a reset can reach the client before it has read
 * the answer: what it still sends is read and dropped for a moment first (nginx's lingering close),
 * never kept.
 * @param {import('express').Request} req
 */
function lingerThenClose(req) {
	if (req.readableEnded) return
	let dropped = 0
	const close = () => req.socket.destroy()
	const timer = setTimeout(close, 2000)
	timer.unref()
	// A body that does end in time leaves the connection as it was, for the client's next request.
	req.once('end', () => clearTimeout(timer))
	req.on('data', (/** @type {Buffer} */ chunk) => {
		dropped += chunk.length
		if (dropped > 4 * 1024 * 1024) close()
	})
	req.resume()
}

/**
 * The request as React Router's adapter reads it (its address, headers, method), with the body
 * read above in place of the socket's stream, which is spent.
 * @param {import('express').Request} req
 * @param {Buffer} body
 * @returns {import('express').Request}
 */
function withBody(req, body) {
	const replay = new PassThrough()
	replay.end(body)
	return new Proxy(req, {
		get(target, key) {
			if (!replayedKeys.has(key)) return Reflect.get(target, key)
			const value = Reflect.get(replay, key)
			return typeof value === 'function' ? value.bind(replay) : value
		},
	})
}
/**
 * What @react-router/node's createReadableStreamFromReadable uses of the request's stream.
 * @type {Set<string | symbol>}
 */
const replayedKeys = new Set(['on', 'once', 'off', 'addListener', 'removeListener', 'pause', 'resume', 'destroy', 'readable', 'readableHighWaterMark', 'pipe', 'read'])

// One log line per request, kept pages included: its id (X-Request-Id), method, route, status and
// duration (app/utils/log.server.ts, docs/operations.md#logs).
const logRequest = lifecycle.createRequestLogger()

// A public page kept by the page cache is answered here, before Express: it needs nothing else.
// Every answer says how long the server took until its headers (Server-Timing, as DevTools and
// bench:apply read it): what a visitor waits for, without the network.
// Set once SIGTERM or SIGINT arrives (stop() below).
let stopping = false
const server = http.createServer((req, res) => {
	const started = process.hrtime.bigint()
	logRequest(req, res)
	onHeaders(res, () => {
		// The route the app matched is for the log line only.
		lifecycle.takeRoute(res)
		res.setHeader('Server-Timing', `app;dur=${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(1)}`)
		// While stopping, every answer ends its connection: the client opens a new one, to another instance.
		if (stopping) res.setHeader('Connection', 'close')
		// Anything answered without a policy of its own (a redirect, a file, an error) gets one that allows
		// nothing. Not a 304: the browser would put its headers on the page it kept, policy included.
		if (res.statusCode !== 304 && !res.hasHeader('Content-Security-Policy')) res.setHeader('Content-Security-Policy', lifecycle.FALLBACK_POLICY)
	})
	if (!lifecycle.serveCachedPage(req, res)) app(req, res)
})
// An idle keep-alive connection stays open 65 s, longer than a proxy keeps its own to us (nginx's
// upstream keepalive_timeout is 60 s): Node's 5 s would close connections the proxy is about to
// reuse, and a form's POST sent on one is answered 502, since it is never sent twice
// (docs/deployment.md). A request's headers must still arrive within 66 s.
server.keepAliveTimeout = 65_000
server.headersTimeout = 66_000
server.listen(port, () => {
	lifecycle.logger.info(`Ataa is serving on http://localhost:${port}`)
})

/** @param {string} signal */
async function stop(signal) {
	if (stopping) return
	stopping = true
	const grace = lifecycle.getEnv().SHUTDOWN_GRACE_SECONDS
	lifecycle.logger.info(`${signal}: stopping; requests under way have up to ${grace} s to finish`)
	// /readyz answers 503 from now on (over connections already open: no new one is accepted).
	lifecycle.startDraining()
	// Past the bound, the process ends as a kill would end it: every save acknowledged so far survives
	// that (docs/decisions/010-pglite-durability.md), and the next start takes over the lock.
	setTimeout(() => {
		lifecycle.logger.error(`Requests still under way after ${grace} s (SHUTDOWN_GRACE_SECONDS): stopping without them`)
		process.exit(1)
	}, grace * 1000).unref()
	const closed = new Promise((resolve) => server.close(resolve))
	// close() ends the connections idle now; a keep-alive connection whose request is answered later
	// is ended then (its answer says Connection: close, see above), so that close() can return.
	const idle = setInterval(() => server.closeIdleConnections(), 100)
	await closed
	clearInterval(idle)
	// Only then the database and the data directory's lock: no request is left to use them.
	await lifecycle.shutdown()
	lifecycle.logger.info('Stopped')
	process.exit(0)
}
process.on('SIGTERM', () => void stop('SIGTERM'))
process.on('SIGINT', () => void stop('SIGINT'))
