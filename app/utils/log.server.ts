// The server's log (docs/operations.md#logs): pino, one JSON object a line (or pretty lines for a person
// at a terminal). Nothing secret may reach it: pino's redact removes password-, token- and cookie-like
// fields, and every line is scrubbed as text on its way out, so national IDs, IBANs, mobiles and private
// links are masked whatever wrote them (an error's message, a path, a stack).
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { pino, type Logger } from 'pino'
import { pinoHttp } from 'pino-http'
import { prettyFactory } from 'pino-pretty'
import { isRouteErrorResponse, type MiddlewareFunction } from 'react-router'

export type { Logger }

/** A request's id: the caller's X-Request-Id when it looks like one, else a new UUID; sent back under the same name. */
export const REQUEST_ID_HEADER = 'x-request-id'
/** The matched route's pattern, set by routeMiddleware for server.mjs; taken off before the answer is sent. */
export const ROUTE_HEADER = 'x-ataa-route'

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
type LevelName = (typeof LEVELS)[number]

/**
 * Field names whose values never reach the log, at the top of a logged object or one level down
 * (pino's redact: `*.password` is `{ user: { password } }`).
 */
const SECRET_KEYS = ['password', 'newPassword', 'currentPassword', 'confirmPassword', 'token', 'secret', 'totp', 'cookie', 'authorization', 'iban', 'nationalId']
const REDACT_PATHS = [
	...SECRET_KEYS,
	...SECRET_KEYS.map((key) => `*.${key}`),
	'headers',
	'*.headers',
	'req.headers',
	'res.headers',
	'body',
	'*.body',
	'*["set-cookie"]',
]

// Masks for personal numbers found anywhere in a line. Letters or digits right beside a number mean it
// is part of something else (a hash, a UUID), which is left alone.
const IBAN = /(?<![A-Za-z0-9])SA\d{2}(?:[ -]?[A-Za-z0-9]){20}(?![A-Za-z0-9])/gi
const NATIONAL_ID = /(?<![A-Za-z0-9])[12]\d{9}(?![A-Za-z0-9])/g
const MOBILE = /(?<![A-Za-z0-9+])(?:\+?9665|05)\d{8}(?![A-Za-z0-9])/g
/**
 * Path segments that are secrets in themselves: the applicant's private link (/apply/r/<token>, and
 * the files and steps under it), also URL-encoded inside another address's query (a redirectTo,
 * React Router's /__manifest?paths=…). Replaced by the route's own pattern.
 */
const SECRET_SEGMENTS: [RegExp, string][] = [[/(\/|%2F)apply\1r\1(?!:token(?![A-Za-z0-9_-]))[^/?#&%,;\s"'\\]+/gi, '$1apply$1r$1:token']]

/**
 * A failed query's parameters (Drizzle's «Failed query: <sql>\nparams: <values>»), in a message or
 * a stack, as JSON text writes them (an escaped newline) or as plain text: up to the stack's first
 * frame or the end of the JSON string.
 */
const QUERY_PARAMETERS = /(?:\\n|\n)params: [\s\S]*?(?=(?:\\n|\n) {4}at |(?<!\\)"[,}]|$)/g

/**
 * The text with national IDs and iqamas (last 4 digits kept), IBANs, mobiles (last 3 kept) and
 * private-link tokens masked, and a failed query's parameters taken out.
 */
export function scrub(text: string): string {
	let clean = text.replace(QUERY_PARAMETERS, '')
	for (const [pattern, replacement] of SECRET_SEGMENTS) clean = clean.replace(pattern, replacement)
	return clean
		.replace(IBAN, (iban) => `SA${'•'.repeat(18)}${iban.replace(/[ -]/g, '').slice(-4)}`)
		.replace(NATIONAL_ID, (id) => `${'•'.repeat(6)}${id.slice(-4)}`)
		.replace(MOBILE, (mobile) => `${'•'.repeat(mobile.length - 3)}${mobile.slice(-3)}`)
}

/**
 * An error as one line of text for the log. A failed query's message lists its parameters (national
 * IDs, mobiles, amounts): what failed and why is kept, never the values. Others: the stack.
 */
export function describeError(error: unknown): string {
	// A route's error answer (a 405 from React Router, a thrown data()): its status, never «[object Object]».
	if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`.trim()
	if (!(error instanceof Error)) return typeof error === 'object' && error !== null ? safeJson(error) : String(error)
	const cause = error.cause instanceof Error ? error.cause : undefined
	// Drizzle's query errors: «Failed query: <sql>\nparams: <values>»; the driver's own error is the cause.
	if (error.name === 'DrizzleQueryError' || /\nparams: /.test(error.message)) {
		const query = error.message.split('\nparams:')[0]!
		return `${query}${cause ? ` — ${cause.message}` : ''}`
	}
	return error.stack ?? error.message
}

/** An object thrown that is not an Error, as one readable line. */
function safeJson(value: object): string {
	try {
		return JSON.stringify(value) ?? Object.prototype.toString.call(value)
	} catch {
		return Object.prototype.toString.call(value)
	}
}

export interface LogOptions {
	/** LOG_LEVEL; anything else is info (getEnv reports the bad value at start-up). */
	level?: string
	/** LOG_FORMAT; unset is pretty on a terminal, JSON otherwise. */
	format?: string
	/** Where lines go: standard output, written synchronously so that a crash loses none. */
	destination?: { write(line: string): unknown }
}

/** A logger as the app's own, on any destination (tests pass one that keeps the lines). */
export function createLogger(options: LogOptions = {}): Logger {
	const level: LevelName = LEVELS.includes(options.level as LevelName) ? (options.level as LevelName) : 'info'
	const destination = options.destination ?? pino.destination({ dest: 1, sync: true })
	const pretty = options.format === 'pretty' || (options.format !== 'json' && !options.destination && process.stdout.isTTY === true)
	const format = pretty ? prettyFactory({ colorize: process.stdout.isTTY === true, translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l', ignore: 'pid,hostname' }) : undefined
	const stream = {
		write(line: string) {
			const clean = scrub(line)
			destination.write(format ? format(clean) : clean)
		},
	}
	return pino(
		{
			level,
			redact: { paths: REDACT_PATHS, censor: '[redacted]' },
			timestamp: pino.stdTimeFunctions.isoTime,
			// «info», not 30: what an operator greps for.
			formatters: { level: (label) => ({ level: label }) },
		},
		stream,
	)
}

/** The app's logger: LOG_LEVEL and LOG_FORMAT as the operator set them. */
export const logger: Logger = createLogger({ level: process.env.LOG_LEVEL, format: process.env.LOG_FORMAT })

/** The request id server.mjs gave this request (it replaces whatever the client sent under the header). */
export function requestIdOf(request: Request): string | undefined {
	return request.headers.get(REQUEST_ID_HEADER) ?? undefined
}

const VALID_REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/

/** The caller's request id when it is a plain token of 8 to 64 characters, else a new UUID. */
export function requestIdFrom(incoming: string | string[] | undefined): string {
	return typeof incoming === 'string' && VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID()
}

/**
 * Root middleware, last of the root's: tells server.mjs which route answered, as its pattern
 * (/apply/r/:token/:step), never the address with its token or query. It sits inside the page
 * cache's middleware, so a kept page keeps the header and a hit is logged under its route too.
 */
export const routeMiddleware: MiddlewareFunction<Response> = async ({ pattern }, next) => {
	const response = await next()
	try {
		// React Router's patterns start without the slash (about, apply/r/:token): written as paths are.
		response.headers.set(ROUTE_HEADER, pattern.startsWith('/') ? pattern : `/${pattern}`)
	} catch {
		// A response with immutable headers (a fetch's): logged under its path instead.
	}
	return response
}

const routeOf = Symbol('route')
const startedAt = Symbol('startedAt')
type LoggedResponse = ServerResponse & { [routeOf]?: string; [startedAt]?: bigint }

/** server.mjs calls this as the headers go out: keeps the route for the log line and takes the header off. */
export function takeRoute(res: ServerResponse): void {
	const route = res.getHeader(ROUTE_HEADER)
	if (route === undefined) return
	;(res as LoggedResponse)[routeOf] = String(route)
	res.removeHeader(ROUTE_HEADER)
}

/** What a request's line says: no headers, no cookies, no query string, no body. */
function requestFields(req: IncomingMessage, res: LoggedResponse) {
	const started = res[startedAt]
	return {
		method: req.method,
		// Answered without the router (a static file, a refused origin, a kept page's 304): the path, scrubbed.
		route: res[routeOf] ?? (req.url ?? '/').split('?')[0]!.slice(0, 200),
		status: res.statusCode,
		ms: started === undefined ? undefined : Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
		...(res.writableEnded ? {} : { aborted: true }),
	}
}

/**
 * One line per request (pino-http), written when the answer is finished or the client went away.
 * Gives the request its id, sent back as X-Request-Id and handed on to the app in the request's headers.
 */
export function createRequestLogger(log: Logger = logger): (req: IncomingMessage, res: ServerResponse) => void {
	const middleware = pinoHttp({
		logger: log,
		genReqId(req, res) {
			const id = requestIdFrom(req.headers[REQUEST_ID_HEADER])
			req.headers[REQUEST_ID_HEADER] = id
			res.setHeader('X-Request-Id', id)
			return id
		},
		quietReqLogger: true,
		quietResLogger: true,
		wrapSerializers: false,
		// The request itself is never logged: only requestFields.
		serializers: { req: () => undefined, res: () => undefined, err: () => undefined },
		customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
		customSuccessObject: (req, res) => requestFields(req, res),
		customErrorObject: (req, res) => requestFields(req, res),
		customSuccessMessage: (_req, res) => (res.writableEnded ? 'request' : 'request aborted'),
		customErrorMessage: () => 'request failed',
	})
	return (req, res) => {
		;(res as LoggedResponse)[startedAt] = process.hrtime.bigint()
		middleware(req, res)
	}
}
