import { publicOrigin } from '#app/utils/env.server.ts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { eq, inArray, sql } from 'drizzle-orm'
import type { DatabaseHandle } from '#app/db/client.server.ts'
import { auditLog, caseAid, caseEvents, cases } from '#app/db/schema.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { needyFamilies } from '#app/forms/definitions/needy-families.ts'
import { associationSupport } from '#app/forms/definitions/association-support.ts'
import { sampleAnswers } from '#app/forms/sample-answers.ts'
import { attachmentRow, basicAnswers, handRecordedAid, randomNationalId, sectionAnswers, studied, submittedCase } from '#tests/fixtures/needy-families.ts'
import { createTestDatabase } from '#tests/db.ts'
import { foldArabic } from '#app/utils/arabic-search.ts'
import { todayInRiyadh } from '#app/text/format.ts'
import { aidLedger, assignCases, bulkChangeStatus, CaseChangeError, changeStatus, correctSection, restoreCase, softDeleteCase, STUDY_MISSING } from './status-changes.server.ts'
import { countCases, listCases, readCaseFilter } from './case-lists.server.ts'
import { addAttachment, CaseLockedError, findCaseByReference, lookupCases, NothingChangedError, saveSection, startCase, submitCase } from './case-store.server.ts'
import { canEditSection, canEditSlot } from './journey.ts'
import { csvExport, xlsxExport } from './export.server.ts'
import ExcelJS from 'exceljs'
import { ageOn } from '#app/forms/conditions.ts'
import { notifyStatusChange } from '#app/notify/case-notices.server.ts'
import { setSmsDriver } from '#app/notify/notifier.server.ts'
import { findCaseByToken } from './case-store.server.ts'

let handle: DatabaseHandle
let officer: PublicUser
let editor: PublicUser
beforeAll(async () => {
	handle = await createTestDatabase()
	officer = await createUser(handle.db, { name: 'سارة الباحثة', email: 'officer@example.org', mobile: '+966500000001', password: 'Passw0rd!x', roles: ['case_officer'], active: true })
	editor = await createUser(handle.db, { name: 'محرر', email: 'editor@example.org', mobile: '+966500000002', password: 'Passw0rd!x', roles: ['content_editor'], active: true })
})
afterAll(() => handle.close())

const submitted = (name = 'عبدالله محمد سعد القحطاني', nationalId = randomNationalId()) => submittedCase(handle.db, { name, nationalId })

const filter = (query: string, me = officer.id) => readCaseFilter(new URLSearchParams(query), 'individual', me)
const references = async (query: string) => (await listCases(handle.db, filter(query), { offset: 0, limit: 50 })).map((row) => row.reference)

describe('the staff list', () => {
	test('the name search ignores hamza forms, ى/ي, ة/ه, tashkeel and tatweel — the same folding in SQL and TypeScript', async () => {
		const row = await submitted('أحمد موسى عائشة الـزهراني')
		for (const query of ['احمد', 'أَحْمَد', 'موسي', 'عايشه', 'عائشة', 'الزهراني', 'الــزهراني']) {
			expect(await references(`q=${encodeURIComponent(query)}`), query).toContain(row.reference)
		}
		const [stored] = await handle.db.select({ searchName: cases.searchName }).from(cases).where(eq(cases.id, row.id))
		expect(stored!.searchName).toBe(foldArabic('أحمد موسى عائشة الـزهراني'))
		expect(await references('q=%25')).not.toContain(row.reference)
	})

	test('a name is found by any of its words, in any order; a reference by its first characters', async () => {
		const row = await submitted('سعد محمد عبدالله القحطاني')
		const other = await submitted('سعد محمد الدوسري')
		for (const query of ['سعد القحطاني', 'القحطاني  سعد', 'عبدالله سعد', 'قحطاني محمد']) {
			const found = await references(`q=${encodeURIComponent(query)}`)
			expect(found, query).toContain(row.reference)
			expect(found, query).not.toContain(other.reference)
		}
		expect(await references(`q=${encodeURIComponent('سعد الغامدي')}`)).not.toContain(row.reference)
		for (const query of [row.reference.slice(0, 4), row.reference.slice(0, 4).toLowerCase(), row.reference.slice(0, 6), row.reference.slice(0, 7).replace('-', '')]) {
			expect(await references(`q=${encodeURIComponent(query)}`), query).toContain(row.reference)
		}
	})

	test('national ID, mobile in any spelling and reference find the case', async () => {
		const nationalId = randomNationalId()
		const row = await submitted('نورة سعد', nationalId)
		const local = `0${row.mobile.slice(4)}`
		for (const query of [nationalId, nationalId.slice(0, 6), local, local.slice(1), `+966${local.slice(1)}`, row.reference, row.reference.toLowerCase().replace('-', '')]) {
			expect(await references(`q=${encodeURIComponent(query)}`), query).toContain(row.reference)
		}
	})

	test('an association is found by its licence number of any length, whole or by its first digits', async () => {
		const answers = sampleAnswers(associationSupport, { seed: 5 }).basic!
		for (const licence of ['778100091699', '42']) {
			const { row } = await startCase(handle.db, associationSupport, { ...answers, LicenseNumber: licence })
			await handle.db.update(cases).set({ submittedAt: sql`now()` }).where(eq(cases.id, row.id))
			const associations = async (query: string) => (await listCases(handle.db, readCaseFilter(new URLSearchParams(query), 'association', officer.id), { offset: 0, limit: 50 })).map((item) => item.reference)
			expect(await associations(`q=${licence}`), licence).toContain(row.reference)
			if (licence.length > 4) expect(await associations(`q=${licence.slice(0, 5)}`)).toContain(row.reference)
		}
	})

	test('archived cases are hidden unless asked for; status, officer, dates and sort filter', async () => {
		const archived = await submitted('مغلق الطلب')
		await changeStatus(handle.db, archived.id, { to: 6, note: 'أرشفة' }, officer)
		expect(await references('')).not.toContain(archived.reference)
		expect(await references('status=6')).toContain(archived.reference)

		const mine = await submitted('طلب مسند')
		await assignCases(handle.db, [mine.id], officer.id, officer)
		expect(await references('assigned=me')).toEqual([mine.reference])

		// The filter counts days in Riyadh: between 21:00 and 24:00 UTC that is already tomorrow.
		const today = todayInRiyadh()
		expect(await references(`from=${today}&to=${today}`)).toContain(mine.reference)
		expect(await references('from=2000-01-01&to=2000-01-02')).toEqual([])

		await handle.db.update(cases).set({ statusChangedAt: sql`now() - interval '30 days'` }).where(eq(cases.id, mine.id))
		expect((await references('sort=waiting'))[0]).toBe(mine.reference)
		expect(await countCases(handle.db, filter('status=1'))).toBeGreaterThan(0)
		// Every status the filter offers is one it reads, «معتمد بانتظار الصرف» and «مرفوض» too; anything else is no filter.
		for (const status of [1, 2, 3, 4, 5, 6, 7, 8]) expect(filter(`status=${status}`).status).toBe(status)
		for (const query of ['status=0', 'status=9', 'status=x']) expect(filter(query).status).toBeNull()
	})
})

describe('status changes', () => {
	test('study done; «تم تقديم الدعم» is no officer\'s status (money goes through the committee): 1 → 3 and 2 → 3 refused and nothing changes', async () => {
		const row = await submitted()
		await expect(changeStatus(handle.db, row.id, { to: 3, note: 'مباشرة' }, officer)).rejects.toThrow(
			'لا يمكن نقل الطلب من «جديد» إلى «تم تقديم الدعم»',
		)
		await expect(changeStatus(handle.db, row.id, { to: 2, note: 'x' }, editor)).rejects.toBeInstanceOf(CaseChangeError)
		await expect(changeStatus(handle.db, row.id, { to: 2, note: '  ' }, officer)).rejects.toThrow('الرجاء كتابة ملاحظة تغيير الحالة')
		// «تمت الدراسة» follows a study with its recommendation.
		await expect(changeStatus(handle.db, row.id, { to: 2, note: 'تمت زيارة الأسرة' }, officer)).rejects.toThrow(STUDY_MISSING)
		expect((await findCaseByReference(handle.db, row.reference))!.status).toBe(1)

		await studied(handle.db, row, officer)
		await changeStatus(handle.db, row.id, { to: 2, note: 'تمت زيارة الأسرة' }, officer)
		await expect(changeStatus(handle.db, row.id, { to: 3, note: 'صرف', message: 'تم صرف الدعم' }, officer)).rejects.toThrow('لا يمكن تغيير حالة طلب في حالة «تمت الدراسة»')
		expect((await findCaseByReference(handle.db, row.reference))!.status).toBe(2)

		const events = await handle.db.select().from(caseEvents).where(eq(caseEvents.caseId, row.id))
		const changes = events.filter((event) => event.kind === 'status_changed')
		expect(changes.map((event) => [event.data, event.note, event.actorId])).toEqual([
			[{ from: 1, to: 2 }, 'تمت زيارة الأسرة', officer.id],
		])
		expect(events.filter((event) => event.kind === 'applicant_message')).toEqual([])
		expect(await aidLedger(handle.db, row.nationalId)).toEqual([])
	})

	test('the aid ledger follows the national ID across cases, old aid recorded by hand included', async () => {
		const nationalId = randomNationalId()
		const first = await submitted('أسرة أولى', nationalId)
		// Support provided by hand in the old system: the case is closed to a new application, its row still read.
		await handle.db.update(cases).set({ status: 3 }).where(eq(cases.id, first.id))
		await handRecordedAid(handle.db, first.id, { amount: 500, kind: 'food_basket', givenOn: '2026-01-10', note: '' }, officer)
		const second = await submitted('أسرة أولى', nationalId)
		const ledger = await aidLedger(handle.db, second.nationalId)
		expect(ledger.map((entry) => entry.reference)).toEqual([first.reference])
	})

	test('incomplete opens only the ticked parts; resubmitting returns the case to new with history', async () => {
		const row = await submitted()
		await expect(changeStatus(handle.db, row.id, { to: 4, note: 'ناقص', message: 'أرفق السجل', reopened: { sections: [], slots: [] } }, officer)).rejects.toThrow('الرجاء اختيار ما يحتاج إلى استكمال')
		await expect(changeStatus(handle.db, row.id, { to: 4, note: 'ناقص', reopened: { sections: [], slots: ['family_report'] } }, officer)).rejects.toThrow('الرجاء كتابة رسالة للمتقدم')
		const { row: reopened } = await changeStatus(handle.db, row.id, { to: 4, note: 'ناقص', message: 'أرفق سجل الأسرة محدثاً', reopened: { sections: [], slots: ['family_report'] } }, officer)
		expect(reopened.reopened).toEqual({ sections: [], slots: ['family_report'] })
		expect(canEditSlot(reopened, needyFamilies, 'family_report')).toBe(true)
		expect(canEditSlot(reopened, needyFamilies, 'identity')).toBe(false)
		expect(canEditSection(reopened, 'bank')).toBe(false)
		await expect(saveSection(handle.db, needyFamilies, reopened, 'financial', { Net_Income: 1 })).rejects.toBeInstanceOf(CaseLockedError)
		await expect(addAttachment(handle.db, needyFamilies, reopened, attachmentRow('identity'))).rejects.toBeInstanceOf(CaseLockedError)
		// Sent again without the asked-for change: refused.
		await expect(submitCase(handle.db, needyFamilies, reopened)).rejects.toBeInstanceOf(NothingChangedError)
		await addAttachment(handle.db, needyFamilies, reopened, attachmentRow('family_report'))

		const again = await submitCase(handle.db, needyFamilies, reopened)
		expect(again).toMatchObject({ status: 1, reopened: null })
		const [last] = await handle.db.select().from(caseEvents).where(eq(caseEvents.caseId, row.id)).orderBy(sql`${caseEvents.id} desc`).limit(1)
		expect(last).toMatchObject({ kind: 'submitted', data: { resubmitted: true, from: 4, to: 1 } })
	})

	test('a bulk change writes one history entry per case and reports the ones refused (a case not yet studied among them)', async () => {
		const a = await submitted()
		const b = await submitted()
		const done = await submitted()
		const unstudied = await submitted()
		await studied(handle.db, a, officer)
		await studied(handle.db, b, officer)
		await changeStatus(handle.db, done.id, { to: 6, note: 'أرشفة' }, officer)
		const result = await bulkChangeStatus(handle.db, [a.reference, b.reference, done.reference, unstudied.reference, 'ZZZZ-ZZZZ'], 2, 'دراسة جماعية', officer)
		expect(result.changed.map((row) => row.reference).sort()).toEqual([a.reference, b.reference].sort())
		expect(result.refused.map((item) => item.reference)).toEqual([done.reference, unstudied.reference, 'ZZZZ-ZZZZ'])
		expect(result.refused.find((item) => item.reference === unstudied.reference)).toMatchObject({ reason: STUDY_MISSING })
		for (const row of [a, b]) {
			const events = await handle.db.select().from(caseEvents).where(eq(caseEvents.caseId, row.id))
			expect(events.filter((event) => event.kind === 'status_changed').map((event) => event.note)).toEqual(['دراسة جماعية'])
		}
		await expect(bulkChangeStatus(handle.db, [a.reference], 3, 'x', officer)).rejects.toBeInstanceOf(CaseChangeError)
	})
})

describe('corrections, deletion and export', () => {
	test('a correction keeps each changed field before and after, and updates the list columns', async () => {
		const row = await submitted()
		const result = await correctSection(handle.db, needyFamilies, row, 'basic', { ...basicAnswers(row.nationalId, '0559998877'), Full_Name: 'اسم مصحح' }, officer)
		expect(result).toMatchObject({ ok: true })
		const [event] = await handle.db.select().from(caseEvents).where(sql`${caseEvents.caseId} = ${row.id} and ${caseEvents.kind} = 'answers_corrected'`)
		expect(event!.data).toMatchObject({ section: 'basic', changes: expect.arrayContaining([{ label: 'الاسم الرباعي', before: 'عبدالله محمد سعد القحطاني', after: 'اسم مصحح' }]) })
		expect(await findCaseByReference(handle.db, row.reference)).toMatchObject({ applicantName: 'اسم مصحح', mobile: '+966559998877' })
		expect(await correctSection(handle.db, needyFamilies, row, 'financial', { Net_Income: 'كثير' }, officer)).toMatchObject({ ok: false })
	})

	test('a deleted case leaves the lists and the lookup until an admin restores it', async () => {
		const row = await submitted('طلب للحذف')
		await softDeleteCase(handle.db, row.id, 'طلب مكرر', officer)
		expect(await references(`q=${row.reference}`)).toEqual([])
		expect(await references(`q=${row.reference}&deleted=1`)).toEqual([row.reference])
		expect(await lookupCases(handle.db, row.nationalId, row.mobile)).toEqual([])
		await restoreCase(handle.db, row.id, officer)
		expect(await references(`q=${row.reference}`)).toEqual([row.reference])
		const kinds = (await handle.db.select().from(caseEvents).where(eq(caseEvents.caseId, row.id))).map((event) => event.kind)
		expect(kinds).toEqual(expect.arrayContaining(['deleted', 'restored']))
	})

	test('the export reads every case even when many share one submission instant', async () => {
		const made = [await submitted('توأم أول'), await submitted('توأم ثان'), await submitted('توأم ثالث')]
		await handle.db.update(cases).set({ submittedAt: sql`'2026-03-01 10:00:00.123456+00'::timestamptz` }).where(inArray(cases.id, made.map((row) => row.id)))
		const { eachCaseForExport } = await import('./case-lists.server.ts')
		const seen: string[] = []
		for await (const item of eachCaseForExport(handle.db, filter('from=2026-03-01&to=2026-03-01'), 2)) seen.push(item.row.reference)
		expect(seen.sort()).toEqual(made.map((row) => row.reference).sort())
	})

	test('an impossible date in the filter is ignored, not an error', async () => {
		expect(filter('from=2026-02-30&to=2026-13-01')).toMatchObject({ from: null, to: null })
		expect(filter('from=2024-02-29')).toMatchObject({ from: '2024-02-29' })
	})

	test('the CSV export starts with a BOM and holds the Arabic name and the answers', async () => {
		const row = await submitted('خالد التصدير العتيبي')
		const response = new Response(csvExport(handle.db, filter(`q=${row.reference}`), ['needy-families']))
		const bytes = new Uint8Array(await response.arrayBuffer())
		expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
		const text = new TextDecoder().decode(bytes)
		const lines = text.trim().split('\n')
		expect(lines[0]).toContain('رقم الطلب')
		expect(text).toContain('خالد التصدير العتيبي')
		expect(text).toContain(row.reference)
		expect(text).toContain('الرياض')
	})

	test('the exports give amounts and ages as numbers: XLSX with a number format, CSV with the currency in the header', async () => {
		const row = await submitted('فهد الأرقام الشهري')
		await correctSection(handle.db, needyFamilies, row, 'basic', { ...basicAnswers(row.nationalId, `05${row.mobile.slice(5)}`), Full_Name: 'فهد الأرقام الشهري', BirthDate: '1980-01-15' }, officer)
		const age = ageOn('1980-01-15', todayInRiyadh())
		const income = 'الوضع المالي - صافي دخل الأسرة الشهري (ريال)'

		const workbook = new ExcelJS.Workbook()
		await workbook.xlsx.load(await new Response(xlsxExport(handle.db, filter(`q=${row.reference}`), ['needy-families'])).arrayBuffer())
		const sheet = workbook.worksheets[0]!
		const headers = (sheet.getRow(1).values as unknown[]).slice(1)
		const cell = (header: string) => sheet.getRow(2).getCell(headers.indexOf(header) + 1)
		expect(cell(income).value).toBe(2500)
		expect(cell(income).numFmt).toBe('#,##0.00')
		expect(cell('الوضع المالي - الضمان الاجتماعي (ريال)').value).toBe(1200.5)
		expect(cell('البيانات الأساسية - العمر بالسنوات').value).toBe(age)

		const csv = new TextDecoder().decode(await new Response(csvExport(handle.db, filter(`q=${row.reference}`), ['needy-families'])).arrayBuffer())
		const records = csvRecords(csv.replace(/^\uFEFF/, ''))
		const at = (header: string) => records[1]![records[0]!.indexOf(header)]
		expect(at(income)).toBe('2500')
		expect(at('البيانات الأساسية - العمر بالسنوات')).toBe(String(age))
	})

	test('staff correct a repeatable list row by row; the last row cannot go', async () => {
		const row = await submitted()
		const saved = { members: [{ ...sectionAnswers.family.members[0]!, _key: 'a'.repeat(16) }] }
		await correctSection(handle.db, needyFamilies, row, 'family', saved, officer)
		const result = await correctSection(handle.db, needyFamilies, row, 'family', { members: [] }, officer)
		expect(result).toMatchObject({ ok: false })
		const added = await correctSection(handle.db, needyFamilies, row, 'family', { members: [...saved.members, { FamilyName: 'سلمى', RelationShip: 'daughter', _key: 'b'.repeat(16) }] }, officer)
		expect(added, JSON.stringify(added)).toMatchObject({ ok: true, changes: [{ label: 'أفراد الأسرة' }] })
	})

	test('the applicant is told through the outbox, with the lookup link on the public origin; their private link is not replaced', async () => {
		const { row: started, token } = await startCase(handle.db, needyFamilies, basicAnswers(randomNationalId(), '0557778899'))
		const texts: { to: string; text: string }[] = []
		try {
			setSmsDriver({ deliver: async (to, text) => (texts.push({ to, text }), { ok: true, provider: 'fake' }) })
			const sent = await notifyStatusChange(handle.db, started, { to: 4, message: 'أرفق السجل' }, officer)
			expect(sent.map((message) => [message.channel, message.status])).toEqual([['sms', 'sent']])
			expect(texts).toEqual([{ to: '+966557778899', text: sent[0]!.body }])
			expect(sent[0]!.body).toContain(`طلبك ${started.reference} ينقصه: ما تطلبه المؤسسة.`)
			expect(sent[0]!.body).toContain('رسالة من المؤسسة: أرفق السجل')
			expect(sent[0]!.body).toContain(`${publicOrigin()}/apply/status`)
			expect(sent[0]!.body).not.toContain('/apply/r/')
			expect((await findCaseByToken(handle.db, token))?.id).toBe(started.id)
		} finally {
			setSmsDriver(undefined)
		}
	})

	test('every aid row needs a positive amount (the database says so too)', async () => {
		const row = await submitted()
		await expect(handle.db.insert(caseAid).values({ caseId: row.id, amount: 0, kind: 'cash', givenOn: '2026-01-01' })).rejects.toThrow()
		expect(await handle.db.select().from(auditLog)).toEqual([])
	})
})

/** RFC 4180 records (quoted cells may hold commas, quotes and new lines), as a spreadsheet reads them. */
function csvRecords(text: string): string[][] {
	const records: string[][] = [[]]
	for (const [, quoted, plain, end] of text.matchAll(/(?:"((?:[^"]|"")*)"|([^,\r\n]*))(,|\r?\n|$)/g)) {
		records.at(-1)!.push(quoted !== undefined ? quoted.replace(/""/g, '"') : plain!)
		if (end === '') break
		if (end !== ',') records.push([])
	}
	return records
}
