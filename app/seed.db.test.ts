import { and, count, eq, isNotNull } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { DatabaseHandle } from '#app/db/client.server.ts'
import { aidInstalments, caseAid, caseDecisions, caseEvents, caseSections, cases, caseStudies, caseVisits, closedPeriods, committeeMeetings, foundationInfo, ledgerEntries, monthlyAids, payeeAccounts, paymentBatchLines, users } from '#app/db/schema.ts'
import { monthShift } from '#app/aid/monthly-aid.server.ts'
import { checkLedger } from '#app/aid/ledger.server.ts'
import { budgetsOf } from '#app/aid/funds.server.ts'
import type { Minutes } from '#app/aid/minutes.ts'
import { zakatRegister } from '#app/aid/zakat-register.server.ts'
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
	// In one meeting of the committee, three members present, closed with its minutes listing each decision.
	const [meeting, ...others] = await handle.db.select().from(committeeMeetings)
	expect(others).toEqual([])
	expect(decisions.every((decision) => decision.meetingId === meeting!.id)).toBe(true)
	const minutes = meeting!.minutes as Minutes
	expect(meeting!.closedAt).not.toBeNull()
	expect(minutes.members).toHaveLength(3)
	expect(minutes.decisions.map((item) => item.id).sort()).toEqual(decisions.map((decision) => decision.id).sort())
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
	// (The months of the stopped monthly aid were cancelled: their money went back to the budget.)
	const approvedTotal = instalments.filter((item) => item.status !== 'cancelled').reduce((sum, item) => sum + item.amount, 0)
	expect(figures.filter((budget) => budget.fundId === null).reduce((sum, budget) => sum + budget.committed + budget.paid, 0)).toBe(approvedTotal)
	expect(figures.every((budget) => budget.remaining >= 0)).toBe(true)
	// The money ledger was written by the same functions: an entry for each commitment and each payment, and sound.
	expect(await checkLedger(handle.db)).toEqual([])
	// Each paid or delivered instalment has one posting standing (the one returned by the bank, its reversal and its second payment).
	const entries = await handle.db.select().from(ledgerEntries)
	const standing = entries.filter((entry) => entry.phase === 'posted' && entry.correctsId === null && !entries.some((other) => other.correctsId === entry.id))
	expect(standing.filter((entry) => entry.instalmentId !== null)).toHaveLength(instalments.filter((item) => item.status === 'paid' || item.status === 'delivered').length)
	// The aid recorded by hand in the years before the cycle: each row its posting from no fund (drizzle/0042_reports_from_ledger.sql).
	const hand = (await handle.db.select().from(caseAid)).filter((row) => row.instalmentId === null)
	expect(standing.filter((entry) => entry.aidId !== null).map((entry) => [entry.aidId, entry.debitAccount, entry.amount]).sort()).toEqual(hand.map((row) => [row.id, 'unfunded', row.amount]).sort())
	// The demo's studies name zakat categories, and the zakat register of this year has rows, each with its category.
	expect((await handle.db.select({ category: caseStudies.zakatCategory }).from(caseStudies)).filter((study) => study.category).length).toBeGreaterThan(0)
	const register = await zakatRegister(handle.db, { calendar: 'gregorian', year: Number(todayInRiyadh().slice(0, 4)) })
	expect(register.rows.length).toBeGreaterThan(0)
	expect(register.rows.every((row) => ['الفقراء', 'المساكين', 'الغارمين', 'ابن السبيل'].includes(row.category))).toBe(true)
})

test('the demo shows a stopped monthly aid, a bounced payment paid again to the IBAN the family gave, a closed month and an adjusting entry', async () => {
	const today = todayInRiyadh()
	const lastMonth = monthShift(today, -1).slice(0, 7)
	// Last month closed by finance, after its batch was reconciled.
	const periods = await handle.db.select({ period: closedPeriods, actor: users }).from(closedPeriods).innerJoin(users, eq(users.id, closedPeriods.actorId))
	expect(periods.map((row) => [row.period.month, row.period.action, row.actor.roles])).toEqual([[`${lastMonth}-01`, 'close', ['finance']]])

	// A transfer paid last month, returned by the bank this month: the reversal, dated today, names last month's payment.
	const aid = await handle.db.select().from(caseAid)
	const reversal = aid.find((row) => row.correctsId !== null)!
	const original = aid.find((row) => row.id === reversal.correctsId)!
	expect([original.givenOn.slice(0, 7), reversal.givenOn, reversal.amount]).toEqual([lastMonth, today, -original.amount])
	const entries = await handle.db.select().from(ledgerEntries).where(eq(ledgerEntries.instalmentId, original.instalmentId!))
	const corrected = entries.find((entry) => entry.correctsId !== null)!
	expect([corrected.valueDate, entries.find((entry) => entry.id === corrected.correctsId)!.valueDate.slice(0, 7)]).toEqual([today, lastMonth])
	// Its batch line kept as sent, bounced; the family gave another IBAN on its link, another member of
	// finance confirmed it, and it was paid on the next batch, to that IBAN.
	const lines = await handle.db.select().from(paymentBatchLines).where(eq(paymentBatchLines.instalmentId, original.instalmentId!)).orderBy(paymentBatchLines.id)
	expect(lines.map((line) => line.state)).toEqual(['bounced', 'paid'])
	const accounts = await handle.db.select().from(payeeAccounts).where(eq(payeeAccounts.caseId, original.caseId)).orderBy(payeeAccounts.id)
	expect(accounts.map((row) => [row.kind, row.actorId === null])).toEqual([
		['bounced', false],
		['changed', true],
		['confirmed', false],
	])
	expect([lines[1]!.iban, lines[0]!.iban === lines[1]!.iban]).toEqual([accounts[2]!.iban, false])
	expect(accounts[2]!.actorId).not.toBe(accounts[0]!.actorId)
	expect(await bounceTold(original.caseId)).toBe(true)

	// A monthly aid stopped after its first payment, with the reason the family read.
	const [stopped] = await handle.db.select().from(monthlyAids).where(eq(monthlyAids.state, 'stopped'))
	expect(stopped?.reason).toBeTruthy()
	const schedule = await handle.db.select().from(aidInstalments).where(eq(aidInstalments.decisionId, stopped!.decisionId)).orderBy(aidInstalments.seq)
	expect(schedule[0]!.status).toBe('paid')
	expect(schedule.slice(1).every((row) => row.status === 'cancelled') && schedule.length > 1).toBe(true)
	const told = await handle.db.select().from(caseEvents).where(and(eq(caseEvents.caseId, stopped!.caseId), eq(caseEvents.kind, 'applicant_message')))
	expect(told.some((event) => event.note.includes(stopped!.reason))).toBe(true)
	expect(await checkLedger(handle.db)).toEqual([])
})

async function bounceTold(caseId: string) {
	const told = await handle.db.select().from(caseEvents).where(and(eq(caseEvents.caseId, caseId), eq(caseEvents.kind, 'applicant_message')))
	return told.some((event) => event.note.startsWith('أعاد البنك التحويل'))
}

test('a second foundation info row is refused', async () => {
	await expect(
		handle.db.insert(foundationInfo).values({ id: 2, name: 'x', phone: '', phone2: '', email: '', location: '', about: '' }),
	).rejects.toThrow()
})
