// Operator command (docs/operations.md, restore):
//   npm run restore -- <archive>
// Restores a backup made by `npm run backup` into an empty DATA_DIR (PGlite) or an empty
// PostgreSQL database (DATABASE_URL), after checking every entry against the archive's manifest.
// Nothing is written unless the whole archive is sound and the target is empty.
import path from 'node:path'
import { parseArgs } from 'node:util'

const { BackupError } = await import('#app/operations/backup-archive.server.ts')

const usage = 'usage: npm run restore -- <archive>   (into an empty DATA_DIR, or the empty database in DATABASE_URL)'

async function main(argv: string[]): Promise<string> {
	const [{ restoreBackup }, { parseEnv }] = await Promise.all([import('#app/operations/backup-restore.server.ts'), import('#app/utils/env.server.ts')])
	let positionals: string[]
	try {
		;({ positionals } = parseArgs({ args: argv, allowPositionals: true, options: {} }))
	} catch (error) {
		throw new BackupError(`${error instanceof Error ? error.message : error}\n${usage}`)
	}
	if (positionals.length !== 1) throw new BackupError(usage)
	const env = parseEnv()
	const started = performance.now()
	const manifest = await restoreBackup({ archive: path.resolve(positionals[0]!), dataDir: env.dataDir, databaseUrl: env.DATABASE_URL, log: (line) => console.log(line) })
	const seconds = ((performance.now() - started) / 1000).toFixed(1)
	return `Restored in ${seconds} s: the backup of ${manifest.createdAt} (${manifest.entries.length - 1} files). Start the server with the same FILE_ENCRYPTION_KEY as the backed-up one: applicants' files cannot be read without it.`
}

main(process.argv.slice(2)).then(
	(message) => console.log(message),
	(error: unknown) => {
		console.error(error instanceof BackupError || (error instanceof Error && error.name === 'EnvError') ? error.message : error)
		process.exitCode = 1
	},
)
