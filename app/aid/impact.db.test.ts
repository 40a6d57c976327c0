import { expect, test } from 'vitest'
import { contentVersion } from '#app/db/schema.ts'
import { createUser } from '#app/domain/staff-users.server.ts'
import { handRecordedAid, submittedCase } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { latestImpact, snapshotThrough, takeImpactSnapshot } from './impact.server.ts'

// «أثرنا» is the scheduler's monthly snapshot of the ledger (docs/product.md#our-impact): a payment
// changes nothing on the page until the first tick of the next month.

const app = withAppDatabase()
const db = () => app.handle.db
const version = async () => (await db().select({ version: contentVersion.version }).from(contentVersion))[0]!.version

test('a snapshot holds the ledger through the end of the month before it, Riyadh time', () => {
	expect(snapshotThrough(new Date('2026-11-29T10:00:00Z'))).toBe('2026-10-31')
	// 1 March 00:30 in Riyadh is still February in UTC.
	expect(snapshotThrough(new Date('2028-02-29T21:30:00Z'))).toBe('2028-02-29')
	expect(snapshotThrough(new Date('2027-01-01T00:00:00Z'))).toBe('2026-12-31')
})

test('a payment shows only in the next month’s snapshot; a month is taken once, and a new one refreshes cached pages', async () => {
	const officer = await createUser(db(), { name: 'الباحثة', email: `impact-${Date.now()}@example.org`, mobile: '', roles: ['case_officer'], password: 'Impact-Test-12345' })
	const families = await Promise.all(Array.from({ length: 2 }, () => submittedCase(db())))
	for (const family of families) await handRecordedAid(db(), family.id, { amount: 1000, kind: 'cash', givenOn: '2026-10-15', note: '' }, officer)

	const before = await version()
	expect(await takeImpactSnapshot(db(), new Date('2026-11-01T06:00:00Z'))).toBe(true)
	expect(await version()).toBeGreaterThan(before)
	const november = await latestImpact(db())
	expect(november?.through).toBe('2026-10-31')
	expect(november?.figures).toContainEqual({ year: 2026, programme: 'needy-families', families: 2, riyals: 2000 })

	// One more family paid in November: the page's figures stay October's all month.
	const late = await submittedCase(db())
	await handRecordedAid(db(), late.id, { amount: 4321, kind: 'medical', givenOn: '2026-11-20', note: '' }, officer)
	const unchanged = await version()
	expect(await takeImpactSnapshot(db(), new Date('2026-11-29T20:00:00Z'))).toBe(false)
	expect(await latestImpact(db())).toEqual(november)
	expect(await version()).toBe(unchanged)

	// 1 December in Riyadh (30 November 21:00 UTC): November's snapshot counts it.
	expect(await takeImpactSnapshot(db(), new Date('2026-11-30T21:00:00Z'))).toBe(true)
	const december = await latestImpact(db())
	expect(december?.through).toBe('2026-11-30')
	expect(december?.figures).toContainEqual({ year: 2026, programme: 'needy-families', families: 3, riyals: 6321 })
})
