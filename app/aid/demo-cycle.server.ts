// The aid cycle in the demo content (npm start): the researcher's visits, planned and done; budgets
// for this year; the committee's decisions on some of the studied demo cases; finance paying some of
// them (a batch sent and recorded, one transfer left due for a visitor to pay, aid in kind
// delivered). Through the same functions as staff's, by demo members who cannot sign in (stopped
// accounts with random passwords). A visitor signed in as the first admin sees every step, and the
// budgets they draw on.
import { randomBytes } from 'node:crypto'
import { and, asc, eq, inArray, isNotNull, isNull } from 'drizzle-orm'
import type { Database } from '#app/db/client.server.ts'
import { caseEvents, cases, caseStudies, caseVisits } from '#app/db/schema.ts'
import { findDefinition } from '#app/forms/registry.ts'
import { visitMessage } from '#app/cases/visits.server.ts'
import { createUser } from '#app/domain/staff-users.server.ts'
import { todayInRiyadh } from '#app/text/format.ts'
import { Status } from '#app/cases/case-statuses.ts'
import { listReasons } from '#app/cases/reasons.server.ts'
import { decide } from './decisions.server.ts'
import { listFunds, setBudget } from './funds.server.ts'
import { batchOf, createBatch, dueInstalments, markBatchSent, recordDelivery, recordPayment } from './payments.server.ts'
import type { Notice } from '#app/notify/case-notices.server.ts'

/** This year's demo budgets, riyals, by programme (from any fund). */
const demoBudgets: Record<string, number> = {
	'needy-families': 450_000,
	'home-restoration': 600_000,
	'medical-case': 300_000,
	'association-support': 250_000,
	'health-association-support': 200_000,
}

/** What the demo's finance member did that families are told of, for the caller to tell once committed (app/casework/tell.server.ts). */
export interface DemoTold {
	notices: Notice[]
	by: { id: number }
}

export async function insertDemoCycle(db: Database): Promise<DemoTold> {
	const year = Number(todayInRiyadh().slice(0, 4))
	const demoMember = (name: string, role: 'approver' | 'finance' | 'case_officer') =>
		createUser(db, { name, email: `demo-${role}@ataa.invalid`, mobile: '', roles: [role], active: false, password: randomBytes(24).toString('base64url') })
	const [approver, finance, researcher] = await Promise.all([
		demoMember('عبدالله الشهري (عضو لجنة تجريبي)', 'approver'),
		demoMember('ريم الحربي (مسؤولة مالية تجريبية)', 'finance'),
		demoMember('نورة القحطاني (باحثة تجريبية)', 'case_officer'),
	])
	await insertDemoVisits(db, researcher)
	for (const [programme, allocated] of Object.entries(demoBudgets)) await setBudget(db, { programme, year, fundId: null, allocated }, approver)
	const [zakat, general] = [(await listFunds(db)).find((fund) => fund.zakat), (await listFunds(db)).find((fund) => !fund.zakat)]
	if (!zakat || !general) return { notices: [], by: finance }
	// A zakat fund's own ceiling for the families' programme: the budgets screen shows both kinds.
	await setBudget(db, { programme: 'needy-families', year, fundId: zakat.id, allocated: 200_000 }, approver)

	const waiting = await db.select({ id: cases.id }).from(cases).where(eq(cases.status, Status.Studied)).orderBy(asc(cases.reference))
	const studies = waiting.length ? await db.select().from(caseStudies).where(inArray(caseStudies.caseId, waiting.map((row) => row.id))) : []
	const [reason] = await listReasons(db, 'decision-reject')
	// Most approved as the researcher proposed, one rejected and one returned; the rest wait for the committee.
	for (const [index, row] of waiting.slice(0, Math.max(0, waiting.length - 2)).entries()) {
		const study = studies.find((item) => item.caseId === row.id)
		if (index === 1 && reason) await decide(db, row.id, { outcome: 'reject', reason: reason.label, note: 'رأت اللجنة أن الحالة لا تنطبق عليها شروط البرنامج.' }, approver)
		else if (index === 3) await decide(db, row.id, { outcome: 'return', note: 'نرجو التحقق من دخل الأبناء العاملين قبل القرار.' }, approver)
		else if (study?.aidKind && study.aidAmount)
			await decide(db, row.id, { outcome: 'approve', aidKind: study.aidKind, amount: study.aidAmount, months: study.aidMonths, fundId: study.zakatEligible ? zakat.id : general.id, note: 'محضر لجنة الصرف (تجريبي).' }, approver)
	}

	// Finance: aid in kind delivered; the transfers due in a batch sent to the bank and recorded, but the last, left for a visitor to pay.
	const today = todayInRiyadh()
	const told: Notice[] = []
	for (const item of await dueInstalments(db, 'in-kind')) told.push(await recordDelivery(db, item.id, { deliveredOn: today, deliveredBy: 'فريق التوزيع الميداني', receipt: `R-${item.id}` }, finance))
	const transfers = (await dueInstalments(db, 'transfer')).filter((item) => item.iban)
	if (!transfers.length) return { notices: told, by: finance }
	const paid = transfers.length > 1 ? transfers.slice(0, -1) : transfers
	// One batch per debit account, zakat apart (docs/product.md#payment): each sent, its lines recorded.
	const { batchIds } = await createBatch(db, paid.map((item) => item.id), 'دفعة صرف تجريبية', finance)
	for (const batchId of batchIds) {
		await markBatchSent(db, batchId, today, finance)
		const lines = (await batchOf(db, batchId))?.lines ?? []
		for (const line of lines) told.push(await recordPayment(db, batchId, { instalmentId: line.id, bankReference: `DEMO${String(line.id).padStart(6, '0')}`, paidOn: today }, finance))
	}
	return { notices: told, by: finance }
}

/**
 * The researcher's visits: the studied families' visits done on their study's day, and a visit
 * planned in the coming days for a few new families (their private link shows it; «زياراتي» with
 * «كل الباحثين» lists it). Written as the case view's form writes them, with their history.
 */
async function insertDemoVisits(db: Database, researcher: { id: number; name: string }): Promise<void> {
	const done = await db.select({ caseId: caseStudies.caseId, on: caseStudies.studiedOn }).from(caseStudies).where(eq(caseStudies.kind, 'visit'))
	if (done.length) await db.insert(caseVisits).values(done.map((study) => ({ caseId: study.caseId, visitOn: study.on, visitAt: '10:00', visitorId: researcher.id, status: 'done' as const, createdBy: researcher.id })))
	const waiting = await db
		.select({ id: cases.id, type: cases.type })
		.from(cases)
		.where(and(eq(cases.status, Status.New), isNull(cases.deletedAt), isNotNull(cases.submittedAt)))
		.orderBy(asc(cases.reference))
	// One visit planned at a time: not a family whose researcher already planned one.
	const planned = new Set((await db.select({ caseId: caseVisits.caseId }).from(caseVisits).where(eq(caseVisits.status, 'planned'))).map((row) => row.caseId))
	const families = waiting.filter((row) => findDefinition(row.type)?.kind === 'individual' && !planned.has(row.id)).slice(0, 4)
	const today = Date.parse(`${todayInRiyadh()}T00:00:00Z`)
	for (const [index, family] of families.entries()) {
		const visit = { visitOn: new Date(today + (index + 1) * 86_400_000).toISOString().slice(0, 10), visitAt: ['09:30', '11:00', '16:30', '18:00'][index]! }
		await db.insert(caseVisits).values({ caseId: family.id, ...visit, visitorId: researcher.id, createdBy: researcher.id })
		await db.insert(caseEvents).values([
			{ caseId: family.id, actorId: researcher.id, kind: 'visit_scheduled', data: { ...visit, visitorName: researcher.name } },
			{ caseId: family.id, actorId: researcher.id, kind: 'applicant_message', note: visitMessage({ ...visit, visitorName: researcher.name }) },
		])
	}
}
