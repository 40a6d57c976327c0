import { count, isNotNull } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { DatabaseHandle } from '#app/db/client.server.ts'
import { aidInstalments, caseAid, caseDecisions, caseSections, cases, caseStudies, caseVisits, foundationInfo, ledgerEntries } from '#app/db/schema.ts'
import { checkLedger } from '#app/aid/ledger.server.ts'
import { budgetsOf } from '#app/aid/funds.server.ts'
import { todayInRiyadh } from '#app/text/format.ts'
import { DEMO_CASE_COUNT, seedDemoContent } from '#app/seed.server.ts'
import { createTestDatabase } from '#tests/db.ts'
import { countActiveUsers } from '#app/domain/staff-users.server.ts'

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
	// The demo's committee and finance staff cannot sign in: the first start still makes its first admin (app/bootstrap.server.ts).
	expect(await countActiveUsers(handle.db)).toBe(0)
	expect(await countOf(caseAid)).toBeGreaterThanOrEqual(rows.filter((row) => row.status === 3).length)
	// The committee decided on some studied cases, through the same checks as staff: approved ones
	// with their instalments within this year's budgets, one rejected, one sent back.
	const decisions = await handle.db.select().from(caseDecisions)
	expect(decisions.map((decision) => decision.outcome)).toEqual(expect.arrayContaining(['approve', 'reject', 'return']))
	// Finance paid or delivered most of what was approved: those cases are «تم تقديم الدعم», the rest wait.
	const instalments = await handle.db.select().from(aidInstalments)
	expect(instalments.some((item) => item.status === 'paid')).toBe(true)
	const approvedCases = new Set(instalments.map((item) => item.caseId))
	expect(approvedCases.size).toBe(decisions.filter((decision) => decision.outcome === 'approve').length)
	const given = new Set(instalments.filter((item) => item.status === 'paid' || item.status === 'delivered').map((item) => item.caseId))
	expect(rows.filter((row) => row.status === 7)).toHaveLength(approvedCases.size - given.size)
	expect(rows.filter((row) => row.status === 8)).toHaveLength(1)
	// The researcher's visits: done for the families studied, planned for a few new ones.
	const visits = await handle.db.select().from(caseVisits)
	expect(visits.filter((visit) => visit.status === 'done').length).toBe((await handle.db.select().from(caseStudies)).filter((study) => study.kind === 'visit').length)
	expect(visits.filter((visit) => visit.status === 'planned' && visit.visitOn > todayInRiyadh())).toHaveLength(4)
	const figures = await budgetsOf(handle.db, Number(todayInRiyadh().slice(0, 4)))
	const approvedTotal = instalments.reduce((sum, item) => sum + item.amount, 0)
	expect(figures.filter((budget) => budget.fundId === null).reduce((sum, budget) => sum + budget.committed + budget.paid, 0)).toBe(approvedTotal)
	expect(figures.every((budget) => budget.remaining >= 0)).toBe(true)
	// The money ledger was written by the same functions: an entry for each commitment and each payment, and sound.
	expect(await checkLedger(handle.db)).toEqual([])
	const posted = (await handle.db.select().from(ledgerEntries)).filter((entry) => entry.phase === 'posted')
	expect(posted.filter((entry) => entry.instalmentId !== null)).toHaveLength(instalments.filter((item) => item.status === 'paid' || item.status === 'delivered').length)
	// The aid recorded by hand in the years before the cycle: each row its posting from no fund (drizzle/0042_reports_from_ledger.sql).
	const hand = (await handle.db.select().from(caseAid)).filter((row) => row.instalmentId === null)
	expect(posted.filter((entry) => entry.aidId !== null).map((entry) => [entry.aidId, entry.debitAccount, entry.amount]).sort()).toEqual(hand.map((row) => [row.id, 'unfunded', row.amount]).sort())
})

test('a second foundation info row is refused', async () => {
	await expect(
		handle.db.insert(foundationInfo).values({ id: 2, name: 'x', phone: '', phone2: '', email: '', location: '', about: '' }),
	).rejects.toThrow()
})
