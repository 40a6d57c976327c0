import { afterAll, beforeAll, expect, test } from 'vitest'
import { sql } from 'drizzle-orm'
import type { DatabaseHandle } from '#app/db/client.server.ts'
import { createTestDatabase } from '#tests/db.ts'
import { hit, peek, reset } from '#app/http/rate-limit.server.ts'

let handle: DatabaseHandle
beforeAll(async () => {
	handle = await createTestDatabase()
})
afterAll(() => handle.close())

const rule = { bucket: 'test', limit: 3, windowSeconds: 60 }

test('counts hits per key and says when the limit is passed', async () => {
	expect((await hit(handle.db, rule, 'a')).limited).toBe(false)
	expect((await hit(handle.db, rule, 'a')).limited).toBe(false)
	expect((await hit(handle.db, rule, 'a')).limited).toBe(false)
	const fourth = await hit(handle.db, rule, 'a')
	expect(fourth).toMatchObject({ count: 4, limited: true })
	expect(fourth.retryAfter).toBeGreaterThan(0)
	expect(fourth.retryAfter).toBeLessThanOrEqual(60)
	expect((await peek(handle.db, rule, 'a')).limited).toBe(true)
	expect((await peek(handle.db, rule, 'b')).count).toBe(0)
})

test('concurrent hits are all counted', async () => {
	await Promise.all(Array.from({ length: 10 }, () => hit(handle.db, rule, 'c')))
	expect((await peek(handle.db, rule, 'c')).count).toBe(10)
})

test('a window that has ended starts again at one', async () => {
	await hit(handle.db, rule, 'd')
	await handle.db.execute(sql`update rate_limits set window_start = now() - interval '2 minutes' where key = 'd'`)
	expect((await peek(handle.db, rule, 'd')).count).toBe(0)
	expect((await hit(handle.db, rule, 'd')).count).toBe(1)
	await reset(handle.db, rule, 'd')
	expect((await peek(handle.db, rule, 'd')).count).toBe(0)
})
