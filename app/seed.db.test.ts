import { count, isNotNull } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { DatabaseHandle } from '#app/db/client.server.ts'
import { caseAid, caseSections, cases, foundationInfo } from '#app/db/schema.ts'
import { DEMO_CASE_COUNT, seedDemoContent } from '#app/seed.server.ts'
import { createTestDatabase } from '#tests/db.ts'

let handle: DatabaseHandle
beforeAll(async () => {
	handle = await createTestDatabase()
})
afterAll(() => handle.close())

const countOf = async (table: typeof cases | typeof caseSections | typeof caseAid) => (await handle.db.select({ n: count() }).from(table))[0]!.n

test('the foundation info is seeded once and never overwritten', async () => {
	await seedDemoContent(handle.db)
	await handle.db.update(foundationInfo).set({ phone: '0119999999' })
	await seedDemoContent(handle.db)
	const rows = await handle.db.select().from(foundationInfo)
	expect(rows).toHaveLength(1)
	expect(rows[0]!.phone).toBe('0119999999')
	expect(rows[0]!.name).toBe('مؤسسة عطاء الخيرية')
})

test('demo cases are seeded with the foundation info, once', async () => {
	// However many starts seed it (the test above did twice already), there is one set.
	await seedDemoContent(handle.db)
	await seedDemoContent(handle.db)
	expect(await countOf(cases)).toBe(DEMO_CASE_COUNT)
	expect(await countOf(caseSections)).toBe(DEMO_CASE_COUNT * 7)
	const rows = await handle.db.select({ status: cases.status, assignedTo: cases.assignedTo }).from(cases).where(isNotNull(cases.submittedAt))
	expect(rows).toHaveLength(DEMO_CASE_COUNT)
	// A spread of statuses, mostly new; no staff exist at first start, so none is assigned.
	expect(rows.filter((row) => row.status === 1).length).toBeGreaterThan(DEMO_CASE_COUNT / 4)
	expect(new Set(rows.map((row) => row.status)).size).toBeGreaterThan(3)
	expect(rows.every((row) => row.assignedTo === null)).toBe(true)
	expect(await countOf(caseAid)).toBeGreaterThanOrEqual(rows.filter((row) => row.status === 3).length)
})

test('a second foundation info row is refused', async () => {
	await expect(
		handle.db.insert(foundationInfo).values({ id: 2, name: 'x', phone: '', phone2: '', email: '', location: '', about: '' }),
	).rejects.toThrow()
})
