import { and, eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { findApplicationByToken, loadSavedState, startCase, type CaseRow } from '#app/cases/case-store.server.ts'
import { findSection } from '#app/cases/journey.ts'
import { caseEvents, caseSections } from '#app/db/schema.ts'
import { createUser } from '#app/domain/staff-users.server.ts'
import { needyFamilies } from '#app/forms/definitions/needy-families.ts'
import { basicAnswers, randomNationalId, submittedCase } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { runStep, type Caller, type StepOutcome } from './steps.server.ts'

// One step runner for every caller: the same posted row gives the same outcome to an applicant
// on a private link and to staff correcting a sent case; only where it is written differs.

const app = withAppDatabase()
const family = findSection(needyFamilies, 'family')!
const member = (name: string) => ({ FamilyName: name, RelationShip: 'son', Age: '7', Gander: 'male', Level_Edu: 'primary', Social_Status: 'single', Health_Status: 'healthy' })
const posted = (fields: Record<string, string>) => {
	const formData = new FormData()
	for (const [name, value] of Object.entries(fields)) formData.set(name, value)
	return formData
}

async function run(row: CaseRow, fields: Record<string, string>, caller: Caller, section = family): Promise<StepOutcome> {
	const db = app.handle.db
	return runStep({ db, definition: needyFamilies, row, state: await loadSavedState(db, row.id), section }, posted(fields), caller)
}

const membersOf = async (row: CaseRow) => ((await loadSavedState(app.handle.db, row.id)).answers.family?.members ?? []) as { FamilyName: string; _key: string }[]

test.each<{ who: 'applicant' | 'staff'; label: string }>([
	{ who: 'applicant', label: 'an applicant' },
	{ who: 'staff', label: 'a staff member' },
])('$label adds, changes and deletes a family member through the same handler, and is told when a row is gone or a row is invalid', async ({ who }) => {
	const db = app.handle.db
	const staff = await createUser(db, { name: `مصحح ${who}`, email: `runner-${who}@example.org`, mobile: '', roles: ['case_officer'], password: 'Runner-Pass-1234' })
	const row = who === 'applicant' ? (await startCase(db, needyFamilies, basicAnswers(randomNationalId()))).row : await submittedCase(db)
	const caller: Caller = who === 'applicant' ? { kind: 'applicant', override: null } : { kind: 'staff', user: staff }
	const before = (await membersOf(row)).length

	expect(await run(row, { intent: 'add-row', ...member('يوسف') }, caller)).toEqual({ kind: 'row', done: 'added' })
	const added = (await membersOf(row)).find((item) => item.FamilyName === 'يوسف')!
	expect(await run(row, { intent: 'change-row', rowKey: added._key, ...member('يوسف علي') }, caller)).toEqual({ kind: 'row', done: 'updated' })
	expect((await membersOf(row)).map((item) => item.FamilyName)).toContain('يوسف علي')

	const invalid = await run(row, { intent: 'add-row', FamilyName: '' }, caller)
	expect(invalid).toMatchObject({ kind: 'invalid', form: 'row', status: 400 })
	expect(await run(row, { intent: 'change-row', rowKey: 'ffffffffffffffff', ...member('لا أحد') }, caller)).toEqual({ kind: 'refused', at: 'rows', message: 'لم يُحفظ التعديل: حُذف هذا فرد من القائمة.' })

	expect(await run(row, { intent: 'delete-row', rowKey: added._key }, caller)).toEqual({ kind: 'row', done: 'deleted' })
	expect(await membersOf(row)).toHaveLength(before)
	// Staff changes are corrections in the case's history; an applicant's are not.
	const corrections = await db
		.select()
		.from(caseEvents)
		.where(and(eq(caseEvents.caseId, row.id), eq(caseEvents.kind, 'answers_corrected')))
	expect(corrections).toHaveLength(who === 'staff' ? 3 : 0)
})

test('«حفظ ومتابعة» under a short list is refused with the minimum; once it holds it, the applicant goes on to the next step they may open', async () => {
	const db = app.handle.db
	const { row, token } = await startCase(db, needyFamilies, basicAnswers(randomNationalId()))
	const applicant: Caller = { kind: 'applicant', override: null }
	const short = await run(row, { intent: 'next' }, applicant)
	expect(short).toMatchObject({ kind: 'invalid', form: 'next', result: { error: { '': ['الرجاء إضافة فرد واحد على الأقل'] } } })
	await run(row, { intent: 'add-row', ...member('يوسف') }, applicant)
	const found = await findApplicationByToken(db, token)
	const saved = await runStep({ db, definition: needyFamilies, row: found!.row, state: found!.state, section: family }, posted({ intent: 'next' }), applicant)
	expect(saved).toMatchObject({ kind: 'saved', next: 'referrers' })
})

test('a staff correction of the last family member is refused: a sent case keeps its minimum', async () => {
	const db = app.handle.db
	const staff = await createUser(db, { name: 'مصححة القائمة', email: 'runner-min@example.org', mobile: '', roles: ['case_officer'], password: 'Runner-Pass-1234' })
	const row = await submittedCase(db)
	// One member, under the key the «add» form gives every row.
	await db
		.update(caseSections)
		.set({ answers: { members: [{ ...member('سعد'), Age: 9, _key: 'a'.repeat(16) }] } })
		.where(and(eq(caseSections.caseId, row.id), eq(caseSections.section, 'family')))
	const last = await run(row, { intent: 'delete-row', rowKey: 'a'.repeat(16) }, { kind: 'staff', user: staff })
	expect(last).toEqual({ kind: 'refused', at: 'rows', message: 'لا يمكن الحذف: يجب ألا تقل القائمة عن فرد واحد' })
	expect(await membersOf(row)).toHaveLength(1)
})
