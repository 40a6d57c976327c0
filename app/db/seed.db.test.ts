import { afterAll, beforeAll, expect, test } from 'vitest'
import type { DatabaseHandle } from './client.server.ts'
import { foundationInfo } from './schema.ts'
import { seedDemoContent } from './seed.server.ts'
import { createTestDatabase } from '#tests/db.ts'

let handle: DatabaseHandle
beforeAll(async () => {
	handle = await createTestDatabase()
})
afterAll(() => handle.close())

test('the foundation info is seeded once and never overwritten', async () => {
	await seedDemoContent(handle.db)
	await handle.db.update(foundationInfo).set({ phone: '0119999999' })
	await seedDemoContent(handle.db)
	const rows = await handle.db.select().from(foundationInfo)
	expect(rows).toHaveLength(1)
	expect(rows[0]!.phone).toBe('0119999999')
	expect(rows[0]!.name).toBe('مؤسسة عطاء الخيرية')
})

test('a second foundation info row is refused', async () => {
	await expect(
		handle.db.insert(foundationInfo).values({ id: 2, name: 'x', phone: '', phone2: '', email: '', location: '', about: '' }),
	).rejects.toThrow()
})
