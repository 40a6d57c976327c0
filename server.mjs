// Ataa's HTTP server: Express 5 serving the React Router build. NODE_ENV is set before anything
// loads React, so React runs its production build (docs/decisions/001-stack.md). What the operator
// set it to is kept as ATAA_ENV: it decides the app's own defaults (app/utils/env.server.ts), e.g.
// demo cases and an encryption key of its own outside production.
process.env.ATAA_ENV ??= process.env.NODE_ENV || 'development'
process.env.NODE_ENV = 'production'

const path = await import('node:path')
const http = await import('node:http')
const zlib = await import('node:zlib')
const { fileURLToPath } = await import('node:url')
const { default: express } = await import('express')
const { default: compression } = await import('compression')
const { default: onHeaders } = await import('on-headers')

const root = path.dirname(fileURLToPath(import.meta.url))
const build = await import(path.join(root, 'build/server/index.js'))
/**
 * @type {{
 *   prepare: (log?: (line: string) => void) => Promise<unknown>,
 *   shutdown: () => Promise<void>,
 *   getEnv: () => { PORT: number, TRUST_PROXY: boolean },
 *   allowOrigin: (method: string, url: string, headers: import('node:http').IncomingHttpHeaders) => boolean,
 *   securityHeaders: (path: string) => Record<string, string>,
 *   FALLBACK_POLICY: string,
 *   startDraining: () => void,
 *   serveCachedPage: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => boolean,
 *   createRequestHandler: typeof import('@react-router/express').createRequestHandler,
 * }}
 */
const lifecycle = build.entry.module

try {
	await lifecycle.prepare()
} catch (error) {
	console.error(error instanceof Error && error.name === 'EnvError' ? error.message : error)
	console.error('Ataa did not start.')
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
app.use((req, res, next) => {
	if (lifecycle.allowOrigin(req.method, `${req.protocol}://${req.get('host')}${req.originalUrl}`, req.headers)) return next()
	res.status(403).type('text/plain; charset=utf-8').send('طلب مرفوض: مصدر الطلب غير موثوق')
})
// Pages kept by the page cache are compressed once, at their best; the rest are compressed as they
// are sent, at levels that cost less than drawing the page did (brotli 4, gzip 6).
app.use(compression({ level: 6, brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } } }))
// Hashed file names: cached for a year and never revalidated.
app.use('/assets', express.static(path.join(root, 'build/client/assets'), { immutable: true, maxAge: '1y' }))
app.use(express.static(path.join(root, 'build/client'), { maxAge: '1h' }))
app.use(lifecycle.createRequestHandler({ build, mode: 'production' }))

// A public page kept by the page cache is answered here, before Express: it needs nothing else.
// Every answer says how long the server took until its headers (Server-Timing, as DevTools and
// bench:apply read it): what a visitor waits for, without the network.
const server = http.createServer((req, res) => {
	const started = process.hrtime.bigint()
	onHeaders(res, () => {
		res.setHeader('Server-Timing', `app;dur=${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(1)}`)
		// Anything answered without a policy of its own (a redirect, a file, an error) gets one that allows
		// nothing. Not a 304: the browser would put its headers on the page it kept, policy included.
		if (res.statusCode !== 304 && !res.hasHeader('Content-Security-Policy')) res.setHeader('Content-Security-Policy', lifecycle.FALLBACK_POLICY)
	})
	if (!lifecycle.serveCachedPage(req, res)) app(req, res)
})
server.listen(port, () => {
	console.log(`Ataa is serving on http://localhost:${port}`)
})

let stopping = false
/** @param {string} signal */
async function stop(signal) {
	if (stopping) return
	stopping = true
	console.log(`${signal}: closing`)
	// /readyz answers 503 from now on; requests under way are finished before the database closes.
	lifecycle.startDraining()
	setTimeout(() => process.exit(1), 10_000).unref()
	server.close()
	server.closeIdleConnections()
	await lifecycle.shutdown()
	process.exit(0)
}
process.on('SIGTERM', () => void stop('SIGTERM'))
process.on('SIGINT', () => void stop('SIGINT'))
