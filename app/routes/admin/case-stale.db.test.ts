import { eq } from 'drizzle-orm'
import { RouterContextProvider } from 'react-router'
import { expect, test } from 'vitest'
import { staffContext } from '#app/auth/user-context.server.ts'
import { changeStatus } from '#app/cases/status-changes.server.ts'
import { createUser } from '#app/domain/staff-users.server.ts'
import { findCaseByReference } from '#app/cases/case-store.server.ts'
import { aidProposals, caseAid } from '#app/db/schema.ts'
import { studied, submittedCase } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { action } from './case.tsx'

// The server side of a staff status change: a stale page (tests/e2e/cases.spec.ts shows the
// message on the page), and the officer's proposal of aid that replaced «تم تقديم الدعم» with an amount.

const app = withAppDatabase()

test('a status change from a page showing an older status is refused, saying the status now and what is allowed', async () => {
	const db = app.handle.db
	const officer = await createUser(db, { name: 'باحث الصفحة القديمة', email: 'stale-page@example.org', mobile: '', roles: ['case_officer'], password: 'Stale-Pass-1234' })
	const context = new RouterContextProvider()
	context.set(staffContext, officer)
	const row = await submittedCase(db)
	await studied(db, row, officer)
	await changeStatus(db, row.id, { to: 2, note: 'دُرست الحالة' }, officer)
	const body = new URLSearchParams({ intent: 'status', to: '6', from: '1', note: 'لم يرد المتقدم' })
	const answer = (await action({ request: new Request(`http://localhost/admin/cases/${row.reference}`, { method: 'POST', body }), params: { reference: row.reference }, context } as unknown as Parameters<typeof action>[0])) as unknown as {
		data: { form: string; errors: Record<string, string[]>; values: Record<string, string> }
		init: { status: number }
	}
	expect(answer.init.status).toBe(409)
	expect(answer.data.errors['']).toEqual(['لم يُحفظ تغييرك: غيّر غيرك حالة الطلب إلى «تمت الدراسة» بعد أن فتحت الصفحة. ولا يمكن تغيير حالته الآن.'])
	expect(answer.data.values.note).toBe('لم يرد المتقدم')
})

test('the officer\'s proposal without amount or kind is refused on its own form with each missing field, keeps what was typed, and changes nothing; with them, it waits for the committee and nothing is given', async () => {
	const db = app.handle.db
	const officer = await createUser(db, { name: 'باحثة الصرف', email: 'support-form@example.org', mobile: '', roles: ['case_officer'], password: 'Support-Pass-1234' })
	const context = new RouterContextProvider()
	context.set(staffContext, officer)
	const row = await submittedCase(db)
	await studied(db, row, officer)
	await changeStatus(db, row.id, { to: 2, note: 'دُرست الحالة' }, officer)
	const post = async (fields: Record<string, string>) =>
		(await action({ request: new Request(`http://localhost/admin/cases/${row.reference}`, { method: 'POST', body: new URLSearchParams(fields) }), params: { reference: row.reference }, context } as unknown as Parameters<typeof action>[0])) as unknown as {
			data: { form: string; errors: Record<string, string[]>; values: Record<string, string> }
			init: { status: number }
		} & Response

	// The old «تم تقديم الدعم» with an amount is no longer the officer's.
	const old = await post({ intent: 'status', to: '3', from: '2', note: 'صُرفت سلة غذائية', amount: '1500', aidKind: 'food_basket', givenOn: '2024-01-10' })
	expect(old.init.status).toBe(409)
	expect(old.data.errors['']).toEqual(['لا يمكن تغيير حالة طلب في حالة «تمت الدراسة»'])
	const missing = await post({ intent: 'propose', note: 'سلة غذائية' })
	expect(missing.init.status).toBe(400)
	expect(missing.data.form).toBe('propose')
	expect(missing.data.errors).toMatchObject({ amount: ['الرجاء كتابة مبلغ الدعم'], aidKind: ['الرجاء اختيار نوع الدعم'] })
	expect(missing.data.values.note).toBe('سلة غذائية')
	const wrong = await post({ intent: 'propose', note: 'سلة غذائية', amount: 'ألف', aidKind: 'food_basket' })
	expect(wrong.data.errors.amount).toEqual(['الرجاء كتابة مبلغ صحيح بالريال، مثل 1500'])
	expect(await db.select().from(aidProposals).where(eq(aidProposals.caseId, row.id))).toEqual([])

	const done = await post({ intent: 'propose', note: 'سلة غذائية', amount: '١٬٥٠٠', aidKind: 'food_basket' })
	expect(done.status).toBe(302)
	expect((await findCaseByReference(db, row.reference))!.status).toBe(2)
	expect(await db.select({ amount: aidProposals.amount, aidKind: aidProposals.aidKind, state: aidProposals.state }).from(aidProposals).where(eq(aidProposals.caseId, row.id))).toEqual([{ amount: 1500, aidKind: 'food_basket', state: 'proposed' }])
	expect(await db.select().from(caseAid).where(eq(caseAid.caseId, row.id))).toEqual([])
})
