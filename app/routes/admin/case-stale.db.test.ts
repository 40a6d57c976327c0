import { RouterContextProvider } from 'react-router'
import { expect, test } from 'vitest'
import { staffContext } from '#app/auth/user-context.server.ts'
import { changeStatus } from '#app/cases/case-decisions.server.ts'
import { createUser } from '#app/domain/staff-users.server.ts'
import { submittedCase } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { action } from './case.tsx'

// The server side of a stale case page (tests/e2e/cases.spec.ts shows the message on the page).

const app = withAppDatabase()

test('a status change from a page showing an older status is refused, saying the status now and what is allowed', async () => {
	const db = app.handle.db
	const officer = await createUser(db, { name: 'باحث الصفحة القديمة', email: 'stale-page@example.org', mobile: '', role: 'case_officer', password: 'Stale-Pass-1234' })
	const context = new RouterContextProvider()
	context.set(staffContext, officer)
	const row = await submittedCase(db)
	await changeStatus(db, row.id, { to: 2, note: 'دُرست الحالة' }, officer)
	const body = new URLSearchParams({ intent: 'status', to: '6', from: '1', note: 'لم يرد المتقدم' })
	const answer = (await action({ request: new Request(`http://localhost/admin/cases/${row.reference}`, { method: 'POST', body }), params: { reference: row.reference }, context } as unknown as Parameters<typeof action>[0])) as unknown as {
		data: { form: string; errors: Record<string, string[]>; values: Record<string, string> }
		init: { status: number }
	}
	expect(answer.init.status).toBe(409)
	expect(answer.data.errors['']).toEqual(['لم يُحفظ تغييرك: غيّر غيرك حالة الطلب إلى «تمت الدراسة» بعد أن فتحت الصفحة. يمكن نقله الآن إلى: «تم تقديم الدعم».'])
	expect(answer.data.values.note).toBe('لم يرد المتقدم')
})
