import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { eq, sql } from 'drizzle-orm'
import type { DatabaseHandle } from '#app/db/client.server.ts'
import { caseEvents, caseSections, cases } from '#app/db/schema.ts'
import { needyFamilies } from '#app/forms/definitions/needy-families.ts'
import type { ApplicationDef } from '#app/forms/definition.ts'
import { yesNo } from '#app/forms/options.ts'
import { basicAnswers, randomNationalId, sectionAnswers } from '#tests/fixtures/needy-families.ts'
import { createTestDatabase } from '#tests/db.ts'
import {
	addAttachment,
	editRows,
	AttachmentLimitError,
	CaseLockedError,
	DuplicateApplicantError,
	findApplicationByToken,
	findCaseByToken,
	IncompleteCaseError,
	InvalidAnswersError,
	loadSavedState,
	lookupCases,
	removeAttachment,
	saveSection,
	startCase,
	submitCase,
	TooManyRowsError,
} from './case-store.server.ts'
import { caseFlags } from './flags.server.ts'
import { saveConsent } from '#app/privacy/consent-store.server.ts'

let handle: DatabaseHandle
beforeAll(async () => {
	handle = await createTestDatabase()
})
afterAll(() => handle.close())

const file = (slot: string) => ({ slot, originalName: `${slot}.pdf`, contentType: 'application/pdf', size: 1234, sha256: 'ab'.repeat(32), storageKey: 'cd'.repeat(32) })

async function completeCase(nationalId = randomNationalId()) {
	const { row, token } = await startCase(handle.db, needyFamilies, basicAnswers(nationalId))
	await saveConsent(handle.db, row.id, 'given')
	for (const [key, value] of Object.entries(sectionAnswers)) await saveSection(handle.db, needyFamilies, row, key, value)
	await addAttachment(handle.db, needyFamilies, row, file('identity'))
	await addAttachment(handle.db, needyFamilies, row, file('family_report'))
	return { row, token, nationalId }
}

describe('case store', () => {
	test('starting creates a case with a readable reference, promoted columns and a hashed token', async () => {
		const nationalId = randomNationalId()
		const { row, token } = await startCase(handle.db, needyFamilies, basicAnswers(nationalId))
		expect(row.reference).toMatch(/^[A-HJ-NP-Y2-9]{4}-[A-HJ-NP-Y2-9]{4}$/)
		expect(row.reference).not.toMatch(/[IOQZ01]/)
		expect(row).toMatchObject({ type: 'needy-families', nationalId, mobile: '+966551234567', applicantName: 'عبدالله محمد سعد القحطاني', submittedAt: null })
		expect(row.resumeTokenHash).not.toContain(token)
		expect((await findCaseByToken(handle.db, token))?.id).toBe(row.id)
		expect(await findCaseByToken(handle.db, token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A'))).toBeUndefined()
		expect(await findCaseByToken(handle.db, "' or 1=1 --")).toBeUndefined()
		const events = await handle.db.select().from(caseEvents).where(eq(caseEvents.caseId, row.id))
		expect(events.map((event) => event.kind)).toEqual(['created'])
	})

	test('a private link reads the case with its answers and file counts, removed files left out, in one statement', async () => {
		const { row, token } = await completeCase()
		const second = await addAttachment(handle.db, needyFamilies, row, file('other'))
		await removeAttachment(handle.db, needyFamilies, row, second.id)
		const found = await findApplicationByToken(handle.db, token)
		expect(found?.row.id).toBe(row.id)
		expect(found?.state).toEqual(await loadSavedState(handle.db, row.id))
		expect(found?.state.fileCounts).toEqual({ identity: 1, family_report: 1 })
		expect(Object.keys(found?.state.answers ?? {}).sort()).toEqual(['basic', ...Object.keys(sectionAnswers)].sort())
		// Another case's answers never leak in (the subqueries are tied to this case).
		const other = await startCase(handle.db, needyFamilies, basicAnswers(randomNationalId()))
		expect((await findApplicationByToken(handle.db, other.token))?.state).toEqual({ answers: { basic: expect.any(Object) }, fileCounts: {}, idChecksumOverride: false, consent: null })
		expect(await findApplicationByToken(handle.db, token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A'))).toBeUndefined()
	})

	test('a case holds at most CASE_MAX_FILES files and CASE_MAX_MB, a slot of several SLOT_MAX_FILES; a slot of one holds one', async () => {
		const { row } = await completeCase()
		const limits = { perSlot: 2, perCase: 4, caseBytes: 10_000, documentPages: 10 }
		const live = async () => (await loadSavedState(handle.db, row.id)).fileCounts
		// A second identity replaces the first, and says which stored file to remove.
		const identity = await addAttachment(handle.db, needyFamilies, row, { ...file('identity'), storageKey: 'ef'.repeat(32) }, limits)
		expect(identity.replaced.map((old) => old.storageKey)).toEqual(['cd'.repeat(32)])
		expect(await live()).toEqual({ identity: 1, family_report: 1 })
		await addAttachment(handle.db, needyFamilies, row, file('other'), limits)
		await addAttachment(handle.db, needyFamilies, row, file('other'), limits)
		await expect(addAttachment(handle.db, needyFamilies, row, file('other'), limits)).rejects.toMatchObject({ limit: 'slot-full' })
		await expect(addAttachment(handle.db, needyFamilies, row, file('other'), { ...limits, perSlot: 5 })).rejects.toMatchObject({ limit: 'case-full' })
		await expect(addAttachment(handle.db, needyFamilies, row, { ...file('other'), size: 10_000 - 4 * 1234 + 1 }, { ...limits, perSlot: 5, perCase: 5 })).rejects.toBeInstanceOf(AttachmentLimitError)
		// Replacing a file in a full case is allowed: the count does not grow.
		expect((await addAttachment(handle.db, needyFamilies, row, file('family_report'), limits)).replaced).toHaveLength(1)
		expect(await live()).toEqual({ identity: 1, family_report: 1, other: 2 })
	})

	test('invalid answers are refused and nothing is stored', async () => {
		const before = (await handle.db.select().from(cases)).length
		await expect(startCase(handle.db, needyFamilies, { Full_Name: 'x' })).rejects.toBeInstanceOf(InvalidAnswersError)
		expect((await handle.db.select().from(cases)).length).toBe(before)

		const { row } = await startCase(handle.db, needyFamilies, basicAnswers(randomNationalId()))
		await expect(saveSection(handle.db, needyFamilies, row, 'financial', { Net_Income: 'lots' })).rejects.toBeInstanceOf(InvalidAnswersError)
		const sections = await handle.db.select().from(caseSections).where(eq(caseSections.caseId, row.id))
		expect(sections.map((s) => s.section)).toEqual(['basic'])
	})

	test('a section is stored normalised, and saving again replaces it', async () => {
		const { row } = await startCase(handle.db, needyFamilies, basicAnswers(randomNationalId()))
		await saveSection(handle.db, needyFamilies, row, 'financial', { Net_Income: '٢٥٠٠' })
		await saveSection(handle.db, needyFamilies, row, 'financial', { Net_Income: '3000', Retirement: '500' })
		const state = await loadSavedState(handle.db, row.id)
		expect(state.answers.financial).toEqual({ Net_Income: 3000, Retirement: 500 })
	})

	test('the same national ID cannot open a second case of the same type while one is open (reply 1001)', async () => {
		const { row, nationalId } = await completeCase()
		// A draft does not block (an abandoned start must not lock the family out)…
		await expect(startCase(handle.db, needyFamilies, basicAnswers(nationalId))).resolves.toBeDefined()
		await submitCase(handle.db, needyFamilies, row)
		// …a submitted, open case does.
		await expect(startCase(handle.db, needyFamilies, basicAnswers(nationalId))).rejects.toBeInstanceOf(DuplicateApplicantError)
		// Once support was provided, a new application may start.
		await handle.db.update(cases).set({ status: 3 }).where(eq(cases.id, row.id))
		await expect(startCase(handle.db, needyFamilies, basicAnswers(nationalId))).resolves.toBeDefined()
	})

	test('submitting needs every section and the required files; then the case is locked', async () => {
		const { row } = await startCase(handle.db, needyFamilies, basicAnswers(randomNationalId()))
		await expect(submitCase(handle.db, needyFamilies, row)).rejects.toBeInstanceOf(IncompleteCaseError)

		const done = await completeCase()
		const submitted = await submitCase(handle.db, needyFamilies, done.row)
		expect(submitted.status).toBe(1)
		expect(submitted.submittedAt).toBeInstanceOf(Date)
		await expect(saveSection(handle.db, needyFamilies, submitted, 'financial', { Net_Income: '1' })).rejects.toBeInstanceOf(CaseLockedError)
		await expect(addAttachment(handle.db, needyFamilies, submitted, file('other'))).rejects.toBeInstanceOf(CaseLockedError)

		// Staff send it back as incomplete: the applicant may edit and send it again; it is new again.
		const [reopened] = await handle.db.update(cases).set({ status: 4 }).where(eq(cases.id, submitted.id)).returning()
		await saveSection(handle.db, needyFamilies, reopened!, 'financial', { Net_Income: '1800' })
		const again = await submitCase(handle.db, needyFamilies, reopened!)
		expect(again.status).toBe(1)
		expect(again.submittedAt).toEqual(submitted.submittedAt)
	})

	test('a removed file no longer counts, but stays in the history', async () => {
		const { row } = await completeCase()
		const extra = await addAttachment(handle.db, needyFamilies, row, file('other'))
		expect((await loadSavedState(handle.db, row.id)).fileCounts.other).toBe(1)
		await removeAttachment(handle.db, needyFamilies, row, extra.id)
		expect((await loadSavedState(handle.db, row.id)).fileCounts.other).toBeUndefined()
		const kinds = (await handle.db.select().from(caseEvents).where(eq(caseEvents.caseId, row.id))).map((e) => e.kind)
		expect(kinds.filter((kind) => kind === 'file_removed')).toHaveLength(1)
	})

	test('the lookup needs the national ID and the mobile together', async () => {
		const { row, nationalId } = await completeCase()
		expect((await lookupCases(handle.db, nationalId, '+966551234567')).map((c) => c.id)).toContain(row.id)
		expect(await lookupCases(handle.db, nationalId, '+966500000000')).toEqual([])
	})

	test('concurrent saves of different sections are all kept', async () => {
		const { row } = await startCase(handle.db, needyFamilies, basicAnswers(randomNationalId()))
		await Promise.all(Object.entries(sectionAnswers).map(([key, value]) => saveSection(handle.db, needyFamilies, row, key, value)))
		const state = await loadSavedState(handle.db, row.id)
		expect(Object.keys(state.answers).sort()).toEqual(['bank', 'basic', 'family', 'files', 'financial', 'referrers', 'services'])
	})
})

describe('staff override of the national ID checksum', () => {
	const failingId = () => {
		const valid = randomNationalId()
		return `${valid.slice(0, 9)}${(Number(valid[9]) + 1) % 10}`
	}

	test('without an override an ID failing the checksum is refused; with one it is kept, noted and can be submitted', async () => {
		const nationalId = failingId()
		await expect(startCase(handle.db, needyFamilies, basicAnswers(nationalId))).rejects.toBeInstanceOf(InvalidAnswersError)

		const [staff] = await handle.db.execute<{ id: number }>(
			sql`insert into users (name, email, password_hash, roles) values ('موظف', ${`staff-${nationalId}@example.org`}, 'x', '{case_officer}') returning id`,
		).then((result) => result.rows)
		const { row } = await startCase(handle.db, needyFamilies, basicAnswers(nationalId), { override: { actorId: staff!.id, note: 'طابقنا البطاقة الأصلية' } })
		expect(row.idChecksumOverride).toBe(true)
		const notes = await handle.db.select().from(caseEvents).where(eq(caseEvents.caseId, row.id))
		expect(notes.find((event) => event.kind === 'internal_note')).toMatchObject({ actorId: staff!.id, note: expect.stringContaining('طابقنا البطاقة الأصلية') })

		// The applicant can go on editing and submit: the override holds for this case.
		await saveSection(handle.db, needyFamilies, row, 'basic', basicAnswers(nationalId, '0559998877'))
		await saveConsent(handle.db, row.id, 'given')
		for (const [key, value] of Object.entries(sectionAnswers)) await saveSection(handle.db, needyFamilies, row, key, value)
		await addAttachment(handle.db, needyFamilies, row, file('identity'))
		await addAttachment(handle.db, needyFamilies, row, file('family_report'))
		expect((await submitCase(handle.db, needyFamilies, row)).status).toBe(1)
	})
})

describe('collection rows', () => {
	const member = (name: string) => ({ FamilyName: name, RelationShip: 'son', Gander: 'male', Level_Edu: 'primary', Social_Status: 'single', Health_Status: 'healthy' })

	test('rows added at the same moment are all kept, each with its own key', async () => {
		const { row } = await startCase(handle.db, needyFamilies, basicAnswers(randomNationalId()))
		await Promise.all(['أحمد', 'خالد', 'سارة', 'ريم'].map((name) => editRows(handle.db, needyFamilies, row, 'family', { add: member(name), max: 20 })))
		const members = (await loadSavedState(handle.db, row.id)).answers.family!.members as { FamilyName: string; _key: string }[]
		expect(members.map((m) => m.FamilyName).sort()).toEqual(['أحمد', 'خالد', 'ريم', 'سارة'])
		expect(new Set(members.map((m) => m._key)).size).toBe(4)
	})

	test('a row is removed by its key; removing it twice (a double tap) removes nothing else', async () => {
		const { row } = await startCase(handle.db, needyFamilies, basicAnswers(randomNationalId()))
		await editRows(handle.db, needyFamilies, row, 'family', { add: member('أحمد'), max: 20 })
		await editRows(handle.db, needyFamilies, row, 'family', { add: member('خالد'), max: 20 })
		const [first] = (await loadSavedState(handle.db, row.id)).answers.family!.members as { _key: string }[]
		await Promise.all([editRows(handle.db, needyFamilies, row, 'family', { remove: first!._key }), editRows(handle.db, needyFamilies, row, 'family', { remove: first!._key })])
		const left = (await loadSavedState(handle.db, row.id)).answers.family!.members as { FamilyName: string }[]
		expect(left.map((m) => m.FamilyName)).toEqual(['خالد'])
	})

	test('no more rows than the definition allows', async () => {
		const { row } = await startCase(handle.db, needyFamilies, basicAnswers(randomNationalId()))
		await editRows(handle.db, needyFamilies, row, 'family', { add: member('أحمد'), max: 1 })
		await expect(editRows(handle.db, needyFamilies, row, 'family', { add: member('خالد'), max: 1 })).rejects.toBeInstanceOf(TooManyRowsError)
	})
})

describe('flags for staff', () => {
	test('the applicant’s ID as another family’s member, the same IBAN, the same mobile on another applicant', async () => {
		const applicantId = randomNationalId()
		const { row } = await startCase(handle.db, needyFamilies, basicAnswers(applicantId, '0561234567'))
		await saveSection(handle.db, needyFamilies, row, 'bank', { Bank_Name_1: 'riyad', Bank_No_1: 'SA4420000001234567891234' })
		expect(await caseFlags(handle.db, needyFamilies, row)).toEqual([])

		const other = await startCase(handle.db, needyFamilies, basicAnswers(randomNationalId(), '0561234567'))
		await saveSection(handle.db, needyFamilies, other.row, 'bank', { Bank_Name_1: 'riyad', Bank_No_1: 'SA4420000001234567891234' })
		await editRows(handle.db, needyFamilies, other.row, 'family', { add: { FamilyName: 'الأب', RelationShip: 'father', Identify_Id: applicantId }, max: 20 })
		// A draft is nobody's second application yet.
		expect(await caseFlags(handle.db, needyFamilies, row)).toEqual([])
		await handle.db.update(cases).set({ submittedAt: sql`now()` }).where(eq(cases.id, other.row.id))

		const flags = await caseFlags(handle.db, needyFamilies, row)
		expect(flags.map((flag) => flag.kind).sort()).toEqual(['id_in_family', 'same_iban', 'same_mobile'])
		expect(flags.every((flag) => flag.reference === other.row.reference)).toBe(true)
	})
})

describe('a section asked only under a condition', () => {
	const conditional: ApplicationDef = {
		...needyFamilies,
		type: 'conditional-test',
		applicant: { name: 'Full_Name', nationalId: 'Identify_Id', mobile: 'Phone' },
		sections: [
			{ ...needyFamilies.sections[0]!, fields: [...needyFamilies.sections[0]!.fields, { kind: 'radio', name: 'hasHouse', label: 'هل تملك منزلاً؟', options: yesNo, default: 'no', required: true }] },
			{ key: 'house', code: 'T-2', title: 'المنزل', fields: [{ kind: 'text', name: 'address', label: 'العنوان', required: true }], when: { section: 'basic', field: 'hasHouse', is: ['yes'] } },
		],
	}

	test('its answers are dropped when the case is sent without it being asked', async () => {
		const basic = { ...basicAnswers(randomNationalId()), hasHouse: 'yes' }
		const { row } = await startCase(handle.db, conditional, basic)
		await saveSection(handle.db, conditional, row, 'house', { address: 'حي النسيم' })
		// The applicant goes back and answers «لا»: the house step is no longer asked.
		await saveSection(handle.db, conditional, row, 'basic', { ...basic, hasHouse: 'no' })
		await submitCase(handle.db, conditional, row)
		const stored = await handle.db.select({ section: caseSections.section }).from(caseSections).where(eq(caseSections.caseId, row.id))
		expect(stored.map((item) => item.section)).toEqual(['basic'])
	})
})
