// Periods that close (docs/product.md#periods): finance closes a month once its payments are
// reconciled with the bank, and a year once its twelve months are closed («إقفال السنة» closes the
// months left at once). Nothing is then dated in it: the database refuses every money entry dated
// in a closed month (drizzle/0038_closed_periods.sql), so its reports and «أثرنا» never change; a
// mistake found later is an adjusting entry dated in an open month. An admin may reopen a month,
// with a reason: the reopening is kept, shown on the period's report, and audited.
// Every close and reopening is a row of `closed_periods`, never changed: a month's state is its newest row.
import { and, asc, desc, eq, inArray, lte, sql } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { closedPeriods, paymentBatches, users } from '#app/db/schema.ts'
import { hasRole, type UserRole } from '#app/db/roles.ts'
import { CaseChangeError } from '#app/cases/refusals.ts'
import { formatMonth, formatYear, todayInRiyadh } from '#app/text/format.ts'

export { ClosedPeriodError, closedPeriodMessage } from '#app/cases/refusals.ts'

type Actor = { id: number; roles: readonly UserRole[] }

/** The advisory lock's first key, "ATAP" in ASCII: the second is the month (year * 12 + month - 1), as the triggers take it shared. */
const PERIOD_LOCK = 0x41544150

export const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/

export interface PeriodEntry {
	action: 'close' | 'reopen'
	at: Date
	actorName: string
	reason: string
}

export interface MonthPeriod {
	/** YYYY-MM */
	month: string
	closed: boolean
	/** The month is over (Riyadh time): it may be closed. */
	ended: boolean
	/** Its closes and reopenings, oldest first. */
	history: PeriodEntry[]
}

export interface YearPeriods {
	year: number
	months: MonthPeriod[]
	/** Its twelve months are closed. */
	closed: boolean
	/** Every reopening of one of its months, oldest first. */
	reopenings: (PeriodEntry & { month: string })[]
}

const monthsOf = (year: number) => Array.from({ length: 12 }, (_, index) => `${year}-${String(index + 1).padStart(2, '0')}`)
const firstDay = (month: string) => `${month}-01`
const lastDay = (month: string) => {
	const [year, index] = month.split('-').map(Number) as [number, number]
	return new Date(Date.UTC(year, index, 0)).toISOString().slice(0, 10)
}
const lockKey = (month: string) => {
	const [year, index] = month.split('-').map(Number) as [number, number]
	return year * 12 + index - 1
}

/** The year's twelve months with their state and history. */
export async function yearPeriods(db: Database, year: number): Promise<YearPeriods> {
	const rows = await db
		.select({ row: closedPeriods, actorName: users.name })
		.from(closedPeriods)
		.innerJoin(users, eq(users.id, closedPeriods.actorId))
		.where(and(sql`${closedPeriods.month} >= ${`${year}-01-01`}`, lte(closedPeriods.month, `${year}-12-01`)))
		.orderBy(asc(closedPeriods.id))
	const today = todayInRiyadh()
	const months = monthsOf(year).map((month): MonthPeriod => {
		const history = rows.filter((item) => item.row.month === firstDay(month)).map((item) => ({ action: item.row.action, at: item.row.at, actorName: item.actorName, reason: item.row.reason }))
		return { month, closed: history.at(-1)?.action === 'close', ended: lastDay(month) < today, history }
	})
	return {
		year,
		months,
		closed: months.every((month) => month.closed),
		reopenings: months.flatMap((month) => month.history.filter((entry) => entry.action === 'reopen').map((entry) => ({ ...entry, month: month.month }))),
	}
}

/** The closed months among these (YYYY-MM), as they stand now. */
export async function closedMonths(db: Database, months: readonly string[]): Promise<Set<string>> {
	if (!months.length) return new Set()
	const rows = await db
		.selectDistinctOn([closedPeriods.month], { month: closedPeriods.month, action: closedPeriods.action })
		.from(closedPeriods)
		.where(inArray(closedPeriods.month, months.map(firstDay)))
		.orderBy(closedPeriods.month, desc(closedPeriods.id))
	return new Set(rows.filter((row) => row.action === 'close').map((row) => row.month.slice(0, 7)))
}

/** Why these months may not be closed by this actor, or nothing; under the months' locks, in the caller's transaction. */
async function closeRefusal(tx: Database, months: readonly string[], actor: Actor): Promise<string | null> {
	if (!hasRole(actor, 'finance', 'admin')) return 'يُقفل الشهر المسؤول المالي'
	const last = months.at(-1)!
	// A batch sent to the bank on or before the month's end and still waiting for its references: the month is not reconciled.
	const waiting = await tx
		.select({ id: paymentBatches.id })
		.from(paymentBatches)
		.where(and(eq(paymentBatches.status, 'sent'), lte(paymentBatches.sentOn, lastDay(last))))
		.orderBy(asc(paymentBatches.id))
		.limit(5)
	if (waiting.length)
		return `لم تكتمل مطابقة ${waiting.length === 1 ? 'دفعة الصرف' : 'دفعات الصرف'} رقم ${waiting.map((batch) => batch.id).join('، ')} مع البنك: سجّل مراجع تحويلاتها، أو أعِد ما أعاده البنك منها، ثم أقفل.`
	return null
}

async function lockMonths(tx: Database, months: readonly string[]) {
	for (const month of months) await tx.execute(sql`select pg_advisory_xact_lock(${PERIOD_LOCK}, ${lockKey(month)})`)
}

/** Finance closes a month that is over, once every batch sent by its end is reconciled. */
export async function closeMonth(db: Database, month: string, actor: Actor): Promise<void> {
	if (!MONTH.test(month)) throw new CaseChangeError('الرجاء اختيار الشهر')
	if (lastDay(month) >= todayInRiyadh()) throw new CaseChangeError(`لا يُقفل شهر ${formatMonth(month)} قبل انقضائه`)
	await db.transaction(async (tx) => {
		await lockMonths(tx, [month])
		if ((await closedMonths(tx, [month])).has(month)) throw new CaseChangeError(`شهر ${formatMonth(month)} مقفل من قبل`)
		const refusal = await closeRefusal(tx, [month], actor)
		if (refusal) throw new CaseChangeError(refusal)
		await tx.insert(closedPeriods).values({ month: firstDay(month), action: 'close', actorId: actor.id })
	})
}

/** «إقفال السنة»: every month of a year that is over, not closed yet, at once; the months it closed. */
export async function closeYear(db: Database, year: number, actor: Actor): Promise<string[]> {
	if (`${year}-12-31` >= todayInRiyadh()) throw new CaseChangeError(`لا تُقفل سنة ${formatYear(year)} قبل انقضائها`)
	return db.transaction(async (tx) => {
		const months = monthsOf(year)
		await lockMonths(tx, months)
		const closed = await closedMonths(tx, months)
		const open = months.filter((month) => !closed.has(month))
		if (!open.length) throw new CaseChangeError(`سنة ${formatYear(year)} مقفلة من قبل`)
		const refusal = await closeRefusal(tx, months, actor)
		if (refusal) throw new CaseChangeError(refusal)
		await tx.insert(closedPeriods).values(open.map((month) => ({ month: firstDay(month), action: 'close' as const, actorId: actor.id })))
		return open
	})
}

/** An admin reopens a closed month, with a reason kept beside the close and shown on its report. */
export async function reopenMonth(db: Database, month: string, reason: string, actor: Actor): Promise<void> {
	const why = reason.trim()
	if (!MONTH.test(month)) throw new CaseChangeError('الرجاء اختيار الشهر')
	if (!hasRole(actor, 'admin')) throw new CaseChangeError('يعيد فتح الشهر المقفل مدير النظام وحده')
	if (why.length < 5) throw new CaseChangeError('الرجاء كتابة سبب إعادة فتح الشهر')
	await db.transaction(async (tx) => {
		await lockMonths(tx, [month])
		if (!(await closedMonths(tx, [month])).has(month)) throw new CaseChangeError(`شهر ${formatMonth(month)} مفتوح`)
		await tx.insert(closedPeriods).values({ month: firstDay(month), action: 'reopen', reason: why.slice(0, 500), actorId: actor.id })
	})
}
