import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createSession, sessionCookieName } from '#app/auth/session.server.ts'
import { latestApplicantMessage, type CaseRow } from '#app/cases/case-store.server.ts'
import { changeStatus } from '#app/cases/status-changes.server.ts'
import { caseVisits } from '#app/db/schema.ts'
import { upcomingVisit } from '#app/cases/visits.server.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { setSmsDriver } from '#app/notify/notifier.server.ts'
import { smsDay } from '#app/notify/templates.ts'
import { formatDate, todayInRiyadh } from '#app/text/format.ts'
import { middleware as adminMiddleware } from '#app/routes/admin/layout.tsx'
import { studied, submittedCase } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { runRoute } from '#tests/route.ts'
import { action as caseAction, loader as caseLoader, middleware as caseMiddleware } from './case.tsx'
import { loader as visitsLoader, middleware as visitsMiddleware } from './visits.tsx'

// Home visits through the real admin middleware and routes: planned on the case, told to the
// applicant (the SMS as sent, the message on their link), listed in «زياراتي», cancelled, done.

const app = withAppDatabase()
const db = () => app.handle.db
let officer: PublicUser
let cookie = ''
const texts: { to: string; text: string }[] = []

beforeAll(async () => {
	officer = await createUser(db(), { name: 'الباحث فهد', email: `visits-${Date.now()}@example.org`, mobile: '', roles: ['case_officer'], password: 'Visits-Officer-1234' })
	cookie = `${sessionCookieName()}=${(await createSession(db(), officer.id)).token}`
	setSmsDriver({ deliver: async (to, text) => (texts.push({ to, text }), { ok: true, provider: 'fake' }) })
})
afterAll(() => setSmsDriver(undefined))

/** A day `days` after today in Riyadh, yyyy-mm-dd. */
const inDays = (days: number) => new Date(Date.parse(`${todayInRiyadh()}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

const post = (row: Pick<CaseRow, 'reference'>, body: Record<string, string>) =>
	runRoute([...adminMiddleware, ...caseMiddleware], caseAction, {
		request: new Request(`http://localhost/admin/cases/${row.reference}`, { method: 'POST', body: new URLSearchParams(body), headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' } }),
		params: { reference: row.reference },
	}) as Promise<Response & { data: { form: string; errors: Record<string, string[]> }; init: { status: number } }>
const visits = (all = false) =>
	runRoute([...adminMiddleware, ...visitsMiddleware], visitsLoader, { request: new Request(`http://localhost/admin/visits${all ? '?all=1' : ''}`, { headers: { Cookie: cookie } }) })

test('a visit is planned for a researcher: the applicant is told by SMS with the day in both calendars and sees it on their link; it is on «زياراتي» with where the family lives', async () => {
	const row = await submittedCase(db())
	const day = inDays(3)
	const planned = await post(row, { intent: 'visit', visitOn: day, visitAt: '16:30', visitor: String(officer.id) })
	expect(planned.status).toBe(302)
	const [visit] = await db().select().from(caseVisits).where(eq(caseVisits.caseId, row.id))
	expect(visit).toMatchObject({ visitOn: day, visitAt: '16:30', visitorId: officer.id, status: 'planned', createdBy: officer.id })

	const said = `${formatDate(day)} الساعة 4:30 مساءً`
	expect(texts.at(-1)?.to).toBe(row.mobile)
	// The SMS gives the day in digits, in both calendars (two parts at most: issue 37, part 2.7).
	expect(texts.at(-1)?.text).toContain(`${smsDay(day, { weekday: true })} 4:30 مساءً`)
	expect((await latestApplicantMessage(db(), row.id))?.note).toContain(said)

	const view = await runRoute([...adminMiddleware, ...caseMiddleware], caseLoader, { request: new Request(`http://localhost/admin/cases/${row.reference}`, { headers: { Cookie: cookie } }), params: { reference: row.reference } })
	expect(view.visits).toEqual([{ id: visit!.id, when: expect.stringContaining(said), visitor: 'الباحث فهد' }])
	expect(view.history.some((event) => event.what.startsWith('تحديد موعد زيارة:') && event.what.includes(said) && event.what.includes('يزور: الباحث فهد'))).toBe(true)

	const mine = await visits()
	const listed = mine.days.flatMap((entry) => entry.visits).find((entry) => entry.reference === row.reference)
	// Where the fixture's family lives (tests/fixtures/needy-families.ts basicAnswers).
	expect(listed).toMatchObject({ at: '4:30 مساءً', name: row.applicantName, where: 'الرياض، السويدي', visitor: null })
})

test('a day gone by, someone who does not work on cases, or a case already studied is refused on the form; nothing is planned', async () => {
	const row = await submittedCase(db())
	const past = await post(row, { intent: 'visit', visitOn: inDays(-1), visitAt: '10:00', visitor: String(officer.id) })
	expect(past.init.status).toBe(409)
	expect(past.data).toMatchObject({ form: 'visit', errors: { '': ['الرجاء اختيار يوم الزيارة: اليوم أو بعده'] } })
	const editor = await createUser(db(), { name: 'محرر', email: `visits-editor-${Date.now()}@example.org`, mobile: '', roles: ['content_editor'], password: 'Visits-Editor-1234' })
	const wrong = await post(row, { intent: 'visit', visitOn: inDays(1), visitAt: '10:00', visitor: String(editor.id) })
	expect(wrong.data.errors['']).toEqual(['الرجاء اختيار من يزور الأسرة من موظفي الحالات'])
	expect(await db().select().from(caseVisits).where(eq(caseVisits.caseId, row.id))).toEqual([])
	await studied(db(), row, officer)
	await changeStatus(db(), row.id, { to: 2, note: 'دُرست' }, officer)
	const studiedAlready = await post(row, { intent: 'visit', visitOn: inDays(1), visitAt: '10:00', visitor: String(officer.id) })
	expect(studiedAlready.data.errors['']).toEqual(['تُحدَّد الزيارة لطلب بانتظار الدراسة: «جديد» أو «غير مكتمل»'])
})

test('a new appointment replaces the one planned before: one visit planned at a time, the applicant told the new one', async () => {
	const row = await submittedCase(db())
	await post(row, { intent: 'visit', visitOn: inDays(1), visitAt: '10:00', visitor: String(officer.id) })
	await post(row, { intent: 'visit', visitOn: inDays(2), visitAt: '12:00', visitor: String(officer.id) })
	const visits = await db().select().from(caseVisits).where(eq(caseVisits.caseId, row.id)).orderBy(caseVisits.id)
	expect(visits.map((visit) => [visit.visitOn, visit.status])).toEqual([
		[inDays(1), 'cancelled'],
		[inDays(2), 'planned'],
	])
	expect((await latestApplicantMessage(db(), row.id))?.note).toContain(formatDate(inDays(2)))
	expect((await latestApplicantMessage(db(), row.id))?.note).toContain('الباحث فهد')
})

test('a cancelled visit is told to the applicant and leaves the list; a recorded visit study marks the visit done', async () => {
	const row = await submittedCase(db())
	await post(row, { intent: 'visit', visitOn: inDays(2), visitAt: '09:00', visitor: String(officer.id) })
	const [first] = await db().select().from(caseVisits).where(eq(caseVisits.caseId, row.id))
	expect((await post(row, { intent: 'cancel-visit', visitId: String(first!.id) })).status).toBe(302)
	expect((await latestApplicantMessage(db(), row.id))?.note).toContain('أُلغي موعد الزيارة الذي كان محدداً')
	expect((await post(row, { intent: 'cancel-visit', visitId: String(first!.id) })).init.status).toBe(409)
	expect((await visits(true)).days.flatMap((entry) => entry.visits).some((entry) => entry.reference === row.reference)).toBe(false)

	await post(row, { intent: 'visit', visitOn: inDays(1), visitAt: '11:00', visitor: String(officer.id) })
	await studied(db(), row, officer, { studiedOn: inDays(1) })
	const statuses = (await db().select().from(caseVisits).where(eq(caseVisits.caseId, row.id)).orderBy(caseVisits.id)).map((visit) => visit.status)
	expect(statuses).toEqual(['cancelled', 'done'])
})

test('the applicant keeps seeing the visit they wait for after a later message, and no longer once its day has gone by or the study is recorded', async () => {
	const row = await submittedCase(db())
	expect((await post(row, { intent: 'visit', visitOn: inDays(2), visitAt: '10:00', visitor: String(officer.id) })).status).toBe(302)
	const told = (await latestApplicantMessage(db(), row.id))!.note
	expect(await upcomingVisit(db(), row.id)).toBe(told)
	// A message about something else takes the message's place, not the visit's.
	expect((await post(row, { intent: 'message', message: 'نرجو إحضار صك الإعالة يوم الزيارة' })).status).toBe(302)
	expect((await latestApplicantMessage(db(), row.id))!.note).toBe('نرجو إحضار صك الإعالة يوم الزيارة')
	expect(await upcomingVisit(db(), row.id)).toBe(told)
	// The day gone by without a report: staff still see it planned on the case; the applicant is not told of a past visit.
	await db().update(caseVisits).set({ visitOn: inDays(-1) }).where(eq(caseVisits.caseId, row.id))
	expect(await upcomingVisit(db(), row.id)).toBeNull()
	await db().update(caseVisits).set({ visitOn: inDays(1) }).where(eq(caseVisits.caseId, row.id))
	expect(await upcomingVisit(db(), row.id)).toContain(formatDate(inDays(1)))
	// The study recorded and the case «تمت الدراسة»: nothing left to wait for.
	await studied(db(), row, officer, { studiedOn: todayInRiyadh() })
	await changeStatus(db(), row.id, { to: 2, note: 'دُرست' }, officer)
	expect(await upcomingVisit(db(), row.id)).toBeNull()
})

test('a planned visit is settled with its case (issue 37, part 2.9): done by a study recorded before its day, cancelled by the case leaving «جديد» and «غير مكتمل» whatever moved it; the case view offers nothing on it', async () => {
	const early = await submittedCase(db())
	await post(early, { intent: 'visit', visitOn: inDays(3), visitAt: '10:00', visitor: String(officer.id) })
	await studied(db(), early, officer, { studiedOn: todayInRiyadh() })
	expect((await db().select().from(caseVisits).where(eq(caseVisits.caseId, early.id))).map((visit) => visit.status)).toEqual(['done'])

	for (const to of [6, 5] as const) {
		const row = await submittedCase(db())
		await post(row, { intent: 'visit', visitOn: inDays(3), visitAt: '10:00', visitor: String(officer.id) })
		await changeStatus(db(), row.id, { to, note: 'لا حاجة' }, officer)
		const [visit] = await db().select().from(caseVisits).where(eq(caseVisits.caseId, row.id))
		expect(visit?.status).toBe('cancelled')
		const view = await runRoute([...adminMiddleware, ...caseMiddleware], caseLoader, {
			request: new Request(`http://localhost/admin/cases/${row.reference}`, { headers: { Cookie: cookie } }),
			params: { reference: row.reference },
		})
		expect(view.visits).toEqual([])
		expect((await post(row, { intent: 'cancel-visit', visitId: String(visit!.id) })).init.status).toBe(409)
	}
	// «غير مكتمل» still waits for the study: the visit stays.
	const incomplete = await submittedCase(db())
	await post(incomplete, { intent: 'visit', visitOn: inDays(3), visitAt: '10:00', visitor: String(officer.id) })
	await changeStatus(db(), incomplete.id, { to: 4, note: 'ينقصه كشف', message: 'أرفق كشف الحساب', reopened: { sections: ['financial'], slots: [] } }, officer)
	expect((await db().select().from(caseVisits).where(eq(caseVisits.caseId, incomplete.id))).map((visit) => visit.status)).toEqual(['planned'])
})
