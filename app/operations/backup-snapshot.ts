import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/**
 * For the backup tests (app/operations/backup.db.test.ts, tests/e2e/operations/backup.spec.ts):
 * everything a database holds, table by table, and every stored file's checksum, in a form two
 * instances can be compared by. Not used by the app.
 */

export type Query = (text: string) => Promise<{ rows: Record<string, unknown>[] }>

/** Every row of every table of the app's schemas (as text, sorted), and every sequence's position. */
export async function databaseSnapshot(query: Query): Promise<Record<string, string[]>> {
	const snapshot: Record<string, string[]> = {}
	const { rows: tables } = await query(`select schemaname, tablename from pg_tables where schemaname in ('public', 'drizzle') order by 1, 2`)
	for (const { schemaname, tablename } of tables as { schemaname: string; tablename: string }[]) {
		const name = `"${schemaname}"."${tablename}"`
		const { rows } = await query(`select t::text as row from ${name} t order by 1`)
		snapshot[name] = rows.map((row) => String(row.row))
	}
	const { rows: sequences } = await query(`select schemaname || '.' || sequencename || '=' || coalesce(last_value::text, 'unused') as position from pg_sequences where schemaname in ('public', 'drizzle') order by 1`)
	snapshot['sequences'] = sequences.map((row) => String(row.position))
	return snapshot
}

/** DATA_DIR/uploads/files: each file's path under it and the SHA-256 of its bytes. */
export function filesSnapshot(dataDir: string): Record<string, string> {
	const dir = path.join(dataDir, 'uploads', 'files')
	if (!fs.existsSync(dir)) return {}
	const snapshot: Record<string, string> = {}
	for (const name of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
		const file = path.join(dir, name)
		if (fs.statSync(file).isFile()) snapshot[name] = createHash('sha256').update(fs.readFileSync(file)).digest('hex')
	}
	return snapshot
}
