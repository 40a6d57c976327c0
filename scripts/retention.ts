// Operator command (docs/operations.md#retention):
//   npm run retention              destroys now what RETENTION_MONTHS says is due, and prints it
//   npm run retention -- --dry-run lists what would be destroyed, destroys nothing
// With the embedded database and the server running, the server does it (through its control
// socket, app/operations/control.server.ts); otherwise this process opens the database itself.
import { parseArgs } from 'node:util'

async function main(argv: string[]): Promise<string> {
	const [{ openDatabase }, { lockDataDir }, { parseEnv }, { getCaseFileStorage }, { ControlUnavailableError, requestControl }, { describeRetention, runRetention }] = await Promise.all([
		import('#app/db/client.server.ts'),
		import('#app/utils/data-dir-lock.server.ts'),
		import('#app/utils/env.server.ts'),
		import('#app/storage/file-storage.server.ts'),
		import('#app/operations/control.server.ts'),
		import('#app/operations/retention-purge.server.ts'),
	])
	const { values } = parseArgs({ args: argv, options: { 'dry-run': { type: 'boolean', default: false } } })
	const dryRun = values['dry-run']
	const env = parseEnv()
	let release = () => {}
	if (!env.DATABASE_URL) {
		try {
			release = lockDataDir(env.dataDir, 'retention script')
		} catch (locked) {
			// The server holds the data directory: ask it.
			try {
				return await requestControl(env.dataDir, dryRun ? 'retention-dry-run' : 'retention')
			} catch (error) {
				if (error instanceof ControlUnavailableError) throw locked
				throw error
			}
		}
	}
	const handle = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATABASE_URL ? undefined : `${env.dataDir}/pgdata` })
	try {
		await handle.migrate()
		return describeRetention(await runRetention(handle.db, getCaseFileStorage(), { months: env.RETENTION_MONTHS, runBy: 'command', dryRun }))
	} finally {
		await handle.close()
		release()
	}
}

main(process.argv.slice(2)).then(
	(message) => console.log(message),
	(error: unknown) => {
		console.error(error instanceof Error ? error.message : error)
		process.exitCode = 1
	},
)
