import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { localFileStorage, type FileStorage } from '#app/storage/file-storage.server.ts'

/** File storage in a fresh temp directory, for one test file; `remove` deletes it all. */
export function temporaryStorage(prefix: string): { dir: string; storage: FileStorage; remove: () => void } {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ataa-${prefix}-`))
	return { dir, storage: localFileStorage(dir), remove: () => fs.rmSync(dir, { recursive: true, force: true }) }
}

/** Bytes written where an upload would have left them, described as the upload reader describes a received file. */
export function stagedFile(storage: FileStorage, bytes: Uint8Array, originalName: string) {
	const tempPath = storage.tempPath()
	fs.writeFileSync(tempPath, bytes)
	return { tempPath, originalName, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }
}
