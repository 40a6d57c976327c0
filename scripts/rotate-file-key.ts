// Operator command (docs/operations.md#encryption-at-rest):
//   FILE_ENCRYPTION_KEY=<new> FILE_ENCRYPTION_OLD_KEYS=<old> npm run files:rotate-key
// Re-encrypts under FILE_ENCRYPTION_KEY every applicant's file still under an old key, and encrypts
// the applicants' files stored before encryption; prints what it did. Safe to run again, and to
// interrupt: files already under the new key are skipped.
//
// The first pass (files under old keys) reads only the stored files (DATA_DIR/uploads, or the bucket
// STORAGE_URL names), so it runs beside the server.
// Which plaintext files are applicants' is in the database: that second pass opens it, and with
// the embedded database (PGlite) the server must be stopped for it. With the server running it is
// left out, and the command says so.
import fs from 'node:fs'
import path from 'node:path'

async function main(): Promise<{ message: string; ok: boolean }> {
	const [{ eq }, { openDatabase }, { attachments }, { lockDataDir }, { getEnv }, { getFileStorage }, { KEY_FILE_NAME, loadFileKeys, rotateFileKeys }] = await Promise.all([
		import('drizzle-orm'),
		import('#app/db/client.server.ts'),
		import('#app/db/schema.ts'),
		import('#app/utils/data-dir-lock.server.ts'),
		import('#app/utils/env.server.ts'),
		import('#app/storage/file-storage.server.ts'),
		import('#app/storage/encryption.server.ts'),
	])
	const env = getEnv()
	const keyring = loadFileKeys(env, (line) => console.warn(line))
	// The local disk, or the bucket STORAGE_URL names (credentials from the usual AWS variables), as the server's.
	const storage = getFileStorage()
	const lines = [`Current key: ${keyring.currentId}`]

	// Applicants' files are the attachments' storage keys; without the database, plaintext files are only counted.
	let attachmentKeys: Set<string> | undefined
	let release = () => {}
	let locked: string | undefined
	if (!env.DATABASE_URL) {
		try {
			release = lockDataDir(env.dataDir, 'files:rotate-key')
		} catch (error) {
			locked = error instanceof Error ? error.message : String(error)
		}
	}
	// Open until the end: asked again after each file is rewritten (stillAttached below).
	const handle = locked ? undefined : await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATABASE_URL ? undefined : `${env.dataDir}/pgdata` })
	try {
		if (handle) {
			await handle.migrate()
			// Removed files' rows count too: a file still on disk is encrypted whatever its row says.
			const rows = await handle.db.select({ key: attachments.storageKey }).from(attachments)
			attachmentKeys = new Set(rows.map((row) => row.key))
		}
		const db = handle?.db
		const known = attachmentKeys
		const report = await rotateFileKeys(storage, keyring, {
			isAttachment: known && ((key) => known.has(key)),
			// A server's retention may purge a case while its file is being rewritten (rows first, then files).
			stillAttached: db && (async (key) => (await db.select({ id: attachments.id }).from(attachments).where(eq(attachments.storageKey, key)).limit(1)).length > 0),
		})
		lines.push(
			`Already under the current key: ${report.current}`,
			`Re-encrypted from an old key: ${report.reencrypted}`,
			...(report.removedMeanwhile ? [`Purged by retention while being rewritten, removed again: ${report.removedMeanwhile}`] : []),
			attachmentKeys
				? `Applicants' files stored before encryption, now encrypted: ${report.encrypted}\nPublic files (pictures, documents, videos), left unencrypted: ${report.publicFiles}`
				: `Plaintext files not looked at: ${report.unchecked}. ${locked}\n  Which of them are applicants' files is in the database, which the server holds: stop the server and run this command again to encrypt those stored before encryption.`,
		)
		if (report.unknownKey.length) lines.push(`Under a key that is neither FILE_ENCRYPTION_KEY nor in FILE_ENCRYPTION_OLD_KEYS: ${report.unknownKey.length} (add that key to FILE_ENCRYPTION_OLD_KEYS and run again)\n  ${report.unknownKey.join('\n  ')}`)
		if (report.failed.length) lines.push(`Damaged, could not be decrypted (restore them from a backup): ${report.failed.length}\n  ${report.failed.map((item) => `${item.key}: ${item.error}`).join('\n  ')}`)
		const ok = !report.unknownKey.length && !report.failed.length
		if (ok) lines.push(env.FILE_ENCRYPTION_OLD_KEYS.length ? 'No file needs the old keys any more: remove FILE_ENCRYPTION_OLD_KEYS and restart the server.' : 'Every encrypted file is under the current key.')
		if (ok && env.FILE_ENCRYPTION_KEY && fs.existsSync(path.join(env.dataDir, KEY_FILE_NAME))) lines.push(`The demo key ${path.join(env.dataDir, KEY_FILE_NAME)} is no longer needed: delete it.`)
		return { message: lines.join('\n'), ok }
	} finally {
		await handle?.close()
		release()
	}
}

main().then(
	({ message, ok }) => {
		console.log(message)
		if (!ok) process.exitCode = 1
	},
	(error: unknown) => {
		console.error(error instanceof Error && (error.name === 'EnvError' || error.name === 'EncryptedFileError') ? error.message : error)
		process.exitCode = 1
	},
)
