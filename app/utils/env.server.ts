import path from 'node:path'
import { z } from 'zod'
import { isCommonPassword } from '#app/utils/common-passwords.server.ts'

const booleanString = z
	.enum(['true', 'false', '1', '0'])
	.transform((value) => value === 'true' || value === '1')

const hexKey = /^[0-9a-fA-F]{64}$/
const makeKeyCommand = `node -e "console.log(require('node:crypto').randomBytes(32).toString('hex'))"`

const envSchema = z.object({
	NODE_ENV: z.enum(['production', 'development', 'test']).default('development'),
	PORT: z.coerce.number({ error: 'must be a port number (1-65535)' }).int().min(1).max(65535).default(3000),
	DATA_DIR: z.string().min(1).default('./data'),
	DATABASE_URL: z
		.string()
		.regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
		.optional(),
	ADMIN_EMAIL: z.email().optional(),
	ADMIN_PASSWORD: z
		.string()
		.min(12, 'must be at least 12 characters')
		.refine((value) => !isCommonPassword(value), 'is one of the most common leaked passwords: choose a long passphrase of your own')
		.optional(),
	/**
	 * Public origin(s) of the site, comma separated. The first is the one every absolute link we send
	 * (e-mail, SMS, staff notices) is built on, never the request's Host (docs/security.md#public-origin);
	 * required when NODE_ENV=production. Any of them may send POSTs.
	 */
	APP_ORIGIN: z
		.string()
		.optional()
		.transform((value, ctx) => {
			const origins = (value ?? '')
				.split(',')
				.map((item) => item.trim())
				.filter(Boolean)
			for (const origin of origins) {
				try {
					if (new URL(origin).origin !== origin) throw new Error()
				} catch {
					ctx.addIssue({ code: 'custom', message: `"${origin}" is not an origin like https://example.org` })
				}
			}
			return origins
		}),
	/** Session cookies are Secure in production; set false only to serve production over plain http on a LAN. */
	COOKIE_SECURE: booleanString.optional(),
	SESSION_DAYS: z.coerce.number({ error: 'must be a number of days (1-90)' }).int().min(1).max(90).default(7),
	/** A staff session not used for this many minutes ends (as well as SESSION_DAYS after sign-in). */
	SESSION_IDLE_MINUTES: z.coerce.number({ error: 'must be a number of minutes (5-1440)' }).int().min(5).max(1440).default(60),
	/** Outgoing mail, e.g. smtps://user:password@smtp.example.org:465; unset means nothing is e-mailed. */
	SMTP_URL: z
		.string()
		.regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
		.optional(),
	MAIL_FROM: z.string().min(3).default('مؤسسة عطاء الخيرية <no-reply@ataa.org.sa>'),
	/** The foundation's address told of each new application; unset means the foundation info e-mail. */
	NOTIFY_EMAIL: z.email().optional(),
	/** SMS gateway: POST with JSON { to: "9665XXXXXXXX", text, sender? }; unset means SMS only go to the log. */
	SMS_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
	/** Sent as Authorization: Bearer <token>. */
	SMS_TOKEN: z.string().min(1).optional(),
	/** The sender name the gateway shows, when it takes one (a Saudi provider's registered sender name). */
	SMS_SENDER: z.string().min(1).optional(),
	/**
	 * Which SMS provider sends (docs/deployment.md#sms): `unifonic`, `taqnyat`, `msegat`, `http` (the
	 * generic gateway at SMS_URL) or `log` (nothing sent, the log says so). Unset: `http` when SMS_URL
	 * is set, else `log`.
	 */
	SMS_PROVIDER: z.enum(['log', 'http', 'unifonic', 'taqnyat', 'msegat']).optional(),
	/** Unifonic: the application's AppSid; UNIFONIC_URL only for a test's local fake. */
	UNIFONIC_APP_SID: z.string().min(1).optional(),
	UNIFONIC_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).default('https://el.cloud.unifonic.com'),
	/** Taqnyat: the bearer token of the account's application; TAQNYAT_URL only for a test's local fake. */
	TAQNYAT_TOKEN: z.string().min(1).optional(),
	TAQNYAT_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).default('https://api.taqnyat.sa'),
	/** Msegat: the account's user name and API key; MSEGAT_URL only for a test's local fake. */
	MSEGAT_USERNAME: z.string().min(1).optional(),
	MSEGAT_API_KEY: z.string().min(1).optional(),
	MSEGAT_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).default('https://www.msegat.com'),
	/**
	 * `on` (the default): an applicant proves their mobile with a code sent by SMS before a private
	 * link opens on a browser, and before the lookup shows a case (docs/security.md#verified-mobile).
	 * `off` only where no SMS can be sent: a private link is then a bearer key to the case.
	 */
	APPLICANT_VERIFICATION: z.enum(['on', 'off']).default('on'),
	/** Largest upload (an applicant's PDF, a staff image), in megabytes of 1,000,000 bytes: see uploadMaxBytes. */
	UPLOAD_MAX_MB: z.coerce.number({ error: 'must be a number of megabytes' }).positive().max(100).default(10),
	/** Most files one slot that takes several (a medical report, photos of a house) holds in a case. */
	SLOT_MAX_FILES: z.coerce.number({ error: 'must be a whole number of files (1-100)' }).int().min(1).max(100).default(10),
	/** Most pages one applicant's document (an ID's two sides, a family record's pages) has: photos and a PDF's pages together. */
	DOCUMENT_MAX_PAGES: z.coerce.number({ error: 'must be a whole number of pages (1-100)' }).int().min(1).max(100).default(10),
	/** Most files one case holds, all slots together (a slot that takes one holds one: a new upload replaces it). */
	CASE_MAX_FILES: z.coerce.number({ error: 'must be a whole number of files (1-500)' }).int().min(1).max(500).default(40),
	/** Most bytes one case's files take together, in megabytes of 1,000,000 bytes. */
	CASE_MAX_MB: z.coerce.number({ error: 'must be a number of megabytes' }).positive().max(10_000).default(200),
	/** Largest PDF staff publish (the documents library, a certificate's PDF), in megabytes of 1,000,000 bytes. */
	DOCUMENT_MAX_MB: z.coerce.number({ error: 'must be a number of megabytes' }).positive().max(500).default(20),
	/** Largest video staff upload to the video gallery, in megabytes of 1,000,000 bytes; streamed to disk, never held in memory. */
	VIDEO_MAX_MB: z.coerce.number({ error: 'must be a number of megabytes' }).positive().max(10_000).default(500),
	/**
	 * Add 60 generated demo cases on the first start. On unless NODE_ENV=production: their mobiles
	 * look real, and a status change would text them.
	 */
	DEMO_CASES: booleanString.optional(),
	/** Honour X-Forwarded-* headers (set when behind a reverse proxy). */
	TRUST_PROXY: booleanString.default(false),
	/**
	 * On SIGTERM, how long requests under way (an upload on a slow line) may take to finish before the
	 * server stops without them (server.mjs). A service manager's own stop timeout must be longer.
	 */
	SHUTDOWN_GRACE_SECONDS: z.coerce.number({ error: 'must be a whole number of seconds (1-600)' }).int().min(1).max(600).default(10),
	/** `off` renders every public page afresh (benchmarks compare both); on by default (app/cache/page-cache.server.ts). */
	HTML_CACHE: z.enum(['on', 'off']).default('on'),
	/**
	 * Closed cases (support provided, archived) keep their files and sensitive sections this many
	 * months after closing; then retention destroys them (docs/operations.md#retention).
	 */
	RETENTION_MONTHS: z.coerce.number({ error: 'must be a whole number of months (1-120)' }).int().min(1).max(120).default(24),
	/**
	 * The SMS budgets of verification codes (docs/operations.md#sms-budgets) until staff set their own on
	 * /admin/intake: codes per hour and per day in all, and per address per hour sent at once (past it,
	 * a code waits for the scheduler, within the hourly budget).
	 */
	SMS_BUDGET_PER_HOUR: z.coerce.number({ error: 'must be a whole number (1-1000000)' }).int().min(1).max(1_000_000).default(600),
	SMS_BUDGET_PER_DAY: z.coerce.number({ error: 'must be a whole number (1-1000000)' }).int().min(1).max(1_000_000).default(5000),
	SMS_BUDGET_PER_ADDRESS_HOUR: z.coerce.number({ error: 'must be a whole number (1-1000000)' }).int().min(1).max(1_000_000).default(30),
	SCHEDULER_INTERVAL_SECONDS: z.coerce.number({ error: 'must be a whole number of seconds (1-3600)' }).int().min(1).max(3600).default(60),
	/**
	 * The key applicants' files are encrypted with (AES-256-GCM): 64 hexadecimal characters. Required
	 * when NODE_ENV=production (docs/operations.md#encryption-at-rest).
	 */
	FILE_ENCRYPTION_KEY: z
		.string()
		.regex(hexKey, `must be 64 hexadecimal characters (32 bytes); make one with: ${makeKeyCommand}`)
		.optional(),
	/** Earlier keys, comma separated, still read until `npm run files:rotate-key` has re-encrypted their files. */
	FILE_ENCRYPTION_OLD_KEYS: z
		.string()
		.optional()
		.transform((value, ctx) => {
			const keys = (value ?? '')
				.split(',')
				.map((item) => item.trim())
				.filter(Boolean)
			if (keys.some((key) => !hexKey.test(key))) ctx.addIssue({ code: 'custom', message: 'must be keys of 64 hexadecimal characters, comma separated' })
			return keys
		}),
	/**
	 * Where uploaded files are kept: unset, DATA_DIR/uploads; or an S3-compatible bucket,
	 * s3://bucket?endpoint=…&region=…&forcePathStyle=…&prefix=… (app/storage/file-storage.server.ts, parseStorageUrl).
	 */
	STORAGE_URL: z
		.string()
		.regex(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]\/?(\?.*)?$/, 'must be s3://bucket?endpoint=https://…&region=… (a bucket name, then its options; unset keeps files under DATA_DIR/uploads)')
		.optional(),
	/** How much the server logs (pino's levels). */
	LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
	/** `json` (one object per line, for a log collector) or `pretty` (for a person); unset: pretty on a terminal, JSON otherwise. */
	LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
	ATAA_CLOCK_FILE: z.string().optional(),
})

export type Env = z.infer<typeof envSchema> & {
	dataDir: string
	cookieSecure: boolean
	/**
	 * UPLOAD_MAX_MB in bytes, decimal like every size shown (formatFileSize): 10 MB = 10,000,000
	 * bytes, so the limit enforced and «حتى 10 ميغابايت» said to people are the same number.
	 */
	uploadMaxBytes: number
	/** CASE_MAX_MB in bytes, decimal as uploadMaxBytes. */
	caseMaxBytes: number
	/** DOCUMENT_MAX_MB in bytes, decimal as uploadMaxBytes. */
	documentMaxBytes: number
	/** VIDEO_MAX_MB in bytes, decimal as uploadMaxBytes. */
	videoMaxBytes: number
	/** DEMO_CASES, or on outside production. */
	demoCases: boolean
	/** APP_ORIGIN's first origin; outside production http://localhost:PORT when unset; see publicOrigin. */
	publicOrigin: string | undefined
}

export class EnvError extends Error {
	override name = 'EnvError'
}

export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
	// server.mjs always sets NODE_ENV=production for React; the operator's own value is ATAA_ENV.
	const result = envSchema.safeParse(source.ATAA_ENV ? { ...source, NODE_ENV: source.ATAA_ENV } : source)
	if (!result.success) {
		const lines = result.error.issues.map((issue) => `  - ${issue.path.join('.') || 'env'}: ${issue.message}`)
		throw new EnvError(`Invalid environment configuration:\n${lines.join('\n')}`)
	}
	const env = result.data
	return {
		...env,
		dataDir: path.resolve(env.DATA_DIR),
		cookieSecure: env.COOKIE_SECURE ?? env.NODE_ENV === 'production',
		uploadMaxBytes: Math.round(env.UPLOAD_MAX_MB * 1_000_000),
		documentMaxBytes: Math.round(env.DOCUMENT_MAX_MB * 1_000_000),
		caseMaxBytes: Math.round(env.CASE_MAX_MB * 1_000_000),
		videoMaxBytes: Math.round(env.VIDEO_MAX_MB * 1_000_000),
		demoCases: env.DEMO_CASES ?? env.NODE_ENV !== 'production',
		publicOrigin: env.APP_ORIGIN[0] ?? (env.NODE_ENV === 'production' ? undefined : `http://localhost:${env.PORT}`),
	}
}

/**
 * The site's public origin, which every absolute link we send is built on: a request's Host or
 * X-Forwarded-Host is whatever the sender wrote, and a link built on it would hand an applicant's
 * private link to someone else's host. In production an unset APP_ORIGIN stops the start (bootstrap).
 */
export function publicOrigin(env: Env = getEnv()): string {
	if (env.publicOrigin) return env.publicOrigin
	throw new EnvError(
		'APP_ORIGIN is not set. In production, the links e-mailed and texted to applicants and staff are built on it, never on the address a request names: set it to the address people open, e.g. APP_ORIGIN=https://ataa.example.org (docs/deployment.md).',
	)
}

let cached: Env | undefined

/** The parsed environment; parsed once, on first use (start-up calls it first so a bad value stops the app). */
export function getEnv(): Env {
	cached ??= parseEnv()
	return cached
}
