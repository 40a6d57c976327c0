// Operator command (docs/operations.md, backups):
//   npm run backup [-- --out <dir>]
// Writes DATA_DIR/backups/ataa-backup-<UTC time>.tar (or into --out): the database's dump, every
// stored file and a manifest of their SHA-256 checksums. Safe while the server runs.
import path from 'node:path'
import { parseArgs } from 'node:util'

const { BackupError } = await import('#app/operations/backup-archive.server.ts')

const usage = 'usage: npm run backup [-- --out <dir>]   (default: DATA_DIR/backups)'

async function main(argv: string[]): Promise<string> {
	const [{ createBackup }, { parseEnv }] = await Promise.all([import('#app/operations/backup.server.ts'), import('#app/utils/env.server.ts')])
	let values: { out?: string }
	try {
		;({ values } = parseArgs({ args: argv, options: { out: { type: 'string' } } }))
	} catch (error) {
		throw new BackupError(`${error instanceof Error ? error.message : error}\n${usage}`)
	}
	const env = parseEnv()
	const outDir = path.resolve(values.out ?? path.join(env.dataDir, 'backups'))
	const started = performance.now()
	const { file, manifest } = await createBackup({ dataDir: env.dataDir, databaseUrl: env.DATABASE_URL, outDir, log: (line) => console.log(line) })
	const seconds = ((performance.now() - started) / 1000).toFixed(1)
	// With STORAGE_URL the files are in the bucket, not under DATA_DIR: the archive has the database only.
	const bucket = env.STORAGE_URL ? `\nFiles are kept in the bucket of STORAGE_URL, not in this archive: the bucket's own versioning or replication is their backup (docs/operations.md#backups).` : ''
	return `Backup written in ${seconds} s: ${file} (${manifest.entries.length - 1} files, database at migration ${manifest.database.lastMigration ?? 'none'}).\nCopy it off this machine; keep FILE_ENCRYPTION_KEY apart from it: applicants' files in it can only be read with that key.${bucket}`
}

main(process.argv.slice(2)).then(
	(message) => console.log(message),
	(error: unknown) => {
		console.error(error instanceof BackupError || (error instanceof Error && error.name === 'EnvError') ? error.message : error)
		process.exitCode = 1
	},
)
