import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { aidInstalments, caseDecisions, cases, caseSections, caseStudies, zakatRecipients } from '#app/db/schema.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { PURGED_NAME, purgeCase, runRetention } from '#app/operations/retention-purge.server.ts'
import { hijriYearBounds } from '#app/text/hijri.ts'
import { withAppDatabase } from '#tests/db.ts'
import { approvedCase } from '#tests/fixtures/needy-families.ts'
import { temporaryStorage } from '#tests/storage.ts'
import { addFund, listFunds, setBudget, type Fund } from './funds.server.ts'
import { recordDelivery } from './payments.server.ts'
import { zakatByHijriYear } from './reports.server.ts'
import { zakatRegister, zakatWorkbook } from './zakat-register.server.ts'
import { received } from '#tests/fixtures/receipts.ts'

// The zakat register (docs/product.md#zakat): each zakat disbursement with its beneficiary and
// category, per Hijri and per Gregorian year, and still naming the beneficiary once retention has
// destroyed the case's other details.

const app = withAppDatabase()
const db = () => app.handle.db
const files = temporaryStorage('zakat-register')
let researcher: PublicUser
let approver: PublicUser
let finance: PublicUser
let zakat: Fund
let general: Fund

beforeAll(async () => {
	const user = (name: string, roles: PublicUser['roles']) => createUser(db(), { name, email: `${roles.join('-')}-${Date.now()}-${Math.random()}@example.org`, mobile: '', roles, password: 'Zakat-Register-1234' })
	researcher = await user('الباحثة نوف', ['case_officer'])
	approver = await user('عضو اللجنة سعد', ['approver'])
	finance = await user('المالية هند', ['finance'])
	const funds = await listFunds(db())
	zakat = funds.find((fund) => fund.zakat)!
	general = funds.find((fund) => !fund.zakat) ?? (await addFund(db(), { name: 'التبرعات العامة', zakat: false }))
	for (const year of [2025, 2026]) await setBudget(db(), { programme: 'needy-families', year, fundId: null, allocated: 1_000_000 }, { id: approver.id })
	// What the zakat fund received before it gives (docs/product.md#money-in): in Hijri 1448, this year.
	await received(db(), zakat.id, 100_000, '2026-11-01')
})
afterAll(() => files.remove())

/** A family approved a food basket from `fund` and given it on `day`. */
async function givenOn(fund: Fund, day: string, amount: number) {
	const row = await approvedCase(db(), { researcher, approver }, { fundId: fund.id, aidKind: 'food_basket', amount })
	const [instalment] = await db().select().from(aidInstalments).where(eq(aidInstalments.caseId, row.id))
	await recordDelivery(db(), instalment!.id, { deliveredOn: day, deliveredBy: 'مستودع المؤسسة', receipt: `R-${amount}` }, finance)
	return row
}

test('the register lists each zakat disbursement in the Hijri or Gregorian year it was given, with the beneficiary and the category; other funds are not in it', async () => {
	// 1 Muharram 1448 is 16 June 2026: one basket the day before, one on the day.
	expect(hijriYearBounds(1448)!.from).toBe('2026-06-16')
	const before = await givenOn(zakat, '2026-06-15', 301)
	const after = await givenOn(zakat, '2026-06-16', 302)
	const notZakat = await givenOn(general, '2026-06-16', 303)
	const [decision] = await db().select().from(caseDecisions).where(eq(caseDecisions.caseId, before.id))
	expect(decision!.zakatCategory).toBe('الفقراء')

	const ours = <T extends { reference: string }>(rows: T[]) => rows.filter((row) => [before, after, notZakat].some((made) => made.reference === row.reference))
	const h1447 = ours((await zakatRegister(db(), { calendar: 'hijri', year: 1447 })).rows)
	const h1448 = ours((await zakatRegister(db(), { calendar: 'hijri', year: 1448 })).rows)
	expect(h1447).toEqual([{ entryId: expect.any(Number), day: '2026-06-15', reference: before.reference, name: before.applicantName, nationalId: before.nationalId, category: 'الفقراء', amount: 301, fund: zakat.name, paymentReference: 'إيصال R-301' }])
	expect(h1448.map((row) => [row.reference, row.day, row.amount, row.category])).toEqual([[after.reference, '2026-06-16', 302, 'الفقراء']])
	// Both in the Gregorian 2026, none in 2025; the other fund's basket in neither.
	expect(ours((await zakatRegister(db(), { calendar: 'gregorian', year: 2026 })).rows).map((row) => row.reference)).toEqual([before.reference, after.reference])
	expect(ours((await zakatRegister(db(), { calendar: 'gregorian', year: 2025 })).rows)).toEqual([])

	// The workbook: one row per disbursement, the amount a number, and the total.
	const sheet = (await zakatWorkbook(db(), { calendar: 'hijri', year: 1447 })).worksheets[0]!
	expect(sheet.getRow(1).values).toContain('مصرف الزكاة')
	const line = sheet.getSheetValues().find((values) => Array.isArray(values) && values.includes(before.reference)) as unknown[]
	expect(line).toEqual(expect.arrayContaining([before.applicantName, before.nationalId, 'الفقراء', 301, zakat.name]))

	// The reports' zakat per Hijri year: the same sums as the register's years; received in 1448 only, and what is left of it.
	const byYear = await zakatByHijriYear(db())
	const paid1447 = (await zakatRegister(db(), { calendar: 'hijri', year: 1447 })).total
	const paid1448 = (await zakatRegister(db(), { calendar: 'hijri', year: 1448 })).total
	expect(byYear.find((item) => item.year === 1447)).toEqual({ year: 1447, paid: paid1447, received: null, left: null })
	expect(byYear.find((item) => item.year === 1448)).toEqual({ year: 1448, paid: paid1448, received: 100_000, left: 100_000 - paid1448 })
	expect(byYear.find((item) => item.year === 1447)!.paid).toBeGreaterThanOrEqual(301)
})

test('after retention the register still names the beneficiary (name, national ID, category); the case\'s other details are gone, and the name and ID go after the 10 years', async () => {
	const row = await givenOn(zakat, '2026-06-20', 404)
	expect((await db().select().from(cases).where(eq(cases.id, row.id)))[0]!.status).toBe(3)
	const purged = await purgeCase(db(), files.storage, row.id, { months: 24, now: new Date('2029-01-01T09:00:00Z'), runBy: 'command' })
	expect(purged).not.toBeNull()

	// Gone: the name and ID on the case, its mobile, its answers and its study.
	const [after] = await db().select().from(cases).where(eq(cases.id, row.id))
	expect(after).toMatchObject({ applicantName: PURGED_NAME, mobile: '', email: '' })
	expect(after!.nationalId).not.toBe(row.nationalId)
	expect(await db().select().from(caseSections).where(eq(caseSections.caseId, row.id))).toEqual([])
	expect(await db().select().from(caseStudies).where(eq(caseStudies.caseId, row.id))).toEqual([])
	// Kept for the register alone: the name and ID, until 10 years after the zakat was given.
	expect(await db().select({ name: zakatRecipients.applicantName, id: zakatRecipients.nationalId, until: zakatRecipients.keptUntil }).from(zakatRecipients).where(eq(zakatRecipients.caseId, row.id))).toEqual([
		{ name: row.applicantName, id: row.nationalId, until: '2036-06-20' },
	])
	const listed = (await zakatRegister(db(), { calendar: 'hijri', year: 1448 })).rows.find((line) => line.reference === row.reference)
	expect(listed).toMatchObject({ name: row.applicantName, nationalId: row.nationalId, category: 'الفقراء', amount: 404 })

	// Ten years on, retention lets them go: the register shows the destroyed name and no ID.
	await runRetention(db(), files.storage, { months: 24, now: new Date('2036-06-22T09:00:00Z'), runBy: 'command' })
	expect(await db().select().from(zakatRecipients).where(eq(zakatRecipients.caseId, row.id))).toEqual([])
	const later = (await zakatRegister(db(), { calendar: 'hijri', year: 1448 })).rows.find((line) => line.reference === row.reference)
	expect(later).toMatchObject({ name: PURGED_NAME, nationalId: '', category: 'الفقراء' })
})
