import type { Database } from '#app/db/client.server.ts'
import { formatMonth } from '#app/text/format.ts'

// What a store refuses, as the user reads it (routes answer it 409, or 403 for four eyes). Among
// them the database's own refusal of money dated in a closed month (docs/product.md#periods): its
// triggers (drizzle/0038_closed_periods.sql) raise SQLSTATE AT001 whoever writes, and a store that
// runs its transactions through `inOpenPeriods` turns that into the Arabic refusal below, so a
// route that forgot to ask whether the month is open still answers a refusal, never a 500.

/** A change the rules refuse, with why in Arabic. */
export class CaseChangeError extends Error {}

/** The SQLSTATE of money dated in a closed month. */
export const CLOSED_PERIOD_SQLSTATE = 'AT001'

/** «شهر نوفمبر 2026م (…) مقفل: …» for a month as YYYY-MM. */
export const closedPeriodMessage = (month: string) => `شهر ${formatMonth(month)} مقفل: لا تُسجَّل فيه حركة مالية. سجّلها بتاريخ في شهر مفتوح، أو اطلب من مدير النظام إعادة فتحه.`

/** Money dated in a closed month: `month` is YYYY-MM. */
export class ClosedPeriodError extends CaseChangeError {
	constructor(readonly month: string) {
		super(closedPeriodMessage(month))
	}
}

/** The database's refusal of a closed month, wherever the driver and drizzle put it (`cause`), as a ClosedPeriodError; any other error as it is. */
export function asRefusal(error: unknown): unknown {
	for (let cause = error, depth = 0; cause instanceof Error && depth < 4; cause = cause.cause, depth++) {
		if ((cause as { code?: unknown }).code === CLOSED_PERIOD_SQLSTATE) return new ClosedPeriodError(/\d{4}-\d{2}/.exec(cause.message)?.[0] ?? '')
	}
	return error
}

/** The store's database, its transactions' closed-month refusals thrown as ClosedPeriodError: `inOpenPeriods(db).transaction(…)`. */
export function inOpenPeriods(db: Database): Pick<Database, 'transaction'> {
	return { transaction: ((work, config) => db.transaction(work, config).catch(throwRefusal)) as Database['transaction'] }
}

/** A store's `.catch` for a statement outside a transaction: its closed-month refusal thrown as a ClosedPeriodError, anything else as it was. */
export function throwRefusal(error: unknown): never {
	throw asRefusal(error)
}
