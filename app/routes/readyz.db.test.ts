import fs from 'node:fs'
import path from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { withAppDatabase } from '#tests/db.ts'
import { temporaryStorage } from '#tests/storage.ts'
import { loader as healthz } from './healthz.ts'
import { loader as readyz } from './readyz.ts'
import { startDraining } from '#app/utils/draining.server.ts'

// /healthz (the process is up) and /readyz (send it requests): cheap, and they say nothing else.

withAppDatabase()
const scratch = temporaryStorage('readyz')
afterAll(() => scratch.remove())

test('storage that cannot be written is not ready; a writable one is', async () => {
	expect(await scratch.storage.writable()).toBe(true)
	// A file where the storage's temp folder should be: nothing can be written under it.
	const blocked = temporaryStorage('readyz-blocked')
	fs.writeFileSync(path.join(blocked.dir, 'tmp'), '')
	expect(await blocked.storage.writable()).toBe(false)
	blocked.remove()
})

test('ready while the database answers; 503 once the server is told to stop, while /healthz still answers', async () => {
	const ready = await readyz()
	expect([ready.status, await ready.text(), ready.headers.get('Cache-Control')]).toEqual([200, 'ready', 'no-store'])
	startDraining()
	const draining = await readyz()
	expect([draining.status, await draining.text()]).toEqual([503, 'draining'])
	const health = await healthz()
	expect([health.status, await health.text(), health.headers.get('Content-Type')]).toEqual([200, 'ok', 'text/plain; charset=utf-8'])
})
