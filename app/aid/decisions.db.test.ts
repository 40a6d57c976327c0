import { and, eq } from 'drizzle-orm'
import { beforeAll, expect, test } from 'vitest'
import { createSession, sessionCookieName } from '#app/auth/session.server.ts'
import { changeStatus, RESTUDY_MISSING } from '#app/cases/status-changes.server.ts'
import { findCaseByReference, type CaseRow } from '#app/cases/case-store.server.ts'
import { listReasons } from '#app/cases/reasons.server.ts'
import { aidInstalments, auditLog, caseDecisions, caseEvents } from '#app/db/schema.ts'
import { createUser, type PublicUser } from '#app/domain/staff-users.server.ts'
import { middleware as adminMiddleware } from '#app/routes/admin/layout.tsx'
import { action as caseAction, loader as caseLoader, middleware as caseMiddleware } from '#app/routes/admin/case.tsx'
import { formatMoney, todayInRiyadh } from '#app/text/format.ts'
import { studied, submittedCase } from '#tests/fixtures/needy-families.ts'
import { needyFamilies } from '#app/forms/definitions/needy-families.ts'
import { withAppDatabase } from '#tests/db.ts'
import { received } from '#tests/fixtures/receipts.ts'
import { runRoute } from '#tests/route.ts'
import { UNSPECIFIED_ZAKAT_CATEGORY } from '#app/cases/zakat.ts'
import { decide, RECOMMENDER_MAY_NOT_DECIDE, ZAKAT_CATEGORY_UNSPECIFIED, ZAKAT_NOT_ELIGIBLE, type Decision } from './decisions.server.ts'
import { addFund, budgetsOf, listFunds, setBudget, type Fund } from './funds.server.ts'

// The committee's decision (docs/product.md#the-decision): four eyes, zakat kept apart, budgets
// never overdrawn, monthly aid in instalments; and the same through the real admin middleware.

const app = withAppDatabase()
const db = () => app.handle.db
const year = Number(todayInRiyadh().slice(0, 4))
let researcher: PublicUser
let approver: PublicUser
let admin: PublicUser
let zakat: Fund
let general: Fund

beforeAll(async () => {
	const user = (name: string, roles: PublicUser['roles']) => createUser(db(), { name, email: `${roles.join('-')}-${Date.now()}-${Math.random()}@example.org`, mobile: '', roles, password: 'Decisions-Test-1234' })
	// A small foundation: the researcher also sits on the committee.
	researcher = await user('الباحثة نوف', ['case_officer', 'approver'])
	approver = await user('عضو اللجنة سعد', ['approver'])
	admin = await user('المدير', ['admin'])
	const funds = await listFunds(db())
	zakat = funds.find((fund) => fund.zakat)!
	// Zakat is approved within what the fund received (docs/product.md#money-in).
	await received(db(), zakat.id, 100_000)
	general = funds.find((fund) => !fund.zakat)!
})

/** A studied case (status «تمت الدراسة») whose study `researcher` wrote. */
async function waiting(study: Parameters<typeof studied>[3] = {}): Promise<CaseRow> {
	const row = await submittedCase(db())
	await studied(db(), row, researcher, study)
	return (await changeStatus(db(), row.id, { to: 2, note: 'دُرست' }, researcher)).row
}

/** The needy-families budget of this year, from any fund, with `left` riyals left. */
async function leaveInBudget(left: number) {
	const current = (await budgetsOf(db(), year)).find((budget) => budget.programme === 'needy-families' && budget.fundId === null)
	await setBudget(db(), { programme: 'needy-families', year, fundId: null, allocated: (current ? current.committed + current.paid : 0) + left }, admin)
}

const approve = (fund: Fund, amount = 1000, months: number | null = null): Decision => ({ outcome: 'approve', aidKind: 'cash', amount, months, fundId: fund.id, note: '' })

test('an approval by another member charges one fund within the budget, gives its instalments month by month, and tells the applicant', async () => {
	await leaveInBudget(100_000)
	const row = await waiting({ aidKind: 'rent', aidAmount: 1200, aidFrequency: 'monthly', aidMonths: 6 })
	const before = (await budgetsOf(db(), year)).find((budget) => budget.programme === 'needy-families' && budget.fundId === null)!
	const decided = await decide(db(), row.id, { outcome: 'approve', aidKind: 'rent', amount: 1200, months: 6, fundId: zakat.id, note: 'أقرته اللجنة' }, approver)
	expect(decided.to).toBe(7)
	expect(decided.message).toBe(`اعتُمد لطلبك الدعم التالي: سداد إيجار: ${formatMoney(1200)} شهرياً لمدة 6 أشهر. سنتواصل معك عند صرفه.`)
	expect((await findCaseByReference(db(), row.reference))!.status).toBe(7)
	const instalments = await db().select().from(aidInstalments).where(eq(aidInstalments.caseId, row.id)).orderBy(aidInstalments.seq)
	expect(instalments.map((item) => [item.seq, item.amount, item.status, item.fundId])).toEqual([1, 2, 3, 4, 5, 6].map((seq) => [seq, 1200, 'approved', zakat.id]))
	// One a month, from this month on.
	expect(instalments[0]!.dueOn).toBe(`${todayInRiyadh().slice(0, 7)}-01`)
	expect(new Set(instalments.map((item) => item.dueOn.slice(0, 7))).size).toBe(6)
	const after = (await budgetsOf(db(), year)).find((budget) => budget.programme === 'needy-families' && budget.fundId === null)!
	expect(after.committed - before.committed).toBe(7200)
	expect(after.remaining).toBe(before.remaining - 7200)
	const events = await db().select().from(caseEvents).where(eq(caseEvents.caseId, row.id))
	expect(events.filter((event) => event.kind === 'applicant_message').map((event) => event.note)).toEqual([decided.message])
	expect(events.find((event) => event.kind === 'decided')!.data).toMatchObject({ outcome: 'approve', aidKind: 'rent', amount: 1200, months: 6 })
})

test('four eyes: whoever recommended support cannot approve or reject, whatever roles they hold; nothing changes', async () => {
	await leaveInBudget(100_000)
	const row = await waiting()
	await expect(decide(db(), row.id, approve(general), researcher)).rejects.toThrow(RECOMMENDER_MAY_NOT_DECIDE)
	const [reason] = await listReasons(db(), 'decision-reject')
	await expect(decide(db(), row.id, { outcome: 'reject', reason: reason!.label, note: '' }, researcher)).rejects.toThrow(RECOMMENDER_MAY_NOT_DECIDE)
	expect((await findCaseByReference(db(), row.reference))!.status).toBe(2)
	expect(await db().select().from(caseDecisions).where(eq(caseDecisions.caseId, row.id))).toEqual([])
	// Another member may; a case officer without the committee's role may not.
	await expect(decide(db(), row.id, approve(general), { ...approver, roles: ['case_officer'] })).rejects.toThrow('القرار على الطلبات لأعضاء لجنة الصرف')
	expect((await decide(db(), row.id, approve(general), approver)).to).toBe(7)
})

test('zakat only to a case its study found in a zakat category; another fund is fine, and names no category', async () => {
	await leaveInBudget(100_000)
	const row = await waiting({ zakatCategory: undefined, zakatReason: undefined })
	await expect(decide(db(), row.id, approve(zakat), approver)).rejects.toThrow(ZAKAT_NOT_ELIGIBLE)
	expect(await db().select().from(aidInstalments).where(eq(aidInstalments.caseId, row.id))).toEqual([])
	expect(await db().select().from(caseDecisions).where(eq(caseDecisions.caseId, row.id))).toEqual([])
	expect((await decide(db(), row.id, approve(general), approver)).to).toBe(7)
	const [decision] = await db().select().from(caseDecisions).where(eq(caseDecisions.caseId, row.id))
	expect(decision!.zakatCategory).toBeNull()
})

test('an approval from a zakat fund names the study\'s category; «غير محدد» (eligible before categories) is refused until a study names one', async () => {
	await leaveInBudget(100_000)
	const named = await waiting({ zakatCategory: 'الغارمين', zakatReason: 'دين إيجار متأخر بحكم قضائي' })
	expect((await decide(db(), named.id, approve(zakat), approver)).to).toBe(7)
	const [decision] = await db().select().from(caseDecisions).where(eq(caseDecisions.caseId, named.id))
	expect(decision).toMatchObject({ fundId: zakat.id, zakatCategory: 'الغارمين' })

	// A study ticked eligible before categories, as the migration left it.
	const migrated = await waiting({ zakatCategory: UNSPECIFIED_ZAKAT_CATEGORY, zakatReason: '' })
	await expect(decide(db(), migrated.id, approve(zakat), approver)).rejects.toThrow(ZAKAT_CATEGORY_UNSPECIFIED)
	expect(await db().select().from(caseDecisions).where(eq(caseDecisions.caseId, migrated.id))).toEqual([])
	await studied(db(), migrated, researcher, { zakatCategory: 'المساكين', zakatReason: 'لا عائل للأسرة' })
	expect((await decide(db(), migrated.id, approve(zakat), approver)).to).toBe(7)
	const [completed] = await db().select().from(caseDecisions).where(eq(caseDecisions.caseId, migrated.id))
	expect(completed!.zakatCategory).toBe('المساكين')
})

test('an approval past the budget is refused with the figures, until an admin raises it; a budget cannot drop below what it has given', async () => {
	await leaveInBudget(500)
	const row = await waiting()
	const refusal = await decide(db(), row.id, approve(general, 400, 2), approver).then(
		() => 'approved',
		(error: Error) => error.message,
	)
	expect(refusal).toContain(`يتجاوز المبلغ (${formatMoney(800)}) المتبقي من ميزانية «${needyFamilies.title}» لعام ${year} (كل الصناديق)`)
	expect(refusal).toContain(`المتبقي ${formatMoney(500)}`)
	expect((await findCaseByReference(db(), row.reference))!.status).toBe(2)
	await leaveInBudget(800)
	expect((await decide(db(), row.id, approve(general, 400, 2), approver)).to).toBe(7)
	const figures = (await budgetsOf(db(), year)).find((budget) => budget.programme === 'needy-families' && budget.fundId === null)!
	await expect(setBudget(db(), { programme: 'needy-families', year, fundId: null, allocated: figures.committed + figures.paid - 1 }, admin)).rejects.toThrow('لا تقل الميزانية عن المعتمد والمصروف منها')
	// A budget of one fund counts that fund only, beside the programme's.
	const grant = await addFund(db(), { name: `منحة ${Date.now()}`, zakat: false })
	await setBudget(db(), { programme: 'needy-families', year, fundId: grant.id, allocated: 300 }, admin)
	await leaveInBudget(100_000)
	const other = await waiting()
	await expect(decide(db(), other.id, approve(grant, 301), approver)).rejects.toThrow(/يتجاوز المبلغ/)
	expect((await decide(db(), other.id, approve(grant, 300), approver)).to).toBe(7)
})

test('no budget for the programme this year: the approval says who sets one', async () => {
	const { medicalCase } = await import('#app/forms/definitions/medical-case.ts')
	await expect(
		(async () => {
			const { checkBudget } = await import('./funds.server.ts')
			await checkBudget(db(), { programme: medicalCase.type, year: year + 5, fundId: general.id, total: 1 })
		})(),
	).rejects.toThrow(`لا ميزانية لبرنامج «${medicalCase.title}» لعام ${year + 5}`)
})

test('a rejection tells the applicant the reason chosen for them; a return sends the case back to «جديد» until a new study', async () => {
	await leaveInBudget(100_000)
	const [reason] = await listReasons(db(), 'decision-reject')
	const rejected = await waiting()
	const outcome = await decide(db(), rejected.id, { outcome: 'reject', reason: reason!.label, note: 'الدخل كافٍ حسب الدراسة' }, approver)
	expect(outcome).toMatchObject({ to: 8, message: `نعتذر، لم تتم الموافقة على طلبك. السبب: ${reason!.label}` })

	const returned = await waiting()
	await expect(decide(db(), returned.id, { outcome: 'return', note: '  ' }, approver)).rejects.toThrow('الرجاء كتابة ما يحتاج إلى دراسة أكثر')
	expect(await decide(db(), returned.id, { outcome: 'return', note: 'تحقق من دخل الابن الأكبر' }, approver)).toMatchObject({ to: 1, message: '' })
	await expect(changeStatus(db(), returned.id, { to: 2, note: 'دُرست' }, researcher)).rejects.toThrow(RESTUDY_MISSING)
	await studied(db(), returned, researcher)
	expect((await changeStatus(db(), returned.id, { to: 2, note: 'دُرست من جديد' }, researcher)).row.status).toBe(2)
	// Decided once: a second decision finds nothing waiting.
	await expect(decide(db(), rejected.id, approve(general), approver)).rejects.toThrow('لا ينتظر هذا الطلب قراراً')
})

test('through the admin middleware: the committee decides from the case view, a case officer gets 403, and a four-eyes refusal is a 403 in the audit trail', async () => {
	await leaveInBudget(100_000)
	const cookieOf = async (user: PublicUser) => `${sessionCookieName()}=${(await createSession(db(), user.id)).token}`
	const [asApprover, asResearcher] = await Promise.all([cookieOf(approver), cookieOf(researcher)])
	const onlyOfficer = await createUser(db(), { name: 'موظف الحالات', email: `officer-${Date.now()}@example.org`, mobile: '', roles: ['case_officer'], password: 'Decisions-Test-1234' })
	const asOfficer = await cookieOf(onlyOfficer)
	const row = await waiting()
	const request = (cookie: string, body?: Record<string, string>) => ({
		request: new Request(`http://localhost/admin/cases/${row.reference}`, body ? { method: 'POST', body: new URLSearchParams(body), headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' } } : { headers: { Cookie: cookie } }),
		params: { reference: row.reference },
	})
	const run = (cookie: string, body: Record<string, string>) => runRoute([...adminMiddleware, ...caseMiddleware], caseAction, request(cookie, body)).catch((error: unknown) => error) as Promise<Response & { init?: { status: number }; data?: { errors: Record<string, string[]> } }>
	const form = { intent: 'decide', outcome: 'approve', aidKind: 'cash', amount: '1500', months: '', fund: String(general.id), note: '' }

	const view = await runRoute([...adminMiddleware, ...caseMiddleware], caseLoader, request(asApprover))
	expect(view.decide).toMatchObject({ proposed: { aidKind: 'cash', amount: '1500', months: '' }, zakatCategory: 'الفقراء', recommendedByMe: false })
	expect(view.works).toBe(false)
	expect((await runRoute([...adminMiddleware, ...caseMiddleware], caseLoader, request(asResearcher))).decide).toMatchObject({ recommendedByMe: true })

	const officer = await run(asOfficer, form)
	expect(officer.status ?? officer.init?.status).toBe(403)
	const own = await run(asResearcher, form)
	expect(own.init?.status).toBe(403)
	expect(own.data?.errors['']).toEqual([RECOMMENDER_MAY_NOT_DECIDE])
	const missing = await run(asApprover, { ...form, fund: '' })
	expect(missing.data?.errors).toMatchObject({ fund: ['الرجاء اختيار صندوق الصرف'] })
	expect((await run(asApprover, form)).status).toBe(302)
	expect((await findCaseByReference(db(), row.reference))!.status).toBe(7)

	const trail = await db().select().from(auditLog).where(and(eq(auditLog.caseReference, row.reference)))
	expect(trail.filter((entry) => entry.action !== 'case.view').map((entry) => [entry.action, entry.actorId, (entry.data as { refused?: string }).refused ?? null])).toEqual([
		['access.denied', onlyOfficer.id, null],
		['access.denied', researcher.id, 'four-eyes'],
		['case.decide', approver.id, null],
	])
})
