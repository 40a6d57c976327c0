import { eq } from 'drizzle-orm'
import { beforeAll, expect, test } from 'vitest'
import { createSession, sessionCookieName } from '#app/auth/session.server.ts'
import { changeStatus, STUDY_MISSING } from '#app/cases/status-changes.server.ts'
import { findCaseByReference, startCase, submitCase, type CaseRow } from '#app/cases/case-store.server.ts'
import { auditLog, caseEvents, caseStudies } from '#app/db/schema.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { middleware as adminMiddleware } from '#app/routes/admin/layout.tsx'
import { studyForm, submittedCase } from '#tests/fixtures/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { runRoute } from '#tests/route.ts'
import { formatMoney } from '#app/text/format.ts'
import { listReasons } from '#app/cases/reasons.server.ts'
import { eachCaseForExport, readCaseFilter } from '#app/cases/case-lists.server.ts'
import { exportColumns } from '#app/cases/export.server.ts'
import { loader as caseLoader, middleware as caseMiddleware } from './case.tsx'
import { action, loader, middleware } from './case-study.tsx'

// The social study through the real admin middleware (session, role, audit) and the route: what
// the researcher records, what the case view then shows, and «تمت الدراسة» after it.

const app = withAppDatabase()
const db = () => app.handle.db
let officer: PublicUser
let cookie = ''

beforeAll(async () => {
	officer = await createUser(db(), { name: 'الباحثة نوف', email: `study-${Date.now()}@example.org`, mobile: '', roles: ['case_officer'], password: 'Study-Officer-1234' })
	cookie = `${sessionCookieName()}=${(await createSession(db(), officer.id)).token}`
})

const at = (row: Pick<CaseRow, 'reference'>, body?: Record<string, string>) => ({
	request: new Request(`http://localhost/admin/cases/${row.reference}/study`, {
		...(body ? { method: 'POST', body: new URLSearchParams(body), headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' } } : { headers: { Cookie: cookie } }),
	}),
	params: { reference: row.reference },
})
const post = (row: Pick<CaseRow, 'reference'>, body: Record<string, string>) =>
	runRoute([...adminMiddleware, ...middleware], action, at(row, body)) as Promise<Response & { data: { result: { error: Record<string, string[]> } }; init: { status: number } }>

test('a visit report is checked field by field, recorded with its recommendation, shown on the case, audited, and opens «تمت الدراسة»', async () => {
	const row = await submittedCase(db())
	await expect(changeStatus(db(), row.id, { to: 2, note: 'دُرست' }, officer)).rejects.toThrow(STUDY_MISSING)

	const page = await runRoute([...adminMiddleware, ...middleware], loader, at(row))
	expect(page).toMatchObject({ kind: 'visit', heading: 'الدراسة الاجتماعية', last: null })

	// Support without the aid, and a monthly aid without its months: each missing field named; nothing stored.
	const refused = await post(row, studyForm({ metWith: '', aidKind: '', aidFrequency: 'monthly' }))
	expect(refused.init.status).toBe(400)
	expect(refused.data.result.error).toMatchObject({ metWith: ['الرجاء كتابة من قابلتم في الزيارة'], aidKind: ['الرجاء اختيار نوع المساعدة المقترحة'], aidMonths: ['الرجاء كتابة عدد الأشهر'] })
	// A zakat category without its reason, or one staff do not keep: refused, nothing stored.
	const noReason = await post(row, studyForm({ zakatReason: '' }))
	expect(noReason.init.status).toBe(400)
	expect(noReason.data.result.error).toMatchObject({ zakatReason: ['الرجاء كتابة سبب استحقاق الزكاة من هذا المصرف'] })
	const unknown = await post(row, studyForm({ zakatCategory: 'غير محدد' }))
	expect(unknown.init.status).toBe(400)
	expect(unknown.data.result.error).toMatchObject({ zakatCategory: ['الرجاء اختيار مصرف الزكاة من القائمة'] })
	expect(await db().select().from(caseStudies).where(eq(caseStudies.caseId, row.id))).toEqual([])

	const saved = await post(row, studyForm({ aidKind: 'rent', aidAmount: '١٬٢٠٠', aidFrequency: 'monthly', aidMonths: '6', condition: 'dilapidated', needsMaintenance: 'yes' }))
	expect(saved.status).toBe(302)
	const [study] = await db().select().from(caseStudies).where(eq(caseStudies.caseId, row.id))
	expect(study).toMatchObject({ kind: 'visit', recommendation: 'support', aidKind: 'rent', aidAmount: 1200, aidMonths: 6, zakatCategory: 'الفقراء', zakatReason: 'دخل الأسرة لا يكفي حاجتها', housing: { condition: 'dilapidated', needsMaintenance: 'yes' }, authorId: officer.id })
	// The form's page read, then the study recorded; the refused post left nothing.
	const trail = await db().select().from(auditLog).where(eq(auditLog.actorId, officer.id)).orderBy(auditLog.id)
	expect(trail.map((entry) => [entry.action, entry.caseReference])).toEqual([
		['case.view', row.reference],
		['case.study', row.reference],
	])

	const view = await runRoute([...adminMiddleware, ...caseMiddleware], caseLoader, { request: new Request(`http://localhost/admin/cases/${row.reference}`, { headers: { Cookie: cookie } }), params: { reference: row.reference } })
	expect(view.study).toMatchObject({ kind: 'زيارة منزلية', recommendation: 'دعم الحالة', aid: `سداد إيجار: ${formatMoney(1200)} شهرياً لمدة 6 أشهر`, zakatCategory: 'الفقراء', zakatReason: 'دخل الأسرة لا يكفي حاجتها' })
	expect(view.study!.housing).toEqual([
		{ label: 'حالة المسكن', value: 'متهالك' },
		{ label: 'يحتاج إلى صيانة', value: 'نعم' },
	])
	expect(view.history.map((event) => event.what)).toContain(`تسجيل الدراسة: التوصية «دعم الحالة» — سداد إيجار، ${formatMoney(1200)} شهرياً لمدة 6 أشهر`)

	await changeStatus(db(), row.id, { to: 2, note: 'دُرست' }, officer)
	expect((await findCaseByReference(db(), row.reference))!.status).toBe(2)

	// The exports carry the study: its recommendation in words, the amount as a number Excel can sum.
	const columns = exportColumns(['needy-families'])
	const cells: Record<string, unknown> = {}
	for await (const item of eachCaseForExport(db(), readCaseFilter(new URLSearchParams({ q: row.reference }), 'individual', officer.id))) {
		if (item.row.id === row.id) for (const column of columns) cells[column.header] = column.value(item)
	}
	expect(cells).toMatchObject({ التوصية: 'دعم الحالة', 'المساعدة المقترحة': 'سداد إيجار', 'المبلغ المقترح (ريال)': 1200, 'أشهر المساعدة الشهرية': 6, 'مصرف الزكاة': 'الفقراء' })
})

test('a second study is kept beside the first and becomes the case’s; reject needs its reason, refer its body', async () => {
	const row = await submittedCase(db())
	await post(row, studyForm())
	const noReason = await post(row, studyForm({ recommendation: 'reject' }))
	expect(noReason.data.result.error).toMatchObject({ rejectReason: ['الرجاء اختيار سبب عدم الدعم'] })
	const noBody = await post(row, studyForm({ recommendation: 'refer' }))
	expect(noBody.data.result.error).toMatchObject({ referTo: ['الرجاء كتابة الجهة المحال إليها'] })
	const [reason] = await listReasons(db(), 'study-reject')
	expect((await post(row, studyForm({ recommendation: 'reject', rejectReason: String(reason!.id), aidKind: 'cash' }))).status).toBe(302)
	const studies = await db().select().from(caseStudies).where(eq(caseStudies.caseId, row.id)).orderBy(caseStudies.id)
	expect(studies.map((study) => [study.recommendation, study.aidKind])).toEqual([
		['support', 'cash'],
		// A reject keeps no proposed aid, whatever was left typed in the form.
		['reject', null],
	])
	const page = await runRoute([...adminMiddleware, ...middleware], loader, at(row))
	expect(page.last).toMatchObject({ recommendation: 'reject', rejectReason: String(reason!.id) })
	// The study keeps the reason's words.
	expect(studies.at(-1)!.rejectReason).toBe(reason!.label)
	expect((await db().select().from(caseEvents).where(eq(caseEvents.caseId, row.id))).filter((event) => event.kind === 'study_recorded')).toHaveLength(2)
})

test('an association gets a desk study: who was met is not asked', async () => {
	const { associationSupport } = await import('#app/forms/definitions/association-support.ts')
	const { sampleAnswers, sampleFiles } = await import('#app/forms/sample-answers.ts')
	const { sectionSchema } = await import('#app/forms/schema.ts')
	const { addAttachment, saveSection } = await import('#app/cases/case-store.server.ts')
	const answers = sampleAnswers(associationSupport, { seed: 31 })
	const parsed = (key: string) => sectionSchema(associationSupport.sections.find((section) => section.key === key)!).parse(answers[key])
	const [first, ...rest] = associationSupport.sections
	const { row: draft } = await startCase(db(), associationSupport, parsed(first!.key))
	for (const section of rest) await saveSection(db(), associationSupport, draft, section.key, parsed(section.key))
	for (const file of sampleFiles(associationSupport).filter((item) => item.required)) await addAttachment(db(), associationSupport, draft, { slot: file.slot, originalName: `${file.slot}.pdf`, contentType: 'application/pdf', size: 10, sha256: 'x', storageKey: `desk-${file.slot}` })
	const row = await submitCase(db(), associationSupport, draft)
	expect(await runRoute([...adminMiddleware, ...middleware], loader, at(row))).toMatchObject({ kind: 'desk', heading: 'الدراسة المكتبية' })
	expect((await post(row, studyForm({ metWith: '' }))).status).toBe(302)
	expect((await db().select().from(caseStudies).where(eq(caseStudies.caseId, row.id)))[0]).toMatchObject({ kind: 'desk', metWith: '' })
})

test('a bill is paid at half its amount: the invoice is asked for, and a proposal above half of it is refused', async () => {
	const row = await submittedCase(db())
	const noInvoice = await post(row, studyForm({ aidKind: 'bill_payment', aidAmount: '400' }))
	expect(noInvoice.data.result.error).toMatchObject({ invoice: ['الرجاء كتابة مبلغ الفاتورة'] })
	const tooMuch = await post(row, studyForm({ aidKind: 'bill_payment', aidAmount: '600', invoice: '1000' }))
	expect(tooMuch.data.result.error).toMatchObject({ aidAmount: [`لا يزيد المبلغ المقترح على نصف الفاتورة: ${formatMoney(500)}`] })
	const monthly = await post(row, studyForm({ aidKind: 'bill_payment', aidAmount: '500', invoice: '1000', aidFrequency: 'monthly', aidMonths: '٦' }))
	expect(monthly.data.result.error).toMatchObject({ aidFrequency: ['تُسدَّد الفاتورة مرة واحدة'] })
	expect((await post(row, studyForm({ aidKind: 'bill_payment', aidAmount: '500', invoice: '1000' }))).status).toBe(302)
	const [study] = await db().select().from(caseStudies).where(eq(caseStudies.caseId, row.id))
	expect(study).toMatchObject({ aidKind: 'bill_payment', aidAmount: 500, invoice: 1000 })
})
