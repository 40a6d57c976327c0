// Ataa as several identical instances behind a load balancer, all on this machine (docs/deployment.md,
// the third shape): a new PostgreSQL database, an S3-compatible bucket (s3rver), N production servers
// sharing both and one file-encryption key, and nginx (Debian's package) balancing round robin, with
// no sticky sessions, on loopback ports. `npm run demo:cluster`, the cluster browser test and
// `npm run bench:cluster` start it with this module; stop() leaves nothing behind.
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { startAppServer, type AppServer } from './bench-app.ts'
import { ensureDebianPackages, startNginx } from './bench-peers.ts'
import { createBenchDatabase, dropBenchDatabase } from './bench-postgres.ts'
import { stopService, type Service } from './bench-processes.ts'
import { freePort } from './free-port.ts'
import { startS3Server, type S3TestServer } from './s3-server.ts'

/** The header nginx adds to every answer: the address of the instance that gave it (nginx's $upstream_addr). */
export const INSTANCE_HEADER = 'x-ataa-instance'
const BUCKET = 'ataa-cluster'

export interface ClusterInstance {
	/** «instance 1», «instance 2»… in the order they were started. */
	name: string
	/** The instance itself, bypassing the balancer. */
	origin: string
	/** How nginx names it in INSTANCE_HEADER: 127.0.0.1:<port>. */
	upstream: string
	server: AppServer
}

export interface Balancer {
	origin: string
	/** Indexes into Cluster.instances of the instances it spreads requests over. */
	members: number[]
}

export interface Cluster {
	/** The first balancer's origin: what people open. */
	origin: string
	balancers: Balancer[]
	instances: ClusterInstance[]
	databaseUrl: string
	storageUrl: string
	/** Where the test bucket's server keeps the objects on disk: to look at what the bucket holds. */
	bucketDir: string
	/** The instance that gave an answer, from its INSTANCE_HEADER (the last one tried, when nginx tried another first). */
	instanceOf: (headerValue: string | null | undefined) => ClusterInstance | undefined
	/** SIGTERM to one instance; it drains and exits, and the balancer sends everything to the others. */
	stopInstance: (instance: ClusterInstance) => Promise<void>
	/** Stops nginx, every instance and the bucket's server, drops the database and removes the data. */
	stop: () => Promise<void>
}

export interface ClusterOptions {
	/** The repository, with a production build in build/. */
	root: string
	/** The PostgreSQL server on which the cluster's database is made (and dropped by stop()). */
	adminUrl: string
	/** Extra environment of each instance, one entry per instance (NODE_ENV, ADMIN_EMAIL, HTML_CACHE…). */
	instances: Record<string, string>[]
	/** Which instances each balancer spreads over; one balancer over all of them when unset. */
	balancers?: number[][]
	/** The first balancer's port; a free one when unset. */
	port?: number
	/** The host name people use (APP_ORIGIN): localhost by default, where browsers keep Secure cookies over http. */
	host?: string
	/** Called with each step (for a person watching). */
	log?: (line: string) => void
	/** Called once the database exists and is migrated, before any instance but the first starts: bulk data for a benchmark. */
	beforeOthers?: (databaseUrl: string) => Promise<void>
	signal?: AbortSignal
}

/** Whether this machine can listen on IPv6's loopback (browsers try ::1 first for localhost). */
async function hasIpv6Loopback(): Promise<boolean> {
	return new Promise((resolve) => {
		const probe = net.createServer()
		probe.once('error', () => resolve(false))
		probe.listen(0, '::1', () => probe.close(() => resolve(true)))
	})
}

/**
 * nginx in front of the instances: round robin, kept-alive upstream connections, the client's
 * address and scheme passed on (the instances run with TRUST_PROXY=true), bodies streamed to the
 * app, answers never spooled to the balancer's disk (an applicant's file leaves the instance
 * decrypted), and a GET that an instance failed retried on the next one. A POST already sent is never
 * sent twice (nginx retries one only with non_idempotent). Bodies are limited per location, above
 * the app's own limits (app/http/body-limits.server.ts and the upload limits at their defaults): a
 * form 2 MB, an applicant's file 11 MB, staff's uploads 420 MB, a video 510 MB. The same as
 * docs/deployment.md#the-balancer.
 */
export function balancerConfig(upstream: string, port: number, ipv6: boolean): string {
	const pass = `proxy_pass http://${upstream};`
	return [
		...(ipv6 ? [`listen [::1]:${port};`] : []),
		'client_max_body_size 2m;',
		'proxy_request_buffering off;',
		'proxy_max_temp_file_size 0;',
		'proxy_http_version 1.1;',
		'proxy_set_header Connection "";',
		'proxy_set_header Host $http_host;',
		'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
		'proxy_set_header X-Forwarded-Proto $scheme;',
		'proxy_next_upstream error timeout http_502 http_503;',
		'proxy_read_timeout 300s;',
		`add_header ${INSTANCE_HEADER} $upstream_addr always;`,
		`location / { ${pass} }`,
		`location ~ ^/apply/r/[^/]+/files/upload$ { client_max_body_size 11m; ${pass} }`,
		`location ~ ^/admin/(content/[^/]+(/upload|/new|/edit|/[^/]+/edit)?|content/albums/[^/]+/photos|cases/[^/]+/study/photos|payments)(\\.data)?$ { client_max_body_size 420m; ${pass} }`,
		`location ~ ^/admin/content/[^/]+/video-upload$ { client_max_body_size 510m; ${pass} }`,
	].join('\n')
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
	const log = options.log ?? (() => {})
	if (options.instances.length < 1) throw new Error('a cluster needs at least one instance')
	ensureDebianPackages(['nginx'], 'The cluster')
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ataa-cluster-'))
	const instances: ClusterInstance[] = []
	let s3: S3TestServer | undefined
	let database: { name: string; url: string } | undefined
	let nginx: Service | undefined
	let stopping: Promise<void> | undefined

	const stop = () =>
		(stopping ??= (async () => {
			if (nginx) await stopService(nginx)
			await Promise.all(instances.map((instance) => stopService(instance.server.service, 'SIGTERM', 20_000)))
			await s3?.close()
			if (database) await dropBenchDatabase(options.adminUrl, database.name).catch((error: unknown) => console.error(`Could not drop ${database!.name}: ${error instanceof Error ? error.message : error}`))
			fs.rmSync(dir, { recursive: true, force: true })
		})())

	try {
		const ports = options.balancers ?? [options.instances.map((_, index) => index)]
		const balancerPorts = await Promise.all(ports.map((_, index) => (index === 0 && options.port ? options.port : freePort())))
		const host = options.host ?? 'localhost'
		const origin = `http://${host}:${balancerPorts[0]}`

		log('Starting the S3-compatible test server (s3rver)…')
		// The bucket's objects: s3rver's alone (dir itself is opened to nginx below).
		fs.mkdirSync(path.join(dir, 's3'), { mode: 0o700 })
		s3 = await startS3Server(path.join(dir, 's3'), BUCKET)
		const storageUrl = `s3://${BUCKET}?endpoint=${encodeURIComponent(s3.endpoint)}&region=us-east-1&forcePathStyle=true`
		log('Making the PostgreSQL database…')
		database = await createBenchDatabase(options.adminUrl, 'ataa_cluster')

		// What every instance shares: the database, the bucket, the key of applicants' files, the public origin.
		const shared = {
			DATABASE_URL: database.url,
			STORAGE_URL: storageUrl,
			AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
			AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
			FILE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
			TRUST_PROXY: 'true',
			APP_ORIGIN: balancerPorts.map((port) => `http://${host}:${port}`).join(','),
		}
		for (const [index, extra] of options.instances.entries()) {
			options.signal?.throwIfAborted()
			// The first one alone: it migrates and records the first content; the others find them done.
			if (index === 1) await options.beforeOthers?.(database.url)
			const name = `instance ${index + 1}`
			log(`Starting ${name}${index === 0 ? ' (it migrates the database and records the first content: a minute or two)' : ''}…`)
			const dataDir = path.join(dir, `instance-${index + 1}`)
			// Uploads wait here, unencrypted, while they are checked: the instance's alone, not nginx's.
			fs.mkdirSync(dataDir, { mode: 0o700 })
			const server = await startAppServer({ root: options.root, dataDir, databaseUrl: database.url, env: { ...shared, ...extra }, signal: options.signal })
			instances.push({ name, origin: server.origin, upstream: new URL(server.origin).host, server })
		}
		if (options.instances.length === 1) await options.beforeOthers?.(database.url)

		options.signal?.throwIfAborted()
		log('Starting nginx as the load balancer…')
		// nginx's workers run as www-data when started as root: its own folder must be theirs to enter.
		fs.chmodSync(dir, 0o755)
		fs.mkdirSync(path.join(dir, 'nginx'), { mode: 0o755 })
		const ipv6 = host === 'localhost' && (await hasIpv6Loopback())
		nginx = await startNginx(path.join(dir, 'nginx'), {
			workers: 1,
			brotliFilter: false,
			http: ports.map((members, index) => `upstream ataa_${index} {\n${members.map((member) => `  server ${instances[member]!.upstream} max_fails=1 fail_timeout=10s;`).join('\n')}\n  keepalive 32;\n}`),
			servers: balancerPorts.map((port, index) => ({ port, block: balancerConfig(`ataa_${index}`, port, ipv6) })),
		})

		return {
			origin,
			balancers: ports.map((members, index) => ({ origin: `http://${host}:${balancerPorts[index]}`, members })),
			instances,
			databaseUrl: database.url,
			storageUrl,
			bucketDir: path.join(dir, 's3', BUCKET),
			instanceOf: (value) => {
				const last = value?.split(',').at(-1)?.trim()
				return instances.find((instance) => instance.upstream === last)
			},
			stopInstance: async (instance) => {
				await stopService(instance.server.service, 'SIGTERM', 20_000)
			},
			stop,
		}
	} catch (error) {
		await stop()
		throw error
	}
}

export interface ClusterLaunch {
	/** The cluster, once started. */
	started: Promise<Cluster>
	/** Stops it at any moment, starting included: the start is aborted and cleans up, or what started is stopped. */
	stop: () => Promise<void>
}

/** startCluster for those who may be told to stop while it starts (Ctrl-C, a test's time running out). */
export function launchCluster(options: ClusterOptions): ClusterLaunch {
	const abort = new AbortController()
	const started = startCluster({ ...options, signal: options.signal ? AbortSignal.any([options.signal, abort.signal]) : abort.signal })
	let stopping: Promise<void> | undefined
	return {
		started,
		stop: () =>
			(stopping ??= (async () => {
				abort.abort(new Error('the cluster was stopped'))
				const cluster = await started.catch(() => undefined)
				await cluster?.stop()
			})()),
	}
}
