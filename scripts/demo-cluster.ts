// `npm run demo:cluster`: Ataa as two instances behind a load balancer on this machine (docs/deployment.md,
// the third shape, in miniature): a new PostgreSQL database on the local server, an S3-compatible test
// bucket (s3rver), two app instances and nginx balancing round robin without sticky sessions. Prints
// the address and how to sign in; Ctrl-C stops everything and deletes the demo's database and files.
//   npm run demo:cluster -- [--port 3000] [--instances 2] [--database postgres://postgres@127.0.0.1:5432/postgres]
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { buildIfNeeded } from './build-if-needed.mjs'
import { adminDatabaseUrl, positiveInt } from './lib/bench-options.ts'
import { INSTANCE_HEADER, launchCluster, type Cluster, type ClusterLaunch } from './lib/cluster.ts'
import { ensurePostgres } from './lib/test-machine.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

const { values } = parseArgs({ args: process.argv.slice(2), options: { port: { type: 'string' }, instances: { type: 'string' }, database: { type: 'string' } } })
let port: number
let count: number
let adminUrl: string
try {
	port = positiveInt('--port', values.port ?? process.env.PORT, 3000)
	count = positiveInt('--instances', values.instances, 2)
	adminUrl = adminDatabaseUrl(values.database)
} catch (error) {
	console.error(error instanceof Error ? error.message : error)
	process.exit(1)
}

let launch: ClusterLaunch | undefined
let stopping: Promise<never> | undefined
/** Once, however many signals come (a terminal's Ctrl-C reaches this process both directly and through tsx). */
function shutDown(code: number): Promise<never> {
	stopping ??= (async () => {
		console.log('\nStopping the balancer and the instances, deleting the demo database and files…')
		// While it starts too: the start is aborted and removes what it made.
		await launch?.stop()
		console.log('Stopped.')
		process.exit(code)
	})()
	return stopping
}
for (const signal of ['SIGINT', 'SIGTERM'] as const)
	process.on(signal, () => void shutDown(0))

buildIfNeeded()
await ensurePostgres(adminUrl)
const admin = { email: 'admin@ataa.local', password: `Cluster-${randomBytes(12).toString('base64url')}` }
let cluster: Cluster | undefined
try {
	launch = launchCluster({
		root,
		adminUrl,
		port,
		// The demo, as `npm start` is: demo content and cases (no NODE_ENV=production), one admin of the demo's own.
		instances: Array.from({ length: count }, () => ({ NODE_ENV: 'development', ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password, LOG_LEVEL: 'warn' })),
		log: (line) => console.log(line),
	})
	cluster = await launch.started
} catch (error) {
	// Not when Ctrl-C stopped it: shutDown is under way.
	if (!stopping) console.error(`The cluster did not start: ${error instanceof Error ? error.message : error}`)
	await shutDown(1)
}
const running = cluster!
console.log(`
عطاء — ${running.instances.length} instances behind nginx, on PostgreSQL and an S3-compatible bucket

  Open:            ${running.origin}
  Staff sign-in:   ${running.origin}/login   ${admin.email}   ${admin.password}
                   (admins set up two-step sign-in with an authenticator app the first time)
  Instances:       ${running.instances.map((instance) => `${instance.name} ${instance.origin}`).join('   ')}
  Which served:    every answer through the balancer carries ${INSTANCE_HEADER}: <instance address>
  Database:        ${running.databaseUrl}
  Files:           ${running.storageUrl}

Ctrl-C stops everything and deletes this demo's database and files.`)
for (const instance of running.instances) {
	void instance.server.service.exited.then(({ code, signal }) => {
		if (!stopping) console.error(`${instance.name} stopped (code ${code}, signal ${signal}); the balancer sends everything to the others. Its last lines:\n  ${instance.server.service.log.slice(-10).join('\n  ')}`)
	})
}
