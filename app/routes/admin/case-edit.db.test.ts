import { RouterContextProvider } from 'react-router'
import { expect, test } from 'vitest'
import { staffContext } from '#app/auth/user-context.server.ts'
import { addAttachment, loadSavedState, saveSection, startCase, submitCase } from '#app/cases/case-store.server.ts'
import { createUser } from '#app/domain/staff-users.server.ts'
import { associationSupport } from '#app/forms/definitions/association-support.ts'
import { institutionRegistration } from '#app/forms/definitions/institution-registration.ts'
import { hashPassword } from '#app/utils/password.server.ts'
import { sampleAnswers, sampleFiles } from '#app/forms/sample-answers.ts'
import { sectionSchema } from '#app/forms/schema.ts'
import { withAppDatabase } from '#tests/db.ts'
import { action, loader } from './case-edit.tsx'

// Staff correct a growing list in place, and the fields beside it, each change kept in the history.

const app = withAppDatabase()

async function sentAssociation() {
	const db = app.handle.db
	const answers = sampleAnswers(associationSupport, { seed: 21 })
	const parsed = (key: string) => sectionSchema(associationSupport.sections.find((section) => section.key === key)!).parse(answers[key])
	const [first, ...rest] = associationSupport.sections
	const { row } = await startCase(db, associationSupport, parsed(first!.key))
	// Rows as the «add» form stores them, each under its own key.
	const keyed = (values: Record<string, unknown>) =>
		Object.fromEntries(Object.entries(values).map(([name, value]) => [name, Array.isArray(value) && typeof value[0] === 'object' ? value.map((item, index) => ({ ...item, _key: `${index}`.padStart(16, 'a') })) : value]))
	for (const section of rest) await saveSection(db, associationSupport, row, section.key, keyed(parsed(section.key)))
	for (const file of sampleFiles(associationSupport).filter((item) => item.required)) {
		await addAttachment(db, associationSupport, row, { slot: file.slot, originalName: `${file.slot}.pdf`, contentType: 'application/pdf', size: 10, sha256: 'x', storageKey: `edit-${file.slot}` })
	}
	return submitCase(db, associationSupport, row)
}

test('staff change a budget line in place and the notes beside the list; a line deleted meanwhile is said so', async () => {
	const db = app.handle.db
	const officer = await createUser(db, { name: 'مسؤولة الحالات', email: 'edit-officer@example.org', mobile: '', roles: ['case_officer'], password: 'Edit-Pass-1234' })
	const context = new RouterContextProvider()
	context.set(staffContext, officer)
	const row = await sentAssociation()
	const params = { reference: row.reference, section: 'budget' }
	const post = (fields: Record<string, string>) =>
		action({ request: new Request(`http://localhost/admin/cases/${row.reference}/edit/budget`, { method: 'POST', body: new URLSearchParams(fields) }), params, context } as unknown as Parameters<typeof action>[0])
	const before = (await loadSavedState(db, row.id)).answers.budget!.budget as { _key: string }[]
	const key = before[0]!._key

	const page = await loader({ request: new Request(`http://localhost/admin/cases/${row.reference}/edit/budget?row=${key}`), params, context } as unknown as Parameters<typeof loader>[0])
	expect(page.list!.changing).toMatchObject({ index: 0, key })

	const changed = await post({ intent: 'change-row', rowKey: key, ProjectItem: 'إيجار قاعة', ApproximatePrices: '2500', PercentageOfBudget: '25', AmountPercentageOfBudget: '2500', Notes: 'لمدة شهر' })
	expect((changed as Response).status).toBe(302)
	const after = (await loadSavedState(db, row.id)).answers.budget!
	const rows = after.budget as Record<string, unknown>[]
	expect(rows).toHaveLength(before.length)
	expect(rows[0]).toMatchObject({ _key: key, ProjectItem: 'إيجار قاعة', ApproximatePrices: 2500 })

	expect(((await post({ intent: 'next', BudgetNotes: 'الأسعار تقديرية من عرضي سعر' })) as Response).status).toBe(302)
	expect((await loadSavedState(db, row.id)).answers.budget).toMatchObject({ BudgetNotes: 'الأسعار تقديرية من عرضي سعر', budget: rows })

	const gone = (await post({ intent: 'change-row', rowKey: 'ffffffffffffffff', ProjectItem: 'x', ApproximatePrices: '1', PercentageOfBudget: '1', AmountPercentageOfBudget: '1', Notes: 'x' })) as unknown as { data: { refused: string }; init: { status: number } }
	expect(gone.init.status).toBe(409)
	expect(gone.data.refused).toBe('لم يُحفظ التعديل: حُذف هذا بند من القائمة.')
})

test("staff correct an institution user's name, e-mail and mobile without touching the password", async () => {
	const db = app.handle.db
	const officer = await createUser(db, { name: 'مصحح التسجيل', email: 'edit-user-officer@example.org', mobile: '', roles: ['case_officer'], password: 'Edit-Pass-1234' })
	const context = new RouterContextProvider()
	context.set(staffContext, officer)
	const answers = sampleAnswers(institutionRegistration, { seed: 22 })
	const hash = await hashPassword('كلمة مرور المؤسسة الأولى')
	const parsed = (key: string) => sectionSchema(institutionRegistration.sections.find((section) => section.key === key)!).parse(key === 'user' ? { ...answers.user, password: hash } : answers[key])
	const [first, ...rest] = institutionRegistration.sections
	const { row: draft } = await startCase(db, institutionRegistration, parsed(first!.key))
	for (const section of rest) await saveSection(db, institutionRegistration, draft, section.key, parsed(section.key))
	for (const file of sampleFiles(institutionRegistration).filter((item) => item.required)) {
		await addAttachment(db, institutionRegistration, draft, { slot: file.slot, originalName: `${file.slot}.pdf`, contentType: 'application/pdf', size: 10, sha256: 'x', storageKey: `edit-user-${file.slot}` })
	}
	const row = await submitCase(db, institutionRegistration, draft)
	const params = { reference: row.reference, section: 'user' }
	const page = await loader({ request: new Request(`http://localhost/admin/cases/${row.reference}/edit/user`), params, context } as unknown as Parameters<typeof loader>[0])
	expect(page.sectionKey).toBe('user')

	const body = new URLSearchParams({ fullName: 'مستخدم مصحح الاسم', userName: String(answers.user!.userName), email: 'corrected@example.org', phone: '0559876543' })
	const answer = await action({ request: new Request(`http://localhost/admin/cases/${row.reference}/edit/user`, { method: 'POST', body }), params, context } as unknown as Parameters<typeof action>[0])
	expect((answer as Response).status).toBe(302)
	expect((await loadSavedState(db, row.id)).answers.user).toMatchObject({ fullName: 'مستخدم مصحح الاسم', email: 'corrected@example.org', phone: '+966559876543', password: hash })
})
