import { expect, test } from 'vitest'
import { asRefusal, CaseChangeError, ClosedPeriodError, closedPeriodMessage } from './refusals.ts'

// The database's refusal of money dated in a closed month (SQLSTATE AT001, drizzle/0038_closed_periods.sql)
// reaches a store wrapped by drizzle (`cause`): it becomes the Arabic refusal routes answer 409.

const databaseError = (code: string, message: string) => Object.assign(new Error(message), { code })

test("the closed month's refusal, however deep drizzle put it, becomes a refusal naming the month", () => {
	const wrapped = new Error('Failed query: insert into "case_aid" … params: 2026-10-15', { cause: databaseError('AT001', 'closed period 2026-10') })
	const refusal = asRefusal(wrapped)
	expect(refusal).toBeInstanceOf(ClosedPeriodError)
	expect(refusal).toBeInstanceOf(CaseChangeError)
	expect((refusal as ClosedPeriodError).month).toBe('2026-10')
	expect((refusal as Error).message).toBe(closedPeriodMessage('2026-10'))
	expect(closedPeriodMessage('2026-10')).toMatch(/^شهر أكتوبر\s2026م .*مقفل: لا تُسجَّل فيه حركة مالية\. سجّلها بتاريخ في شهر مفتوح، أو اطلب من مدير النظام إعادة فتحه\.$/)
})

test('any other error is left as it is', () => {
	const other = new Error('Failed query', { cause: databaseError('23505', 'duplicate key') })
	expect(asRefusal(other)).toBe(other)
	expect(asRefusal('not an error')).toBe('not an error')
})
